/**
 * An Elasticsearch `aggregations` answer as tables, whole: every value the engine sent is a
 * cell, a sentence under its table, or named under it as left to Raw JSON.
 *
 * - A bucket aggregation is a table of its buckets (`key`, `doc_count`, then the values of
 *   its sub-aggregations). A bucket aggregation inside those buckets gets a table of its own,
 *   titled `brands > colors`, whose leading columns are the parent buckets' keys (read like a
 *   pivot table).
 * - A metric with one value is one column (`avg_price`); one with several values is one column
 *   per value (`price_stats.max`, `price_pct.99.0`, `price_ext.std_deviation_bounds.upper`).
 *   `top_hits` gives its total, max score and hits (as JSON); arrays that are not keyed stay
 *   one JSON cell.
 * - Where the engine gives a value as text too (`key_as_string`, `value_as_string`,
 *   `min_as_string`), the text is shown.
 * - A single-bucket aggregation (`filter`, `nested`, `reverse_nested`, `global`, `missing`)
 *   adds its `doc_count` and sub-aggregations to the row it is in; at the top, a one-row table.
 *
 * Keys come from the answer (aggregation names, composite sources, percents), so rows are
 * objects without a prototype and every lookup is an own-property check.
 * https://www.elastic.co/guide/en/elasticsearch/reference/current/search-aggregations.html
 */
import type { JsonValue } from '../../console/cell';
import { type JsonObject, isJsonObject } from '../../../../contracts/json';
import type { AggregationResult as AggregationTable } from '../../driver-core/driver';
import { cellText } from '../../json/cell-text';
import { hasField } from '../../../../contracts/own-fields';

type Row = Record<string, JsonValue>;

/** Values listed per parent bucket under a sub-table, before the rest are named as left to Raw JSON. */
const LISTED_PER_PARENT = 20;

/** What a terms-like aggregation says about its buckets as a whole, worded for the table. */
const BUCKET_SET_WORDS: Record<string, string> = {
  sum_other_doc_count: 'documents in other buckets (sum_other_doc_count)',
  doc_count_error_upper_bound:
    'doc_count_error_upper_bound (how far a count may be too low)',
  after_key: 'after_key (the next page starts after it)'
};

const numbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

function isObject(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value);
}

function own(object: JsonObject, key: string): JsonValue | undefined {
  return hasField(object, key) ? object[key] : undefined;
}

function newRow(): Row {
  return Object.create(null) as Row;
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

function shown(value: JsonValue): string {
  return typeof value === 'number' ? numbers.format(value) : cellText(value);
}

/** A parent bucket's key columns, as its children's rows repeat them. */
type ParentKeys = [column: string, value: JsonValue][];

interface TableBuilder {
  table: AggregationTable;
  notShown: Set<string>;
  /** Values of the aggregation itself (not of a bucket), per parent bucket: field → [parent label, value]. */
  aggregationValues: Map<string, [string, JsonValue][]>;
  /** How many parent buckets this table's aggregation appeared in. */
  parents: number;
  /** The parent aggregation's name, for `under every brands bucket`. */
  parentName: string;
}

class Tables {
  private readonly builders = new Map<string, TableBuilder>();

  /** Each aggregation as a table (its children after it), with its notes and what it leaves out. */
  static of(aggregations: JsonObject): AggregationTable[] {
    const tables = new Tables();
    for (const [name, value] of Object.entries(aggregations)) {
      tables.topLevel(name, value);
    }
    return [...tables.builders.values()].map(finish);
  }

  private builder(title: string, parentName: string): TableBuilder {
    let builder = this.builders.get(title);
    if (!builder) {
      builder = {
        table: { name: title, rows: [] },
        notShown: new Set(),
        aggregationValues: new Map(),
        parents: 0,
        parentName
      };
      this.builders.set(title, builder);
    }
    return builder;
  }

  private topLevel(name: string, value: JsonValue): void {
    if (isObject(value) && hasBuckets(value)) {
      this.bucketAggregation(name, name, value, [], '', name);
      return;
    }
    const builder = this.builder(name, '');
    const row = newRow();
    if (isObject(value)) {
      this.valuesInto(row, '', value, [], name, name, builder);
    } else {
      row.value = value;
    }
    builder.table.rows.push(row);
  }

  /**
   * The buckets of one aggregation under one parent bucket (or at the top) as rows of the
   * table titled `title`. `path` names it in the answer, for what the table cannot show.
   */
  private bucketAggregation(
    title: string,
    name: string,
    aggregation: JsonObject,
    parentKeys: ParentKeys,
    parentName: string,
    path: string
  ): void {
    const builder = this.builder(title, parentName);
    builder.parents++;
    const parentLabel = parentKeys.map(([, v]) => cellText(v)).join(' · ');
    for (const [field, value] of Object.entries(aggregation)) {
      if (field === 'buckets') {
        continue;
      }
      const list = builder.aggregationValues.get(field) ?? [];
      list.push([parentLabel, value]);
      builder.aggregationValues.set(field, list);
    }
    const buckets = own(aggregation, 'buckets');
    const entries: [string | undefined, JsonValue][] = Array.isArray(buckets)
      ? buckets.map(b => [undefined, b])
      : isObject(buckets)
        ? Object.entries(buckets)
        : [];
    const keyColumns = new Set(
      builder.table.keyColumns ?? parentKeys.map(([column]) => column)
    );
    for (const [keyedAs, bucket] of entries) {
      const bucketPath = `${path}.buckets[]`;
      if (!isObject(bucket)) {
        builder.notShown.add(bucketPath);
        continue;
      }
      const row = newRow();
      for (const [column, value] of parentKeys) {
        row[column] = value;
      }
      const ownKeys: ParentKeys = [];
      const key = own(bucket, 'key') ?? keyedAs;
      if (isObject(key)) {
        // A composite bucket's key has one value per source.
        for (const [source, value] of Object.entries(key)) {
          ownKeys.push([`key.${source}`, value]);
        }
      } else if (key !== undefined) {
        ownKeys.push(['key', own(bucket, 'key_as_string') ?? key]);
      }
      for (const [column, value] of ownKeys) {
        this.put(row, column, value, `${bucketPath}.${column}`, builder);
        keyColumns.add(column);
      }
      const rest: JsonObject = Object.create(null) as JsonObject;
      for (const [field, value] of Object.entries(bucket)) {
        if (field !== 'key' && field !== 'key_as_string') {
          rest[field] = value;
        }
      }
      const childKeys: ParentKeys = [
        ...parentKeys,
        ...ownKeys.map(([column, value]): [string, JsonValue] => [
          column === 'key' ? name : `${name}.${column.slice(4)}`,
          value
        ])
      ];
      this.valuesInto(
        row,
        '',
        rest,
        childKeys,
        title,
        bucketPath,
        builder,
        name
      );
      builder.table.rows.push(row);
    }
    builder.table.keyColumns = [...keyColumns];
  }

  /**
   * The values of one aggregation result (a bucket's, a metric's, a single bucket's) into `row`
   * under `prefix`. Bucket aggregations found inside get tables of their own.
   */
  private valuesInto(
    row: Row,
    prefix: string,
    object: JsonObject,
    parentKeys: ParentKeys,
    title: string,
    path: string,
    builder: TableBuilder,
    parentName = ''
  ): void {
    const inBucket = own(object, 'doc_count') !== undefined;
    // A metric with one value: the value (as text when the engine gives it so) is the column.
    if (!inBucket && hasField(object, 'value')) {
      this.put(
        row,
        prefix || 'value',
        textOr(object, 'value'),
        `${path}.value`,
        builder
      );
    }
    for (const [field, value] of Object.entries(object)) {
      if (!inBucket && field === 'value') {
        continue;
      }
      if (isAsString(object, field)) {
        continue;
      }
      const column = join(prefix, field);
      const at = `${path}.${field}`;
      if (!isObject(value)) {
        if (Array.isArray(value)) {
          this.arrayInto(row, column, value, at, builder);
        } else {
          this.put(row, column, textOr(object, field), at, builder);
        }
        continue;
      }
      if (hasBuckets(value)) {
        this.bucketAggregation(
          `${title} > ${column}`,
          field,
          value,
          parentKeys,
          parentName || title,
          at
        );
        continue;
      }
      const hits = own(value, 'hits');
      if (!inBucket && field === 'values') {
        // percentiles, percentile_ranks: `price_pct.99.0`.
        this.valuesInto(
          row,
          prefix,
          value,
          parentKeys,
          title,
          at,
          builder,
          parentName
        );
      } else if (isObject(hits) && Array.isArray(own(hits, 'hits'))) {
        // top_hits: its total and max score as columns, the hits themselves as one JSON cell.
        this.valuesInto(
          row,
          column,
          hits,
          parentKeys,
          title,
          `${at}.hits`,
          builder,
          parentName
        );
      } else {
        const topMetrics = own(value, 'top');
        if (
          Array.isArray(topMetrics) &&
          topMetrics.length === 1 &&
          isObject(topMetrics[0])
        ) {
          // top_metrics of one document: its sort values and each metric as columns.
          const [only] = topMetrics;
          const flat: JsonObject = Object.create(null) as JsonObject;
          for (const [k, v] of Object.entries(only)) {
            if (k === 'metrics' && isObject(v)) {
              Object.assign(flat, v);
            } else {
              flat[k] = v;
            }
          }
          this.valuesInto(
            row,
            column,
            flat,
            parentKeys,
            title,
            `${at}.top[]`,
            builder,
            parentName
          );
        } else {
          this.valuesInto(
            row,
            column,
            value,
            parentKeys,
            title,
            at,
            builder,
            parentName
          );
        }
      }
    }
  }

  /** An array value: keyed elements (`{key, value}` of percentiles, matrix_stats' `{name, ...}`) as columns; any other array as one JSON cell. */
  private arrayInto(
    row: Row,
    column: string,
    array: JsonValue[],
    path: string,
    builder: TableBuilder
  ): void {
    const keyed =
      array.length > 0 &&
      array.every(
        e =>
          isObject(e) &&
          (typeof own(e, 'name') === 'string' ||
            (own(e, 'key') !== undefined &&
              !isObject(own(e, 'key')) &&
              hasField(e, 'value')))
      );
    if (!keyed) {
      this.put(row, column, array, path, builder);
      return;
    }
    const prefix =
      column.endsWith('.values') ||
      column.endsWith('.fields') ||
      column === 'values' ||
      column === 'fields'
        ? column.slice(0, Math.max(0, column.lastIndexOf('.')))
        : column;
    for (const element of array as JsonObject[]) {
      const key = own(element, 'key') ?? null;
      // Numbers as the keyed form of the same answer names them (`99.0`, as Java prints a double).
      const name =
        typeof own(element, 'name') === 'string'
          ? String(own(element, 'name'))
          : typeof key === 'number' && Number.isInteger(key)
            ? key.toFixed(1)
            : cellText(key);
      for (const [field, value] of Object.entries(element)) {
        if (field === 'name' || field === 'key' || isAsString(element, field)) {
          continue;
        }
        const at = `${path}[].${field}`;
        const target =
          field === 'value'
            ? join(prefix, name)
            : join(join(prefix, name), field);
        if (isObject(value)) {
          for (const [inner, v] of Object.entries(value)) {
            this.put(row, join(target, inner), v, `${at}.${inner}`, builder);
          }
        } else {
          this.put(row, target, textOr(element, field), at, builder);
        }
      }
    }
  }

  /** Sets a cell; a column name already taken (a sub-aggregation named `key`) leaves the value to Raw JSON, named. */
  private put(
    row: Row,
    column: string,
    value: JsonValue,
    path: string,
    builder: TableBuilder
  ): void {
    if (hasField(row, column)) {
      builder.notShown.add(path);
    } else {
      row[column] = value;
    }
  }
}

/** The value, or its text form when the engine sent one (`key_as_string`, `min_as_string`). */
function textOr(object: JsonObject, field: string): JsonValue {
  const text = own(object, `${field}_as_string`);
  return typeof text === 'string' ? text : (own(object, field) ?? null);
}

/** `min_as_string` beside `min`: shown in its place. */
function isAsString(object: JsonObject, field: string): boolean {
  return (
    field.endsWith('_as_string') &&
    hasField(object, field.slice(0, -'_as_string'.length))
  );
}

function hasBuckets(value: JsonObject): boolean {
  const buckets = own(value, 'buckets');
  return Array.isArray(buckets) || isObject(buckets);
}

/** The table with its notes: the aggregation's own values (sum_other_doc_count, after_key, ...) as sentences. */
function finish(builder: TableBuilder): AggregationTable {
  const notes: string[] = [];
  const notShown = builder.notShown;
  // The count of documents outside the buckets first: it says whether the table is the whole population.
  const fields = [...builder.aggregationValues].sort(
    ([a], [b]) =>
      Number(b === 'sum_other_doc_count') - Number(a === 'sum_other_doc_count')
  );
  for (const [field, list] of fields) {
    const words = hasField(BUCKET_SET_WORDS, field)
      ? (BUCKET_SET_WORDS[field] as string)
      : field;
    if (builder.parents <= 1 && list.length === 1) {
      const [[, value]] = list as [[string, JsonValue]];
      notes.push(
        field === 'sum_other_doc_count'
          ? `and ${shown(value)} ${words}`
          : `${words}: ${shown(value)}`
      );
      continue;
    }
    const first = list[0]?.[1];
    if (list.every(([, v]) => cellText(v) === cellText(first ?? null))) {
      notes.push(
        `${words}: ${shown(first ?? null)} under every ${builder.parentName} bucket`
      );
      continue;
    }
    // Keys are often numbers or hold commas and spaces themselves (`0`, `Acme, Inc.`): a colon and a semicolon keep key and count apart.
    const listed = list
      .slice(0, LISTED_PER_PARENT)
      .map(([label, value]) => `${label}: ${shown(value)}`);
    notes.push(
      `${words}, per ${builder.parentName} bucket: ${listed.join('; ')}`
    );
    if (list.length > LISTED_PER_PARENT) {
      notShown.add(
        `${field} of ${list.length - LISTED_PER_PARENT} more ${builder.parentName} buckets`
      );
    }
  }
  const { table } = builder;
  return {
    name: table.name,
    rows: table.rows,
    ...(table.keyColumns && table.keyColumns.length > 0
      ? { keyColumns: table.keyColumns }
      : {}),
    ...(notes.length > 0 ? { notes } : {}),
    ...(notShown.size > 0 ? { notShown: [...notShown] } : {})
  };
}

/** Every aggregation of an answer as tables (see the module comment). */
export function aggregationTables(
  aggregations: JsonObject | undefined
): AggregationTable[] {
  return aggregations ? Tables.of(aggregations) : [];
}
