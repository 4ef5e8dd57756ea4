import type { Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson } from '../json';
import { systemMetrics } from '../metrics';
import type { Router } from '../router';
import { parseJsonBody } from './body';

/** `POST /config` keys the engine accepts at run time and the type each must have; others are ignored. */
const CONFIG_KEYS: Record<string, 'integer' | 'positive' | 'boolean'> = {
  'log-slow-requests-time-ms': 'integer',
  'log-slow-searches-time-ms': 'integer',
  'enable-search-logging': 'boolean',
  'healthy-read-lag': 'positive',
  'healthy-write-lag': 'positive',
  'cache-num-entries': 'positive',
  'embedding-cache-num-entries': 'positive',
  'skip-writes': 'boolean'
};

function checkConfig(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new ApiError(400, 'Bad JSON.');
  }
  for (const [key, kind] of Object.entries(CONFIG_KEYS)) {
    const v = body[key];
    if (v === undefined) {
      continue;
    }
    if (kind === 'boolean') {
      if (typeof v !== 'boolean') {
        throw new ApiError(400, `Configuration \`${key}\` must be a boolean.`);
      }
      continue;
    }
    const integer = typeof v === 'number' && Number.isInteger(v);
    if (kind === 'positive' && (!integer || v <= 0)) {
      // healthy-read-lag names only the positive rule; the others first say "an integer".
      const text =
        integer || key === 'healthy-read-lag'
          ? 'a positive integer'
          : 'an integer';
      throw new ApiError(400, `Configuration \`${key}\` must be ${text}.`);
    }
    if (!integer) {
      throw new ApiError(400, `Configuration \`${key}\` must be an integer.`);
    }
  }
  return body;
}

export function registerOperations(router: Router, engine: Engine): void {
  if (engine.feat.schemaChanges) {
    // Alters finish within their request here, so none is ever in progress. With no collection
    // the engine writes its error's empty value with a 200: `null`.
    router.add('GET', '/operations/schema_changes', () =>
      json(200, engine.collections.size === 0 ? 'null' : '[]')
    );
  }
  router
    .add(
      'GET',
      '/health',
      () =>
        engine.ready ? json(200, '{"ok":true}') : json(503, '{"ok":false}'),
      {
        public: true
      }
    )
    .add('GET', '/debug', () =>
      json(200, sortedJson({ state: 1, version: engine.version.text }))
    )
    .add('GET', '/metrics.json', () => json(200, sortedJson(systemMetrics())))
    .add('GET', '/stats.json', () =>
      json(200, sortedJson(engine.stats.snapshot(engine.feat)))
    )
    .add('POST', '/operations/db/compact', () => json(200, '{"success":true}'))
    .add('POST', '/operations/cache/clear', () => {
      engine.cache.clear();
      return json(200, '{"success":true}');
    })
    .add('POST', '/operations/snapshot', () => json(201, '{"success":true}'))
    // A single node is its own leader, so the election it is asked to start succeeds at once.
    .add('POST', '/operations/vote', () => json(200, '{"success":true}'))
    .add('POST', '/config', ctx => {
      const config = checkConfig(parseJsonBody(ctx.body));
      const entries = config['cache-num-entries'];
      if (typeof entries === 'number') {
        engine.cache.resize(entries);
      }
      return json(201, '{"success":true}');
    });
}
