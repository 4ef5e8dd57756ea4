import { ExactNumber, exactJson } from '@searchbook/contracts/exact-json';
/**
 * A JSON value as a tree of native disclosure elements (`<details>`), open to a sensible depth so
 * a mapping or an error reads at a glance; deeper levels and long arrays start closed. Every key
 * and value is inserted as text, never markup.
 */

/** Levels open at first: the answer and three below it (`products › mappings › properties`), so a mapping shows its fields. */
export const OPEN_DEPTH = 4;
/** Arrays and objects with more entries than this start closed whatever their depth. */
const OPEN_ENTRIES = 50;
/** An answer this short (compact JSON characters) is shown as plain indented text: no tree to open. */
export const COMPACT_CHARS = 400;

function span(className: string, text: string): HTMLSpanElement {
  const node = document.createElement('span');
  node.className = className;
  node.textContent = text;
  return node;
}

function scalar(value: unknown): HTMLSpanElement {
  const kind =
    value === null
      ? 'null'
      : value instanceof ExactNumber
        ? 'number'
        : typeof value;
  return span(`searchbook-Json-${kind}`, exactJson(value) ?? String(value));
}

function entriesOf(value: object): [string, unknown][] {
  return Array.isArray(value)
    ? value.map((v, i): [string, unknown] => [String(i), v])
    : Object.entries(value);
}

function node(
  key: string | undefined,
  value: unknown,
  depth: number
): HTMLElement {
  if (
    value === null ||
    typeof value !== 'object' ||
    value instanceof ExactNumber
  ) {
    const line = document.createElement('div');
    line.className = 'searchbook-Json-line';
    if (key !== undefined) {
      line.append(span('searchbook-Json-key', `${key}: `));
    }
    line.append(scalar(value));
    return line;
  }
  const entries = entriesOf(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    const line = document.createElement('div');
    line.className = 'searchbook-Json-line';
    if (key !== undefined) {
      line.append(span('searchbook-Json-key', `${key}: `));
    }
    line.append(span('searchbook-Json-punct', `${open}${close}`));
    return line;
  }
  const details = document.createElement('details');
  details.className = 'searchbook-Json-node';
  details.open = depth < OPEN_DEPTH && entries.length <= OPEN_ENTRIES;
  const summary = document.createElement('summary');
  if (key !== undefined) {
    summary.append(span('searchbook-Json-key', `${key}: `));
  }
  summary.append(
    span('searchbook-Json-punct', open),
    span(
      'searchbook-Json-count',
      ` ${entries.length} ${Array.isArray(value) ? 'item' : 'key'}${entries.length === 1 ? '' : 's'} `
    ),
    span('searchbook-Json-punct', close)
  );
  details.append(summary);
  const body = document.createElement('div');
  body.className = 'searchbook-Json-children';
  for (const [childKey, child] of entries) {
    body.append(node(childKey, child, depth + 1));
  }
  details.append(body);
  return details;
}

/** The tree of a large answer, or indented text for a small one (a write's result). */
export function jsonView(value: unknown): HTMLElement {
  const compact = exactJson(value) ?? '';
  if (compact.length <= COMPACT_CHARS) {
    const pre = document.createElement('pre');
    pre.className = 'searchbook-JsonCompact';
    pre.textContent = exactJson(value, 2) ?? String(value);
    return pre;
  }
  const root = document.createElement('div');
  root.className = 'searchbook-JsonTree';
  root.append(node(undefined, value, 0));
  return root;
}
