import type { Column } from '@searchbook/contracts/columns';
import { type JsonValue, isJsonObject } from '@searchbook/contracts/json';
import { ownValue } from '@searchbook/contracts/own-fields';
import { exactJson } from '@searchbook/contracts/exact-json';

/** A field the JSON edit changed: the grid column it writes (a dotted path) and its new value. */
export interface EditedField {
  column: string;
  value: JsonValue;
}

export interface DocumentEdit {
  fields: EditedField[];
  /** Why the edit cannot become pending changes, each saying what to write instead. */
  problems: string[];
}

type JsonObject = Record<string, JsonValue>;

function isObject(value: unknown): value is JsonObject {
  return isJsonObject(value as JsonValue);
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return exactJson(a) === exactJson(b);
}

/**
 * The fields a document edited as JSON changes, as the grid's columns name them: a change at a
 * column's path (an object or array column changes whole), and inside objects without a column
 * of their own, each changed leaf. What cells cannot express is refused: a field removed (a
 * partial update keeps it), a non-string value for a field no column types, a new top level
 * that is not an object.
 */
export function editedFields(
  stored: unknown,
  edited: JsonValue,
  columns: readonly Column[]
): DocumentEdit {
  const fields: EditedField[] = [];
  const problems: string[] = [];
  if (!isObject(edited)) {
    return {
      fields,
      problems: [
        'The document must stay one JSON object ({ "field": value, … }); nothing was changed.'
      ]
    };
  }
  const byName = new Map(columns.map(c => [c.name, c]));
  const hasColumnsUnder = (path: string) =>
    columns.some(c => c.name.startsWith(`${path}.`));
  const walk = (prefix: string, before: JsonObject, after: JsonObject) => {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      const path = prefix ? `${prefix}.${key}` : key;
      const was = ownValue(before, key);
      const now = ownValue(after, key);
      if (same(was, now)) {
        continue;
      }
      if (now === undefined) {
        problems.push(
          `${path} was removed: saving changes fields and keeps the others; to empty it, write "${key}": null.`
        );
        continue;
      }
      if (byName.has(path)) {
        fields.push({ column: path, value: now });
        continue;
      }
      if (
        isObject(now) &&
        (was === undefined || isObject(was)) &&
        hasColumnsUnder(path)
      ) {
        walk(path, isObject(was) ? was : {}, now);
        continue;
      }
      if (typeof now === 'string' || now === null) {
        fields.push({ column: path, value: now });
        continue;
      }
      problems.push(
        `${path} is a new field with no column in this grid, so its type is unknown here: write its value as a string ("${path}": "…"), or add it with a request in a console cell.`
      );
    }
  };
  walk('', isObject(stored) ? stored : {}, edited);
  return { fields, problems };
}

/** Why a column cannot take a value from the JSON edit (the rules of the grid's cells), or undefined. */
export function columnRefusal(column: Column | undefined): string | undefined {
  if (!column) {
    return undefined;
  }
  if (column.primaryKey) {
    return `${column.name} identifies the document and cannot be changed: duplicate the row, give the copy the id you want, then delete this one.`;
  }
  if (column.arrayParent) {
    return `${column.name} lists one value per element of ${column.arrayParent}: change the elements inside ${column.arrayParent}.`;
  }
  if (column.readOnly) {
    return `${column.name} is read-only: the engine keeps it for the document.`;
  }
  return undefined;
}
