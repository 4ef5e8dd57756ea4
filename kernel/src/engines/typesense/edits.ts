/**
 * The document grid's writes to Typesense: changed fields as
 * `PATCH /collections/<c>/documents/<id>` with only those fields, new rows as
 * `POST /collections/<c>/documents` with the id the user typed (if any), deletions as
 * `DELETE /collections/<c>/documents/<id>`; deleting a collection, and emptying one with
 * `DELETE /collections/<c>/documents?truncate=true` on 28.0 and later. `id` is read-only.
 *
 * Typesense replaces a top-level field whole on update, so an edit of one leaf of an object
 * (`meta.pages`) sends that object with the leaf changed, read from the stored document first:
 * its other leaves are not lost.
 *
 * Nor does it keep versions: an update or deletion carrying the values the grid read is checked
 * against the stored document before it is sent, so a concurrent change is a conflict, not lost.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import type { JsonObject } from '../../../../contracts/json';
import type {
  ChangeResult,
  RowKey,
  TargetAction,
  TargetActionId
} from '../../../../contracts/edit-protocol';
import type { SentRequest } from '../../../../contracts/panel-protocol';
import { asObject } from '../../driver-core/document-columns';
import type { EngineResponse } from '../../driver-core/capabilities/console';
import type { WholeDocument } from '../../driver-core/capabilities/documents';
import type {
  EngineWrites,
  TypedChange,
  WriteRequest
} from '../../driver-core/edit-runner';
import type { TargetActions } from '../../driver-core/capabilities/target-actions';
import { holdsValue, nestFields } from '../../driver-core/edit-values';
import type { FieldTree } from '../../driver-core/field-tree';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typeTypesenseValue } from './edit-typing';
import { typesenseFailure } from './failure';
import { documentsGrid } from './present';
import { ownValue, setField } from '../../../../contracts/own-fields';

/** The first version with `truncate=true`; older ones answer 400 asking for `filter_by`. */
const TRUNCATE_SINCE = 28;
/** Reads of one save in flight at once. */
const PARALLEL_READS = 8;
const Deleted = z
  .object({ num_deleted: z.number().int().nonnegative() })
  .loose();

function documentPath(collection: string, id?: string): string {
  return `/collections/${encodeURIComponent(collection)}/documents${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
}

/** A document's fields other than its id. */
function withoutId(document: JsonValue): JsonValue {
  const object = asObject(document);
  if (!object) {
    return document;
  }
  const { id: _id, ...fields } = object;
  return fields;
}

/** Objects merged leaf by leaf: `patch` wins, `base` keeps what `patch` does not name. */
function mergeObjects(base: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const old = asObject(ownValue(out, key));
    const next = asObject(value);
    setField(
      out,
      key,
      old && next ? mergeObjects(old as JsonObject, next as JsonObject) : value
    );
  }
  return out;
}

/** The engine's write primitives (documentWrites() runs them), its whole-document reads, and its target actions. */
export class TypesenseEdits implements TargetActions {
  readonly writes: EngineWrites;

  constructor(
    private readonly transport: Transport,
    private readonly structure: (
      collection: string,
      signal: AbortSignal
    ) => Promise<FieldTree | undefined>,
    private readonly noted: (request: WriteRequest) => void,
    /** The server's version as the connection read it (`27.1`), or undefined when the key could not read it. */
    private readonly version: () => string | undefined
  ) {
    this.writes = {
      transport,
      tree: (collection, signal) => structure(collection, signal),
      typeValue: typeTypesenseValue,
      request: (typed, signal) => this.request(typed, signal),
      outcome: (typed, response, sent, signal) =>
        this.outcome(typed, response, sent, signal),
      noteWrite: noted,
      changedMeanwhile: (typed, signal) => this.changedMeanwhile(typed, signal),
      storedDocuments: (collection, ids, signal) =>
        this.storedDocuments(collection, ids, signal)
    };
  }

  /** Typesense has no multi-get by id: one GET a document, a few at a time. */
  private async storedDocuments(
    collection: string,
    ids: string[],
    signal: AbortSignal
  ): Promise<Map<string, JsonValue>> {
    const stored = new Map<string, JsonValue>();
    for (let at = 0; at < ids.length; at += PARALLEL_READS) {
      await Promise.all(
        ids.slice(at, at + PARALLEL_READS).map(async id => {
          const { current, document } = await this.read(
            { index: collection, id },
            signal
          );
          if (current) {
            stored.set(id, document);
          }
        })
      );
    }
    return stored;
  }

  /** The stored document (with its `id`) and where it lives; undefined when it is gone. Typesense keeps no versions. */
  async wholeDocument(
    row: RowKey,
    signal: AbortSignal
  ): Promise<WholeDocument | undefined> {
    const { current, document } = await this.read(row, signal);
    return (
      current && {
        document,
        meta: [
          { name: 'collection', value: row.index },
          { name: 'id', value: row.id }
        ],
        values: current
      }
    );
  }

  /** The stored document as a grid row; undefined when it is gone. */
  currentRow(
    row: RowKey,
    signal: AbortSignal
  ): Promise<Record<string, JsonValue> | undefined> {
    return this.current(row, signal);
  }

  offered(collection: string): TargetAction[] {
    const version = this.version();
    const major =
      version === undefined
        ? undefined
        : Number.parseFloat(version.replace(/^v/, ''));
    const old =
      major !== undefined && Number.isFinite(major) && major < TRUNCATE_SINCE;
    return [
      {
        action: 'delete',
        label: 'Delete collection',
        request: `DELETE /collections/${encodeURIComponent(collection)}`
      },
      {
        action: 'empty',
        label: 'Empty collection',
        request: `DELETE ${documentPath(collection)}?truncate=true`,
        ...(old
          ? {
              unavailable: `Empty collection needs Typesense 28.0 or later; this server runs ${version}. Delete the documents with DELETE ${documentPath(collection)}?filter_by=... in a cell, or delete the collection and create it again.`
            }
          : {})
      }
    ];
  }

  async run(
    collection: string,
    action: TargetActionId,
    signal: AbortSignal
  ): Promise<{ request: SentRequest; message: string }> {
    const sent: SentRequest[] = [];
    const request: WriteRequest =
      action === 'delete'
        ? {
            method: 'DELETE',
            path: `/collections/${encodeURIComponent(collection)}`,
            query: ''
          }
        : {
            method: 'DELETE',
            path: documentPath(collection),
            query: 'truncate=true'
          };
    let answer: JsonValue;
    try {
      answer = await sendGridRequest(
        this.transport,
        request,
        typesenseFailure,
        sent,
        signal
      );
    } finally {
      this.noted(request);
    }
    const done = sent[0] as SentRequest;
    if (action === 'delete') {
      return { request: done, message: `Deleted collection ${collection}.` };
    }
    const deleted = Deleted.safeParse(answer);
    return {
      request: done,
      message: `Emptied collection ${collection}${deleted.success ? `: ${deleted.data.num_deleted} documents deleted` : ''}; its schema and learned fields are kept.`
    };
  }

  private async request(
    { change, fields, keys }: TypedChange,
    signal: AbortSignal
  ): Promise<WriteRequest> {
    const index = change.kind === 'insert' ? change.index : change.row.index;
    const tree =
      change.kind === 'delete'
        ? undefined
        : await this.structure(index, signal);
    // Where the stored document holds the field (a flat `a.b` key); otherwise a schema without
    // nested fields may name a field `a.b` itself.
    const nested = nestFields(
      fields,
      name =>
        keys?.[name] ?? (tree?.has(name) === true ? [name] : name.split('.'))
    );
    switch (change.kind) {
      case 'update':
        return {
          method: 'PATCH',
          path: documentPath(index, change.row.id),
          query: '',
          body: await this.wholeObjects(change.row, nested, fields, signal)
        };
      case 'insert':
        return {
          method: 'POST',
          path: documentPath(index),
          query: '',
          body: change.id === undefined ? nested : { id: change.id, ...nested }
        };
      case 'delete':
        return {
          method: 'DELETE',
          path: documentPath(index, change.row.id),
          query: ''
        };
    }
  }

  /**
   * Typesense keeps no versions, so an update or deletion that says what it expects reads the
   * stored document first and compares those fields; one that differs is a conflict and nothing
   * is written. Another write can still land between this read and the write: the window is
   * one round trip, not the time the grid was open. A document gone meanwhile is left to the
   * write, whose 404 says so.
   */
  private async changedMeanwhile(
    { change, fields }: TypedChange,
    signal: AbortSignal
  ): Promise<ChangeResult | undefined> {
    if (change.kind === 'insert' || change.expected === undefined) {
      return undefined;
    }
    const { current, read } = await this.read(change.row, signal);
    if (!current) {
      return undefined;
    }
    // A field that already holds the value typed is this edit's own earlier write (a save sent
    // again after its answer was lost), not someone else's.
    const changed = Object.entries(change.expected)
      .filter(
        ([column, value]) =>
          !holdsValue(current, column, value) &&
          !(
            Object.hasOwn(fields, column) &&
            holdsValue(current, column, fields[column])
          )
      )
      .map(([column]) => column);
    if (changed.length === 0) {
      return undefined;
    }
    const message =
      change.kind === 'update'
        ? `Someone changed ${changed.join(', ')} in this document after the grid read it, so your change was not written. The current document is shown beside your edit: overwrite it, or drop your edit.`
        : `Someone changed ${changed.join(', ')} in this document after the grid read it, so it was not deleted. Overwrite deletes it as it is now; or drop the deletion.`;
    return {
      key: change.key,
      status: 'conflict',
      message,
      current,
      request: read
    };
  }

  /** Objects whose leaves were edited, whole: the stored object with those leaves changed. */
  private async wholeObjects(
    row: RowKey,
    nested: JsonObject,
    fields: Record<string, JsonValue>,
    signal: AbortSignal
  ): Promise<JsonObject> {
    const objects = Object.keys(nested).filter(
      key =>
        asObject(ownValue(nested, key)) &&
        Object.keys(fields).some(name => name.startsWith(`${key}.`))
    );
    if (objects.length === 0) {
      return nested;
    }
    const response = await this.transport.send(
      { method: 'GET', path: documentPath(row.index, row.id), query: '' },
      signal
    );
    const stored =
      response.status < 300 && response.body.kind === 'json'
        ? asObject(response.body.value)
        : undefined;
    if (!stored) {
      return nested;
    }
    const out: JsonObject = { ...nested };
    for (const key of objects) {
      const old = asObject(ownValue(stored, key));
      if (old) {
        setField(
          out,
          key,
          mergeObjects(old as JsonObject, ownValue(nested, key) as JsonObject)
        );
      }
    }
    return out;
  }

  private async outcome(
    typed: TypedChange,
    response: EngineResponse,
    sent: SentRequest,
    signal: AbortSignal
  ): Promise<ChangeResult> {
    const { change } = typed;
    const key = change.key;
    const collection =
      change.kind === 'insert' ? change.index : change.row.index;
    const body = response.body.kind === 'json' ? response.body.value : null;
    if (response.status < 300) {
      const id = asObject(body)?.id;
      const row = {
        index: collection,
        id:
          typeof id === 'string'
            ? id
            : change.kind === 'insert'
              ? (change.id ?? '')
              : change.row.id
      };
      // Update and insert answer the stored document; delete answers the one removed.
      const document =
        change.kind === 'delete'
          ? {}
          : { document: await this.gridRow(collection, body, signal) };
      return { key, status: 'saved', row, ...document, request: sent };
    }
    const failure = typesenseFailure(response);
    const reason = failure?.message ?? `Typesense answered ${response.status}`;
    if (change.kind === 'insert' && response.status === 409) {
      const stored =
        change.id === undefined
          ? undefined
          : await this.read({ index: collection, id: change.id }, signal);
      // A save sent again after its answer was lost (a restart mid-save) finds its own new row.
      if (
        stored?.current &&
        isDeepStrictEqual(
          withoutId(stored.document),
          withoutId((await this.request(typed, signal)).body ?? null)
        )
      ) {
        return {
          key,
          status: 'saved',
          row: { index: collection, id: change.id ?? '' },
          document: stored.current,
          request: sent
        };
      }
      const message = `A document with id ${change.id ?? ''} already exists in ${collection}, so your new row was not written (${reason}). To change that document, drop your row and edit it, or send your fields as an edit of it.`;
      return {
        key,
        status: 'conflict',
        message,
        current: stored?.current ?? null,
        request: sent
      };
    }
    if (
      change.kind !== 'insert' &&
      response.status === 404 &&
      /^Could not find a document with id/.test(
        String(asObject(body)?.message ?? '')
      )
    ) {
      // A deletion finds what it wanted: the document is gone (also its own earlier send's doing).
      if (change.kind === 'delete') {
        return { key, status: 'saved', row: change.row, request: sent };
      }
      return {
        key,
        status: 'conflict',
        message: `This document was deleted after the grid read it, so your change was not written (${reason}).`,
        current: null,
        request: sent
      };
    }
    return {
      key,
      status: 'failed',
      message: reason,
      httpStatus: response.status,
      request: sent
    };
  }

  /** The stored document as a grid row; undefined when it is gone. */
  private async current(
    row: RowKey,
    signal: AbortSignal
  ): Promise<Record<string, JsonValue> | undefined> {
    return (await this.read(row, signal)).current;
  }

  /** The stored document as a grid row (undefined when it is gone) and as stored, and the GET that read it. */
  private async read(
    row: RowKey,
    signal: AbortSignal
  ): Promise<{
    current: Record<string, JsonValue> | undefined;
    document: JsonValue;
    read: SentRequest;
  }> {
    const sent: SentRequest[] = [];
    const document = await sendGridRequest(
      this.transport,
      { method: 'GET', path: documentPath(row.index, row.id) },
      r => (r.status === 404 ? undefined : typesenseFailure(r)),
      sent,
      signal
    );
    const read = sent[0] as SentRequest;
    return {
      current:
        read.status === 404
          ? undefined
          : await this.gridRow(row.index, document, signal),
      document,
      read
    };
  }

  private async gridRow(
    collection: string,
    document: JsonValue,
    signal: AbortSignal
  ): Promise<Record<string, JsonValue>> {
    const tree = await this.structure(collection, signal);
    return documentsGrid([document], tree, false).rows[0] ?? {};
  }
}
