/** `%name args` lines: the known magics, their one-line help, and `%set` validation. */
import { scanBlock } from './block-scan';
import type { JsonValue } from './cell';
import { EXPORT_USAGE } from './export-args';
import { parseBody } from './json-body';
import { refuse } from './refusal';
import { isVariableName, type VariableScope } from './variables';
import type { ConsoleWording } from './wording';

export interface MagicInfo {
  name: string;
  usage: string;
  description: string;
  /** Whether arguments are required, forbidden or free-form. */
  args: 'none' | 'required' | 'optional';
}

/** The magics, with the texts of `%connect` and `%export` that name the registered engines. */
export function magicList(wording: ConsoleWording): readonly MagicInfo[] {
  return [
    {
      name: 'set',
      usage:
        '%set name = <JSON value>, or %set name = [<answer name>:] <JMESPath expression>',
      description:
        'Sets a variable for `${name}` in later request paths and bodies: a JSON value (quote strings), ' +
        'or a JMESPath expression over the last answer (`%set ids = hits.hits[*]._id`) or a named one (`%set ids = products_search: hits.hits[*]._id`).',
      args: 'required'
    },
    {
      name: 'name',
      usage: '%name <answer name>',
      description:
        'Keeps the last answer under a name, so a %set in a later cell can read it: `%set ids = <answer name>: hits.hits[*]._id`.',
      args: 'required'
    },
    {
      name: 'vars',
      usage: '%vars',
      description:
        'Lists the variables set with %set: where each came from, its type and its value.',
      args: 'none'
    },
    {
      name: 'connect',
      usage: wording.connectUsage,
      description: wording.connectDescription,
      args: 'optional'
    },
    {
      name: 'connections',
      usage: '%connections',
      description:
        'Lists the open connections and the saved profiles (never their secrets).',
      args: 'none'
    },
    {
      name: 'profiles',
      usage: '%profiles [delete <name>]',
      description:
        'Lists the saved connection profiles, or deletes one (and its OS keyring entry).',
      args: 'optional'
    },
    {
      name: 'use',
      usage: '%use <connection name>',
      description: 'Makes another open connection the active one.',
      args: 'required'
    },
    {
      name: 'export',
      usage: EXPORT_USAGE,
      description: wording.exportDescription,
      args: 'required'
    }
  ];
}

export function magicInfo(
  name: string,
  wording: ConsoleWording
): MagicInfo | undefined {
  return magicList(wording).find(m => m.name === name);
}

function knownMagicsText(wording: ConsoleWording): string {
  return magicList(wording)
    .map(m => `\`${m.usage}\``)
    .join(', ');
}

export interface MagicHead {
  name: string;
  /** Offset of the first character after the name. */
  argsStart: number;
}

/** Reads `%name` at `at` (the `%`), refusing unknown names and argument misuse (not `%set` values). */
export function readMagicHead(
  cell: string,
  at: number,
  lineEnd: number,
  lineNo: number,
  column: number,
  wording: ConsoleWording
): MagicHead {
  const match = /^%([A-Za-z_][\w-]*)?/.exec(cell.slice(at, lineEnd));
  const typed = match?.[1] ?? '';
  const name = typed.toLowerCase();
  const info = magicInfo(name, wording);
  if (!info) {
    const shown =
      cell.slice(at, Math.min(lineEnd, at + 40)).split(/\s/)[0] ?? '%';
    refuse(
      'UnknownMagic',
      `Unknown magic \`${shown}\` on line ${lineNo}.`,
      `The magics are ${knownMagicsText(wording)}. Requests are written \`METHOD /path\`, for example \`GET /my-index/_search\`.`,
      { line: lineNo, column }
    );
  }
  const argsStart = at + 1 + typed.length;
  const args = cell.slice(argsStart, lineEnd).trim();
  if (info.args === 'none' && args !== '') {
    refuse(
      'InvalidMagic',
      `%${name} takes no arguments (line ${lineNo}).`,
      `Write \`${info.usage}\` on a line of its own.`,
      { line: lineNo, column }
    );
  }
  if (info.args === 'required' && args === '') {
    refuse(
      'InvalidMagic',
      `%${name} needs an argument (line ${lineNo}).`,
      `Write \`${info.usage}\`.`,
      { line: lineNo, column }
    );
  }
  return { name, argsStart };
}

export interface SetHead {
  variable: string;
  /** Offset of the first character of the JSON value. */
  valueStart: number;
}

export const SET_USAGE =
  'Write `%set name = <JSON value>` (JSON: quote strings), for example `%set index = "products"` or `%set size = 10`.';

/** Splits `%set name = value` at the `=`; the value itself is parsed as a body. */
export function readSetHead(
  cell: string,
  argsStart: number,
  lineEnd: number,
  lineNo: number
): SetHead {
  const match = /^([ \t]*)([^\s=]*)[ \t]*(=)?[ \t]*/.exec(
    cell.slice(argsStart, lineEnd)
  );
  const lead = match?.[1] ?? '';
  const variable = match?.[2] ?? '';
  const column = (at: number): number =>
    at - (cell.lastIndexOf('\n', at - 1) + 1) + 1;
  const nameAt = argsStart + lead.length;
  if (!isVariableName(variable)) {
    refuse(
      'InvalidMagic',
      `\`${variable.slice(0, 40)}\` on line ${lineNo} is not a variable name: use letters, digits and _, not starting with a digit.`,
      SET_USAGE,
      { line: lineNo, column: column(nameAt) }
    );
  }
  const valueStart = argsStart + (match?.[0].length ?? 0);
  if (!match?.[3]) {
    refuse(
      'InvalidMagic',
      `%set on line ${lineNo} needs \`=\` after the name.`,
      SET_USAGE,
      { line: lineNo, column: column(nameAt + variable.length) }
    );
  }
  if (valueStart >= lineEnd || /^\s*$/.test(cell.slice(valueStart, lineEnd))) {
    refuse(
      'InvalidMagic',
      `%set on line ${lineNo} needs a JSON value after \`=\`.`,
      SET_USAGE,
      { line: lineNo, column: column(valueStart) }
    );
  }
  return { variable, valueStart };
}

/**
 * `%set` arguments (the text after `%set`) → variable and value, for the executor; refuses with
 * a Refusal like the parser. Positions in refusals are relative to `args` as its own text.
 * The parser already did this during its dry run and put the result in ConsoleMagic.set.
 */
export function parseSetArgs(
  args: string,
  scope: VariableScope
): { name: string; value: JsonValue } {
  const text = args.trim();
  const lineEnd = text.indexOf('\n') === -1 ? text.length : text.indexOf('\n');
  const { variable, valueStart } = readSetHead(text, 0, lineEnd, 1);
  const scan = scanBlock(text, valueStart, false);
  const values = parseBody(text, valueStart, scan, scope, {
    multi: false,
    allowEnv: false,
    startsAtLineStart: false,
    singleValueAdvice: SET_USAGE,
    errorAdvice: SET_USAGE
  });
  const value = values[0];
  if (value === undefined || scan.end < text.length) {
    refuse('InvalidMagic', `%set needs one JSON value after \`=\``, SET_USAGE);
  }
  return { name: variable, value };
}
