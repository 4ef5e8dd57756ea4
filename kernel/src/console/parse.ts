/**
 * Cell text → requests and magics, or one refusal for the whole cell (then nothing is sent).
 * A dry run: `%set` lines are applied to a copy of the scope so later requests in the same
 * cell see them; the executor applies them for real when it runs each magic. A `%set` that
 * reads an answer reads it here, so it reads the answers of earlier cells only.
 */
import type {
  CellItem,
  ConsoleMagic,
  ConsoleRequest,
  ParseResult,
  RequestBody
} from './cell';
import {
  splitCell,
  type MagicSegment,
  type RequestSegment
} from './cell-structure';
import type { AnswerReader } from './expression-results';
import { parseExportArgs } from './export-args';
import { parseBody } from './json-body';
import { readMagicHead, readSetHead } from './magics';
import { refuse, Refusal, withForm } from './refusal';
import { parseRequestLine, substitute } from './request-line';
import { readSetValue } from './set-value';
import { positionAt } from './text-position';
import type { VariableScope } from './variables';
import type { ConsoleWording } from './wording';

/** Paths whose body is one JSON value a line. */
export function takesNdjson(path: string): boolean {
  const segments = path.toLowerCase().replace(/\/+$/, '').split('/');
  const last = segments[segments.length - 1];
  const previous = segments[segments.length - 2];
  return (
    last === '_bulk' ||
    last === '_msearch' ||
    (last === 'template' && previous === '_msearch') ||
    (last === 'import' &&
      (previous === 'documents' || previous === 'dictionaries'))
  );
}

function parseRequest(
  text: string,
  segment: RequestSegment,
  scope: VariableScope,
  wording: ConsoleWording
): ConsoleRequest {
  const { method, path, query, shown } = parseRequestLine(
    text,
    segment.at,
    segment.lineEnd,
    segment.line,
    scope
  );
  const request: ConsoleRequest = {
    kind: 'request',
    method,
    path,
    query,
    line: segment.line,
    ...(shown ? { shown } : {})
  };
  const ndjson = takesNdjson(path);
  const values = parseBody(text, segment.bodyStart, segment.body, scope, {
    multi: ndjson,
    allowEnv: true,
    startsAtLineStart: true,
    singleValueAdvice: withForm(wording.oneValueAdvice)
  });
  let body: RequestBody | undefined;
  if (ndjson) {
    if (values.length > 0) {
      body = { kind: 'ndjson', values };
    }
  } else if (values[0] !== undefined) {
    body = { kind: 'json', value: values[0] };
  }
  if (body) {
    request.body = body;
  }
  return request;
}

function parseMagic(
  text: string,
  segment: MagicSegment,
  scope: VariableScope,
  wording: ConsoleWording,
  answers: AnswerReader | undefined,
  afterRequest: boolean
): ConsoleMagic {
  const column = positionAt(text, segment.at).column;
  const head = readMagicHead(
    text,
    segment.at,
    segment.lineEnd,
    segment.line,
    column,
    wording
  );
  const magic: ConsoleMagic = {
    kind: 'magic',
    name: head.name,
    args: text.slice(head.argsStart, segment.end).trim(),
    line: segment.line
  };
  if (head.name === 'set') {
    const { variable, valueStart } = readSetHead(
      text,
      head.argsStart,
      segment.lineEnd,
      segment.line
    );
    const value = segment.value;
    if (!value || value.start !== valueStart) {
      // splitCell's quick look at the line must agree with readSetHead; refuse rather than guess.
      refuse(
        'InvalidMagic',
        `Cannot read the %set on line ${segment.line}.`,
        'Write `%set name = <JSON value>`.',
        { line: segment.line, column }
      );
    }
    const read = readSetValue(text, value, {
      scope,
      answers,
      afterRequest,
      line: segment.line
    });
    magic.set = { name: variable, ...read };
    scope.set(variable, read.value, read.origin);
  }
  if (head.name === 'export') {
    const args = parseExportArgs(
      substitute(text, head.argsStart, segment.lineEnd, scope, value => value),
      segment.line,
      wording
    );
    const body = segment.body
      ? parseBody(text, segment.body.start, segment.body.scan, scope, {
          multi: false,
          allowEnv: true,
          startsAtLineStart: true,
          singleValueAdvice: withForm(wording.oneValueAdvice)
        })[0]
      : undefined;
    magic.args = text.slice(head.argsStart, segment.lineEnd).trim();
    magic.export = { ...args, ...(body !== undefined ? { body } : {}) };
  }
  return magic;
}

export function parseCell(
  text: string,
  scope: VariableScope,
  wording: ConsoleWording,
  /**
   * The answers a `%set name = <expression>` reads; without them such a `%set` is refused. Its
   * expressions must be evaluated already: parseCellEvaluating (parse-evaluating.ts) sees to it.
   */
  answers?: AnswerReader
): ParseResult {
  const dryRun = scope.clone();
  const items: CellItem[] = [];
  let afterRequest = false;
  try {
    for (const segment of splitCell(text)) {
      if (segment.kind === 'request') {
        items.push(parseRequest(text, segment, dryRun, wording));
        afterRequest = true;
      } else if (segment.kind === 'magic') {
        items.push(
          parseMagic(text, segment, dryRun, wording, answers, afterRequest)
        );
      } else {
        const { line, column } = positionAt(text, segment.at);
        refuse(
          'BodyWithoutRequest',
          `Line ${line} holds a body, but no request line comes before it.`,
          withForm('Put the `METHOD /path` line directly above its body.'),
          { line, column }
        );
      }
    }
  } catch (error) {
    if (error instanceof Refusal) {
      return { ok: false, refusal: error };
    }
    throw error;
  }
  return { ok: true, items };
}
