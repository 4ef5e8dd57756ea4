/**
 * Grid columns from a structure (mapping or schema, as a FieldTree) and the documents of an
 * answer. Without a structure every column comes from the documents. With one, its fields give
 * the columns in its order; document fields it lacks still get columns, placed after the mapped
 * fields of the object that holds them. The rows are the contracts' row builder's, from these
 * columns, as the notebook rebuilds them from the answer it keeps.
 */
import type { JsonValue } from '../console/cell';
import type { JsonObject } from '../../../contracts/json';
import { fieldRecord } from '../../../contracts/own-fields';
import {
  type Row,
  rowBuilder,
  tableRows,
  valueAt
} from '../../../contracts/answer-rows';
import { asObject } from './document-columns';
import type { ConsoleResult } from './driver';
import type { Column } from '../../../contracts/columns';
import type { GridDocument } from './capabilities/export';
import type { FieldNode, FieldTree } from './field-tree';
import { isExactNumber } from '../../../contracts/exact-json';

export type { GridDocument };

export interface GridInput {
  /** Undefined when no structure is known (not readable, or not a document answer). */
  tree: FieldTree | undefined;
  leading: Column[];
  documents: GridDocument[];
  /** The request asked for some fields only: mapped columns no document holds are left out. */
  onlyPresent?: boolean;
}

/** A leaf under an array of objects, relative to one element. */
interface ArrayLeaf {
  path: string[];
  /** `path` joined with dots. */
  name: string;
  type: string;
}

/** Walks the documents as the row builder places their fields, to learn which columns they fill. */
class ColumnFinder {
  /** Document-only columns per object path ('' is the document), in first-seen order. */
  private readonly extras = new Map<string, Map<string, JsonValue>>();
  private readonly present = new Set<string>();
  private readonly holdsJson = new Set<string>();
  private readonly leavesCache = new Map<FieldNode, ArrayLeaf[]>();
  private readonly paths = new Map<string, Map<string, string>>();

  constructor(private readonly input: GridInput) {}

  columns(): Column[] {
    for (const doc of this.input.documents) {
      const source = asObject(doc.source);
      if (source) {
        this.walkObject(this.input.tree, source, '');
      } else {
        this.addExtra('', 'value', doc.source);
      }
    }
    const columns = new Map(this.input.leading.map(c => [c.name, c]));
    this.emit(this.input.tree ?? new Map(), '', columns);
    return [...columns.values()];
  }

  /** `holds` false: the cell exists but says nothing (a leaf no element of its array has). */
  private set(name: string, value: JsonValue, holds = true): void {
    if (holds && this.input.onlyPresent) {
      this.present.add(name);
    }
    if (typeof value === 'object' && value !== null && !isExactNumber(value)) {
      this.holdsJson.add(name);
    }
  }

  /** `prefix.key`, made once per answer: thousands of documents repeat the same paths. */
  private joined(prefix: string, key: string): string {
    if (!prefix) {
      return key;
    }
    let paths = this.paths.get(prefix);
    if (!paths) {
      this.paths.set(prefix, (paths = new Map()));
    }
    let path = paths.get(key);
    if (path === undefined) {
      paths.set(key, (path = `${prefix}.${key}`));
    }
    return path;
  }

  private walkObject(
    tree: FieldTree | undefined,
    value: JsonObject,
    prefix: string
  ): void {
    // for-in, not Object.entries: no pair arrays to collect for every field of every document.
    for (const key in value) {
      const child = value[key] as JsonValue;
      const path = this.joined(prefix, key);
      const node = tree?.get(key);
      if (node) {
        this.place(node, child, path, prefix);
      } else {
        this.addExtra(prefix, path, child);
      }
    }
  }

  private place(
    node: FieldNode,
    value: JsonValue,
    path: string,
    parent: string
  ): void {
    if (node.kind === 'leaf') {
      return this.set(path, value);
    }
    if (node.kind === 'array') {
      return this.placeArray(node, value, path);
    }
    const object = asObject(value);
    // An empty object shows as `{}`, as it does where nothing is mapped.
    if (object && Object.keys(object).length > 0) {
      return this.walkObject(node.children, object, path);
    }
    // An array of objects under a plain `object` mapping (Elasticsearch allows it): the
    // whole array in its own column, and the leaves listed per element as for `nested`.
    if (Array.isArray(value) && value.some(v => asObject(v))) {
      this.addExtra(parent, path, value);
      for (const leaf of this.arrayLeaves(node)) {
        this.setEntries(this.joined(path, leaf.name), value, leaf.path);
      }
      return;
    }
    this.addExtra(parent, path, value);
  }

  private placeArray(
    node: Extract<FieldNode, { kind: 'array' }>,
    value: JsonValue,
    path: string
  ): void {
    this.set(path, value);
    if (!Array.isArray(value) && !asObject(value)) {
      return;
    }
    // A single object where an array is mapped is an array of one, as the engines read it.
    const elements = Array.isArray(value) ? value : [value];
    for (const leaf of this.arrayLeaves(node)) {
      this.setEntries(this.joined(path, leaf.name), elements, leaf.path);
    }
  }

  /** One entry per element: the value at `path` inside it, `null` where the element omits it. */
  private setEntries(
    name: string,
    elements: JsonValue[],
    path: string[]
  ): void {
    // Unless the grid shows only present columns, all that matters is that the column holds JSON.
    if (!this.input.onlyPresent) {
      return void this.holdsJson.add(name);
    }
    const values = elements.map(element => valueAt(element, path) ?? null);
    this.set(
      name,
      values,
      values.some(v => v !== null)
    );
  }

  /** Unmapped values: objects flatten to dotted names, everything else is one column. */
  private addExtra(owner: string, path: string, value: JsonValue): void {
    const object = asObject(value);
    if (object && Object.keys(object).length > 0) {
      for (const key in object) {
        this.addExtra(owner, this.joined(path, key), object[key] as JsonValue);
      }
      return;
    }
    let columns = this.extras.get(owner);
    if (!columns) {
      this.extras.set(owner, (columns = new Map()));
    }
    // The first non-null value names the column's type.
    if (!columns.has(path) || (columns.get(path) === null && value !== null)) {
      columns.set(path, value);
    }
    this.set(path, value);
  }

  private arrayLeaves(
    node: Extract<FieldNode, { kind: 'array' | 'object' }>
  ): ArrayLeaf[] {
    let leaves = this.leavesCache.get(node);
    if (!leaves) {
      this.leavesCache.set(node, (leaves = collectLeaves(node.children, [])));
    }
    return leaves;
  }

  /** Columns in the structure's order, each object's document-only fields after its mapped ones. */
  private emit(
    tree: FieldTree,
    prefix: string,
    out: Map<string, Column>
  ): void {
    const push = (column: Column) => {
      if (
        out.has(column.name) ||
        (this.input.onlyPresent && !this.present.has(column.name))
      ) {
        return;
      }
      out.set(column.name, column);
    };
    for (const [key, node] of tree) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (node.kind === 'object') {
        this.emit(node.children, path, out);
      } else if (node.kind === 'leaf') {
        push({
          name: path,
          type: node.type,
          readOnly: false,
          json: Boolean(node.json) || this.holdsJson.has(path),
          origin: 'mapping',
          ...(node.format ? { format: node.format } : {})
        });
      } else {
        push({
          name: path,
          type: node.type,
          readOnly: false,
          json: true,
          origin: 'mapping'
        });
        // Leaf edits are not sent: an array of objects is edited through its JSON column, which holds the whole array.
        for (const leaf of this.arrayLeaves(node)) {
          push({
            name: `${path}.${leaf.name}`,
            type: leaf.type,
            readOnly: true,
            json: true,
            origin: 'mapping',
            arrayParent: path
          });
        }
      }
    }
    for (const [name, sample] of this.extras.get(prefix) ?? []) {
      push({
        name,
        type: jsonType(sample),
        readOnly: false,
        json: this.holdsJson.has(name),
        origin: 'documents'
      });
    }
  }
}

/** Leaves of an array's elements; an array of objects inside one is a leaf (its entries are arrays). */
function collectLeaves(tree: FieldTree, prefix: string[]): ArrayLeaf[] {
  return [...tree].flatMap(([key, node]): ArrayLeaf[] => {
    const path = [...prefix, key];
    return node.kind === 'object'
      ? collectLeaves(node.children, path)
      : [{ path, name: path.join('.'), type: node.type }];
  });
}

function jsonType(value: JsonValue | undefined): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value;
}

/*
 * Lazy rows are read through getters shared by every grid (on a class, or one function), never
 * a getter written per grid: V8 gives each such object a hidden class of its own, kept in the
 * old generation and pointing at the getter's closure, so every young-generation collection
 * then keeps (and promotes) every earlier answer until a full one. Measured: scavenges of
 * 10-15 ms every few 1,000-hit cells, 100% of the young generation promoted.
 */

/** The grid of some documents; see documentGrid. */
class LazyGrid {
  private built: Row[] | undefined;

  constructor(
    readonly columns: Column[],
    private readonly input: GridInput
  ) {}

  get rows(): Row[] {
    if (!this.built) {
      const build = rowBuilder(this.columns);
      this.built = this.input.documents.map(doc =>
        build(fieldRecord(doc.meta), doc.source)
      );
    }
    return this.built;
  }
}

/**
 * The grid of some documents. Its rows are built on first read: a notebook output that keeps
 * the engine's answer rebuilds them from it (contracts/answer-rows.ts) and only needs the columns.
 */
export function documentGrid(input: GridInput): {
  readonly columns: Column[];
  readonly rows: Row[];
} {
  return new LazyGrid(new ColumnFinder(input).columns(), input);
}

type HitsResult = Extract<ConsoleResult, { kind: 'hits' }>;
type Grid = { readonly columns: Column[]; readonly rows: Row[] };

const GRID = Symbol('grid');

function rowsOfGrid(this: { [GRID]: Grid }): Row[] {
  return this[GRID].rows;
}

/** A hits result around a grid, its rows still built only when read. */
export function hitsResult(
  grid: Grid,
  extra: Omit<HitsResult, 'kind' | 'columns' | 'rows'>
): HitsResult {
  const result = Object.defineProperty(
    { kind: 'hits' as const, columns: grid.columns, ...extra },
    GRID,
    { value: grid }
  );
  return Object.defineProperty(result, 'rows', {
    enumerable: true,
    get: rowsOfGrid
  }) as HitsResult;
}

type TableResult = Extract<ConsoleResult, { kind: 'table' }>;

const TABLE = Symbol('table');

/** The elements of an array answer and, once read, their rows. */
class LazyTable {
  private built: Row[] | undefined;

  constructor(private readonly values: readonly JsonValue[]) {}

  get rows(): Row[] {
    this.built ??= tableRows(this.values as JsonValue[]);
    return this.built;
  }
}

function rowsOfTable(this: { [TABLE]: LazyTable }): Row[] {
  return this[TABLE].rows;
}

/**
 * The table of an array answer (or of JSONL lines), its rows built only when read: the
 * notebook output builds those it keeps from the answer itself (render/bundle.ts), so an
 * answer of millions of tiny elements never becomes millions of rows.
 */
export function tableResult(values: readonly JsonValue[]): TableResult {
  const result = Object.defineProperty({ kind: 'table' as const }, TABLE, {
    value: new LazyTable(values)
  });
  return Object.defineProperty(result, 'rows', {
    enumerable: true,
    get: rowsOfTable
  }) as TableResult;
}
