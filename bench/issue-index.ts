/**
 * A user's index of small flat documents, as cell timings were first measured on: 2,000
 * documents of about 250 bytes, searched with a `match`.
 * Made from the sample products with their flat fields only (no address, no variants), and
 * loaded into a running sandbox over HTTP, as a user's own index would be.
 */
import type { Agent } from 'undici';
import { generateProducts } from '@searchbook/sandbox/data/generate-products';

export const ISSUE_INDEX = 'issue15-products';
const COUNT = 2_000;
const FIELDS = [
  'name',
  'brand',
  'category',
  'description',
  'price',
  'stock',
  'in_stock',
  'tags',
  'created_at'
];

/** Creates the index and loads it; resolves with the mean source size in bytes. */
export async function loadIssueIndex(
  agent: Agent,
  esUrl: string
): Promise<number> {
  const lines: string[] = [];
  let bytes = 0;
  for (const { id, source } of generateProducts(COUNT)) {
    const flat = Object.fromEntries(
      FIELDS.filter(f => f in source).map(f => [f, source[f]])
    );
    const text = JSON.stringify(flat);
    bytes += Buffer.byteLength(text);
    lines.push(
      JSON.stringify({ index: { _index: ISSUE_INDEX, _id: id } }),
      text
    );
  }
  const send = async (
    method: string,
    path: string,
    body?: string,
    type = 'application/json'
  ): Promise<number> => {
    const response = await agent.request({
      origin: esUrl,
      method,
      path,
      headers: { 'content-type': type },
      body
    });
    const text = await response.body.text();
    if (
      response.statusCode >= 300 &&
      !(method === 'DELETE' && response.statusCode === 404)
    ) {
      throw new Error(
        `${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`
      );
    }
    return response.statusCode;
  };
  // An engine that outlives the benchmark (--es-url) still holds the last run's index.
  await send('DELETE', `/${ISSUE_INDEX}`);
  await send(
    'PUT',
    `/${ISSUE_INDEX}`,
    JSON.stringify({
      mappings: {
        properties: { description: { type: 'text' }, name: { type: 'text' } }
      }
    })
  );
  await send(
    'POST',
    '/_bulk?refresh=true',
    `${lines.join('\n')}\n`,
    'application/x-ndjson'
  );
  return bytes / COUNT;
}
