import {
  generateProducts,
  PRODUCTS_ALIAS,
  PRODUCTS_INDEX,
  PRODUCTS_MAPPING
} from '@searchbook/sandbox/data/generate-products';
import { z } from 'zod';
import { authHeaders, fetchFromNode, type RealNodeAddress } from './launch';
import { oncePerRun } from './run-nodes';

/** How many sample products a real node holds: the count the parameterised suites give the sandbox. */
export const REAL_NODE_PRODUCTS = 20;

const BULK_DOCUMENTS = 5_000;

/**
 * The sandbox's sample index (same mapping, alias and documents) on a real node, loaded once
 * per run whichever test file asks first. Suites treat it as read-only: writes go elsewhere.
 */
export function ensureProducts(node: RealNodeAddress): Promise<number> {
  return oncePerRun(
    `products-${node.url.replace(/\W/g, '-')}`,
    z.number(),
    () => loadProducts(node, REAL_NODE_PRODUCTS)
  );
}

/**
 * Creates `products` (alias `catalog`) as the sandbox has it and loads the first `count` sample
 * documents; or the same into another index (`into`), with extra index settings and no alias.
 */
export async function loadProducts(
  node: Pick<RealNodeAddress, 'url' | 'password' | 'user' | 'caFile'>,
  count: number,
  into: {
    index: string;
    alias?: string;
    settings?: Record<string, unknown>;
  } = { index: PRODUCTS_INDEX, alias: PRODUCTS_ALIAS }
): Promise<number> {
  const index = into.index;
  const headers = { ...authHeaders(node), 'content-type': 'application/json' };
  const created = await fetchFromNode(node, `/${index}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      mappings: PRODUCTS_MAPPING,
      ...(into.alias ? { aliases: { [into.alias]: {} } } : {}),
      ...(into.settings ? { settings: into.settings } : {})
    })
  });
  if (!created.ok) {
    throw new Error(
      `creating ${index} on ${node.url} answered ${created.status}: ${await created.text()}`
    );
  }
  let loaded = 0;
  let lines: string[] = [];
  const flush = async (): Promise<void> => {
    const bulk = await fetchFromNode(node, `/${index}/_bulk`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`
    });
    const answer = z
      .object({ errors: z.boolean(), items: z.array(z.unknown()) })
      .parse(await bulk.json());
    if (!bulk.ok || answer.errors) {
      throw new Error(
        `loading ${index} on ${node.url} failed (${bulk.status})`
      );
    }
    loaded += answer.items.length;
    lines = [];
  };
  for (const doc of generateProducts(count)) {
    lines.push(
      JSON.stringify({ index: { _id: doc.id } }),
      JSON.stringify(doc.source)
    );
    if (lines.length >= 2 * BULK_DOCUMENTS) {
      await flush();
    }
  }
  if (lines.length > 0) {
    await flush();
  }
  const refreshed = await fetchFromNode(node, `/${index}/_refresh`, {
    method: 'POST',
    headers
  });
  if (!refreshed.ok) {
    throw new Error(
      `refreshing ${index} on ${node.url} answered ${refreshed.status}`
    );
  }
  return loaded;
}
