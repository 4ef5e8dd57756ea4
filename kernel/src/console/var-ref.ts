/**
 * `${name}` and `${env:NAME}` references, shared by paths, bodies and `%set` values.
 * Refusals name the variable and how to set it, and never carry an environment value.
 */
import type { JsonValue } from './cell';
import { refuse } from './refusal';
import { positionAt } from './text-position';
import { megabytes } from './answers';
import { jsonExtent } from './json-extent';
import { MAX_SUBSTITUTED_BYTES, type VariableScope } from './variables';
import { exactJson } from '../../../contracts/exact-json';

export interface VarRef {
  kind: 'var' | 'env';
  name: string;
  /** Offset of `$` and of the character after `}`. */
  start: number;
  end: number;
}

const REF = /\$\{(env:)?([A-Za-z_][A-Za-z0-9_]*)\}/y;

/** Reads the reference starting at `at` (a `$` followed by `{`), refusing a malformed one. */
export function readVarRef(text: string, at: number, limit: number): VarRef {
  REF.lastIndex = at;
  const match = REF.exec(text);
  if (!match || REF.lastIndex > limit) {
    const { line, column } = positionAt(text, at);
    refuse(
      'InvalidVariableReference',
      `Malformed variable reference at line ${line}, column ${column}.`,
      'Write `${name}` for a variable set with `%set name = <JSON value>`, or `${env:NAME}` for an environment variable. ' +
        'To send the characters `${` literally, put the text in a """triple-quoted""" string.',
      { line, column }
    );
  }
  return {
    kind: match[1] ? 'env' : 'var',
    name: match[2] as string,
    start: at,
    end: REF.lastIndex
  };
}

export interface ResolveOptions {
  /** `%set` values may not copy an environment variable, because `%vars` would show it. */
  allowEnv: boolean;
}

export function resolveVarRef(
  text: string,
  ref: VarRef,
  scope: VariableScope,
  options: ResolveOptions
): JsonValue {
  const { line, column } = positionAt(text, ref.start);
  if (ref.kind === 'env') {
    if (!options.allowEnv) {
      refuse(
        'EnvironmentVariableInSet',
        `\`\${env:${ref.name}}\` cannot be stored with %set (line ${line}, column ${column}).`,
        `%vars would show its value. Use \`\${env:${ref.name}}\` directly in the request path or body instead.`,
        { line, column }
      );
    }
    const value = scope.env(ref.name);
    if (value === undefined) {
      refuse(
        'UnsetEnvironmentVariable',
        `Environment variable ${ref.name} is not set (\`\${env:${ref.name}}\` at line ${line}, column ${column}).`,
        `Export it in the shell that starts Jupyter, for example \`export ${ref.name}=...\`, then start Jupyter again. ` +
          'Keeping the value in the environment keeps it out of the notebook.',
        { line, column }
      );
    }
    return value;
  }
  const value = scope.get(ref.name);
  if (value === undefined) {
    refuse(
      'UnknownVariable',
      `Unknown variable \`\${${ref.name}}\` at line ${line}, column ${column}.`,
      `Set it first with \`%set ${ref.name} = <JSON value>\`, for example \`%set ${ref.name} = "products"\`, ` +
        'above the request in this cell or in an earlier cell. `%vars` lists the variables that are set.',
      { line, column }
    );
  }
  if (!scope.spend(writtenBytes(value))) {
    refuse(
      'ValueTooLarge',
      `\`\${${ref.name}}\` at line ${line}, column ${column} would take this cell's variable references past ${megabytes(MAX_SUBSTITUTED_BYTES)} of JSON, the most one cell writes from variables.`,
      'Refer to fewer or smaller variables in the cell: each reference copies its whole value.',
      { line, column }
    );
  }
  return value;
}

/** What each value writes out, measured once: values are never changed once set. */
const WRITTEN = new WeakMap<object, number>();

function writtenBytes(value: JsonValue): number {
  if (typeof value === 'string') {
    return value.length;
  }
  if (value === null || typeof value !== 'object') {
    return 8;
  }
  let bytes = WRITTEN.get(value);
  if (bytes === undefined) {
    const extent = jsonExtent(value, Infinity, Infinity);
    bytes = extent.kind === 'within' ? extent.bytes : Infinity;
    WRITTEN.set(value, bytes);
  }
  return bytes;
}

/** Text of a value spliced into a string or a path: a string's own text, else its JSON. */
export function valueText(value: JsonValue): string {
  return typeof value === 'string' ? value : exactJson(value);
}
