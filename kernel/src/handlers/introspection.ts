import { type CompletionContext, complete } from '../introspection/complete';
import { inspect } from '../introspection/inspect';
import { isComplete } from '../console/is-complete';
import { CONSOLE_WORDING } from '../connections/console-wording';
import type { ConnectionRegistry } from '../connections/connection-registry';
import type { TargetListing } from '../driver-core/capabilities/catalog';
import type { VariableScope } from '../console/variables';
import { codePointToIndex, indexToCodePoint } from '../protocol/cursor';
import type { Handler } from '../protocol/kernel-server';
import { CodeAtCursor, IsCompleteRequest } from '../protocol/requests';

/** Completion must never hang a notebook: engine look-ups get this long. */
const LOOKUP_TIMEOUT_MS = 2000;

export function completionContext(
  connections: ConnectionRegistry,
  scope: VariableScope
): CompletionContext {
  const connection = connections.active;
  const variableNames = () => scope.names();
  if (!connection) {
    return {
      endpoints: async () => [],
      targetNames: async () => [],
      fieldNames: async () => [],
      variableNames
    };
  }
  const { driver } = connection;
  return {
    engine: driver.engine,
    variableNames,
    endpoints: () => driver.catalog.endpoints(),
    targetNames: () =>
      driver.catalog
        .listTargets(AbortSignal.timeout(LOOKUP_TIMEOUT_MS), { recent: true })
        .then(namesOf)
        .catch(() => []),
    fieldNames: (target, options) =>
      driver.catalog
        .fieldNames(target, AbortSignal.timeout(LOOKUP_TIMEOUT_MS), options)
        .catch(() => [])
  };
}

/** Every name a request may address: the listed targets and those the list leaves out (aliases). */
function namesOf(listing: TargetListing): string[] {
  return [
    ...new Set([...listing.targets.map(t => t.name), ...listing.unlisted])
  ].sort();
}

export function completeHandler(
  connections: ConnectionRegistry,
  scope: VariableScope
): Handler<'complete_request'> {
  return async ctx => {
    const { code, cursor_pos } = CodeAtCursor.parse(ctx.message.content);
    const cursor = codePointToIndex(code, cursor_pos);
    const result = await complete(
      code,
      cursor,
      completionContext(connections, scope)
    );
    await ctx.reply({
      matches: result.matches,
      cursor_start: indexToCodePoint(code, result.cursorStart),
      cursor_end: indexToCodePoint(code, result.cursorEnd),
      metadata: result.metadata ?? {}
    });
  };
}

export function inspectHandler(
  connections: ConnectionRegistry,
  scope: VariableScope
): Handler<'inspect_request'> {
  return async ctx => {
    const { code, cursor_pos } = CodeAtCursor.parse(ctx.message.content);
    const text = await inspect(
      code,
      codePointToIndex(code, cursor_pos),
      completionContext(connections, scope)
    );
    await ctx.reply(
      text
        ? { found: true, data: { 'text/plain': text }, metadata: {} }
        : { found: false, data: {}, metadata: {} }
    );
  };
}

export const isCompleteHandler: Handler<'is_complete_request'> = async ctx => {
  const { code } = IsCompleteRequest.parse(ctx.message.content);
  const result = isComplete(code, CONSOLE_WORDING);
  await ctx.reply(
    result.status === 'incomplete'
      ? { status: 'incomplete', indent: result.indent ?? '' }
      : { status: result.status }
  );
};
