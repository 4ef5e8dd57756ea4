/**
 * Documents are data: a field named `constructor`, `toString` or `__proto__` is a field like
 * any other. A plain `{}` answers `row.constructor` with Object.prototype's function for a row
 * that lacks the field, and `row.__proto__ = value` replaces its prototype instead of setting a
 * field, so rows are records without a prototype and values are read only when they are own.
 */

import { z } from 'zod';

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** The record's own value at `key`; undefined where the record lacks it, whatever Object.prototype holds. */
export function ownValue<T>(
  record: Readonly<Record<string, T>>,
  key: string
): T | undefined {
  // Not Object.hasOwn: the extension, which reads rows through here too, is built for ES2021.
  return hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Whether `key` is the record's own field (what Object.hasOwn says, for the ES2021 extension build too). */
export function hasField(record: object, key: string): boolean {
  return hasOwnProperty.call(record, key);
}

/** A record with no prototype: any key, `__proto__` included, is an ordinary field of it. */
export function fieldRecord<T>(
  from?: Readonly<Record<string, T>>
): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  // Object.assign sets each key on the new record, where `__proto__` is an ordinary field.
  return from ? Object.assign(record, from) : record;
}

/**
 * Sets `key` as an own field of a plain object (as JSON.parse would), `__proto__` included,
 * where an assignment would replace the object's prototype; for objects compared with parsed
 * JSON, which a record without a prototype never deep-equals strictly.
 */
export function setField<T>(
  object: Record<string, T>,
  key: string,
  value: T
): void {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true
  });
}

/**
 * An object whose every value `value` accepts, kept as it is. z.record leaves out a key named
 * `__proto__` (it cannot set one on the object it builds), and documents and mappings may hold
 * one, so the object is checked and passed on whole.
 */
export function fieldsRecord<T>(
  value: z.ZodType<T>,
  message: string
): z.ZodType<Record<string, T>> {
  return z.custom<Record<string, T>>(
    object =>
      typeof object === 'object' &&
      object !== null &&
      !Array.isArray(object) &&
      Object.values(object).every(v => value.safeParse(v).success),
    message
  );
}
