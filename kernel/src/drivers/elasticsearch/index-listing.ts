/**
 * The side panel's list of an Elasticsearch cluster's indices (drivers.md 2.3): concrete indices
 * only, names starting with `.` hidden (system and data-stream backing indices); aliases and
 * data streams are opened by name.
 */
import { z } from 'zod';
import type { TargetListing } from '../driver';
import { sendGridRequest } from '../grid-request';
import type { Transport } from '../transport';
import { elasticsearchFailure } from './failure';

const CatRows = z.array(
  z.object({ index: z.string(), health: z.string().nullish(), 'docs.count': z.string().nullish(), 'store.size': z.string().nullish() }).loose(),
);

export async function listIndices(transport: Transport, signal: AbortSignal): Promise<TargetListing> {
  const body = await sendGridRequest(
    transport,
    { method: 'GET', path: '/_cat/indices', query: 'format=json&h=index,health,status,docs.count,store.size' },
    elasticsearchFailure,
    [],
    signal,
  );
  const rows = CatRows.safeParse(body);
  if (!rows.success) throw new Error('GET /_cat/indices did not answer a list of indices.');
  const targets = rows.data
    .filter((row) => !row.index.startsWith('.'))
    .map((row) => {
      const count = Number(row['docs.count']);
      return {
        name: row.index,
        count: row['docs.count'] != null && Number.isInteger(count) ? count : null,
        ...(row.health ? { health: row.health } : {}),
        ...(row['store.size'] ? { size: row['store.size'] } : {}),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { targets };
}
