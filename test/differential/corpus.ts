/**
 * Reads the corpus: `corpus/*.http` files of console requests, one entry per request:
 *
 *     ### a title, unique within its file
 *     # mask: _id            (optional: keys whose values the engine invents, see normalise.ts)
 *     # versions: 8          (optional: only against these major versions)
 *     # capture: pit = id    (optional: keeps a value of the answer; later entries write {{pit}})
 *     # key: search          (optional, Typesense: send the API key the runner calls `search`)
 *     POST /products/_search
 *     {"query": {"match_all": {}}}
 *
 * The body is JSON, or NDJSON (one JSON value a line) for `_bulk` and `_msearch`; a body that
 * is neither is sent as it is written (for the malformed-JSON error cases).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const entrySchema = z.object({
  /** `file: title`, the name the allowlist and the report use. */
  id: z.string().min(1),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
  path: z.string().startsWith('/'),
  body: z.string().optional(),
  ndjson: z.boolean(),
  mask: z.array(z.string()),
  versions: z.array(z.number().int()).optional(),
  /** Which of the runner's API keys the request carries (Typesense); the admin key when absent. */
  key: z.string().optional(),
  /** Name -> path in the answer (`a.b[0]`, `[-1]` for the last element), read before normalisation. */
  captures: z.record(z.string(), z.string())
});
export type CorpusEntry = z.infer<typeof entrySchema>;

const CORPUS_DIR = path.join(__dirname, 'corpus');

function bodyOf(text: string): { body?: string; ndjson: boolean } {
  const trimmed = text.trim();
  if (trimmed === '') {
    return { ndjson: false };
  }
  // Bodies are sent as written (only checked here): re-serialising would round 64-bit integers.
  try {
    JSON.parse(trimmed);
    return { body: trimmed, ndjson: false };
  } catch {
    const lines = trimmed
      .split('\n')
      .map(l => l.trim())
      .filter(l => l !== '');
    try {
      for (const l of lines) {
        JSON.parse(l);
      }
      return { body: lines.join('\n') + '\n', ndjson: true };
    } catch {
      return { body: trimmed, ndjson: false };
    }
  }
}

export function parseCorpusFile(file: string, text: string): CorpusEntry[] {
  const stem = path.basename(file, '.http');
  const chunks = text.split(/^###[ \t]*/m).slice(1);
  const seen = new Set<string>();
  return chunks.map(chunk => {
    const lines = chunk.split('\n');
    const title = (lines.shift() ?? '').trim();
    const id = `${stem}: ${title}`;
    if (seen.has(id)) {
      throw new Error(
        `${file}: two entries titled "${title}"; give each its own title`
      );
    }
    seen.add(id);
    const mask: string[] = [];
    let versions: number[] | undefined;
    let key: string | undefined;
    const captures: Record<string, string> = {};
    while (lines.length > 0 && /^\s*(#|$)/.test(lines[0] as string)) {
      const line = (lines.shift() as string).trim();
      const m = /^#\s*(mask|versions|capture|key):\s*(.+)$/.exec(line);
      const capture =
        m?.[1] === 'capture'
          ? /^(\w+)\s*=\s*(\S+)$/.exec(m[2] as string)
          : null;
      if (capture) {
        captures[capture[1] as string] = capture[2] as string;
      } else if (m?.[1] === 'mask') {
        mask.push(...(m[2] as string).split(',').map(s => s.trim()));
      } else if (m?.[1] === 'key') {
        key = (m[2] as string).trim();
      } else if (m?.[1] === 'versions') {
        versions = (m[2] as string).split(',').map(s => Number(s.trim()));
      }
    }
    const request = /^(\S+)\s+(\S+)\s*$/.exec(lines.shift() ?? '');
    if (!request) {
      throw new Error(
        `${file}: entry "${title}" must start with a line like "GET /products/_search"`
      );
    }
    const { body, ndjson } = bodyOf(lines.join('\n'));
    return entrySchema.parse({
      id,
      method: request[1],
      path: request[2],
      ndjson,
      mask,
      captures,
      ...(body !== undefined ? { body } : {}),
      ...(versions ? { versions } : {}),
      ...(key ? { key } : {})
    });
  });
}

/** Every entry, files in name order (the numbers in their names), entries in file order. */
export function readCorpus(dir = CORPUS_DIR): CorpusEntry[] {
  const files = readdirSync(dir)
    .filter(f => f.endsWith('.http'))
    .sort();
  return files.flatMap(f =>
    parseCorpusFile(f, readFileSync(path.join(dir, f), 'utf8'))
  );
}

/** Reads `a.b[0].c` or `hits.hits[-1].sort` from an answer. */
export function readPath(value: unknown, at: string): unknown {
  let cur = value;
  for (const part of at.match(/[^.[\]]+|\[-?\d+\]/g) ?? []) {
    if (part.startsWith('[')) {
      const i = Number(part.slice(1, -1));
      cur = Array.isArray(cur) ? cur[i < 0 ? cur.length + i : i] : undefined;
    } else {
      cur =
        typeof cur === 'object' && cur !== null
          ? (cur as Record<string, unknown>)[part]
          : undefined;
    }
  }
  return cur;
}

/** Puts captured values in: `{{name}}` becomes the value (strings as they are inside quotes, others as JSON). */
export function substitute(
  text: string,
  values: Record<string, unknown>
): string {
  return text.replace(
    /"\{\{(\w+)\}\}"|\{\{(\w+)\}\}/g,
    (whole, quoted: string | undefined, bare: string | undefined) => {
      const name = (quoted ?? bare) as string;
      if (!(name in values)) {
        return whole;
      }
      const v = values[name];
      if (quoted !== undefined) {
        return JSON.stringify(v);
      }
      return typeof v === 'string' ? encodeURIComponent(v) : JSON.stringify(v);
    }
  );
}
