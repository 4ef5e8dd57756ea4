/** Sends corpus entries to one engine and reads its answers; sets up the corpus indices the same way on both. */
import { request } from 'undici';
import { readPath, substitute, type CorpusEntry } from './corpus';
import type { IndexSpec } from './data';
import { normalise, normaliseTable, type Json } from './normalise';

export interface Answer {
  status: number;
  body: Json;
}

async function send(
  base: string,
  method: string,
  path: string,
  body?: string,
  ndjson = false
): Promise<{ status: number; text: string; type: string }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) {
    headers['content-type'] = ndjson
      ? 'application/x-ndjson'
      : 'application/json';
  }
  // Index names may be non-ASCII (the corpus has one): send the path percent-encoded.
  const target = /[^\x20-\x7e]/.test(path) ? encodeURI(path) : path;
  const res = await request(base + target, {
    method: method as 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    headersTimeout: 60_000,
    bodyTimeout: 60_000
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    text,
    type: String(res.headers['content-type'] ?? '')
  };
}

/**
 * Integer literals too long for a double to hold exactly (16 digits and more) become strings
 * such as "<long>9007199254740993", so that an engine printing a rounded 64-bit value differs.
 */
function keepLongs(text: string): string {
  return text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"<long>$2"');
}

/**
 * Sends one entry (with the values captured from this engine's earlier answers put in) and
 * returns its normalised answer; keeps the values the entry captures in `vars`.
 */
export async function replay(
  base: string,
  entry: CorpusEntry,
  vars: Record<string, unknown>
): Promise<Answer> {
  const body =
    entry.body !== undefined ? substitute(entry.body, vars) : undefined;
  const res = await send(
    base,
    entry.method,
    substitute(entry.path, vars),
    body,
    entry.ndjson
  );
  if (res.text === '') {
    return { status: res.status, body: null };
  }
  if (res.type.startsWith('text/plain')) {
    return {
      status: res.status,
      body: normalise(normaliseTable(res.text), entry.mask)
    };
  }
  let parsed: Json;
  try {
    parsed = JSON.parse(keepLongs(res.text)) as Json;
  } catch {
    return { status: res.status, body: res.text };
  }
  for (const [name, at] of Object.entries(entry.captures)) {
    vars[name] = readPath(parsed, at);
  }
  return { status: res.status, body: normalise(parsed, entry.mask) };
}

/** Drops and recreates the corpus indices (one shard, no replicas), loads them by `_bulk` and refreshes. */
export async function setUpIndices(
  base: string,
  specs: IndexSpec[]
): Promise<void> {
  for (const spec of specs) {
    await send(base, 'DELETE', `/${spec.name}`);
    const created = await send(
      base,
      'PUT',
      `/${spec.name}`,
      JSON.stringify(spec.body)
    );
    if (created.status !== 200) {
      throw new Error(
        `creating ${spec.name} at ${base}: ${created.status} ${created.text}`
      );
    }
    const lines = spec.docs.flatMap(d => [
      JSON.stringify({ index: { _id: d.id } }),
      JSON.stringify(d.source)
    ]);
    const loaded = await send(
      base,
      'POST',
      `/${spec.name}/_bulk?refresh=true`,
      lines.join('\n') + '\n',
      true
    );
    if (
      loaded.status !== 200 ||
      (JSON.parse(loaded.text) as { errors: boolean }).errors
    ) {
      throw new Error(
        `loading ${spec.name} at ${base}: ${loaded.text.slice(0, 500)}`
      );
    }
  }
}

/** Indices a previous run's writes may have left behind. */
export async function dropIndices(
  base: string,
  names: string[]
): Promise<void> {
  for (const name of names) {
    await send(base, 'DELETE', `/${name}`);
  }
}

/**
 * The corpus's indices live on the real node the other suites share, whose index template on
 * `*` gives every new index one shard, no replicas and a 100 ms refresh interval; index
 * settings answers would show that interval, which the sandbox does not have. Composable
 * templates do not merge (the matching one of highest priority applies alone), so one on
 * `diff_*` restates one shard and no replicas without the interval, and one on
 * `diff_made_by_write`, which the corpus creates by writing a document to see Elasticsearch's
 * own defaults, gives it back the default replica (so yellow health).
 */
const CORPUS_TEMPLATES = [
  {
    name: 'differential-defaults',
    index_patterns: ['diff_*'],
    priority: 5,
    template: { settings: { number_of_shards: 1, number_of_replicas: 0 } }
  },
  {
    name: 'differential-diff_made_by_write',
    index_patterns: ['diff_made_by_write'],
    priority: 10,
    template: { settings: { number_of_replicas: 1 } }
  }
];

/** Puts the corpus's index templates on a real node (see CORPUS_TEMPLATES). */
export async function holdCorpusDefaults(base: string): Promise<void> {
  for (const { name, ...template } of CORPUS_TEMPLATES) {
    const res = await send(
      base,
      'PUT',
      `/_index_template/${name}`,
      JSON.stringify(template)
    );
    if (res.status !== 200) {
      throw new Error(`template ${name} refused: ${res.status} ${res.text}`);
    }
  }
}

/** Removes the corpus's index templates from a real node. */
export async function dropCorpusDefaults(base: string): Promise<void> {
  for (const { name } of CORPUS_TEMPLATES) {
    await send(base, 'DELETE', `/_index_template/${name}`);
  }
}
