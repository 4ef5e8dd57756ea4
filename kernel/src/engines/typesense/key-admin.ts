/**
 * Typesense [API keys](https://typesense.org/docs/latest/api/api-keys.html) for the side
 * panel: `GET /keys` lists
 * them with a four-character value prefix, `POST /keys` answers the full value exactly once,
 * `DELETE /keys/:id` removes one. Keys cannot be updated.
 */
import { z } from 'zod';
import type { KeyInfo } from '../../../../contracts/admin-protocol';
import type { KeyAdmin } from '../../engine/driver';
import { sendGridRequest } from '../../engine/grid-request';
import type { Transport } from '../../engine/http/transport';
import { typesenseFailure } from './failure';

/** Typesense's `expires_at` for a key created without one: year 4020, i.e. never. */
const NEVER = 64723363199;

const ListedKey = z
  .object({
    id: z.number().int(),
    description: z.string().default(''),
    actions: z.array(z.string()),
    collections: z.array(z.string()),
    value_prefix: z.string().default(''),
    expires_at: z.number().int().optional()
  })
  .loose();
const KeyList = z.object({ keys: z.array(ListedKey) });
const CreatedKey = ListedKey.omit({ value_prefix: true }).extend({
  value: z.string().min(1)
});

export const KEY_CHOICES = [
  { label: 'Search only', actions: ['documents:search'] },
  {
    label: 'Read documents',
    actions: ['documents:search', 'documents:get', 'documents:export']
  },
  { label: 'Admin (every action)', actions: ['*'] }
];

export const IMMUTABLE_NOTE =
  'Typesense keys cannot be edited: to change one, add a new key and delete the old one. A key’s value is shown only once, when it is added.';

function keyInfo(key: z.infer<typeof ListedKey>, prefix: string): KeyInfo {
  const expires = key.expires_at;
  return {
    id: String(key.id),
    description: key.description,
    actions: key.actions,
    collections: key.collections,
    valuePrefix: prefix,
    expiresAt: expires === undefined || expires >= NEVER ? null : expires
  };
}

export function typesenseKeys(transport: Transport): KeyAdmin {
  return {
    async list(signal) {
      const body = await sendGridRequest(
        transport,
        { method: 'GET', path: '/keys' },
        typesenseFailure,
        [],
        signal
      );
      const parsed = KeyList.safeParse(body);
      if (!parsed.success) {
        throw new Error('GET /keys did not answer a list of keys.');
      }
      return parsed.data.keys.map(k => keyInfo(k, k.value_prefix));
    },
    async add(key, signal) {
      const request = {
        description: key.description,
        actions: key.actions,
        collections: key.collections,
        ...(key.expiresAt !== undefined ? { expires_at: key.expiresAt } : {})
      };
      const body = await sendGridRequest(
        transport,
        { method: 'POST', path: '/keys', body: request },
        typesenseFailure,
        [],
        signal
      );
      const parsed = CreatedKey.safeParse(body);
      // The body holds the value: say what is wrong without echoing it.
      if (!parsed.success) {
        throw new Error(
          'POST /keys answered without the new key’s id and value; list the keys to see whether it was created.'
        );
      }
      return {
        key: keyInfo(
          { ...parsed.data, value_prefix: parsed.data.value.slice(0, 4) },
          parsed.data.value.slice(0, 4)
        ),
        value: parsed.data.value
      };
    },
    async remove(id, signal) {
      if (!/^\d+$/.test(id)) {
        throw new Error(
          `"${id}" is not a Typesense key id (a whole number, as the Keys list shows).`
        );
      }
      await sendGridRequest(
        transport,
        { method: 'DELETE', path: `/keys/${id}` },
        typesenseFailure,
        [],
        signal
      );
    }
  };
}
