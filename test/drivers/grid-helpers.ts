import type { ConsoleRequest, JsonValue } from '../../kernel/src/console/cell';
import type { Connection } from '../../kernel/src/connections/open-connection';
import type { ConsoleResult } from '../../kernel/src/driver-core/driver';
import type { Column } from '../../contracts/columns';

export type Hits = Extract<ConsoleResult, { kind: 'hits' }>;

/** Sends through the driver and presents the answer, as a cell does; fails unless it is a grid. */
export async function hitsOf(
  connection: Connection,
  req: ConsoleRequest
): Promise<Hits> {
  const response = await connection.driver.console.send(
    req,
    new AbortController().signal
  );
  const failure = connection.driver.console.failure(req, response);
  if (failure) {
    throw failure;
  }
  const result = connection.driver.console.present(req, response);
  if (result.kind !== 'hits') {
    throw new Error(`expected a grid, got ${result.kind}`);
  }
  return result;
}

/** `name:type` per column, in order: what a user reads in the grid's header. */
export function columnSummary(columns: Column[]): string[] {
  return columns.map(c => `${c.name}:${c.type}`);
}

export function rowById(
  rows: Record<string, JsonValue>[],
  key: string,
  id: string
): Record<string, JsonValue> {
  const row = rows.find(r => r[key] === id);
  if (!row) {
    throw new Error(`no row with ${key} ${id}`);
  }
  return row;
}
