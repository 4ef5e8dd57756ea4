/**
 * Bulk endpoints. Import answers one JSONL line per input line; export streams the
 * collection in chunks, never holding the whole of it in one string.
 */
import type http from 'node:http';
import { markWholeDoubles } from '../whole-doubles';
import type { Collection, DocRecord } from '../collection';
import { documentsCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { parseFilter } from '../filter/parse';
import { text, TEXT_TYPE, writeChunk, type Reply } from '../http-io';
import { isPlainObject, parseExactJson, sortedJson } from '../json';
import { pruneDocument } from '../paths';
import type { Router } from '../router';
import { parseDirtyValues, type DirtyValues } from '../validate';
import type { WriteAction } from '../collection';
import { parseAction } from './documents';

const EXPORT_CHUNK_DOCS = 1000;

export interface ImportOptions {
  action: WriteAction;
  dirty: DirtyValues;
  returnDoc: boolean;
  returnId: boolean;
  /** 26 and 27 echo a failed line whether asked or not. */
  docOnError: boolean;
}

export function importLines(
  coll: Collection,
  body: string,
  opts: ImportOptions
): string[] {
  const results: string[] = [];
  // Blank lines (a trailing newline, a gap between documents) are skipped and get no result line.
  const lines = body.split('\n').filter(line => line.trim() !== '');
  for (const line of lines) {
    let result: Record<string, unknown>;
    try {
      let parsed: unknown;
      try {
        parsed = parseExactJson(line);
      } catch (e) {
        throw new ApiError(400, `Bad JSON: ${(e as Error).message}`);
      }
      if (!isPlainObject(parsed)) {
        throw new ApiError(400, 'Bad JSON: not a properly formed document.');
      }
      markWholeDoubles(parsed, line);
      const stored = coll.write(parsed, opts.action, opts.dirty);
      result = { success: true };
      if (opts.returnDoc) {
        result.document = stored;
      }
      if (opts.returnId) {
        result.id = stored.id;
      }
    } catch (e) {
      if (!(e instanceof ApiError)) {
        throw e;
      }
      result = { code: e.status, error: e.message, success: false };
      if (opts.returnDoc || opts.docOnError) {
        result.document = line;
      }
    }
    results.push(sortedJson(result));
  }
  return results;
}

function exportReply(
  coll: Collection,
  pick: (rec: DocRecord) => string | null
): Reply {
  const records = coll.snapshot();
  return {
    kind: 'stream',
    status: 200,
    contentType: TEXT_TYPE,
    async write(res: http.ServerResponse): Promise<void> {
      let first = true;
      let i = 0;
      while (i < records.length && !res.destroyed) {
        const parts: string[] = [];
        const end = Math.min(records.length, i + EXPORT_CHUNK_DOCS);
        for (; i < end; i++) {
          const rec = records[i] as DocRecord;
          if (!rec.alive) {
            continue;
          }
          const line = pick(rec);
          if (line === null) {
            continue;
          }
          parts.push(line);
        }
        if (parts.length === 0) {
          continue;
        }
        // Lines are joined, never terminated: the export ends without a newline.
        await writeChunk(res, (first ? '' : '\n') + parts.join('\n'));
        first = false;
      }
    }
  };
}

export function registerImportExport(router: Router, engine: Engine): void {
  router
    .add(
      'POST',
      '/collections/:collection/documents/import',
      ctx => {
        const coll = documentsCollection(engine, ctx.params.collection ?? '');
        const results = importLines(coll, ctx.body, {
          action: parseAction(ctx.query.get('action')),
          dirty: parseDirtyValues(
            ctx.query.get('dirty_values'),
            coll.defaultDirtyValues
          ),
          returnDoc: ctx.query.get('return_doc') === 'true',
          returnId: ctx.query.get('return_id') === 'true',
          docOnError: engine.feat.importDocOnError
        });
        return text(200, results.join('\n'));
      },
      { kind: 'import' }
    )
    .add('GET', '/collections/:collection/documents/export', ctx => {
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      const filter = parseFilter(ctx.query.get('filter_by') ?? '', {
        field: n => coll.field(n),
        validateFieldNames: true
      });
      const list = (name: string): string[] | null => {
        const raw = ctx.query.get(name);
        return raw === undefined
          ? null
          : raw
              .split(',')
              .map(s => s.trim())
              .filter(s => s !== '');
      };
      const include = list('include_fields');
      const exclude = list('exclude_fields');
      const plain = !include && !exclude;
      return exportReply(coll, rec => {
        if (filter && !filter(rec.doc)) {
          return null;
        }
        // Stored documents are already key-sorted, so plain JSON.stringify keeps the engine's order.
        return JSON.stringify(
          plain ? rec.doc : pruneDocument(rec.doc, include, exclude)
        );
      });
    });
}
