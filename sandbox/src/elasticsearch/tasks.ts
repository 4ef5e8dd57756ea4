/** The task registry behind `wait_for_completion=false`, and `GET /_tasks/<node:id>`. */
import { requireCluster } from './auth';
import type { Context } from './context';
import { esError, illegalArgument } from './errors';
import type { Exchange } from './exchange';
import type { JsonObject } from './json-value';
import type { TaskRecord } from './state';

export function startTask(
  ctx: Context,
  action: string,
  description: string,
  status: JsonObject
): TaskRecord {
  const task: TaskRecord = {
    node: ctx.state.nodeId,
    id: ctx.state.newTaskId(),
    action,
    description,
    startedAt: Date.now(),
    status,
    completed: false
  };
  ctx.state.tasks.set(`${task.node}:${task.id}`, task);
  return task;
}

export function finishTask(task: TaskRecord, response: JsonObject): void {
  task.completed = true;
  task.response = response;
}

function taskInfo(task: TaskRecord): JsonObject {
  return {
    node: task.node,
    id: task.id,
    type: 'transport',
    action: task.action,
    status: task.status,
    description: task.description,
    start_time_in_millis: task.startedAt,
    running_time_in_nanos: (Date.now() - task.startedAt) * 1_000_000,
    cancellable: true,
    cancelled: false,
    headers: {}
  };
}

export function getTask(ex: Exchange, ctx: Context): void {
  requireCluster(ex, ctx.version, 'tasks');
  const id = ex.params['task_id'] as string;
  if (!/^[^:]+:\d+$/.test(id)) {
    throw illegalArgument(`malformed task id ${id}`);
  }
  const task = ctx.state.tasks.get(id);
  if (!task) {
    throw esError(404, {
      type: 'resource_not_found_exception',
      reason: `task [${id}] isn't running and hasn't stored its results`
    });
  }
  const body: JsonObject = { completed: task.completed, task: taskInfo(task) };
  if (task.completed && task.response) {
    body['response'] = task.response;
  }
  ex.send(200, body);
}

export function listTasks(ex: Exchange, ctx: Context): void {
  requireCluster(ex, ctx.version, 'tasks');
  const tasks: JsonObject = {};
  for (const [key, t] of ctx.state.tasks) {
    if (!t.completed) {
      tasks[key] = taskInfo(t);
    }
  }
  ex.send(200, {
    nodes: {
      [ctx.state.nodeId]: {
        name: ctx.nodeName,
        roles: ['master', 'data'],
        tasks
      }
    }
  });
}
