/**
 * Extracts a compact endpoint catalog from Elastic's API specification (schema.json shipped in
 * @elastic/request-converter). Used by the build step and, when the build output is missing,
 * by the lazy loader. Only the fields the console needs are validated; the 11 MB of types are ignored.
 */
import { z } from 'zod';
import { HTTP_METHODS, type HttpMethod } from '../../console/cell';
import type { EndpointInfo } from '../../engine/driver';

const Availability = z
  .record(
    z.string(),
    z.object({ visibility: z.string().optional() }).loose().optional()
  )
  .optional()
  .nullable();

const SpecEndpoint = z
  .object({
    name: z.string(),
    description: z.string().optional().nullable(),
    docUrl: z.string().optional().nullable(),
    availability: Availability,
    urls: z.array(
      z.object({ methods: z.array(z.string()), path: z.string() }).loose()
    )
  })
  .loose();

export const SpecSchema = z
  .object({ endpoints: z.array(SpecEndpoint) })
  .loose();

export const EndpointCatalog = z.array(
  z.object({
    methods: z.array(z.enum(HTTP_METHODS)),
    path: z.string().startsWith('/'),
    description: z.string(),
    docUrl: z.string().optional()
  })
);

const METHODS = new Set<string>(HTTP_METHODS);

function isHidden(endpoint: z.infer<typeof SpecEndpoint>): boolean {
  if (endpoint.name.startsWith('_internal')) {
    return true;
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

export function extractCatalog(spec: unknown): EndpointInfo[] {
  const parsed = SpecSchema.parse(spec);
  const catalog: EndpointInfo[] = [];
  for (const endpoint of parsed.endpoints) {
    if (isHidden(endpoint)) {
      continue;
    }
    const description =
      firstSentence(endpoint.description ?? '') || endpoint.name;
    for (const url of endpoint.urls) {
      const methods = url.methods.filter((m): m is HttpMethod =>
        METHODS.has(m)
      );
      if (methods.length === 0 || !url.path.startsWith('/')) {
        continue;
      }
      const info: EndpointInfo = { methods, path: url.path, description };
      if (endpoint.docUrl) {
        info.docUrl = endpoint.docUrl;
      }
      catalog.push(info);
    }
  }
  return catalog;
}
