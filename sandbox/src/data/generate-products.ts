/**
 * Deterministic sample data for the Elasticsearch sandbox: a `products` index of 25,000
 * documents (more than the 10,000-hit result window) with text + keyword fields, numbers,
 * booleans, dates, an object (`address`) and a nested array (`variants`); some documents
 * omit fields so that missing values show up in grids, sorts and `exists` queries.
 */
import type { JsonObject } from '../elasticsearch/json-value';
import { seededRandom } from './seeded-random';

export const PRODUCTS_INDEX = 'products';
export const PRODUCTS_ALIAS = 'catalog';
export const PRODUCTS_COUNT = 25_000;

const keywordSub = { keyword: { type: 'keyword', ignore_above: 256 } };

export const PRODUCTS_MAPPING: JsonObject = {
  properties: {
    name: { type: 'text', fields: keywordSub },
    brand: { type: 'text', fields: keywordSub },
    category: { type: 'keyword' },
    description: { type: 'text' },
    price: { type: 'float' },
    stock: { type: 'long' },
    in_stock: { type: 'boolean' },
    rating: { type: 'float' },
    tags: { type: 'keyword' },
    created_at: { type: 'date' },
    address: {
      properties: {
        city: { type: 'text', fields: keywordSub },
        country: { type: 'keyword' }
      }
    },
    variants: {
      type: 'nested',
      properties: {
        sku: { type: 'keyword' },
        color: { type: 'keyword' },
        price: { type: 'float' }
      }
    }
  }
};

const ADJECTIVES = [
  'Classic',
  'Compact',
  'Deluxe',
  'Eco',
  'Ultra',
  'Smart',
  'Rugged',
  'Vintage',
  'Portable',
  'Pro',
  'Mini',
  'Wireless'
];
const NOUNS = [
  'Widget',
  'Gadget',
  'Lamp',
  'Kettle',
  'Backpack',
  'Speaker',
  'Headphones',
  'Blender',
  'Chair',
  'Notebook',
  'Bottle',
  'Camera',
  'Drill',
  'Jacket'
];
const BRANDS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark Industries',
  'Wayne Tech',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Wonka'
];
const CATEGORIES = [
  'home',
  'kitchen',
  'outdoor',
  'electronics',
  'office',
  'tools',
  'apparel'
];
const TAGS = [
  'sale',
  'new',
  'bestseller',
  'gift',
  'limited',
  'refurbished',
  'eco'
];
const COLORS = ['red', 'blue', 'green', 'black', 'white', 'silver', 'yellow'];
const CITIES: [string, string][] = [
  ['Berlin', 'DE'],
  ['Paris', 'FR'],
  ['Lyon', 'FR'],
  ['New York', 'US'],
  ['San Francisco', 'US'],
  ['Tokyo', 'JP'],
  ['São Paulo', 'BR'],
  ['Zürich', 'CH'],
  ['Toronto', 'CA'],
  ['Melbourne', 'AU']
];
const WORDS = [
  'durable',
  'lightweight',
  'stylish',
  'powerful',
  'quiet',
  'handy',
  'waterproof',
  'efficient',
  'elegant',
  'sturdy',
  'everyday',
  'premium'
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export interface ProductDoc {
  id: string;
  source: JsonObject;
}

/** Yields `count` products; the same seed always gives the same documents. */
export function* generateProducts(
  count = PRODUCTS_COUNT,
  seed = 20240501
): Generator<ProductDoc> {
  const rand = seededRandom(seed);
  const epoch = Date.UTC(2021, 0, 1);
  const span = Date.UTC(2025, 0, 1) - epoch;
  for (let i = 1; i <= count; i++) {
    const noun = pick(rand, NOUNS);
    const source: JsonObject = {
      name: `${pick(rand, ADJECTIVES)} ${noun} ${i}`
    };
    if (rand() > 0.08) {
      source['brand'] = pick(rand, BRANDS);
    }
    source['category'] = pick(rand, CATEGORIES);
    source['description'] =
      Array.from({ length: 4 + Math.floor(rand() * 6) }, () =>
        pick(rand, WORDS)
      ).join(' ') + ` ${noun.toLowerCase()}`;
    if (rand() > 0.05) {
      source['price'] = round2(1 + rand() * 499);
    }
    const stock = Math.floor(rand() * 200) - 20;
    source['stock'] = Math.max(0, stock);
    source['in_stock'] = stock > 0;
    if (rand() > 0.1) {
      source['rating'] = Math.round((1 + rand() * 4) * 10) / 10;
    }
    const tagCount = Math.floor(rand() * 3);
    if (tagCount > 0) {
      source['tags'] = Array.from(
        new Set(Array.from({ length: tagCount }, () => pick(rand, TAGS)))
      );
    }
    source['created_at'] = new Date(
      epoch + Math.floor(rand() * span)
    ).toISOString();
    if (rand() > 0.15) {
      const [city, country] = pick(rand, CITIES);
      source['address'] = rand() > 0.1 ? { city, country } : { country };
    }
    const variantCount = Math.floor(rand() * 4);
    if (variantCount > 0) {
      const base = typeof source['price'] === 'number' ? source['price'] : 20;
      source['variants'] = Array.from({ length: variantCount }, (_, v) => {
        const variant: JsonObject = {
          sku: `SKU-${i}-${v + 1}`,
          color: pick(rand, COLORS)
        };
        if (rand() > 0.1) {
          variant['price'] = round2(base * (0.8 + rand() * 0.4));
        }
        return variant;
      });
    }
    yield { id: String(i), source };
  }
}
