/**
 * Typesense splits a query string at every `&`, so `filter_by=year:>=1990 && rating:>4.5`
 * reaches it as `filter_by=year:>=1990 ` plus two parameters it ignores: a silently narrower
 * filter. Such query strings are refused before anything is sent.
 */
import type { ConsoleRequest } from '../../console/cell';
import { Refusal } from '../../console/refusal';

/** Typesense parameter names: `filter_by`, `q`, `x-typesense-api-key`, `facet_query`... */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** `name=value`; Typesense has no valueless flags, so a bare word is a piece cut off a value. */
const isParameter = (part: string | undefined): boolean =>
  part !== undefined &&
  part.includes('=') &&
  PARAMETER_NAME.test(part.split('=')[0] ?? '');

function readable(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function queryStringRefusal(
  request: ConsoleRequest
): Refusal | undefined {
  if (!request.query) {
    return undefined;
  }
  const parts = request.query.split('&');
  // A trailing `&` cuts nothing off.
  if (parts.at(-1) === '') {
    parts.pop();
  }
  const stray = parts.findIndex(part => !isParameter(part));
  if (stray < 0) {
    return undefined;
  }
  const before = parts.slice(0, stray).reverse().find(isParameter);
  const owner = before?.split('=')[0];
  // What the user meant as one value: the owner's value and every stray piece after it.
  let end = stray;
  while (end < parts.length && !isParameter(parts[end])) {
    end++;
  }
  const meant = readable(
    parts.slice(before ? parts.indexOf(before) : stray, end).join('&')
  );
  const piece = readable(parts[stray] ?? '');
  const cut = piece === '' ? 'an empty piece between two `&`' : `\`${piece}\``;
  const message = owner
    ? `The query string would be cut at \`&\`: Typesense reads \`${readable(before ?? '')}\` as the whole ${owner} and ${cut} as a parameter of its own, so the request would do less than written (a filter would match more documents).`
    : `The query string would be cut at \`&\`: Typesense would read ${cut} as a parameter name, which it ignores.`;
  const value = owner ? meant.slice(owner.length + 1) : meant;
  const hint = [
    'Inside a value, write `&` as %26 (so `&&` as %26%26):',
    owner
      ? `  ${owner}=${value.replaceAll('&', '%26')}`
      : `  ${meant.replaceAll('&', '%26')}`,
    'or put the value in a variable, which is URL-encoded where it is used:',
    `  %set ${owner ?? 'value'} = ${JSON.stringify(value)}`,
    `  ${request.method} ${request.path}?…&${owner ?? 'name'}=\${${owner ?? 'value'}}`,
    '`||` needs no escaping. Parameters are written name=value.'
  ].join('\n');
  return new Refusal('QueryStringRefused', message, {
    hint,
    where: { kind: 'cell', line: request.line }
  });
}
