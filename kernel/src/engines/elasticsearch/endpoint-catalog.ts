/**
 * Extracts a compact endpoint catalog from Elastic's API specification (schema.json shipped in
 * @elastic/request-converter). Used by the build step and, when the build output is missing,
 * by the lazy loader. Only the fields the console needs are validated; the 11 MB of types are ignored.
 * Each entry keeps what decides whether the node connected serves it
 * (https://github.com/elastic/elasticsearch-specification/blob/main/docs/add-new-api.md):
 * the version it came in (`availability.stack.since`), its stability, and its deprecation.
 */
import { z } from 'zod';
import { HTTP_METHODS, type HttpMethod } from '../../console/cell';

const Availability = z
  .record(
    z.string(),
    z
      .object({
        visibility: z.string().optional(),
        since: z.string().optional(),
        stability: z.string().optional()
      })
      .loose()
      .optional()
  )
  .optional()
  .nullable();

const SpecDeprecation = z
  .object({ version: z.string(), description: z.string() })
  .loose()
  .optional()
  .nullable();

const SpecEndpoint = z
  .object({
    name: z.string(),
    description: z.string().optional().nullable(),
    docUrl: z.string().optional().nullable(),
    availability: Availability,
    deprecation: SpecDeprecation,
    urls: z.array(
      z
        .object({
          methods: z.array(z.string()),
          path: z.string(),
          deprecation: SpecDeprecation
        })
        .loose()
    )
  })
  .loose();

export const SpecSchema = z
  .object({ endpoints: z.array(SpecEndpoint) })
  .loose();

const Deprecation = z.object({
  /** The version that deprecated it, such as `8.4.0`. */
  version: z.string(),
  /** What to use instead, when the specification says. */
  reason: z.string().optional()
});

export const CatalogEntry = z.object({
  methods: z.array(z.enum(HTTP_METHODS)),
  path: z.string().startsWith('/'),
  description: z.string(),
  docUrl: z.string().optional(),
  /** The first version that serves it; left out for endpoints older than the specification's records. */
  since: z.string().optional(),
  /** Left out when stable. */
  stability: z.enum(['beta', 'experimental']).optional(),
  deprecated: Deprecation.optional()
});
export type CatalogEntry = z.infer<typeof CatalogEntry>;

export const EndpointCatalog = z.array(CatalogEntry);

const METHODS = new Set<string>(HTTP_METHODS);

function isHidden(endpoint: z.infer<typeof SpecEndpoint>): boolean {
  if (endpoint.name.startsWith('_internal')) {
    return true;
  }
  // Serverless-only APIs: no node searchbook connects to serves them.
  if (endpoint.availability && !endpoint.availability.stack) {
    return true;
  }
  // A deprecated API was public once, whatever the specification now says (the kNN search
  // endpoint of 8.x): completion marks it deprecated on the versions that serve it.
  if (endpoint.deprecation) {
    return false;
  }
  const availability = endpoint.availability ?? {};
  const flavours = Object.values(availability).filter(a => a !== undefined);
  // Hidden only when every flavour that states a visibility says private (or feature-flagged).
  return (
    flavours.length > 0 &&
    flavours.every(
      a => a?.visibility === 'private' || a?.visibility === 'feature_flag'
    )
  );
}

/** The first sentence of the description's first line, so completion lists stay one line. */
export function firstSentence(description: string): string {
  const firstLine = description.trim().split('\n')[0]?.trim() ?? '';
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}

function deprecationOf(
  deprecation: z.infer<typeof SpecDeprecation>
): CatalogEntry['deprecated'] {
  if (!deprecation) {
    return undefined;
  }
  const reason = firstSentence(deprecation.description);
  return { version: deprecation.version, ...(reason ? { reason } : {}) };
}

export function extractCatalog(spec: unknown): CatalogEntry[] {
  const parsed = SpecSchema.parse(spec);
  const catalog: CatalogEntry[] = [];
  for (const endpoint of parsed.endpoints) {
    if (isHidden(endpoint)) {
      continue;
    }
    const description =
      firstSentence(endpoint.description ?? '') || endpoint.name;
    const stack = endpoint.availability?.stack;
    const stability = stack?.stability;
    for (const url of endpoint.urls) {
      const methods = url.methods.filter((m): m is HttpMethod =>
        METHODS.has(m)
      );
      if (methods.length === 0 || !url.path.startsWith('/')) {
        continue;
      }
      const entry: CatalogEntry = { methods, path: url.path, description };
      if (endpoint.docUrl) {
        entry.docUrl = endpoint.docUrl;
      }
      if (stack?.since) {
        entry.since = stack.since;
      }
      if (stability === 'beta' || stability === 'experimental') {
        entry.stability = stability;
      }
      const deprecated = deprecationOf(url.deprecation ?? endpoint.deprecation);
      if (deprecated) {
        entry.deprecated = deprecated;
      }
      catalog.push(entry);
    }
  }
  return catalog;
}
