/**
 * API keys: the admin (bootstrap) key and keys created through `/keys`, each scoped by
 * actions and collections. Matching follows the engine: `*` allows everything,
 * `resource:*` every operation on a resource, collection names may be regular expressions.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from './errors';

export interface ApiKey {
  id: number;
  value: string;
  description: string;
  actions: string[];
  collections: string[];
  expires_at: number;
  autodelete: boolean;
}

const FAR_FUTURE = 64723363199;

const keyInput = z.looseObject({
  value: z.unknown().optional(),
  description: z.unknown().optional(),
  actions: z.unknown().optional(),
  collections: z.unknown().optional(),
  expires_at: z.unknown().optional(),
  autodelete: z.boolean().optional()
});

function isStringArray(v: unknown): v is string[] {
  return (
    Array.isArray(v) && v.length > 0 && v.every(x => typeof x === 'string')
  );
}

export class KeyStore {
  private readonly byValue = new Map<string, ApiKey>();
  private nextId = 0;

  constructor(private readonly adminKey: string) {}

  create(body: unknown): ApiKey {
    const parsed = keyInput.safeParse(body);
    if (!parsed.success) {
      throw new ApiError(400, 'Bad JSON.');
    }
    const k = parsed.data;
    for (const name of ['description', 'actions', 'collections'] as const) {
      if (k[name] === undefined) {
        throw new ApiError(400, `Could not find a \`${name}\` key.`);
      }
    }
    if (k.value !== undefined && typeof k.value !== 'string') {
      throw new ApiError(400, 'Key value must be a string.');
    }
    if (typeof k.description !== 'string') {
      throw new ApiError(400, 'Key description must be a string.');
    }
    if (!isStringArray(k.actions)) {
      throw new ApiError(
        400,
        'Wrong format for `actions`. It should be an array of string.'
      );
    }
    if (!isStringArray(k.collections)) {
      throw new ApiError(
        400,
        'Wrong format for `collections`. It should be an array of string.'
      );
    }
    if (
      k.expires_at !== undefined &&
      !(Number.isInteger(k.expires_at) && (k.expires_at as number) >= 0)
    ) {
      throw new ApiError(
        400,
        'Wrong format for `expires_at`. It should be an unsigned integer.'
      );
    }
    const value =
      typeof k.value === 'string'
        ? k.value
        : randomBytes(24).toString('base64url').slice(0, 32);
    if (this.byValue.has(value) || value === this.adminKey) {
      throw new ApiError(409, 'API key generation conflict.');
    }
    const key: ApiKey = {
      id: this.nextId++,
      value,
      description: k.description,
      actions: k.actions,
      collections: k.collections,
      expires_at: (k.expires_at as number | undefined) ?? FAR_FUTURE,
      autodelete: k.autodelete ?? false
    };
    this.byValue.set(value, key);
    return key;
  }

  /** Whether `value` is the admin key or a key created through `/keys` (not a scoped key). */
  has(value: string): boolean {
    return value === this.adminKey || this.byValue.has(value);
  }

  list(): ApiKey[] {
    return [...this.byValue.values()].sort((a, b) => a.id - b.id);
  }

  get(id: number): ApiKey | undefined {
    for (const k of this.byValue.values()) {
      if (k.id === id) {
        return k;
      }
    }
    return undefined;
  }

  remove(id: number): ApiKey | undefined {
    const k = this.get(id);
    if (k) {
      this.byValue.delete(k.value);
    }
    return k;
  }

  /** Whether `value` may run `action` on `collection` ('' when the route names none). */
  allows(
    value: string | undefined,
    action: string,
    collection: string
  ): boolean {
    if (!value) {
      return false;
    }
    if (value === this.adminKey) {
      return true;
    }
    const key = this.byValue.get(value);
    if (!key) {
      return false;
    }
    if (Date.now() / 1000 > key.expires_at) {
      return false;
    }
    const resource = action.split(':')[0];
    const actionOk = key.actions.some(
      a =>
        a === '*' ||
        a === action ||
        (a.endsWith(':*') && a.slice(0, -2) === resource)
    );
    if (!actionOk) {
      return false;
    }
    if (collection === '') {
      return true;
    }
    return key.collections.some(
      c => c === '*' || c === collection || regexMatch(collection, c)
    );
  }
}

function regexMatch(value: string, pattern: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

/** The shape `GET /keys` and `GET /keys/:id` print: the value cut to its first four characters. */
export function keyListing(k: ApiKey): Record<string, unknown> {
  const { value, ...rest } = k;
  return { ...rest, value_prefix: value.slice(0, 4) };
}
