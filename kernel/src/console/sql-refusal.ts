/**
 * The console sends HTTP requests; text that reads as SQL is refused, never guessed at.
 * `DELETE FROM books WHERE id = 1` starts with an HTTP method, so the decision cannot rest on
 * the first word alone: a request line is `METHOD path` with no whitespace in the path.
 */
import { refuse, withForm } from './refusal';

const SQL_STATEMENT_START = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'WITH',
  'CREATE',
  'DROP',
  'ALTER',
  'TRUNCATE',
  'SHOW',
  'DESCRIBE',
  'DESC',
  'EXPLAIN',
  'MERGE',
  'UPSERT',
  'REPLACE',
  'GRANT',
  'REVOKE',
  'VALUES',
  'UNION'
]);
const SQL_WORDS =
  /(?:^|[\s(])(?:FROM|WHERE|INTO|SET|VALUES|JOIN|LIMIT|ORDER\s+BY|GROUP\s+BY|HAVING|TABLE|\*)(?=$|[\s(;])/i;

/** What follows a method in SQL and never names an index or collection on its own: `DELETE FROM`, `INSERT INTO`. */
const SQL_TARGET = /^(?:FROM|INTO|TABLE|WHERE|SET|VALUES)$/i;

/**
 * A `METHOD target` line that is SQL all the same: `DELETE FROM` (the table on the next line),
 * or a statement ended by `;` (`DELETE books;`); a path never ends with one.
 */
export function isSqlTarget(target: string): boolean {
  return SQL_TARGET.test(target) || /;$/.test(target);
}

export function looksLikeSql(line: string): boolean {
  const first = /^[A-Za-z]+/.exec(line)?.[0]?.toUpperCase();
  return (
    (first !== undefined && SQL_STATEMENT_START.has(first)) ||
    SQL_WORDS.test(line) ||
    /;\s*$/.test(line)
  );
}

/** The advice without a connection; a connection's driver gives its own engine's (Driver.sqlAdvice). */
export const SQL_ADVICE = withForm(
  'Rewrite it as a request, for example a search with a `query` in the JSON body.'
);

export function refuseSql(line: number, column: number): never {
  refuse(
    'SQLRefused',
    `The console sends HTTP requests, not SQL: line ${line} reads as SQL.`,
    SQL_ADVICE,
    { line, column }
  );
}

export function refuseSqlEndpoint(line: number, column: number): never {
  refuse(
    'SQLEndpointRefused',
    `The _sql endpoint is not reachable from the console (line ${line}).`,
    withForm('Use the search API with a JSON query instead.'),
    { line, column }
  );
}
