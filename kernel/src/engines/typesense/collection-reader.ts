/**
 * Reads a collection block by block for the document grid: searches of
 * 250 documents (the engine's most per request), batched fifty to a POST /multi_search, so the
 * default block of 1,000 rows is one round trip. Offsets are the engine's own, so any block is
 * one request away.
 */
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import type { RowKey } from '../../../../contracts/edit-protocol';
import type { SentRequest } from '../../../../contracts/panel-protocol';
import { asObject } from '../../driver-core/document-columns';
import {
  type DocumentBlock,
  type DocumentReader
} from '../../driver-core/driver';
import { RequestFailedError } from '../../driver-core/errors';
import type { FieldTree } from '../../driver-core/field-tree';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typesenseFailure } from './failure';
import type { SearchParameters } from './grid-filter';
import { documentsGrid } from './present';
import { previewGrid } from './search-preview';

export const DOCUMENTS_PER_SEARCH = 250;
export const SEARCHES_PER_BATCH = 50;

const Found = z
  .object({
    found: z.number().int(),
    hits: z.array(z.object({ document: z.unknown() }).loose())
  })
  .loose();
const Failed = z.object({ code: z.number().int(), error: z.string() }).loose();
const MultiSearchAnswer = z
  .object({ results: z.array(z.union([Found, Failed])) })
  .loose();

interface ReaderSetup {
  transport: Transport;
  collection: string;
  blockSize: number;
  tree: FieldTree | undefined;
  /** The view's `filter_by` and `sort_by` (and its query's `q` and `query_by`), on every search. */
  parameters: SearchParameters;
  /** The server pages with page and per_page only (see pagesOnly). */
  byPages: boolean;
}

/**
 * `tree` (the schema) is read while the first block is fetched; it holds `firstRows` rows when
 * given (block 0 whole otherwise).
 */
export async function openCollectionReader(
  opening: Omit<ReaderSetup, 'tree'> & { tree: Promise<FieldTree | undefined> },
  signal: AbortSignal,
  firstRows?: number
): Promise<{ reader: DocumentReader; first: DocumentBlock }> {
  const reader = new CollectionReader({ ...opening, tree: undefined });
  const [documents, tree] = await Promise.all([
    reader.readDocuments(0, signal, firstRows),
    opening.tree
  ]);
  reader.tree = tree;
  return { reader, first: reader.present(documents) };
}

/** Each row's collection and `id`; Typesense keeps no versions. A document without a string id cannot be edited, so then no keys at all. */
function rowKeys(
  collection: string,
  documents: JsonValue[]
): Pick<DocumentBlock, 'keys' | 'versions'> {
  const keys: RowKey[] = [];
  for (const document of documents) {
    const id = asObject(document)?.id;
    if (typeof id !== 'string' || id === '') {
      return {};
    }
    keys.push({ index: collection, id });
  }
  return { keys, versions: keys.map(() => null) };
}

type GridSearch = Record<string, JsonValue>;

/** One search of a grid read; the view's cell shows the first. */
export function gridSearch(
  collection: string,
  parameters: SearchParameters,
  offset: number,
  limit: number
): GridSearch {
  return { collection, q: '*', ...parameters, offset, limit };
}

/** A search of the read and which of its hits the read keeps (all when absent). */
interface PlannedSearch {
  search: GridSearch;
  keep?: { from: number; count: number };
}

/**
 * The searches that read `limit` documents from `offset`: one by offset and limit, or, for a
 * server that pages only (pagesOnly), the pages of `limit` documents that cover them (one when
 * the offset falls on a page boundary, else two, of which the read keeps its part).
 */
export function searchesFor(
  collection: string,
  parameters: SearchParameters,
  offset: number,
  limit: number,
  byPages: boolean
): PlannedSearch[] {
  if (!byPages) {
    return [{ search: gridSearch(collection, parameters, offset, limit) }];
  }
  const page = (n: number): GridSearch => ({
    collection,
    q: '*',
    ...parameters,
    page: n,
    per_page: limit
  });
  const first = Math.floor(offset / limit) + 1;
  const skip = offset % limit;
  if (skip === 0) {
    return [{ search: page(first) }];
  }
  return [
    { search: page(first), keep: { from: skip, count: limit - skip } },
    { search: page(first + 1), keep: { from: 0, count: skip } }
  ];
}

class CollectionReader implements DocumentReader {
  total = 0;
  tree: FieldTree | undefined;

  constructor(private readonly setup: ReaderSetup) {
    this.tree = setup.tree;
  }

  async readBlock(block: number, signal: AbortSignal): Promise<DocumentBlock> {
    return this.present(await this.readDocuments(block, signal));
  }

  /** The block's documents as grid rows, columns from the schema. */
  present({
    documents,
    hits,
    sent
  }: {
    documents: JsonValue[];
    hits: unknown[];
    sent: SentRequest[];
  }): DocumentBlock {
    // Under a query each hit also brings its score and highlights.
    if (this.setup.parameters.q !== undefined) {
      const { columns, rows, highlights } = previewGrid(hits, this.tree);
      return {
        columns,
        rows,
        highlights,
        ...rowKeys(this.setup.collection, documents),
        requests: sent,
        total: this.total
      };
    }
    // Not spread: the grid's rows are a getter, built when first read.
    const grid = documentsGrid(documents, this.tree, false);
    return {
      columns: grid.columns,
      rows: grid.rows,
      ...rowKeys(this.setup.collection, documents),
      requests: sent,
      total: this.total
    };
  }

  /** Block `block`'s documents, or only its first `rows`. */
  async readDocuments(
    block: number,
    signal: AbortSignal,
    rows = this.setup.blockSize
  ): Promise<{ documents: JsonValue[]; hits: unknown[]; sent: SentRequest[] }> {
    const sent: SentRequest[] = [];
    const start = block * this.setup.blockSize;
    const end = start + Math.min(rows, this.setup.blockSize);
    const planned: PlannedSearch[] = [];
    for (let offset = start; offset < end; offset += DOCUMENTS_PER_SEARCH) {
      planned.push(
        ...searchesFor(
          this.setup.collection,
          this.setup.parameters,
          offset,
          Math.min(DOCUMENTS_PER_SEARCH, end - offset),
          this.setup.byPages
        )
      );
    }
    const searches = planned.map(p => p.search);
    const batches: (typeof searches)[] = [];
    for (let i = 0; i < searches.length; i += SEARCHES_PER_BATCH) {
      batches.push(searches.slice(i, i + SEARCHES_PER_BATCH));
    }
    const answers = await Promise.all(
      batches.map(async batch =>
        MultiSearchAnswer.parse(
          await sendGridRequest(
            this.setup.transport,
            {
              method: 'POST',
              path: '/multi_search',
              body: { searches: batch }
            },
            typesenseFailure,
            sent,
            signal
          )
        )
      )
    );
    const documents: JsonValue[] = [];
    const hits: unknown[] = [];
    for (const [i, result] of answers.flatMap(a => a.results).entries()) {
      const failed = Failed.safeParse(result);
      if (failed.success) {
        throw new RequestFailedError(
          `Typesense answered ${failed.data.code}: ${failed.data.error}`,
          failed.data.code
        );
      }
      const found = Found.parse(result);
      this.total = found.found;
      const keep = planned[i]?.keep;
      const kept = keep
        ? found.hits.slice(keep.from, keep.from + keep.count)
        : found.hits;
      documents.push(...kept.map(hit => (hit.document ?? null) as JsonValue));
      hits.push(...kept);
    }
    return { documents, hits, sent };
  }

  async close(): Promise<void> {
    // Typesense keeps no cursor: nothing to release.
  }
}
