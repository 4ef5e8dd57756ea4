/**
 * Console requests as Python code for an engine's official client (Copy as Python): what every
 * engine shares, the literals and the program's shape. Each engine says how its client is made
 * and called (engines/<name>/python-client.ts); secrets are read from `os.environ` by the names
 * of the variables the connection took them from, as a copied curl command names them.
 */
import type { ConsoleRequest, JsonValue } from '../console/cell';
import { ExactNumber, exactJson } from '../../../contracts/exact-json';

/** How one connection is reached from Python with its engine's official client. */
export interface PythonClient {
  /** The package to install (`elasticsearch`, `typesense`), said in the program's first comment. */
  readonly package: string;
  /** `import` lines the code needs. */
  readonly imports: readonly string[];
  /** Comment lines above the client: what a placeholder variable stands for, unchecked certificates. */
  readonly notes: readonly string[];
  /** Lines that make the client as `name`. */
  setup(name: string): string[];
  /** Lines that send `request` with the client `name` and print the engine's answer. */
  call(name: string, request: ConsoleRequest): string[];
}

const INDENT = '    ';
const INLINE_WIDTH = 60;

/** A Python string literal: JSON's escapes are Python's too. */
export function pythonString(text: string): string {
  return JSON.stringify(text);
}

/** A Python literal of a JSON value (`True`, `False`, `None`), spread over lines when long. */
export function pythonValue(value: JsonValue, depth = 0): string {
  if (value === null) {
    return 'None';
  }
  if (value === true) {
    return 'True';
  }
  if (value === false) {
    return 'False';
  }
  if (typeof value === 'number' || value instanceof ExactNumber) {
    return exactJson(value);
  }
  if (typeof value === 'string') {
    return pythonString(value);
  }
  const entries = Array.isArray(value)
    ? value.map(item => pythonValue(item, depth + 1))
    : Object.entries(value).map(
        ([key, item]) => `${pythonString(key)}: ${pythonValue(item, depth + 1)}`
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const inline = `${open}${entries.join(', ')}${close}`;
  if (
    entries.length === 0 ||
    (inline.length <= INLINE_WIDTH && !inline.includes('\n'))
  ) {
    return inline;
  }
  const inner = INDENT.repeat(depth + 1);
  return `${open}\n${entries.map(e => `${inner}${e},`).join('\n')}\n${INDENT.repeat(depth)}${close}`;
}

/** A request's query string as a Python dict of its parameters (decoded), or undefined when it has none. */
export function pythonParams(query: string): string | undefined {
  if (!query) {
    return undefined;
  }
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    params[key] = value;
  }
  return pythonValue(params, 1);
}

/** `name(` arguments `)` one a line, as Black writes a call that does not fit one line. */
export function pythonCall(
  target: string,
  callee: string,
  args: readonly string[]
): string[] {
  const head = target ? `${target} = ${callee}(` : `${callee}(`;
  const inline = `${head}${args.join(', ')})`;
  if (inline.length <= 88 && !inline.includes('\n')) {
    return [inline];
  }
  return [head, ...args.map(a => `${INDENT}${a},`), ')'];
}

/** One connection's requests, in the order the cell sends them. */
export interface PythonPart {
  client: PythonClient;
  /** The connection's key among the parts: requests on one connection share its client. */
  connection: string;
  request: ConsoleRequest;
}

/**
 * The whole program: imports, one client per connection (`client`, `client_2`, ...), then each
 * request and its printed answer, in order.
 */
export function pythonProgram(parts: readonly PythonPart[]): string {
  const imports = new Set<string>(['import json', 'import os']);
  const packages = new Set<string>();
  const names = new Map<string, string>();
  const clients: string[] = [];
  const calls: string[] = [];
  for (const part of parts) {
    part.client.imports.forEach(line => imports.add(line));
    packages.add(part.client.package);
    let name = names.get(part.connection);
    if (!name) {
      name = names.size === 0 ? 'client' : `client_${names.size + 1}`;
      names.set(part.connection, name);
      clients.push(
        '',
        ...part.client.notes.map(note => `# ${note.replace(/\n/g, ' ')}`),
        ...part.client.setup(name)
      );
    }
    calls.push('', ...part.client.call(name, part.request));
  }
  const sorted = [...imports].sort((a, b) => {
    // Standard library first, then the clients, as isort orders them.
    const std = (line: string): number =>
      line === 'import json' || line === 'import os' ? 0 : 1;
    return std(a) - std(b) || a.localeCompare(b);
  });
  const firstThirdParty = sorted.findIndex(
    line => line !== 'import json' && line !== 'import os'
  );
  if (firstThirdParty > 0) {
    sorted.splice(firstThirdParty, 0, '');
  }
  return [
    `# Needs: pip install ${[...packages].sort().join(' ')}`,
    ...sorted,
    ...clients,
    ...calls,
    ''
  ].join('\n');
}
