/**
 * The Typesense differential's data: the Elasticsearch corpus's 200 generated products (same
 * seed, same documents) as a Typesense collection, and a few hand-written gadgets whose names
 * make typos, prefixes and whole-number floats visible. Both engines get them byte for byte.
 */
import { corpusIndices } from '../data';

export interface CollectionSpec {
  schema: Record<string, unknown>;
  docs: Record<string, unknown>[];
}

function products(): CollectionSpec {
  const generated = corpusIndices().find(i => i.name === 'diff_products');
  if (!generated) {
    throw new Error('the differential data has no diff_products');
  }
  const docs = generated.docs.map(({ id, source }) => {
    const { variants: _variants, created, ...rest } = source;
    return {
      id,
      ...rest,
      created: Math.floor(Date.parse(String(created)) / 1000)
    };
  });
  return {
    schema: {
      name: 'diff_products',
      fields: [
        { name: 'sku', type: 'string' },
        { name: 'name', type: 'string', sort: true },
        { name: 'description', type: 'string' },
        { name: 'brand', type: 'string', facet: true, optional: true },
        { name: 'category', type: 'string', facet: true },
        { name: 'price', type: 'float' },
        { name: 'stock', type: 'int32', facet: true },
        { name: 'rating', type: 'float' },
        { name: 'in_stock', type: 'bool', facet: true },
        { name: 'created', type: 'int64' },
        { name: 'tags', type: 'string[]', facet: true, optional: true }
      ],
      default_sorting_field: 'created'
    },
    docs
  };
}

function gadgets(): CollectionSpec {
  const rows: [string, string, number, string, string[]][] = [
    ['wireless headphones', 'Acme', 29, 'audio', ['sale']],
    ['headphones stand', 'Globex', 12.5, 'audio', []],
    ['noise cancelling headset', 'Acme', 199, 'audio', ['new']],
    ['red desk lamp', 'Initech', 7, 'home', ['gift']],
    ['blue desk lamp', 'Globex', 7.25, 'home', ['gift', 'sale']],
    ['kitchen scale', 'Hooli', 15, 'kitchen', []],
    ['portable speaker', 'Acme', 49.99, 'audio', ['sale']],
    ['speaker cable', 'Hooli', 3, 'audio', []]
  ];
  return {
    schema: {
      name: 'diff_gadgets',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'brand', type: 'string', facet: true },
        { name: 'price', type: 'float' },
        { name: 'category', type: 'string', facet: true },
        { name: 'tags', type: 'string[]', facet: true },
        {
          name: 'blurb',
          type: 'string',
          optional: true
        }
      ]
    },
    docs: rows.map(([name, brand, price, category, tags], i) => ({
      id: `g${i + 1}`,
      name,
      brand,
      price,
      category,
      tags,
      // One long field, for snippets: the match sits far from both ends.
      ...(i === 0
        ? {
            blurb:
              `${'comfortable '.repeat(40)}wireless ${'travel '.repeat(40)}`.trim()
          }
        : {})
    }))
  };
}

export function corpusCollections(): CollectionSpec[] {
  return [products(), gadgets()];
}
