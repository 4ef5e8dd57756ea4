/**
 * Index mappings: explicit definitions, dynamic mapping of new fields the way ES infers them,
 * value checks at index time, and field-name resolution for queries (including multi-fields
 * such as `name.keyword` and fields inside `nested` objects).
 */
import { isIP } from 'node:net';
import { esError, type EsError, illegalArgument } from './errors';
import { isObject, type Json, type JsonObject } from './json-value';
import { isLongMarker, numberOf } from './long-json';
import {
  DEFAULT_DATE_FORMAT,
  looksLikeDate,
  parseWithFormat,
  patternFailure
} from './search/date-format';

export interface FieldDef {
  type?: string;
  properties?: Record<string, FieldDef>;
  fields?: Record<string, FieldDef>;
  ignore_above?: number;
  [extra: string]: unknown;
}

export interface ResolvedField {
  /** The name as written in the query, e.g. `name.keyword`. */
  name: string;
  type: string;
  /** Where the value sits in _source: multi-fields read their parent's value. */
  sourcePath: string[];
  /** Deepest enclosing `nested` object path, if any. */
  nestedPath?: string;
  ignoreAbove?: number;
  /** Date formats (`||` list) of a date field, when the mapping names them. */
  format?: string;
}

const NUMERIC = new Set([
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'unsigned_long'
]);
const INTEGRAL = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);
export const isNumericType = (t: string): boolean => NUMERIC.has(t);
export const isIntegralType = (t: string): boolean => INTEGRAL.has(t);

/**
 * A field's definition in a `properties` (or `fields`) map, only when the map itself holds it:
 * fields may be named `constructor` or `__proto__`, as Elasticsearch allows.
 */
export function own<T>(
  map: Readonly<Record<string, T>> | undefined,
  name: string
): T | undefined {
  return map !== undefined && Object.hasOwn(map, name) ? map[name] : undefined;
}

/** Sets a field of a map as an own key (`__proto__` assigned would replace the map's prototype). */
export function put<T>(map: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(map, name, {
    value,
    writable: true,
    enumerable: true,
    configurable: true
  });
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** ES omits "type":"object" when printing mappings; keep stored definitions the same way. */
function normalise(def: FieldDef): FieldDef {
  const out: FieldDef = { ...def };
  if (out.type === 'object' && out.properties) {
    delete out.type;
  }
  if (out.type === undefined && !out.properties) {
    out.properties = {};
  }
  if (out.properties) {
    const props: Record<string, FieldDef> = {};
    for (const [k, v] of Object.entries(out.properties)) {
      put(props, k, normalise(v));
    }
    out.properties = props;
  }
  return out;
}

const KNOWN_TYPES = new Set([
  ...NUMERIC,
  'text',
  'keyword',
  'boolean',
  'date',
  'object',
  'nested',
  'ip',
  'geo_point',
  'binary',
  'match_only_text',
  'wildcard',
  'constant_keyword',
  'flattened',
  'date_nanos',
  'dense_vector',
  'search_as_you_type',
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range'
]);

export class Mapping {
  private root: {
    dynamic?: Json;
    properties: Record<string, FieldDef>;
    [k: string]: unknown;
  } = { properties: {} };
  private cache = new Map<string, ResolvedField | null>();
  private leaves: ResolvedField[] | null = null;
  private changes = 0;

  /** 7.x and early 8.x say mapper_parsing_exception without the [line:col] prefix. */
  constructor(
    initial?: JsonObject,
    private readonly legacyErrors = false
  ) {
    if (initial) {
      this.merge(initial);
    }
  }

  /** `key`: the document field the error is about; newer versions print the position of its value. */
  private parseError(
    reason: string,
    extra: Record<string, unknown> = {},
    key?: string
  ): EsError {
    const type = this.legacyErrors
      ? 'mapper_parsing_exception'
      : 'document_parsing_exception';
    const text = this.legacyErrors ? reason : `[1:1] ${reason}`;
    const err = esError(
      400,
      { type, reason: text, ...extra },
      { rootCauses: [{ type, reason: text }] }
    );
    if (key !== undefined && !this.legacyErrors) {
      err.locate = { key, at: 'value' };
    }
    return err;
  }

  /** A document field named `""`: refused wherever it sits, its key's position named (8.8 and later). */
  private emptyNameError(): EsError {
    const cause = {
      type: 'illegal_argument_exception',
      reason: 'field name cannot be an empty string'
    };
    const type = this.legacyErrors
      ? 'mapper_parsing_exception'
      : 'document_parsing_exception';
    const reason = this.legacyErrors
      ? 'failed to parse'
      : `[1:1] failed to parse: ${cause.reason}`;
    const err = esError(
      400,
      { type, reason, caused_by: cause },
      { rootCauses: [{ type, reason }] }
    );
    if (!this.legacyErrors) {
      err.locate = { key: '', at: 'key' };
    }
    return err;
  }

  /** As ES prints a mapping: properties (and multi-fields) sorted by name at every level. */
  toJSON(): JsonObject {
    if (
      Object.keys(this.root.properties).length === 0 &&
      this.root.dynamic === undefined
    ) {
      return {};
    }
    return sortedByName(clone(this.root) as unknown as JsonObject);
  }

  get dynamic(): string {
    const d = this.root.dynamic;
    return d === undefined ? 'true' : String(d);
  }

  /** Adds fields from a mapping body ({properties:{...}}); a type change is refused as in ES. */
  merge(body: JsonObject): void {
    for (const [k, v] of Object.entries(body)) {
      if (k === 'properties') {
        continue;
      }
      if (k === '_doc' && isObject(v)) {
        throw esError(400, {
          type: 'mapper_parsing_exception',
          reason:
            'Root mapping definition has unsupported parameters:  [_doc : ' +
            JSON.stringify(v) +
            ']'
        });
      }
      this.root[k] = v;
    }
    const props = body['properties'];
    if (props !== undefined) {
      if (!isObject(props)) {
        throw esError(400, {
          type: 'mapper_parsing_exception',
          reason: 'properties must be a map type'
        });
      }
      this.mergeProps(
        this.root.properties,
        props as unknown as Record<string, FieldDef>,
        ''
      );
    }
    this.invalidate();
  }

  private mergeProps(
    into: Record<string, FieldDef>,
    from: Record<string, FieldDef>,
    prefix: string
  ): void {
    for (const [name, rawDef] of Object.entries(from)) {
      if (!isObject(rawDef as unknown as Json)) {
        throw esError(400, {
          type: 'mapper_parsing_exception',
          reason: `Expected map for property [fields] on field [${prefix}${name}] but got a class java.lang.String`
        });
      }
      const def = normalise(rawDef);
      const type = def.type ?? 'object';
      if (!KNOWN_TYPES.has(type)) {
        const reason = this.legacyErrors
          ? `No handler for type [${type}] declared on field [${prefix}${name}]`
          : `The mapper type [${type}] declared on field [${prefix}${name}] does not exist. It might have been created within a future version or requires a plugin to be installed. Check the documentation.`;
        const cause = { type: 'mapper_parsing_exception', reason };
        throw esError(
          400,
          {
            type: 'mapper_parsing_exception',
            reason: `Failed to parse mapping${this.legacyErrors ? ' [_doc]' : ''}: ${reason}`,
            caused_by: cause
          },
          { rootCauses: [cause] }
        );
      }
      const existing = own(into, name);
      if (!existing) {
        put(into, name, def);
        continue;
      }
      const oldType = existing.type ?? 'object';
      if (oldType !== type) {
        throw illegalArgument(
          `mapper [${prefix}${name}] cannot be changed from type [${oldType}] to [${type}]`
        );
      }
      if (def.properties) {
        existing.properties ??= {};
        this.mergeProps(
          existing.properties,
          def.properties,
          `${prefix}${name}.`
        );
      }
      if (def.fields) {
        existing.fields = { ...(existing.fields ?? {}), ...def.fields };
      }
      for (const [k, v] of Object.entries(def)) {
        if (k !== 'properties' && k !== 'fields') {
          existing[k] = v;
        }
      }
    }
  }

  /** Counts changes, so that results computed under an older mapping are not reused. */
  get revision(): number {
    return this.changes;
  }

  private invalidate(): void {
    this.changes++;
    this.cache.clear();
    this.leaves = null;
  }

  /** Object or nested definition at a dotted path, for `nested` queries and `exists`. */
  definitionAt(path: string): FieldDef | undefined {
    let props: Record<string, FieldDef> | undefined = this.root.properties;
    let def: FieldDef | undefined;
    for (const seg of path.split('.')) {
      def = own(props, seg);
      if (!def) {
        return undefined;
      }
      props = def.properties;
    }
    return def;
  }

  resolve(name: string): ResolvedField | null {
    const hit = this.cache.get(name);
    if (hit !== undefined) {
      return hit;
    }
    const found = this.lookup(name);
    this.cache.set(name, found);
    return found;
  }

  private lookup(name: string): ResolvedField | null {
    const segs = name.split('.');
    let props: Record<string, FieldDef> | undefined = this.root.properties;
    let nestedPath: string | undefined;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i] as string;
      const def: FieldDef | undefined = own(props, seg);
      if (!def) {
        return null;
      }
      const path = segs.slice(0, i + 1);
      if (def.type === 'nested') {
        nestedPath = path.join('.');
      }
      if (i === segs.length - 1) {
        if (!def.type || def.type === 'object' || def.type === 'nested') {
          return null;
        }
        return this.leaf(name, def, path, nestedPath);
      }
      if (def.fields && i === segs.length - 2) {
        const sub = own(def.fields, segs[i + 1] as string);
        if (sub) {
          return this.leaf(name, sub, path, nestedPath);
        }
      }
      props = def.properties;
    }
    return null;
  }

  private leaf(
    name: string,
    def: FieldDef,
    sourcePath: string[],
    nestedPath: string | undefined
  ): ResolvedField {
    const r: ResolvedField = { name, type: def.type ?? 'object', sourcePath };
    if (nestedPath !== undefined) {
      r.nestedPath = nestedPath;
    }
    if (typeof def.ignore_above === 'number') {
      r.ignoreAbove = def.ignore_above;
    }
    if (typeof def['format'] === 'string') {
      r.format = def['format'];
    }
    return r;
  }

  /** Dotted paths of every `nested` field, outer ones first. */
  nestedPaths(): string[] {
    const out: string[] = [];
    const walk = (props: Record<string, FieldDef>, prefix: string): void => {
      for (const [k, def] of Object.entries(props)) {
        if (def.type === 'nested') {
          out.push(prefix + k);
        }
        if (def.properties) {
          walk(def.properties, `${prefix}${k}.`);
        }
      }
    };
    walk(this.root.properties, '');
    return out;
  }

  /** Every leaf field, multi-fields included: the expansion of `*` in query_string and multi_match. */
  leafFields(): ResolvedField[] {
    if (this.leaves) {
      return this.leaves;
    }
    const out: ResolvedField[] = [];
    const walk = (props: Record<string, FieldDef>, prefix: string[]): void => {
      for (const [k, def] of Object.entries(props)) {
        const path = [...prefix, k];
        if (def.properties) {
          walk(def.properties, path);
        }
        if (def.type && def.type !== 'object' && def.type !== 'nested') {
          const full = path.join('.');
          const r = this.resolve(full);
          if (r) {
            out.push(r);
          }
          for (const sub of Object.keys(def.fields ?? {})) {
            const rs = this.resolve(`${full}.${sub}`);
            if (rs) {
              out.push(rs);
            }
          }
        }
      }
    };
    walk(this.root.properties, []);
    this.leaves = out;
    return out;
  }

  /**
   * Checks a document against the mapping and adds unseen fields (dynamic mapping).
   * Throws the mapper_parsing_exception ES gives for values that do not fit.
   */
  index(source: JsonObject, docId: string): void {
    // Refused before any field is mapped: Elasticsearch maps nothing of a document it refuses.
    if (holdsEmptyName(source)) {
      throw this.emptyNameError();
    }
    const added = this.walkDoc(
      source,
      this.root.properties,
      '',
      docId,
      this.dynamic
    );
    if (added) {
      this.invalidate();
    }
  }

  private walkDoc(
    obj: JsonObject,
    props: Record<string, FieldDef>,
    prefix: string,
    docId: string,
    dynamic: string
  ): boolean {
    let added = false;
    for (const [key, value] of Object.entries(obj)) {
      if (value === null) {
        continue;
      }
      const full = prefix + key;
      let def = own(props, key);
      if (!def) {
        if (dynamic === 'false' || dynamic === 'runtime') {
          continue;
        }
        if (dynamic === 'strict') {
          throw esError(400, {
            type: 'strict_dynamic_mapping_exception',
            reason: `[_doc] mapping set to strict, dynamic introduction of [${key}] within [${prefix ? prefix.slice(0, -1) : '_doc'}] is not allowed`
          });
        }
        const inferred = inferDef(value);
        if (!inferred) {
          continue;
        }
        put(props, key, inferred);
        def = inferred;
        added = true;
      }
      added = this.checkValue(value, def, full, docId, dynamic) || added;
    }
    return added;
  }

  private checkValue(
    value: Json,
    def: FieldDef,
    full: string,
    docId: string,
    dynamic: string
  ): boolean {
    if (Array.isArray(value)) {
      let added = false;
      for (const v of value) {
        if (v !== null) {
          added = this.checkValue(v, def, full, docId, dynamic) || added;
        }
      }
      return added;
    }
    const type = def.type ?? 'object';
    if (type === 'object' || type === 'nested') {
      if (!isObject(value)) {
        throw this.parseError(
          `object mapping for [${full}] tried to parse field [${full.split('.').pop()}] as object, but found a concrete value`
        );
      }
      def.properties ??= {};
      const childDynamic =
        def['dynamic'] !== undefined ? String(def['dynamic']) : dynamic;
      return this.walkDoc(
        value,
        def.properties,
        full + '.',
        docId,
        childDynamic
      );
    }
    const bad = (causedBy: {
      type: string;
      reason: string;
      caused_by?: { type: string; reason: string };
    }): EsError =>
      this.parseError(
        `failed to parse field [${full}] of type [${type}] in document with id '${docId}'. Preview of field's value: '${preview(value)}'`,
        { caused_by: causedBy },
        full.split('.').pop()
      );
    if (isNumericType(type)) {
      const n = numberOf(value);
      // ES reads long values through its own parser (IllegalArgumentException), the others through Java's (NumberFormatException).
      if (!Number.isFinite(n)) {
        throw bad({
          type:
            type === 'long'
              ? 'illegal_argument_exception'
              : 'number_format_exception',
          reason: `For input string: "${preview(value)}"`
        });
      }
    } else if (type === 'boolean') {
      if (!(
        typeof value === 'boolean' ||
        value === 'true' ||
        value === 'false' ||
        value === ''
      )) {
        throw bad({
          type: 'illegal_argument_exception',
          reason: `Failed to parse value [${preview(value)}] as only [true] or [false] are allowed.`
        });
      }
    } else if (type === 'date') {
      const format =
        typeof def['format'] === 'string' ? def['format'] : DEFAULT_DATE_FORMAT;
      if (parseWithFormat(value, format) === undefined) {
        const causedBy = format.includes('||')
          ? {
              type: 'date_time_parse_exception',
              reason: 'Failed to parse with all enclosed parsers'
            }
          : {
              type: 'date_time_parse_exception',
              reason: patternFailure(preview(value), format)
            };
        throw bad({
          type: 'illegal_argument_exception',
          reason: `failed to parse date field [${preview(value)}] with format [${format}]`,
          caused_by: causedBy
        });
      }
    } else if (type === 'ip') {
      if (typeof value !== 'string' || isIP(value) === 0) {
        throw bad({
          type: 'illegal_argument_exception',
          reason: `'${preview(value)}' is not an IP string literal.`
        });
      }
    } else if (type.endsWith('_range')) {
      // An interval object; its bounds are checked when queries read them.
    } else if (isObject(value)) {
      throw bad({
        type: 'illegal_state_exception',
        reason: `Can't get text on a START_OBJECT at 1:1`
      });
    }
    return false;
  }
}

function holdsEmptyName(value: Json): boolean {
  if (Array.isArray(value)) {
    return value.some(holdsEmptyName);
  }
  return (
    isObject(value) &&
    Object.entries(value).some(
      ([key, child]) => key === '' || holdsEmptyName(child)
    )
  );
}

function sortedByName(def: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(def)) {
    if ((k === 'properties' || k === 'fields') && isObject(v)) {
      const sorted: JsonObject = {};
      for (const name of Object.keys(v).sort()) {
        const child = v[name];
        put(
          sorted,
          name,
          isObject(child) ? sortedByName(child) : (child as Json)
        );
      }
      put(out, k, sorted);
    } else {
      put(out, k, v as Json);
    }
  }
  return out;
}

function preview(v: Json): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** What ES's dynamic mapping makes of a value it has not seen before. */
function inferDef(value: Json): FieldDef | undefined {
  if (Array.isArray(value)) {
    const first = value.find(v => v !== null);
    return first === undefined ? undefined : inferDef(first);
  }
  if (value === null) {
    return undefined;
  }
  switch (typeof value) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return { type: Number.isInteger(value) ? 'long' : 'float' };
    case 'string':
      if (isLongMarker(value)) {
        return { type: 'long' };
      }
      if (looksLikeDate(value)) {
        return { type: 'date' };
      }
      return {
        type: 'text',
        fields: { keyword: { type: 'keyword', ignore_above: 256 } }
      };
    default:
      return { properties: {} };
  }
}
