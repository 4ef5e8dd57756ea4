/**
 * The differential suite's data: two small indices (named diff_*, because real nodes are shared
 * with other suites that keep their own `products`), generated from a fixed seed so that
 * every run (and both engines) holds byte-identical documents. Indices are created with one
 * shard and no replicas, because scores depend on the shard layout.
 */

import { seededRandom as seeded } from '@searchbook/sandbox/data/seeded-random';

const ADJECTIVES = [
  'red',
  'blue',
  'green',
  'black',
  'silver',
  'small',
  'large',
  'classic',
  'modern',
  'quiet',
  'rugged',
  'smart'
];
const NOUNS = [
  'widget',
  'lamp',
  'kettle',
  'chair',
  'desk',
  'speaker',
  'backpack',
  'jacket',
  'blender',
  'monitor',
  'keyboard',
  'mug'
];
/** Words of very different frequencies, so that idf and field lengths change the ranking. */
const WORDS = [
  'the',
  'the',
  'the',
  'a',
  'a',
  'and',
  'and',
  'with',
  'for',
  'of',
  'steel',
  'wooden',
  'wireless',
  'portable',
  'durable',
  'handmade',
  'organic',
  'waterproof',
  'compact',
  'ergonomic',
  'vintage',
  'premium',
  'budget',
  'everyday',
  'travel',
  'kitchen',
  'office',
  'garden',
  'outdoor',
  'studio',
  'warranty',
  'battery',
  'cotton',
  'leather',
  'glass',
  'ceramic'
];
const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark'];
const CATEGORIES = ['home', 'office', 'outdoor', 'kitchen', 'audio'];
const TAGS = ['sale', 'new', 'eco', 'gift', 'bestseller', 'limited'];
const COLORS = ['red', 'blue', 'black', 'white'];

export type Doc = Record<string, unknown>;

export interface IndexSpec {
  name: string;
  body: Doc;
  docs: { id: string; source: Doc }[];
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function sentence(rand: () => number, min: number, max: number): string {
  const n = min + Math.floor(rand() * (max - min + 1));
  return Array.from({ length: n }, () => pick(rand, WORDS)).join(' ');
}

function products(): IndexSpec {
  const rand = seeded(20261122);
  const docs = Array.from({ length: 200 }, (_, i) => {
    const id = String(i + 1);
    const name = `${pick(rand, ADJECTIVES)} ${pick(rand, ADJECTIVES)} ${pick(rand, NOUNS)}`;
    const source: Doc = {
      sku: `SKU-${String(i + 1).padStart(4, '0')}`,
      name: i % 17 === 0 ? `${name} ${name}` : name,
      description: sentence(rand, 3, 30),
      brand: pick(rand, BRANDS),
      category: pick(rand, CATEGORIES),
      // Prices in cents over 100, so the doubles are exact decimal renderings.
      price: Math.round(rand() * 50000) / 100,
      stock: Math.floor(rand() * 120),
      rating: Math.round(rand() * 40 + 10) / 10,
      in_stock: rand() > 0.2,
      created: new Date(
        Date.UTC(2024, 0, 1) +
          Math.floor(rand() * 700) * 86_400_000 +
          Math.floor(rand() * 86_400) * 1000
      ).toISOString(),
      variants: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
        color: pick(rand, COLORS),
        size: 1 + Math.floor(rand() * 5)
      }))
    };
    const tags = TAGS.filter(() => rand() < 0.3);
    if (tags.length > 0) {
      source['tags'] = tags;
    }
    if (i % 23 === 5) {
      delete source['brand'];
    }
    return { id, source };
  });
  return {
    name: 'diff_products',
    body: {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        properties: {
          sku: { type: 'keyword' },
          name: { type: 'text', fields: { keyword: { type: 'keyword' } } },
          description: { type: 'text' },
          brand: { type: 'keyword' },
          category: { type: 'keyword' },
          price: { type: 'double' },
          stock: { type: 'integer' },
          rating: { type: 'float' },
          in_stock: { type: 'boolean' },
          created: { type: 'date' },
          tags: { type: 'keyword' },
          variants: {
            type: 'nested',
            properties: {
              color: { type: 'keyword' },
              size: { type: 'integer' }
            }
          }
        }
      }
    },
    docs
  };
}

/** Orders with a custom date format and a 64-bit id, for formats, histograms and exact longs. */
function orders(): IndexSpec {
  const rand = seeded(7);
  const docs = Array.from({ length: 60 }, (_, i) => {
    const when = new Date(
      Date.UTC(2025, 0, 1) + Math.floor(rand() * 180 * 24) * 3_600_000
    );
    const p = (n: number): string => String(n).padStart(2, '0');
    return {
      id: `o${i + 1}`,
      source: {
        placed: `${when.getUTCFullYear()}/${p(when.getUTCMonth() + 1)}/${p(when.getUTCDate())} ${p(when.getUTCHours())}:00:00`,
        amount: Math.floor(rand() * 900) + 10,
        customer: `c${1 + Math.floor(rand() * 12)}`,
        status: pick(rand, ['paid', 'shipped', 'returned'])
      }
    };
  });
  return {
    name: 'diff_orders',
    body: {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        properties: {
          placed: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss||epoch_millis' },
          amount: { type: 'long' },
          customer: { type: 'keyword' },
          status: { type: 'keyword' }
        }
      }
    },
    docs
  };
}

export function corpusIndices(): IndexSpec[] {
  return [products(), orders()];
}
