import { generateProducts, PRODUCTS_ALIAS, PRODUCTS_INDEX, PRODUCTS_MAPPING } from '../../../examples/data/generate-products';
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
  return oncePerRun(`products-${node.url.replace(/\W/g, '-')}`, z.number(), () => loadProducts(node, REAL_NODE_PRODUCTS));
}

/** Creates `products` (alias `catalog`) as the sandbox has it and loads the first `count` sample documents. */
export async function loadProducts(node: Pick<RealNodeAddress, 'url' | 'password' | 'caFile'>, count: number): Promise<number> {
  const headers = { ...authHeaders(node), 'content-type': 'application/json' };
  const created = await fetchFromNode(node, `/${PRODUCTS_INDEX}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ mappings: PRODUCTS_MAPPING, aliases: { [PRODUCTS_ALIAS]: {} } }),
  });
  if (!created.ok) throw new Error(`creating ${PRODUCTS_INDEX} on ${node.url} answered ${created.status}: ${await created.text()}`);
  let loaded = 0;
  let lines: string[] = [];
  const flush = async (): Promise<void> => {
    const bulk = await fetchFromNode(node, `/${PRODUCTS_INDEX}/_bulk`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    });
    const answer = z.object({ errors: z.boolean(), items: z.array(z.unknown()) }).parse(await bulk.json());
    if (!bulk.ok || answer.errors) throw new Error(`loading ${PRODUCTS_INDEX} on ${node.url} failed (${bulk.status})`);
    loaded += answer.items.length;
    lines = [];
  };
  for (const doc of generateProducts(count)) {
    lines.push(JSON.stringify({ index: { _id: doc.id } }), JSON.stringify(doc.source));
    if (lines.length >= 2 * BULK_DOCUMENTS) await flush();
  }
  if (lines.length > 0) await flush();
  const refreshed = await fetchFromNode(node, `/${PRODUCTS_INDEX}/_refresh`, { method: 'POST', headers });
  if (!refreshed.ok) throw new Error(`refreshing ${PRODUCTS_INDEX} on ${node.url} answered ${refreshed.status}`);
  return loaded;
}
