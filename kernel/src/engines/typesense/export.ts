/**
 * Whole-collection export
 * ([export documents](https://typesense.org/docs/latest/api/documents.html#export-documents)):
 * `GET /collections/<c>/documents/export`
 * streamed and read line by line, not subject to the 250-hit ceiling. Lines are passed on as
 * the engine wrote them, so a file goes back with `documents/import` unchanged.
 */
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';
import { type EngineResponse } from '../../driver-core/driver';
import type { Column } from '../../../../contracts/columns';
import {
  type EngineError,
  InvalidExportError,
  RequestFailedError
} from '../../driver-core/errors';
import type {
  DocumentText,
  ExportPage,
  ExportRequest,
  ExportStream
} from '../../driver-core/capabilities/export';
import type { FieldTree } from '../../driver-core/field-tree';
import type { GridDocument } from '../../driver-core/grid-columns';
import { isUtf8 } from 'node:buffer';
import type { StreamedResponse } from '../../driver-core/http/answer-body';
import type { Transport } from '../../driver-core/http/transport';
import { ReusedBuffer } from '../../driver-core/http/reused-buffer';
import { typesenseFailure } from './failure';
import { filterOfView } from './grid-filter';
import { parseExactJson } from '../../../../contracts/exact-json';
import { eachJsonLine } from '../../driver-core/jsonl-lines';

const LEADING: Column[] = [
  {
    name: 'id',
    type: 'string',
    readOnly: true,
    json: false,
    origin: 'meta',
    primaryKey: true
  }
];

const BODY_ADVICE =
  'Write the export parameters as a JSON object on the lines after %export, for example {"filter_by": "year:<1960", "include_fields": "title,author"} (keys filter_by, include_fields, exclude_fields); fields=a,b on the %export line also picks fields.';

const ExportBody = z.strictObject({
  filter_by: z.string().optional(),
  include_fields: z.string().optional(),
  exclude_fields: z.string().optional()
});
const Collection = z.object({ num_documents: z.number() }).loose();
const Found = z.object({ found: z.number() }).loose();

export async function openTypesenseExport(
  transport: Transport,
  request: ExportRequest,
  tree: (collection: string) => Promise<FieldTree | undefined>,
  signal: AbortSignal,
  version?: string
): Promise<ExportStream> {
  if (request.view?.search) {
    // The export endpoint takes filter_by only: it would write every filtered document, not the matches shown.
    throw new Error(
      'Export writes the documents of the filters, and Typesense exports take no search query: clear the search (q) to export the filtered documents, or page the search in a cell.'
    );
  }
  const params = exportParams(request);
  const collection = encodeURIComponent(request.target);
  const fields = await tree(collection);
  const viewFilter = request.view
    ? filterOfView(request.view, fields, version)
    : undefined;
  if (viewFilter !== undefined) {
    params.filter_by =
      params.filter_by === undefined
        ? viewFilter
        : `(${params.filter_by}) && (${viewFilter})`;
  }
  const total = await totalOf(transport, collection, params.filter_by, signal);
  const response = await transport.stream(
    {
      method: 'GET',
      path: `/collections/${collection}/documents/export`,
      query: new URLSearchParams(params).toString()
    },
    signal
  );
  if (response.status >= 300) {
    throw await failureOf(response);
  }
  let body: AsyncIterator<Buffer> | undefined =
    response.body[Symbol.asyncIterator]();
  return {
    total,
    leading: LEADING,
    tree: fields,
    pages: () => linePages(body as AsyncIterator<Buffer>),
    close: async () => {
      // Stops reading: undici then drops the socket instead of draining the rest of the export.
      await body?.return?.();
      body = undefined;
    }
  };
}

/** Pages of at least this many bytes: fewer, larger writes than one per socket read. */
const PAGE_BYTES = 1 << 18;
const NEWLINE = 0x0a;

/**
 * Pages of whole lines as the socket delivers them, passed on as bytes: a line cut by a read
 * waits for the rest, so a stopped export never writes half a document. Pages alternate
 * between two reused buffers: a page is written before the page after next is read.
 */
async function* linePages(
  body: AsyncIterator<Buffer>
): AsyncGenerator<ExportPage> {
  const buffers = [new ReusedBuffer(), new ReusedBuffer()];
  let turn = 0;
  let chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await body.next();
    if (!next.done) {
      chunks.push(next.value);
      size += next.value.length;
      if (size < PAGE_BYTES) {
        continue;
      }
    }
    const bytes = (buffers[turn++ % 2] as ReusedBuffer).take(size);
    let at = 0;
    for (const chunk of chunks) {
      at += chunk.copy(bytes, at);
    }
    // Typesense ends the export without a newline: the last line is whole at the end.
    const cut = next.done ? bytes.length : bytes.lastIndexOf(NEWLINE) + 1;
    const rest = bytes.subarray(cut);
    chunks = rest.length > 0 ? [rest] : [];
    size = rest.length;
    const page = linesPage(bytes.subarray(0, cut));
    if (page.count > 0) {
      yield page;
    }
    if (next.done) {
      return;
    }
  }
}

export function linesPage(bytes: Buffer): ExportPage {
  let count = 0;
  for (
    let at = bytes.indexOf(NEWLINE);
    at !== -1;
    at = bytes.indexOf(NEWLINE, at + 1)
  ) {
    count++;
  }
  const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE;
  if (unterminated) {
    count++;
  }
  return {
    count,
    jsonl: () =>
      unterminated ? Buffer.concat([bytes, Buffer.from('\n')]) : bytes,
    eachDocument: visit =>
      eachJsonLine(bytes, source => visit(toDocument(source as JsonValue))),
    // Bytes that are not UTF-8 become text only by decoding (each bad sequence a U+FFFD).
    ...(isUtf8(bytes)
      ? { eachDocumentText: visit => eachLineText(bytes, visit) }
      : {})
  };
}

/** One line's text, the object reused for every line of a page. */
class LineText implements DocumentText {
  /** The `id` is one of the document's own fields, which set its column as they are placed. */
  readonly meta = [];
  start = 0;
  end = 0;

  constructor(readonly bytes: Buffer) {}

  decoded(): GridDocument {
    return toDocument(
      parseExactJson(
        this.bytes.toString('utf8', this.start, this.end)
      ) as JsonValue
    );
  }
}

/** Each non-empty line, as eachJsonLine reads them. */
function eachLineText(
  bytes: Buffer,
  visit: (document: DocumentText) => void
): void {
  const text = new LineText(bytes);
  for (let line = 0; line < bytes.length;) {
    const newline = bytes.indexOf(NEWLINE, line);
    const end = newline === -1 ? bytes.length : newline;
    if (end > line) {
      text.start = line;
      text.end = end;
      visit(text);
    }
    line = end + 1;
  }
}

function toDocument(source: JsonValue): GridDocument {
  const id = asObject(source)?.id;
  return { meta: id === undefined ? {} : { id }, source };
}

function exportParams(request: ExportRequest): Record<string, string> {
  if (request.slices !== undefined && request.slices > 1) {
    throw new InvalidExportError(
      'Typesense exports a collection as one stream, so slices= does not apply. Nothing was sent. Leave slices= out.'
    );
  }
  const parsed = ExportBody.safeParse(request.body ?? {});
  if (!parsed.success) {
    const keys = Object.keys(asObject(request.body) ?? {}).filter(
      k => !['filter_by', 'include_fields', 'exclude_fields'].includes(k)
    );
    const what =
      keys.length > 0
        ? `does not take ${keys.map(k => `"${k}"`).join(', ')}`
        : 'must be a JSON object of strings';
    throw new InvalidExportError(
      `A Typesense export body ${what}. Nothing was sent. ${BODY_ADVICE}`
    );
  }
  const params: Record<string, string> = { ...parsed.data };
  if (request.fields) {
    if (params.include_fields !== undefined) {
      throw new InvalidExportError(
        `fields= and "include_fields" both pick fields. Nothing was sent. Keep one of them.`
      );
    }
    // The id keeps the lines re-importable and leads the CSV; include_fields alone would drop it.
    params.include_fields = [...new Set(['id', ...request.fields])].join(',');
  }
  return params;
}

/** The collection's size, or the filter's match count; undefined when the key may not read it. */
async function totalOf(
  transport: Transport,
  collection: string,
  filterBy: string | undefined,
  signal: AbortSignal
): Promise<number | undefined> {
  if (filterBy === undefined) {
    const summary = await transport.send(
      { method: 'GET', path: `/collections/${collection}`, query: '' },
      signal
    );
    const failure = typesenseFailure(summary);
    if (failure && summary.status !== 401) {
      throw failure;
    }
    const parsed = Collection.safeParse(json(summary));
    return parsed.success ? parsed.data.num_documents : undefined;
  }
  const query = new URLSearchParams({
    q: '*',
    filter_by: filterBy,
    per_page: '1',
    include_fields: 'id'
  }).toString();
  const found = await transport.send(
    {
      method: 'GET',
      path: `/collections/${collection}/documents/search`,
      query
    },
    signal
  );
  const parsed = Found.safeParse(json(found));
  return parsed.success ? parsed.data.found : undefined;
}

async function failureOf(response: StreamedResponse): Promise<EngineError> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) {
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: EngineResponse['body'];
  try {
    body = { kind: 'json', value: parseExactJson(text) as JsonValue };
  } catch {
    body = { kind: 'text', text };
  }
  return (
    typesenseFailure({
      status: response.status,
      headers: response.headers,
      body,
      elapsedMs: 0
    }) ??
    new RequestFailedError(
      `Typesense answered ${response.status}.`,
      response.status
    )
  );
}

function json(response: EngineResponse): JsonValue | undefined {
  return response.body.kind === 'json' ? response.body.value : undefined;
}
