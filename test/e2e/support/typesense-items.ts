import {
  createTypesenseSandbox,
  type TypesenseSandbox
} from '@searchbook/sandbox/typesense';

/** A Typesense 29.0 sandbox behind `apiKey` holding `items`: `count` documents `i0`, `i1`… titled `Item n` and ranked n. */
export function typesenseWithItems(
  apiKey: string,
  count: number
): TypesenseSandbox {
  const ts = createTypesenseSandbox({ version: '29.0', apiKey });
  ts.createCollection({
    name: 'items',
    fields: [
      { name: 'title', type: 'string' },
      { name: 'rank', type: 'int32' }
    ]
  });
  ts.loadDocuments(
    'items',
    Array.from({ length: count }, (_, n) => ({
      id: `i${n}`,
      title: `Item ${n}`,
      rank: n
    }))
  );
  return ts;
}
