/** `%vars`: each variable with where it came from, its type and a short preview of its value. */
import type { JsonValue } from '../console/cell';
import type { VariableOrigin, VariableScope } from '../console/variables';
import { ROWS_MIME } from '../../../contracts/mime-types';
import { messageBundle } from '../render/bundle';
import type { MimeBundle } from '../render/mime-bundle';
import { ExactNumber, exactJson } from '../../../contracts/exact-json';

const PREVIEW_CHARS = 80;

function typeOf(value: JsonValue): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return `array of ${value.length}`;
  }
  if (value instanceof ExactNumber) {
    return 'number';
  }
  if (typeof value === 'object') {
    return `object of ${Object.keys(value).length} keys`;
  }
  return typeof value;
}

function preview(value: JsonValue): string {
  const text = exactJson(value);
  return text.length > PREVIEW_CHARS
    ? `${text.slice(0, PREVIEW_CHARS - 1)}…`
    : text;
}

function originText(origin: VariableOrigin): string {
  if (origin.kind === 'literal') {
    return 'JSON value';
  }
  const over = origin.answer
    ? `answer ${origin.answer} (${origin.from})`
    : `last answer (${origin.from})`;
  return `${origin.expression} over ${over}`;
}

/**
 * The variables as a table; with `withValues` (a kernel started for searchbook's IPython
 * extension) also each whole value under ROWS_MIME, which that extension hands to Python and
 * takes off before showing the output.
 */
export function varsBundle(
  scope: VariableScope,
  withValues = false
): MimeBundle {
  const rows: Record<string, JsonValue>[] = scope
    .entries()
    .map(([name, value]) => ({
      name,
      value: preview(value),
      type: typeOf(value),
      from: originText(scope.origin(name))
    }));
  const values = withValues
    ? {
        [ROWS_MIME]: {
          rows: scope.entries().map(([name, value]) => ({ name, value }))
        }
      }
    : {};
  return {
    ...messageBundle(
      rows.length
        ? 'Variables'
        : 'No variables yet: set one with %set name = <JSON value or JMESPath expression>.',
      rows
    ),
    ...values
  };
}
