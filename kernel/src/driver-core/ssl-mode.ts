import { z } from 'zod';

/** The `ssl=` modes: `disabled` is plain HTTP, every other mode HTTPS. Each engine decides what the HTTPS modes verify (its connection settings). */
export const SslModeSchema = z.enum([
  'disabled',
  'preferred',
  'required',
  'verify-ca',
  'verify-identity'
]);
export type SslMode = z.infer<typeof SslModeSchema>;

export type Scheme = 'http' | 'https';

/**
 * The scheme of the address and `ssl=` must agree, so a cell never says one thing and does
 * another. Either may be left out: an http:// address (or a bare host) means `disabled`, the
 * default; an https:// address means `required`, which is what an Elasticsearch 8.x
 * node with its generated self-signed CA needs. Returns undefined when they contradict.
 */
export function reconcileSslMode(
  scheme: Scheme | undefined,
  ssl: SslMode | undefined
): SslMode | undefined {
  if (ssl === undefined) {
    return scheme === 'https' ? 'required' : 'disabled';
  }
  if (scheme === undefined) {
    return ssl;
  }
  const wantsTls = ssl !== 'disabled';
  return wantsTls === (scheme === 'https') ? ssl : undefined;
}

export function schemeOf(mode: SslMode): Scheme {
  return mode === 'disabled' ? 'http' : 'https';
}
