/**
 * Features of the engine the sandbox does not imitate. Each of their routes answers 501 with a
 * text naming the feature, so a user sees at once that the sandbox, not the request, is the limit.
 */
import { ApiError } from '../errors';
import type { Router } from '../router';

export const UNAVAILABLE = {
  analytics: 'Analytics (rules and events)',
  stemming: 'Stemming dictionaries',
  conversations: 'Conversations (conversational search models)',
  nlSearch: 'Natural language search (nl_search_models)'
} as const;

export function unavailable(feature: string): ApiError {
  return new ApiError(
    501,
    `${feature} are not available in the Typesense sandbox; use a real Typesense server for this feature.`
  );
}

const ROUTES: [string, string, string][] = [
  ['GET', '/analytics/rules', UNAVAILABLE.analytics],
  ['POST', '/analytics/rules', UNAVAILABLE.analytics],
  ['GET', '/analytics/rules/:name', UNAVAILABLE.analytics],
  ['PUT', '/analytics/rules/:name', UNAVAILABLE.analytics],
  ['DELETE', '/analytics/rules/:name', UNAVAILABLE.analytics],
  ['POST', '/analytics/events', UNAVAILABLE.analytics],
  ['GET', '/analytics/events', UNAVAILABLE.analytics],
  ['POST', '/analytics/aggregate_events', UNAVAILABLE.analytics],
  ['POST', '/analytics/flush', UNAVAILABLE.analytics],
  ['GET', '/analytics/status', UNAVAILABLE.analytics],
  ['POST', '/stemming/dictionaries/import', UNAVAILABLE.stemming],
  ['GET', '/stemming/dictionaries', UNAVAILABLE.stemming],
  ['GET', '/stemming/dictionaries/:id', UNAVAILABLE.stemming],
  ['DELETE', '/stemming/dictionaries/:id', UNAVAILABLE.stemming],
  ['POST', '/conversations/models', UNAVAILABLE.conversations],
  ['GET', '/conversations/models', UNAVAILABLE.conversations],
  ['GET', '/conversations/models/:id', UNAVAILABLE.conversations],
  ['PUT', '/conversations/models/:id', UNAVAILABLE.conversations],
  ['DELETE', '/conversations/models/:id', UNAVAILABLE.conversations],
  ['POST', '/nl_search_models', UNAVAILABLE.nlSearch],
  ['GET', '/nl_search_models', UNAVAILABLE.nlSearch],
  ['GET', '/nl_search_models/:id', UNAVAILABLE.nlSearch],
  ['PUT', '/nl_search_models/:id', UNAVAILABLE.nlSearch],
  ['DELETE', '/nl_search_models/:id', UNAVAILABLE.nlSearch]
];

export function registerUnavailable(router: Router): void {
  for (const [method, path, feature] of ROUTES) {
    router.add(method, path, () => {
      throw unavailable(feature);
    });
  }
}
