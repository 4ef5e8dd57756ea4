/** Sends Typesense corpus entries to one engine (the key each names) and sets up the corpus collections the same way on both. */
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { readPath, substitute, type CorpusEntry } from '../corpus';
import { normalise, type Json } from '../normalise';
import type { CollectionSpec } from './data';

export interface Answer {
  status: number;
  body: Json;
}

/** The search-only key the corpus creates (04-keys), by the value it gives it. */
const SEARCH_KEY = 'diffSearchOnlyKeyValue0001';

/** A scoped key as the official clients make one: HMAC-SHA256 of the parameters under the parent key. */
export function scopedKey(parent: string, parameters: object): string {
  const json = JSON.stringify(parameters);
  const digest = createHmac('sha256', parent).update(json).digest('base64');
  return Buffer.from(`${digest}${parent.slice(0, 4)}${json}`).toString(
    'base64'
  );
}

/** The keys entries name with `# key:`; `none` sends no key header. */
export function corpusKeys(adminKey: string): Record<string, string | null> {
  const forged = Buffer.from(
    `${'A'.repeat(44)}${SEARCH_KEY.slice(0, 4)}{"filter_by":"price:>10"}`
  ).toString('base64');
  return {
    admin: adminKey,
    search: SEARCH_KEY,
    wrong: 'diff-wrong-key',
    none: null,
    scoped_filter: scopedKey(SEARCH_KEY, { filter_by: 'price:>10' }),
    scoped_limit: scopedKey(SEARCH_KEY, { limit_hits: 4 }),
    scoped_admin: scopedKey(adminKey, { filter_by: 'price:>10' }),
    scoped_forged: forged
  };
}

/**
 * Integer literals of 16 digits and more (text_match scores) stay digit for digit, and a whole
 * number written with a fraction (`29.0`, which the engine keeps as the document wrote it) stays
 * apart from `29`.
 */
function keepLiterals(text: string): string {
  return text
    .replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"<long>$2"')
    .replace(/([:[,]\s*)(-?\d+\.0+)(?=\s*[,\]}])/g, '$1"<whole double>$2"');
}

/** What either engine invents per run: times and the keys' own ids. */
const TYPESENSE_VARIES = ['created_at', 'search_time_ms', 'id', 'value'];

async function send(
  base: string,
  key: string | null,
  method: string,
  path: string,
  body?: string
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (key !== null) {
    headers['x-typesense-api-key'] = key;
  }
  if (body !== undefined) {
    headers['content-type'] = path.includes('/import')
      ? 'text/plain'
      : 'application/json';
  }
  const res = await request(base + path, {
    method: method as 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    headersTimeout: 60_000,
    bodyTimeout: 60_000
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/** Parses one JSON value, or each line of an NDJSON answer (import, export) into a list. */
function parseAnswer(text: string): Json {
  try {
    return JSON.parse(keepLiterals(text)) as Json;
  } catch {
    const lines = text.split('\n').filter(l => l.trim() !== '');
    try {
      return lines.map(l => JSON.parse(keepLiterals(l)) as Json);
    } catch {
      return text;
    }
  }
}

/** Keys ids only where the engine makes them up (API keys); a document's id is the corpus's own. */
function maskKeyIds(path: string, body: Json): Json {
  if (!path.startsWith('/keys') || typeof body !== 'object' || body === null) {
    return body;
  }
  return normalise(body, TYPESENSE_VARIES);
}

export async function replay(
  base: string,
  keys: Record<string, string | null>,
  entry: CorpusEntry,
  vars: Record<string, unknown>
): Promise<Answer> {
  const key = keys[entry.key ?? 'admin'];
  if (key === undefined) {
    throw new Error(`${entry.id}: no key named ${entry.key ?? 'admin'}`);
  }
  const body =
    entry.body !== undefined ? substitute(entry.body, vars) : undefined;
  const res = await send(
    base,
    key,
    entry.method,
    substitute(entry.path, vars),
    body
  );
  if (res.text === '') {
    return { status: res.status, body: null };
  }
  const parsed = parseAnswer(res.text);
  for (const [name, at] of Object.entries(entry.captures)) {
    vars[name] = readPath(parsed, at);
  }
  return {
    status: res.status,
    body: maskKeyIds(
      entry.path,
      normalise(parsed, ['created_at', 'search_time_ms', ...entry.mask])
    )
  };
}

/** Removes what an earlier run left (collections, aliases, keys named diff_*), then creates and loads the corpus collections. */
export async function setUpCollections(
  base: string,
  adminKey: string,
  specs: CollectionSpec[]
): Promise<void> {
  const call = (method: string, path: string, body?: string) =>
    send(base, adminKey, method, path, body);
  for (const alias of ['diff_alias']) {
    await call('DELETE', `/aliases/${alias}`);
  }
  for (const name of [
    'diff_scratch',
    'diff_types',
    'diff_auto',
    'diff_bad',
    'diff_nested'
  ]) {
    await call('DELETE', `/collections/${name}`);
  }
  const listed = JSON.parse((await call('GET', '/keys')).text) as {
    keys?: { id: number; description?: string }[];
  };
  for (const key of listed.keys ?? []) {
    if (key.description?.startsWith('diff')) {
      await call('DELETE', `/keys/${key.id}`);
    }
  }
  for (const spec of specs) {
    const name = String(spec.schema['name']);
    await call('DELETE', `/collections/${name}`);
    const created = await call(
      'POST',
      '/collections',
      JSON.stringify(spec.schema)
    );
    if (created.status !== 201) {
      throw new Error(
        `creating ${name} at ${base}: ${created.status} ${created.text}`
      );
    }
    const loaded = await call(
      'POST',
      `/collections/${name}/documents/import?action=create`,
      spec.docs.map(d => JSON.stringify(d)).join('\n')
    );
    if (
      loaded.status !== 200 ||
      loaded.text.split('\n').some(l => !l.includes('"success":true'))
    ) {
      throw new Error(
        `loading ${name} at ${base}: ${loaded.text.slice(0, 500)}`
      );
    }
  }
}
