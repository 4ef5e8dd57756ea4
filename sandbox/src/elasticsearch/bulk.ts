/**
 * `_bulk`: NDJSON action/source pairs, one result per item, `errors` when any item failed.
 * Bodies are scanned line by line without building intermediate arrays of the whole body.
 */
import { mayAccessIndex, INDEX_ACTIONS } from './auth';
import type { Context } from './context';
import { EsError, esError, illegalArgument } from './errors';
import type { Exchange } from './exchange';
import { isObject, type JsonObject } from './json-value';
import type { IndexData } from './index-data';
import { locateInBody } from './locate';
import { parseJson } from './long-json';
import {
  applyRefresh,
  deleteDoc,
  indexDoc,
  targetForWrite,
  updateDoc
} from './writes';

const ACTIONS = new Set(['index', 'create', 'update', 'delete']);

/** An item's error; positions in it point into the item's source line. */
function itemError(
  err: unknown,
  sourceLine: string | undefined
): { status: number; error: JsonObject } {
  if (err instanceof EsError) {
    const body = (
      err.locate && sourceLine !== undefined
        ? locateInBody(err.body, sourceLine, err.locate)
        : err.body
    ) as { error?: JsonObject };
    const e = { ...(body.error ?? {}) };
    delete e['root_cause'];
    return { status: err.status, error: e };
  }
  return { status: 500, error: { type: 'exception', reason: String(err) } };
}

export function bulk(ex: Exchange, ctx: Context): void {
  const text = ex.body.toString('utf8');
  if (text.length > 0 && !text.endsWith('\n') && ctx.version.major >= 8) {
    throw illegalArgument(
      'The bulk request must be terminated by a newline [\\n]'
    );
  }
  const defaultIndex = ex.params['index'];
  const items: JsonObject[] = [];
  const touched = new Set<IndexData>();
  let errors = false;
  let pos = 0;
  let lineNo = 0;
  const nextLine = (): string | undefined => {
    while (pos < text.length) {
      let end = text.indexOf('\n', pos);
      if (end < 0) {
        end = text.length;
      }
      const line = text.slice(pos, end);
      pos = end + 1;
      lineNo++;
      if (line.trim().length > 0) {
        return line;
      }
    }
    return undefined;
  };

  for (
    let actionLine = nextLine();
    actionLine !== undefined;
    actionLine = nextLine()
  ) {
    const actionLineNo = lineNo;
    let action: unknown;
    try {
      action = JSON.parse(actionLine);
    } catch {
      throw illegalArgument(
        `Malformed action/metadata line [${actionLineNo}], expected START_OBJECT but found [VALUE_STRING]`
      );
    }
    if (!isObject(action)) {
      throw illegalArgument(
        `Malformed action/metadata line [${actionLineNo}], expected START_OBJECT but found [${Array.isArray(action) ? 'START_ARRAY' : 'VALUE_STRING'}]`
      );
    }
    const kind = Object.keys(action)[0];
    if (!kind || !ACTIONS.has(kind)) {
      throw illegalArgument(
        `Malformed action/metadata line [${actionLineNo}], expected field [create], [delete], [index] or [update] but found [${kind ?? ''}]`
      );
    }
    const meta = action[kind];
    if (!isObject(meta)) {
      throw illegalArgument(
        `Malformed action/metadata line [${actionLineNo}], expected START_OBJECT but found [VALUE_STRING]`
      );
    }
    const indexName =
      typeof meta['_index'] === 'string' ? meta['_index'] : defaultIndex;
    const id =
      typeof meta['_id'] === 'string'
        ? meta['_id']
        : typeof meta['_id'] === 'number'
          ? String(meta['_id'])
          : undefined;
    let sourceLine: string | undefined;
    if (kind !== 'delete') {
      sourceLine = nextLine();
      if (sourceLine === undefined) {
        throw esError(400, {
          type: 'action_request_validation_exception',
          reason: 'Validation Failed: 1: no requests added;'
        });
      }
    }
    if (!indexName) {
      throw esError(400, {
        type: 'action_request_validation_exception',
        reason: 'Validation Failed: 1: index is missing;'
      });
    }
    let result: { status: number; body: JsonObject };
    try {
      if (ex.principal && !mayAccessIndex(ex.principal, 'bulk', indexName)) {
        const who =
          ex.principal.kind === 'api_key'
            ? `API key id [${ex.principal.key.id}] of user [${ex.principal.username}]`
            : `user [${ex.principal.username}]`;
        throw esError(403, {
          type: 'security_exception',
          reason: `action [${INDEX_ACTIONS.bulk.action}] is unauthorized for ${who} on indices [${indexName}], this action is granted by the index privileges [${INDEX_ACTIONS.bulk.grantedBy.join(',')}]`
        });
      }
      const index = targetForWrite(ctx, indexName);
      touched.add(index);
      if (kind === 'delete') {
        if (id === undefined) {
          throw esError(400, {
            type: 'action_request_validation_exception',
            reason: 'Validation Failed: 1: id is missing;'
          });
        }
        result = deleteDoc(ctx, index, id);
      } else {
        let source: unknown;
        try {
          source = parseJson(sourceLine as string) as JsonObject;
        } catch (err) {
          throw esError(400, {
            type:
              ctx.version.major >= 8
                ? 'document_parsing_exception'
                : 'mapper_parsing_exception',
            reason: 'failed to parse',
            caused_by: {
              type: 'x_content_parse_exception',
              reason: (err as Error).message
            }
          });
        }
        if (!isObject(source)) {
          throw esError(400, {
            type: 'illegal_argument_exception',
            reason: 'source is not an object'
          });
        }
        if (kind === 'update') {
          if (id === undefined) {
            throw esError(400, {
              type: 'action_request_validation_exception',
              reason: 'Validation Failed: 1: id is missing;'
            });
          }
          result = updateDoc(ctx, index, id, source);
        } else {
          result = indexDoc(ctx, index, id, source, {
            create: kind === 'create',
            size: (sourceLine as string).length,
            sent: sourceLine as string
          });
        }
      }
      // ?refresh=true: every item that was carried out reports the refresh it forced.
      const forced: JsonObject =
        ex.query.get('refresh') === '' || ex.query.get('refresh') === 'true'
          ? { forced_refresh: true }
          : {};
      items.push({
        [kind]: { ...result.body, ...forced, status: result.status }
      });
    } catch (err) {
      const { status, error } = itemError(err, sourceLine);
      errors = true;
      const item: JsonObject = { _index: indexName };
      if (ctx.version.major === 7) {
        item['_type'] = '_doc';
      }
      item['_id'] = id ?? null;
      item['status'] = status;
      item['error'] = error;
      items.push({ [kind]: item });
    }
  }
  if (items.length === 0) {
    throw esError(400, {
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: no requests added;'
    });
  }
  applyRefresh(ex.query.get('refresh'), touched);
  ex.send(200, { took: Date.now() - ex.started, errors, items });
}
