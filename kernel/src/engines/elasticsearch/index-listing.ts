/**
 * The side panel's list of an Elasticsearch cluster's indices: concrete indices
 * only, names starting with `.` hidden (system and data-stream backing indices); aliases and
 * data streams are opened by name, and listed apart (`unlisted`) with the hidden indices, for
 * completion.
 *
 * `_cat/indices` counts Lucene documents, nested objects included (an index of 25,000 products
 * with nested variants says 62,527), so the counts shown are the documents a search finds: one
 * `_msearch` of `size: 0` counts per open index. Where it cannot count, `_cat`'s figure stays.
 */
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import type { TargetListing } from '../../driver-core/capabilities/catalog';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { elasticsearchFailure } from './failure';

const CatRows = z.array(
  z
    .object({
      index: z.string(),
      health: z.string().nullish(),
      status: z.string().nullish(),
      'docs.count': z.string().nullish(),
      'store.size': z.string().nullish()
    })
    .loose()
);
const CatAliases = z.array(z.object({ alias: z.string() }).loose());
const CountAnswers = z.object({
  responses: z.array(
    z
      .object({
        hits: z
          .object({
            total: z.union([z.number(), z.object({ value: z.number() })])
          })
          .optional()
      })
      .loose()
  )
});

/** `counts` false: `_cat`'s figures will do (completion wants only the names), and no search counts. */
export async function listIndices(
  transport: Transport,
  signal: AbortSignal,
  { counts }: { counts: boolean }
): Promise<TargetListing> {
  const [body, aliases] = await Promise.all([
    sendGridRequest(
      transport,
      {
        method: 'GET',
        path: '/_cat/indices',
        query: 'format=json&h=index,health,status,docs.count,store.size'
      },
      elasticsearchFailure,
      [],
      signal
    ),
    aliasNames(transport, signal)
  ]);
  const rows = CatRows.safeParse(body);
  if (!rows.success) {
    throw new Error('GET /_cat/indices did not answer a list of indices.');
  }
  const visible = rows.data.filter(row => !row.index.startsWith('.'));
  const hidden = rows.data
    .filter(row => row.index.startsWith('.'))
    .map(row => row.index);
  const counted = counts
    ? await documentCounts(
        transport,
        visible.filter(row => row.status !== 'close').map(row => row.index),
        signal
      )
    : new Map<string, number>();
  const targets = visible
    .map(row => {
      const count = Number(row['docs.count']);
      return {
        name: row.index,
        count:
          counted.get(row.index) ??
          (row['docs.count'] !== null &&
          row['docs.count'] !== undefined &&
          Number.isInteger(count)
            ? count
            : null),
        ...(row.health ? { health: row.health } : {}),
        ...(row['store.size'] ? { size: row['store.size'] } : {})
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { targets, unlisted: [...new Set([...hidden, ...aliases])].sort() };
}

/** Alias names (a request addresses an alias by name); none when the key may not read them. */
async function aliasNames(
  transport: Transport,
  signal: AbortSignal
): Promise<string[]> {
  const response = await transport.send(
    { method: 'GET', path: '/_cat/aliases', query: 'format=json&h=alias' },
    signal
  );
  const rows = CatAliases.safeParse(
    response.status < 300 && response.body.kind === 'json'
      ? response.body.value
      : undefined
  );
  return rows.success ? rows.data.map(r => r.alias) : [];
}

/** Top-level documents per index, as a search counts them; an index the engine would not count is left out. */
async function documentCounts(
  transport: Transport,
  indices: string[],
  signal: AbortSignal
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (indices.length === 0) {
    return counts;
  }
  const values = indices.flatMap((index): JsonValue[] => [
    { index },
    { size: 0, track_total_hits: true }
  ]);
  try {
    const response = await transport.send(
      {
        method: 'POST',
        path: '/_msearch',
        query: '',
        body: { kind: 'ndjson', values }
      },
      signal
    );
    const answers = CountAnswers.safeParse(
      response.body.kind === 'json' ? response.body.value : undefined
    );
    if (response.status !== 200 || !answers.success) {
      return counts;
    }
    answers.data.responses.forEach((answer, i) => {
      const total = answer.hits?.total;
      const index = indices[i];
      if (total !== undefined && index !== undefined) {
        counts.set(index, typeof total === 'number' ? total : total.value);
      }
    });
  } catch (err) {
    if (signal.aborted) {
      throw err;
    }
  }
  return counts;
}
