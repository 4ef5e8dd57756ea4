/**
 * The document grid's writes to Elasticsearch: changed fields as
 * `POST /<index>/_update/<id>` with `{"doc": ...}` (and `_source=true`, so the answer holds the stored document), new rows as `PUT /<index>/_doc/<id>?op_type=create`
 * (never replacing a document silently) or `POST /<index>/_doc` when the engine names the id,
 * deletions as `DELETE /<index>/_doc/<id>`; all with `refresh=wait_for`, and with
 * `if_seq_no` / `if_primary_term` when the row's version is known, so a concurrent change is
 * a conflict (409) instead of being overwritten. Rows go to their own `_index`. A refused
 * write whose result is already stored (the same save sent again) is saved, not a conflict.
 * An index that refuses `_update` (time-series, or without sequence numbers: index-storage.ts)
 * gets the stored document with the changes merged in, as `PUT /<index>/_doc/<id>`.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import type {
  ChangeResult,
  DocumentMeta,
  RowKey,
  RowVersion,
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
import {
  holdsFields,
  nestFields,
  readOnlyRefusal
} from '../../driver-core/edit-values';
import { valueRefusal } from '../../console/refusal';
import { RequestFailedError } from '../../driver-core/errors';
import { ownValue, setField } from '../../../../contracts/own-fields';
import type { IndexStorage } from './index-storage';
import type { FieldTree } from '../../driver-core/field-tree';
import { documentGrid } from '../../driver-core/grid-columns';
import { sendGridRequest, targetSegment } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typeElasticsearchValue } from './edit-typing';
import type { ElasticsearchVersion } from './version';
import { elasticsearchFailure } from './failure';
import type { Flavour } from './flavour';
import { LEADING, UNSCORED_LEADING } from './present';

const WriteAnswer = z
  .object({
    _index: z.string(),
    _id: z.string(),
    // -2 and 0 from an index without sequence numbers (versionOf leaves them out).
    _seq_no: z.number().int().optional(),
    _primary_term: z.number().int().optional(),
    get: z.object({ _source: z.unknown().optional() }).loose().optional()
  })
  .loose();
const MgetAnswer = z
  .object({
    docs: z.array(
      z
        .object({
          _id: z.string(),
          found: z.boolean().optional(),
          _source: z.unknown().optional()
        })
        .loose()
    )
  })
  .loose();
const GetAnswer = z
  .object({
    found: z.boolean(),
    _index: z.string().optional(),
    _id: z.string().optional(),
    _version: z.number().int().optional(),
    _source: z.unknown().optional(),
    _seq_no: z.number().int().optional(),
    _primary_term: z.number().int().optional(),
    _routing: z.string().optional()
  })
  .loose();

function segment(name: string): string {
  return encodeURIComponent(name);
}

function versionQuery(version: RowVersion | undefined): string {
  return version
    ? `&if_seq_no=${version.seqNo}&if_primary_term=${version.primaryTerm}`
    : '';
}

function versionOf(answer: {
  _seq_no?: number | undefined;
  _primary_term?: number | undefined;
}): { version?: RowVersion } {
  return answer._seq_no !== undefined &&
    answer._seq_no >= 0 &&
    answer._primary_term !== undefined &&
    answer._primary_term > 0
    ? { version: { seqNo: answer._seq_no, primaryTerm: answer._primary_term } }
    : {};
}

/**
 * An update written as the whole document, for an index that refuses `_update`: the stored
 * `source` with the changed fields merged in as `_update` merges `doc` (objects key by key,
 * anything else replaced), conditional on the version read when the index keeps one.
 */
export function wholeDocumentRequest(
  { change, fields, keys }: TypedChange,
  source: JsonValue
): WriteRequest {
  if (change.kind !== 'update') {
    return elasticsearchRequest({ change, fields, ...(keys ? { keys } : {}) });
  }
  return {
    method: 'PUT',
    path: `/${segment(change.row.index)}/_doc/${segment(change.row.id)}`,
    query: `refresh=wait_for${versionQuery(change.version)}`,
    body: mergedDocument(
      source,
      nestFields(fields, name => keys?.[name] ?? name.split('.'))
    )
  };
}

function mergedDocument(
  source: JsonValue,
  doc: Record<string, JsonValue>
): JsonValue {
  const base = asObject(source);
  if (!base) {
    return doc;
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(base)) {
    setField(out, key, value);
  }
  for (const [key, value] of Object.entries(doc)) {
    const old = ownValue(out, key);
    const inner = asObject(value);
    setField(
      out,
      key,
      old !== undefined && asObject(old) && inner
        ? mergedDocument(old, inner)
        : value
    );
  }
  return out;
}

export function elasticsearchRequest({
  change,
  fields,
  keys
}: TypedChange): WriteRequest {
  switch (change.kind) {
    case 'update':
      // `_source=true`: the answer carries the document as stored, for the grid to show. The
      // engine merges `doc` into the source key by key, so a field written under the key the
      // document holds it by (a flat `a.b`) replaces that value.
      return {
        method: 'POST',
        path: `/${segment(change.row.index)}/_update/${segment(change.row.id)}`,
        query: `refresh=wait_for&_source=true${versionQuery(change.version)}`,
        body: {
          doc: nestFields(fields, name => keys?.[name] ?? name.split('.'))
        }
      };
    case 'insert':
      if (change.id === undefined) {
        return {
          method: 'POST',
          path: `/${segment(change.index)}/_doc`,
          query: 'refresh=wait_for',
          body: nestFields(fields)
        };
      }
      return {
        method: 'PUT',
        path: `/${segment(change.index)}/_doc/${segment(change.id)}`,
        // With a version the user chose to replace that document; otherwise never replace one.
        query: change.version
          ? `refresh=wait_for${versionQuery(change.version)}`
          : 'op_type=create&refresh=wait_for',
        body: nestFields(fields)
      };
    case 'delete':
      return {
        method: 'DELETE',
        path: `/${segment(change.row.index)}/_doc/${segment(change.row.id)}`,
        query: `refresh=wait_for${versionQuery(change.version)}`
      };
  }
}

/** The engine's write primitives (documentWrites() runs them), its whole-document reads, and its target actions. */
export class ElasticsearchEdits implements TargetActions {
  readonly writes: EngineWrites;

  constructor(
    private readonly transport: Transport,
    private readonly structure: (
      index: string,
      signal: AbortSignal
    ) => Promise<FieldTree | undefined>,
    /** Told of each write: cached mappings it may change are dropped. */
    private readonly noted: (request: WriteRequest) => void,
    /** Reads of whole documents ask for vectors on versions that leave them out, so a write keeps them. */
    private readonly version: ElasticsearchVersion,
    /** The product that answers (Elasticsearch or OpenSearch), for error texts. */
    private readonly product: () => Flavour['product'],
    /** How an index stores documents: whether it updates in place and keeps sequence numbers. */
    private readonly storage: (
      index: string,
      signal: AbortSignal
    ) => Promise<IndexStorage>
  ) {
    this.writes = {
      transport,
      tree: (index, signal) => structure(segment(index), signal),
      // The grid shows no _score (it browses), so no column says it is read-only: a leading column all the same.
      typeValue: (field, text) => {
        const leading = LEADING.find(c => c.name === field.name);
        const readOnly = leading && readOnlyRefusal({ ...field, ...leading });
        if (readOnly) {
          throw valueRefusal(field.name, readOnly);
        }
        return typeElasticsearchValue(field, text);
      },
      request: (typed, signal) => this.request(typed, signal),
      outcome: (typed, response, sent, signal) =>
        this.outcome(typed, response, sent, signal),
      noteWrite: noted,
      storedDocuments: (index, ids, signal) =>
        this.storedDocuments(index, ids, signal)
    };
  }

  private async request(
    typed: TypedChange,
    signal: AbortSignal
  ): Promise<WriteRequest> {
    const { change } = typed;
    if (change.kind !== 'update') {
      return elasticsearchRequest(typed);
    }
    const storage = await this.storage(change.row.index, signal);
    if (!storage.timeSeries && !storage.noSequenceNumbers) {
      return elasticsearchRequest(typed);
    }
    const stored = await this.current(change.row, signal);
    if (!stored) {
      throw new RequestFailedError(
        `Document ${change.row.id} is no longer in ${change.row.index}: it was deleted after the grid read it, so your change was not written. Refresh the grid.`,
        404
      );
    }
    return wholeDocumentRequest(typed, stored.source);
  }

  private async storedDocuments(
    index: string,
    ids: string[],
    signal: AbortSignal
  ): Promise<Map<string, JsonValue>> {
    const response = await this.transport.send(
      {
        method: 'POST',
        path: `/${segment(index)}/_mget`,
        query: this.version.vectorsQuery(),
        body: { kind: 'json', value: { ids } }
      },
      signal
    );
    const failure = elasticsearchFailure(response, this.product());
    if (failure) {
      throw failure;
    }
    const { docs } = MgetAnswer.parse(
      response.body.kind === 'json' ? response.body.value : null
    );
    return new Map(
      docs
        .filter(doc => doc.found === true)
        .map(doc => [doc._id, (doc._source ?? {}) as JsonValue])
    );
  }

  /** The stored document with the metadata its GET answers; undefined when it is gone. */
  async wholeDocument(
    row: RowKey,
    signal: AbortSignal
  ): Promise<WholeDocument | undefined> {
    const stored = await this.current(row, signal);
    return (
      stored && {
        document: stored.source,
        meta: stored.meta,
        values: stored.row,
        ...(stored.version ? { version: stored.version } : {})
      }
    );
  }

  /** The stored document as a grid row; undefined when it is gone. */
  async currentRow(
    row: RowKey,
    signal: AbortSignal
  ): Promise<Record<string, JsonValue> | undefined> {
    return (await this.current(row, signal))?.row;
  }

  offered(target: string): TargetAction[] {
    const several = /[*,]/.test(target) || target === '_all';
    return [
      {
        action: 'delete',
        label: 'Delete index',
        request: `DELETE /${targetSegment(target)}`,
        ...(several
          ? {
              unavailable: `${target} may name several indices; delete names one index: open that index from the list and delete it there.`
            }
          : {})
      }
    ];
  }

  async run(
    target: string,
    action: TargetActionId,
    signal: AbortSignal
  ): Promise<{ request: SentRequest; message: string }> {
    if (action !== 'delete') {
      throw new Error(
        `Elasticsearch has no "${action}" for an index (it has no truncate); delete its documents with POST /${target}/_delete_by_query in a cell.`
      );
    }
    const sent: SentRequest[] = [];
    const request: WriteRequest = {
      method: 'DELETE',
      path: `/${targetSegment(target)}`,
      query: ''
    };
    try {
      await sendGridRequest(
        this.transport,
        { method: request.method, path: request.path },
        r => elasticsearchFailure(r, this.product()),
        sent,
        signal
      );
    } finally {
      this.noted(request);
    }
    return {
      request: sent[0] as SentRequest,
      message: `Deleted index ${target}.`
    };
  }

  private async outcome(
    typed: TypedChange,
    response: EngineResponse,
    sent: SentRequest,
    signal: AbortSignal
  ): Promise<ChangeResult> {
    const { change } = typed;
    const key = change.key;
    const body = response.body.kind === 'json' ? response.body.value : null;
    if (response.status < 300) {
      const answer = WriteAnswer.parse(body);
      const row = { index: answer._index, id: answer._id };
      // A new row is stored as sent (the grid shows it with the id the engine gave); an update answers the stored document.
      const source =
        change.kind === 'insert'
          ? nestFields(typed.fields)
          : change.kind === 'update'
            ? answer.get?._source
            : undefined;
      // A whole document written in place of `_update` is read back: a rebuilt `_source` is what the engine shows.
      const reread =
        change.kind === 'update' && answer.get === undefined
          ? await this.current(row, signal)
          : undefined;
      const document =
        source !== undefined
          ? { document: await this.gridRow(row, source as JsonValue, signal) }
          : reread
            ? { document: reread.row }
            : {};
      return {
        key,
        status: 'saved',
        row,
        ...versionOf(answer),
        ...document,
        request: sent
      };
    }
    const failure = elasticsearchFailure(response, this.product());
    if (response.status === 409 || goneMeanwhile(change.kind, response)) {
      const row =
        change.kind === 'insert'
          ? { index: change.index, id: change.id ?? '' }
          : change.row;
      const current = await this.current(row, signal);
      // A save sent again after its answer was lost (a restart mid-save) finds its own write.
      if (alreadyStored(typed, current)) {
        return {
          key,
          status: 'saved',
          row,
          ...(current?.version ? { version: current.version } : {}),
          ...(current ? { document: current.row } : {}),
          request: sent
        };
      }
      const reason =
        failure?.message ?? `${this.product()} answered ${response.status}`;
      const message =
        change.kind === 'insert' && current && !change.version
          ? `A document with id ${row.id} already exists in ${row.index}, so your new row was not written (${reason}). Overwrite replaces that document with your row; or drop your row.`
          : current
            ? `Someone changed this document after the grid read it, so your change was not written (${reason}). The current document is shown beside your edit: overwrite it, or drop your edit.`
            : `This document was deleted after the grid read it, so your change was not written (${reason}).`;
      return {
        key,
        status: 'conflict',
        message,
        current: current?.row ?? null,
        ...(current?.version ? { version: current.version } : {}),
        request: sent
      };
    }
    return {
      key,
      status: 'failed',
      message:
        failure?.message ?? `${this.product()} answered ${response.status}.`,
      httpStatus: response.status,
      request: sent
    };
  }

  /** The stored document as a grid row and as stored, with its version; undefined when it is gone. */
  private async current(
    row: RowKey,
    signal: AbortSignal
  ): Promise<Stored | undefined> {
    const response = await this.transport.send(
      {
        method: 'GET',
        path: `/${segment(row.index)}/_doc/${segment(row.id)}`,
        query: this.version.vectorsQuery()
      },
      signal
    );
    if (response.status === 404) {
      return undefined;
    }
    const failure = elasticsearchFailure(response, this.product());
    if (failure) {
      throw failure;
    }
    const answer = GetAnswer.parse(
      response.body.kind === 'json' ? response.body.value : null
    );
    if (!answer.found) {
      return undefined;
    }
    const source = (answer._source ?? {}) as JsonValue;
    // An index without sequence numbers answers -2 and 0: those are left out, as versionOf does.
    const sequenced = versionOf(answer).version !== undefined;
    const meta: DocumentMeta[] = [
      { name: '_index', value: answer._index ?? row.index },
      { name: '_id', value: answer._id ?? row.id },
      ...(answer._version !== undefined
        ? [{ name: '_version', value: answer._version }]
        : []),
      ...(sequenced
        ? [
            { name: '_seq_no', value: answer._seq_no ?? null },
            { name: '_primary_term', value: answer._primary_term ?? null }
          ]
        : []),
      ...(answer._routing !== undefined
        ? [{ name: '_routing', value: answer._routing }]
        : [])
    ];
    return {
      row: await this.gridRow(row, source, signal),
      source,
      meta,
      ...versionOf(answer)
    };
  }

  private async gridRow(
    row: RowKey,
    source: JsonValue,
    signal: AbortSignal
  ): Promise<Record<string, JsonValue>> {
    const tree = await this.structure(segment(row.index), signal);
    const grid = documentGrid({
      tree,
      leading: UNSCORED_LEADING,
      documents: [{ meta: { _id: row.id, _index: row.index }, source }]
    });
    return grid.rows[0] ?? {};
  }
}

interface Stored {
  row: Record<string, JsonValue>;
  source: JsonValue;
  meta: DocumentMeta[];
  version?: RowVersion;
}

/**
 * Whether the engine already holds what a refused write wanted: a new row stored as sent, an
 * edit whose fields all hold the values typed, a deletion of a document that is gone.
 */
function alreadyStored(
  { change, fields }: TypedChange,
  current: Stored | undefined
): boolean {
  switch (change.kind) {
    case 'insert':
      return (
        current !== undefined &&
        isDeepStrictEqual(current.source, nestFields(fields))
      );
    case 'update':
      return current !== undefined && holdsFields(current.row, fields);
    case 'delete':
      return current === undefined;
  }
}

/** An update or delete of a document that is no longer there: someone deleted it meanwhile. */
function goneMeanwhile(
  kind: TypedChange['change']['kind'],
  response: EngineResponse
): boolean {
  if (response.status !== 404) {
    return false;
  }
  const body = asObject(
    response.body.kind === 'json' ? response.body.value : undefined
  );
  if (kind === 'delete') {
    return body?.result === 'not_found';
  }
  return (
    kind === 'update' &&
    asObject(body?.error)?.type === 'document_missing_exception'
  );
}
