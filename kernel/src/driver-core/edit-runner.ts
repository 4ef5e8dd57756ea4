/**
 * A save of the grid's pending changes, engine-neutral: every typed value is checked first and
 * any refusal stops the whole save with nothing sent; then each change is its own request
 * (search engines have no transactions), sent a few at a time, and answered on its own, so one
 * failure never holds back the others. The engine's folder builds the requests and reads the
 * answers.
 */
import type { HttpMethod, JsonValue } from '../console/cell';
import type {
  ChangeResult,
  EditRefusal,
  PlannedRequest,
  RowChange,
  RowKey
} from '../../../contracts/edit-protocol';
import type { SentRequest } from '../../../contracts/panel-protocol';
import type { EngineResponse } from './capabilities/console';
import type { DocumentWrites, EditedGrid } from './capabilities/writes';
import type { WholeDocument } from './capabilities/documents';
import { EngineError, RequestFailedError } from './errors';
import {
  arrayLeafRefusal,
  arrayOnPath,
  type FieldFacts,
  fieldFacts,
  keyPathShape,
  readOnlyRefusal,
  storedKeyPaths
} from './edit-values';
import { editRefusal, Refusal, valueRefusal } from '../console/refusal';
import type { FieldTree } from './field-tree';
import type { Transport } from './http/transport';
import { ownValue, setField } from '../../../contracts/own-fields';
import { exactJson, holdsIntegerLiteral } from '../json/exact-integers';

/** A change whose values are typed: dotted column names to the JSON values to send. */
export interface TypedChange {
  change: RowChange;
  fields: Record<string, JsonValue>;
  /**
   * Where fields of an update sit in the stored document, by key path (`["a.b"]` for a flat
   * dotted key), so the write replaces that value; a field not listed is written nested.
   */
  keys?: Record<string, string[]>;
}

export interface WriteRequest {
  method: HttpMethod;
  path: string;
  /** Without the `?`. */
  query: string;
  body?: JsonValue;
}

/** One engine's part of a save: the primitives documentWrites() runs. */
export interface EngineWrites {
  transport: Transport;
  /** The mapping or schema of the index or collection a change writes to. */
  tree(index: string, signal: AbortSignal): Promise<FieldTree | undefined>;
  /** Types one cell's text (not null, not read-only); throws ValueRefused. */
  typeValue(field: FieldFacts, text: string): JsonValue;
  /** The change's request. */
  request(typed: TypedChange, signal: AbortSignal): Promise<WriteRequest>;
  /** What the engine's answer means for the change (a conflict reads the current document). */
  outcome(
    typed: TypedChange,
    response: EngineResponse,
    sent: SentRequest,
    signal: AbortSignal
  ): Promise<ChangeResult>;
  /** Told of every write sent, so cached mappings or schemas it may change are dropped. */
  noteWrite(request: WriteRequest): void;
  /**
   * For an engine that keeps no versions: the conflict when the stored document no longer
   * holds what the change expects (RowChange `expected`), so the write is not sent.
   */
  changedMeanwhile?(
    typed: TypedChange,
    signal: AbortSignal
  ): Promise<ChangeResult | undefined>;
  /**
   * The documents as stored (Elasticsearch `_source`), by id; a document gone is left out.
   * Read for updates of dotted columns, to write each field where the document holds it.
   */
  storedDocuments(
    index: string,
    ids: string[],
    signal: AbortSignal
  ): Promise<Map<string, JsonValue>>;
}

/**
 * Requests of one save in flight at once (the transport keeps eight connections per engine):
 * writes waiting for the same Elasticsearch refresh are answered together.
 */
const PARALLEL_WRITES = 8;

export function pathWithQuery(
  request: Pick<WriteRequest, 'path' | 'query'>
): string {
  return request.query ? `${request.path}?${request.query}` : request.path;
}

/** The changes whose every value is typed, and every refused value (whose change is left out of `typed`). */
export async function typeChanges(
  writes: EngineWrites,
  grid: EditedGrid,
  changes: RowChange[],
  signal: AbortSignal
): Promise<{ typed: TypedChange[]; refusals: EditRefusal[] }> {
  const refusals: EditRefusal[] = [];
  const typed: TypedChange[] = [];
  const trees = new Map<string, Promise<FieldTree | undefined>>();
  for (const change of changes) {
    if (change.kind === 'delete') {
      typed.push({ change, fields: {} });
      continue;
    }
    const index = change.kind === 'insert' ? change.index : change.row.index;
    if (!trees.has(index)) {
      trees.set(index, writes.tree(index, signal));
    }
    const tree = await trees.get(index);
    const fields: Record<string, JsonValue> = {};
    for (const [name, text] of Object.entries(change.fields)) {
      const column = grid.columns.get(name);
      const field = fieldFacts(name, column, tree);
      try {
        if (change.kind === 'insert' && column?.primaryKey) {
          throw valueRefusal(
            name,
            `${name} is the new row's id, not one of its fields: it is sent as the row's id (left empty, the engine names the row).`
          );
        }
        const readOnly = readOnlyRefusal(field);
        if (readOnly) {
          throw valueRefusal(name, readOnly);
        }
        setField(
          fields,
          name,
          text === null ? null : writes.typeValue(field, text)
        );
      } catch (err) {
        if (
          !(err instanceof Refusal) ||
          err.code !== 'SEARCHBOOK_ERR_VALUE_REFUSED'
        ) {
          throw err;
        }
        refusals.push(editRefusal(change.key, err));
      }
    }
    if (!refusals.some(r => r.key === change.key)) {
      typed.push({ change, fields });
    }
  }
  await placeDottedFields(writes, typed, refusals, signal);
  return {
    typed: typed.filter(t => !refusals.some(r => r.key === t.change.key)),
    refusals
  };
}

/**
 * Updates of dotted columns write each field where the stored document holds it: under a flat
 * dotted key (`{"a.b": …}`) or nested (`{"a": {"b": …}}`). A document holding the field both
 * ways is refused: a write would change one value and leave the other standing; so is one
 * whose path crosses an array, which the write would replace with a single object.
 */
async function placeDottedFields(
  writes: EngineWrites,
  typed: TypedChange[],
  refusals: EditRefusal[],
  signal: AbortSignal
): Promise<void> {
  const byIndex = new Map<string, Update[]>();
  for (const t of typed) {
    if (
      !isUpdate(t) ||
      !Object.keys(t.fields).some(name => name.includes('.'))
    ) {
      continue;
    }
    byIndex.set(t.change.row.index, [
      ...(byIndex.get(t.change.row.index) ?? []),
      t
    ]);
  }
  for (const [index, updates] of byIndex) {
    const stored = await writes.storedDocuments(
      index,
      [...new Set(updates.map(t => t.change.row.id))],
      signal
    );
    for (const t of updates) {
      const keys: Record<string, string[]> = {};
      for (const name of Object.keys(t.fields).filter(n => n.includes('.'))) {
        const array = arrayOnPath(stored.get(t.change.row.id), name);
        if (array !== undefined) {
          refusals.push(
            editRefusal(
              t.change.key,
              valueRefusal(name, arrayLeafRefusal(name, array))
            )
          );
          continue;
        }
        const paths = storedKeyPaths(stored.get(t.change.row.id), name);
        if (paths.length === 1) {
          keys[name] = paths[0] as string[];
        }
        if (paths.length > 1) {
          const twice = `${name} is stored twice in this document, as ${paths
            .sort((a, b) => a.length - b.length)
            .map(keyPathShape)
            .join(
              ' and as '
            )}, and the grid shows only one of them; a save would change one and leave the other, so nothing was sent. Write the document with ${name} once (in a cell), then edit it here.`;
          refusals.push(editRefusal(t.change.key, valueRefusal(name, twice)));
        }
      }
      if (Object.keys(keys).length > 0) {
        t.keys = keys;
      }
    }
  }
}

type Update = TypedChange & { change: Extract<RowChange, { kind: 'update' }> };

function isUpdate(t: TypedChange): t is Update {
  return t.change.kind === 'update';
}

export async function planChanges(
  writes: EngineWrites,
  grid: EditedGrid,
  changes: RowChange[],
  signal: AbortSignal
): Promise<{ requests: PlannedRequest[]; refusals: EditRefusal[] }> {
  const { typed, refusals } = await typeChanges(writes, grid, changes, signal);
  const requests = await Promise.all(
    typed.map(async t => {
      const request = await writes.request(t, signal);
      return {
        key: t.change.key,
        method: request.method,
        path: pathWithQuery(request),
        ...(request.body !== undefined ? plannedBody(request.body) : {})
      };
    })
  );
  return { requests, refusals };
}

/** A body as "Show requests" lists it: exactly as sent where a JSON value cannot hold it (a whole number past 2^53). */
function plannedBody(
  body: JsonValue
): Pick<PlannedRequest, 'body' | 'bodyText'> {
  return holdsIntegerLiteral(body)
    ? { body, bodyText: exactJson(body, 2) }
    : { body };
}

export async function saveChanges(
  writes: EngineWrites,
  grid: EditedGrid,
  changes: RowChange[],
  signal: AbortSignal
): Promise<{ results: ChangeResult[]; refusals: EditRefusal[] }> {
  const { typed, refusals } = await typeChanges(writes, grid, changes, signal);
  if (refusals.length > 0) {
    return { results: [], refusals };
  }
  const results: ChangeResult[] = new Array(typed.length);
  let next = 0;
  const worker = async () => {
    while (next < typed.length) {
      const at = next++;
      results[at] = await saveOne(writes, typed[at] as TypedChange, signal);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_WRITES, typed.length) }, worker)
  );
  return { results, refusals: [] };
}

async function saveOne(
  writes: EngineWrites,
  typed: TypedChange,
  signal: AbortSignal
): Promise<ChangeResult> {
  const key = typed.change.key;
  let request: WriteRequest | undefined;
  try {
    const changed = await writes.changedMeanwhile?.(typed, signal);
    if (changed) {
      return changed;
    }
    request = await writes.request(typed, signal);
    const response = await writes.transport.send(
      {
        method: request.method,
        path: request.path,
        query: request.query,
        ...(request.body !== undefined
          ? { body: { kind: 'json' as const, value: request.body } }
          : {})
      },
      signal
    );
    const sent: SentRequest = {
      method: request.method,
      path: pathWithQuery(request),
      status: response.status,
      elapsedMs: Math.round(response.elapsedMs * 10) / 10
    };
    return await writes.outcome(typed, response, sent, signal);
  } catch (err) {
    const status = err instanceof EngineError ? err.status : undefined;
    // Sent but not answered (a broken connection, an interrupt): the write may or may not have happened.
    const unknown =
      request && status === undefined
        ? ' No answer came back, so this change may or may not have been written: Save again (it is safe: a change already stored is reported saved), or refresh the grid to see.'
        : '';
    return {
      key,
      status: 'failed',
      message: `${(err as Error).message}${unknown}`,
      ...(status !== undefined ? { httpStatus: status } : {})
    };
  } finally {
    if (request) {
      writes.noteWrite(request);
    }
  }
}

/** The writes capability an engine's primitives make: plan and save through this runner. */
export function documentWrites(writes: EngineWrites): DocumentWrites {
  return {
    plan: (grid, changes, signal) => planChanges(writes, grid, changes, signal),
    save: (grid, changes, signal) => saveChanges(writes, grid, changes, signal)
  };
}

/** The document a grid row shows, read now; a document deleted since the grid read it says so. */
export async function wholeDocument(
  read: (
    row: RowKey,
    signal: AbortSignal
  ) => Promise<WholeDocument | undefined>,
  row: RowKey,
  signal: AbortSignal
): Promise<WholeDocument> {
  const found = await read(row, signal);
  if (!found) {
    throw new RequestFailedError(
      `Document ${row.id} is no longer in ${row.index}: it was deleted after the grid read it. Refresh the grid.`,
      404
    );
  }
  return found;
}

/** A cell's whole value, from the stored document as the engine reads it into a grid row (undefined when it is gone). */
export async function wholeValue(
  currentRow: (
    row: RowKey,
    signal: AbortSignal
  ) => Promise<Record<string, JsonValue> | undefined>,
  row: RowKey,
  column: string,
  signal: AbortSignal
): Promise<JsonValue> {
  const current = await currentRow(row, signal);
  if (!current) {
    throw new RequestFailedError(
      `Document ${row.id} is no longer in ${row.index}: it was deleted after the grid read it. Refresh the grid.`,
      404
    );
  }
  return ownValue(current, column) ?? null;
}
