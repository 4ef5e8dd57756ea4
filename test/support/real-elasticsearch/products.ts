import { generateProducts, PRODUCTS_ALIAS, PRODUCTS_INDEX, PRODUCTS_MAPPING } from '../../../examples/data/generate-products';
import { z } from 'zod';
import { authHeaders, type RealNodeAddress } from './launch';
import { oncePerRun } from './run-nodes';

/** How many sample products a real node holds: the count the parameterised suites give the sandbox. */
export const REAL_NODE_PRODUCTS = 20;

/**
 * The sandbox's sample index (same mapping, alias and documents) on a real node, loaded once
 * per run whichever test file asks first. Suites treat it as read-only: writes go elsewhere.
 */
export function ensureProducts(node: RealNodeAddress): Promise<number> {
  return oncePerRun(`products-${node.url.replace(/\W/g, '-')}`, z.number(), async () => {
    const headers = { ...authHeaders(node), 'content-type': 'application/json' };
    const created = await fetch(`${node.url}/${PRODUCTS_INDEX}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ mappings: PRODUCTS_MAPPING, aliases: { [PRODUCTS_ALIAS]: {} } }),
    });
    if (!created.ok) throw new Error(`${node.flavour}: creating ${PRODUCTS_INDEX} answered ${created.status}: ${await created.text()}`);
    const lines: string[] = [];
    for (const doc of generateProducts(REAL_NODE_PRODUCTS)) lines.push(JSON.stringify({ index: { _id: doc.id } }), JSON.stringify(doc.source));
    const bulk = await fetch(`${node.url}/${PRODUCTS_INDEX}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    });
    const answer = z.object({ errors: z.boolean(), items: z.array(z.unknown()) }).parse(await bulk.json());
    if (!bulk.ok || answer.errors) throw new Error(`${node.flavour}: loading ${PRODUCTS_INDEX} failed (${bulk.status})`);
    return answer.items.length;
  });
}
