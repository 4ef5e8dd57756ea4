/**
 * `_delete_by_query`: searches the refreshed view, deletes in batches, reports version
 * conflicts per document; `wait_for_completion=false` runs it as a task.
 */
import { authorizeExplicit, narrow } from './auth';
import type { Context } from './context';
import { parsingError } from './errors';
import type { Exchange } from './exchange';
import type { JsonObject } from './json-value';
import type { IndexData } from './index-data';
import type { StoredDoc } from './stored-doc';
import { optionsFromQuery, resolveIndices } from './resolve';
import { matchingDocs } from './search/execute';
import type { TaskRecord } from './state';
import { startTask, finishTask } from './tasks';

interface Job {
  targets: { index: IndexData; doc: StoredDoc }[];
  proceedOnConflict: boolean;
  batchSize: number;
  refresh: boolean;
}

function emptyStatus(total: number): JsonObject {
  return {
    total,
    deleted: 0,
    batches: 0,
    version_conflicts: 0,
    noops: 0,
    retries: { bulk: 0, search: 0 },
    throttled_millis: 0,
    requests_per_second: -1.0,
    throttled_until_millis: 0
  };
}

/** Deletes one batch; returns false when done (or aborted on a conflict). */
function runBatch(
  job: Job,
  cursor: { next: number },
  status: JsonObject,
  failures: JsonObject[]
): boolean {
  const end = Math.min(cursor.next + job.batchSize, job.targets.length);
  status['batches'] = (status['batches'] as number) + 1;
  for (let i = cursor.next; i < end; i++) {
    const { index, doc } = job.targets[i] as {
      index: IndexData;
      doc: StoredDoc;
    };
    const live = index.get(doc.id);
    if (!live || live.seqNo !== doc.seqNo) {
      status['version_conflicts'] = (status['version_conflicts'] as number) + 1;
      failures.push({
        index: index.name,
        id: doc.id,
        cause: {
          type: 'version_conflict_engine_exception',
          reason: live
            ? `[${doc.id}]: version conflict, required seqNo [${doc.seqNo}], primary term [1]. current document has seqNo [${live.seqNo}] and primary term [1]`
            : `[${doc.id}]: version conflict, required seqNo [${doc.seqNo}], primary term [1]. but no document was found`,
          index_uuid: index.uuid,
          shard: '0',
          index: index.name
        },
        status: 409
      });
      if (!job.proceedOnConflict) {
        cursor.next = job.targets.length;
        return false;
      }
      continue;
    }
    index.remove(doc.id);
    status['deleted'] = (status['deleted'] as number) + 1;
  }
  cursor.next = end;
  return end < job.targets.length;
}

function response(
  started: number,
  status: JsonObject,
  failures: JsonObject[]
): JsonObject {
  return { took: Date.now() - started, timed_out: false, ...status, failures };
}

export function deleteByQuery(ex: Exchange, ctx: Context): void {
  const body = ex.json() ?? {};
  for (const k of Object.keys(body)) {
    if (k !== 'query' && k !== 'max_docs' && k !== 'slice') {
      throw parsingError(`request does not support [${k}]`);
    }
  }
  const expr = ex.params['index'] as string;
  authorizeExplicit(ex, ctx.state, 'deleteByQuery', expr);
  const indices = narrow(
    ex,
    'deleteByQuery',
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
  const maxDocs =
    ex.int('max_docs') ??
    (typeof body['max_docs'] === 'number' ? body['max_docs'] : Infinity);
  const targets: Job['targets'] = [];
  for (const index of indices) {
    for (const doc of matchingDocs(
      { index, docs: index.searchable() },
      body['query'],
      ctx.version
    )) {
      if (targets.length >= maxDocs) {
        break;
      }
      targets.push({ index, doc });
    }
  }
  const job: Job = {
    targets,
    proceedOnConflict: ex.query.get('conflicts') === 'proceed',
    batchSize: ex.int('scroll_size') ?? 1000,
    refresh:
      ex.query.get('refresh') !== null && ex.query.get('refresh') !== 'false'
  };
  const status = emptyStatus(targets.length);
  const failures: JsonObject[] = [];
  const cursor = { next: 0 };
  const started = Date.now();
  const done = (): JsonObject => {
    if (job.refresh) {
      indices.forEach(i => i.refresh());
    }
    return response(started, status, failures);
  };

  if (ex.query.get('wait_for_completion') === 'false') {
    const task: TaskRecord = startTask(
      ctx,
      'indices:data/write/delete/byquery',
      `delete-by-query [${indices.map(i => i.name).join(', ')}]`,
      status
    );
    // One batch per turn of the event loop, so the task can be observed while it runs.
    const step = (): void => {
      if (targets.length > 0 && runBatch(job, cursor, status, failures)) {
        setImmediate(step);
      } else {
        finishTask(task, done());
      }
    };
    setImmediate(step);
    ex.send(200, { task: `${task.node}:${task.id}` });
    return;
  }
  while (targets.length > 0 && runBatch(job, cursor, status, failures)) {
    // Each batch does its work inside runBatch; the loop only decides whether to go on.
  }
  const result = done();
  ex.send(failures.length > 0 && !job.proceedOnConflict ? 409 : 200, result);
}
