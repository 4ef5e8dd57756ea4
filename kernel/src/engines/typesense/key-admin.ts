/**
 * Typesense [API keys](https://typesense.org/docs/latest/api/api-keys.html) for the side
 * panel: `GET /keys` lists
 * them with a four-character value prefix, `POST /keys` answers the full value exactly once,
 * `DELETE /keys/:id` removes one. Keys cannot be updated.
 */
import { z } from 'zod';
import type { KeyInfo } from '../../../../contracts/admin-protocol';
import type { KeyAdmin } from '../../driver-core/driver';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typesenseFailure } from './failure';
import {
  embeddedParamsProblem,
  embeddedText,
  scopedKeyFromText
} from './scoped-key';

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

export const SCOPED_KEYS = {
  title: 'Scoped search key…',
  note: 'A scoped key is computed here from a search-only key (documents:search) with search parameters embedded that its users cannot change or remove; Typesense checks it on each search. Nothing is sent to the server to make it, and it cannot be listed or deleted: it stops working when the parent key is deleted or its expires_at passes.',
  example: '{"filter_by": "company_id:124", "expires_at": 1906054106}'
};

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
    async scoped(request, signal) {
      const problem = embeddedParamsProblem(request.params);
      if (problem !== null) {
        throw new Error(`${problem} No key was computed.`);
      }
      const prefix = request.parentKey.slice(0, 4);
      // The engine only accepts scoped keys of a search-only parent: say so now, not at the first search.
      const listed = await sendGridRequest(
        transport,
        { method: 'GET', path: '/keys' },
        typesenseFailure,
        [],
        signal
      ).then(
        body => KeyList.safeParse(body),
        () => null
      );
      if (listed?.success) {
        const parents = listed.data.keys.filter(k => k.value_prefix === prefix);
        if (parents.length === 0) {
          throw new Error(
            `No key on this server starts with "${prefix}": derive a scoped key from a search-only key listed under Keys (the bootstrap admin key cannot be a parent). No key was computed.`
          );
        }
        if (
          !parents.some(
            k => k.actions.length === 1 && k.actions[0] === 'documents:search'
          )
        ) {
          throw new Error(
            `The key starting "${prefix}" allows ${parents[0]?.actions.join(', ') ?? ''}: Typesense accepts scoped keys only from a key whose one action is documents:search. Add a "Search only" key and derive from it. No key was computed.`
          );
        }
      }
      const embedded = embeddedText(request.params);
      return {
        parentPrefix: prefix,
        embedded,
        value: scopedKeyFromText(request.parentKey, embedded)
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
