/**
 * The side panel's list of a Typesense node's collections with their document counts. A key
 * without `collections:list` gets 401 here: the connection stays open with an empty list and
 * the reason, and collections are opened by name.
 */
import { z } from 'zod';
import type { TargetListing } from '../../driver-core/capabilities/catalog';
import { EngineError } from '../../driver-core/errors';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typesenseFailure } from './failure';

const AliasNames = z
  .object({ aliases: z.array(z.object({ name: z.string() }).loose()) })
  .loose();
const Collections = z.array(
  z
    .object({
      name: z.string(),
      num_documents: z.number().int().nonnegative().optional()
    })
    .loose()
);

export const CANNOT_LIST_NOTE =
  'This API key may not list collections (it lacks the collections:list action), so none are shown. Type a collection name into "Open…" to browse it, or connect with a key holding collections:* or the admin key.';

/** The collections, and the aliases apart (`unlisted`): the panel opens an alias by name, completion offers it. */
export async function listCollections(
  transport: Transport,
  signal: AbortSignal
): Promise<TargetListing> {
  const [body, aliases] = await Promise.all([
    sendGridRequest(
      transport,
      { method: 'GET', path: '/collections' },
      typesenseFailure,
      [],
      signal
    ).catch(cannotList),
    aliasNames(transport, signal)
  ]);
  if (body === CANNOT_LIST) {
    return { targets: [], note: CANNOT_LIST_NOTE, unlisted: aliases };
  }
  const listed = Collections.safeParse(body);
  if (!listed.success) {
    throw new Error('GET /collections did not answer a list of collections.');
  }
  const targets = listed.data
    .map(c => ({ name: c.name, count: c.num_documents ?? null }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { targets, unlisted: aliases };
}

const CANNOT_LIST = Symbol('cannot list');

function cannotList(err: unknown): typeof CANNOT_LIST {
  if (
    err instanceof EngineError &&
    err.code === 'SEARCHBOOK_ERR_AUTHENTICATION_FAILED'
  ) {
    return CANNOT_LIST;
  }
  throw err;
}

/** Alias names, sorted; none for a key without aliases:list. */
async function aliasNames(
  transport: Transport,
  signal: AbortSignal
): Promise<string[]> {
  const response = await transport.send(
    { method: 'GET', path: '/aliases', query: '' },
    signal
  );
  const aliased = AliasNames.safeParse(
    response.status < 300 && response.body.kind === 'json'
      ? response.body.value
      : undefined
  );
  return aliased.success ? aliased.data.aliases.map(a => a.name).sort() : [];
}
