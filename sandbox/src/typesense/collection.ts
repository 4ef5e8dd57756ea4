/**
 * One collection: its schema (declared and learned fields) and its documents, kept in
 * insertion order so that wildcard searches and exports need no sorting.
 */
import { CurationSet } from './curation';
import { setMarks, wholeDoubles } from './whole-doubles';
import { ApiError } from './errors';
import { FieldTokenIndex } from './field-token-index';
import {
  canonical,
  isPlainObject,
  type JsonObject,
  mergeExact,
  setField
} from './json';
import { valueAt } from './paths';
import { baseType, detectType, fieldSummary, makeField } from './schema';
import type { FieldDef } from './field-def';
import { SynonymSet } from './synonyms';
import { validateDocument, type DirtyValues } from './validate';
import type { Features } from './version';

export interface DocRecord {
  readonly id: string;
  /** Insertion sequence; kept by upserts and updates, as the engine keeps its seq_id. */
  readonly seq: number;
  doc: JsonObject;
  alive: boolean;
}

export type WriteAction = 'create' | 'upsert' | 'update' | 'emplace';

export interface CollectionOptions {
  name: string;
  fields: FieldDef[];
  defaultSortingField: string;
  enableNestedFields: boolean;
  tokenSeparators: string[];
  symbolsToIndex: string[];
  metadata?: Record<string, unknown>;
  createdAt: number;
  /** 30: names of the global synonym and curation sets searches of this collection use. */
  synonymSets?: string[];
  curationSets?: string[];
}

export class Collection {
  readonly name: string;
  readonly createdAt: number;
  readonly defaultSortingField: string;
  readonly enableNestedFields: boolean;
  readonly tokenSeparators: string[];
  readonly symbolsToIndex: string[];
  metadata: Record<string, unknown> | undefined;
  /** Up to 29: the collection's own synonyms and overrides. */
  readonly synonyms = new SynonymSet('');
  readonly overrides = new CurationSet('');
  /** 30: the global sets attached to this collection. */
  synonymSets: string[];
  curationSets: string[];
  /** Bumped on every write; search caches key on it. */
  generation = 0;

  private readonly fieldList: FieldDef[];
  private readonly fieldsByName = new Map<string, FieldDef>();
  private readonly patterns: { re: RegExp; field: FieldDef }[] = [];
  private records: DocRecord[] = [];
  private readonly byId = new Map<string, DocRecord>();
  private nextSeq = 0;
  private dead = 0;
  /**
   * Token indexes of string fields, kept in step with every write. Fields declared before
   * any document get one up front; others are built on their first keyword search.
   */
  private readonly tokenIndexes = new Map<string, FieldTokenIndex>();

  constructor(opts: CollectionOptions) {
    this.name = opts.name;
    this.createdAt = opts.createdAt;
    this.defaultSortingField = opts.defaultSortingField;
    this.enableNestedFields = opts.enableNestedFields;
    this.tokenSeparators = opts.tokenSeparators;
    this.symbolsToIndex = opts.symbolsToIndex;
    this.metadata = opts.metadata;
    this.synonymSets = opts.synonymSets ?? [];
    this.curationSets = opts.curationSets ?? [];
    this.fieldList = [];
    for (const f of opts.fields) {
      this.addField(f);
    }
  }

  get numDocuments(): number {
    return this.byId.size;
  }

  get fields(): readonly FieldDef[] {
    return this.fieldList;
  }

  field(name: string): FieldDef | undefined {
    return this.fieldsByName.get(name);
  }

  /** A collection with a `.*`-style pattern coerces by default, as the engine does. */
  get defaultDirtyValues(): DirtyValues {
    return this.patterns.some(
      p => p.field.type === 'auto' || p.field.type === 'string*'
    )
      ? 'coerce_or_reject'
      : 'reject';
  }

  /** Live records in insertion order. The array is never mutated in place, so a running export can keep it. */
  snapshot(): readonly DocRecord[] {
    return this.records;
  }

  get(id: string): DocRecord | undefined {
    return this.byId.get(id);
  }

  write(
    input: JsonObject,
    action: WriteAction,
    dirty: DirtyValues,
    pathId?: string
  ): JsonObject {
    if (input.id !== undefined && typeof input.id !== 'string') {
      throw new ApiError(400, "Document's `id` field should be a string.");
    }
    const id = pathId ?? (input.id as string | undefined);
    const existing = id === undefined ? undefined : this.byId.get(id);

    if (action === 'create' && existing) {
      throw new ApiError(409, `A document with id ${id} already exists.`);
    }
    if (action === 'update' && !existing) {
      throw new ApiError(404, `Could not find a document with id: ${id ?? ''}`);
    }
    const merge =
      existing !== undefined && (action === 'update' || action === 'emplace');
    const doc: JsonObject = { ...input };
    validateDocument(
      doc,
      this.fieldList,
      { partial: merge, dirty, defaultSortingField: this.defaultSortingField },
      valueAt
    );

    let stored: JsonObject;
    // A whole number written `29.0` stays a double unless the schema made it an integer.
    const written = [...wholeDoubles(doc)].filter(k => {
      const type = this.fieldsByName.get(k)?.type;
      return type !== 'int32' && type !== 'int64' && typeof doc[k] === 'number';
    });
    if (merge && existing) {
      stored = { ...existing.doc };
      const marks = new Set(wholeDoubles(existing.doc));
      for (const [k, v] of Object.entries(doc)) {
        marks.delete(k);
        if (v === null) {
          delete stored[k];
        } else {
          setField(stored, k, v);
        }
      }
      setMarks(stored, new Set([...marks, ...written]));
      mergeExact(stored, doc);
    } else {
      stored = doc;
      setMarks(stored, new Set(written));
    }
    this.learn(stored);
    const seq = existing ? existing.seq : this.nextSeq++;
    const finalId = id ?? String(seq);
    stored.id = finalId;
    stored = canonical(stored);

    for (const index of this.tokenIndexes.values()) {
      index.update(seq, existing?.doc, stored);
    }
    if (existing) {
      existing.doc = stored;
    } else {
      const rec: DocRecord = { id: finalId, seq, doc: stored, alive: true };
      this.records.push(rec);
      this.byId.set(finalId, rec);
    }
    this.generation++;
    return stored;
  }

  remove(id: string): JsonObject | undefined {
    const rec = this.byId.get(id);
    if (!rec) {
      return undefined;
    }
    this.kill(rec);
    this.compactIfSparse();
    this.generation++;
    return rec.doc;
  }

  removeWhere(match: (rec: DocRecord) => boolean): number {
    let n = 0;
    for (const rec of this.records) {
      if (rec.alive && match(rec)) {
        this.kill(rec);
        n++;
      }
    }
    this.compactIfSparse();
    this.generation++;
    return n;
  }

  truncate(): number {
    const n = this.byId.size;
    for (const rec of this.records) {
      rec.alive = false;
    }
    this.records = [];
    this.byId.clear();
    this.dead = 0;
    for (const field of this.tokenIndexes.keys()) {
      this.tokenIndexes.set(field, new FieldTokenIndex(field));
    }
    this.generation++;
    return n;
  }

  summary(feat: Features): Record<string, unknown> {
    const out: Record<string, unknown> = {
      name: this.name,
      num_documents: this.numDocuments,
      created_at: this.createdAt,
      enable_nested_fields: this.enableNestedFields,
      token_separators: this.tokenSeparators,
      symbols_to_index: this.symbolsToIndex,
      fields: this.fieldList.map(f => fieldSummary(f, feat)),
      default_sorting_field: this.defaultSortingField
    };
    if (this.metadata && Object.keys(this.metadata).length > 0) {
      out.metadata = this.metadata;
    }
    if (feat.globalSets) {
      out.synonym_sets = this.synonymSets;
      out.curation_sets = this.curationSets;
    }
    return out;
  }

  /** The token index of a string field, built from the live documents on first use. */
  tokenIndex(field: string): FieldTokenIndex {
    let index = this.tokenIndexes.get(field);
    if (!index) {
      index = new FieldTokenIndex(field);
      for (const rec of this.records) {
        if (rec.alive) {
          index.update(rec.seq, undefined, rec.doc);
        }
      }
      this.tokenIndexes.set(field, index);
    }
    return index;
  }

  /** The live record with sequence number `seq`; records are kept in sequence order. */
  recordAt(
    seq: number,
    from = 0
  ): { rec: DocRecord; position: number } | undefined {
    let lo = from;
    let hi = this.records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const rec = this.records[mid] as DocRecord;
      if (rec.seq < seq) {
        lo = mid + 1;
      } else if (rec.seq > seq) {
        hi = mid - 1;
      } else {
        return rec.alive ? { rec, position: mid } : undefined;
      }
    }
    return undefined;
  }

  /** Adds a field after creation (schema alter); documents already stored are indexed for it on first search. */
  addDeclaredField(f: FieldDef): void {
    this.addField(f);
    this.generation++;
  }

  /** Drops a field or pattern from the schema; stored documents keep their values, as in the engine. */
  dropField(name: string): boolean {
    const i = this.fieldList.findIndex(f => f.name === name);
    if (i < 0) {
      return false;
    }
    this.fieldList.splice(i, 1);
    this.fieldsByName.delete(name);
    this.tokenIndexes.delete(name);
    const p = this.patterns.findIndex(x => x.field.name === name);
    if (p >= 0) {
      this.patterns.splice(p, 1);
    }
    this.generation++;
    return true;
  }

  private kill(rec: DocRecord): void {
    for (const index of this.tokenIndexes.values()) {
      index.update(rec.seq, rec.doc, undefined);
    }
    rec.alive = false;
    this.byId.delete(rec.id);
    this.dead++;
  }

  private compactIfSparse(): void {
    if (this.dead > 1024 && this.dead * 2 > this.records.length) {
      this.records = this.records.filter(r => r.alive);
      this.dead = 0;
    }
  }

  private addField(f: FieldDef): void {
    this.fieldList.push(f);
    // With no documents yet, an empty index is complete and writes keep it so.
    if (
      !f.dynamic &&
      f.index &&
      baseType(f.type) === 'string' &&
      this.byId.size === 0
    ) {
      this.tokenIndexes.set(f.name, new FieldTokenIndex(f.name));
    }
    if (f.dynamic) {
      const source = f.name === '*' ? '.*' : f.name;
      this.patterns.push({ re: new RegExp(`^(?:${source})$`), field: f });
    } else {
      this.fieldsByName.set(f.name, f);
    }
  }

  /** Adds the fields an auto schema or a nested object reveals, after the document passed validation. */
  private learn(doc: JsonObject): void {
    if (this.patterns.length > 0) {
      // The engine reads the document as a JSON object whose keys are sorted: fields it learns join in name order.
      for (const key of Object.keys(doc).sort()) {
        const value = doc[key];
        if (
          key === 'id' ||
          this.fieldsByName.has(key) ||
          value === null ||
          value === undefined
        ) {
          continue;
        }
        const pattern = this.patterns.find(p => p.re.test(key));
        if (!pattern) {
          continue;
        }
        let type: string | null;
        if (pattern.field.type === 'auto') {
          type = detectType(value);
        } else if (pattern.field.type === 'string*') {
          type = Array.isArray(value) ? 'string[]' : 'string';
        } else {
          type = pattern.field.type;
        }
        if (type === null) {
          continue;
        }
        if (baseType(type) === 'object' && !this.enableNestedFields) {
          continue;
        }
        this.addField(
          makeField({
            name: key,
            type,
            facet: pattern.field.facet,
            index: pattern.field.index,
            optional: true,
            locale: pattern.field.locale,
            infix: pattern.field.infix
          })
        );
      }
    }
    if (!this.enableNestedFields) {
      return;
    }
    for (const f of this.fieldList) {
      if (baseType(f.type) !== 'object' || f.nested) {
        continue;
      }
      const value = doc[f.name];
      if (value === undefined || value === null) {
        continue;
      }
      this.learnLeaves(f, f.name, value, f.type === 'object[]');
    }
  }

  private learnLeaves(
    parent: FieldDef,
    path: string,
    value: unknown,
    inArray: boolean
  ): void {
    if (Array.isArray(value)) {
      for (const el of value) {
        if (isPlainObject(el)) {
          this.learnLeaves(parent, path, el, true);
        } else {
          this.learnLeaf(parent, path, value, true);
        }
      }
      return;
    }
    if (isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) {
          this.learnLeaves(parent, `${path}.${k}`, v, inArray);
        }
      }
      return;
    }
    this.learnLeaf(parent, path, value, inArray);
  }

  private learnLeaf(
    parent: FieldDef,
    path: string,
    value: unknown,
    inArray: boolean
  ): void {
    if (path === parent.name || this.fieldsByName.has(path)) {
      return;
    }
    let type = detectType(Array.isArray(value) ? value[0] : value);
    if (type === null || type === 'object') {
      return;
    }
    if (inArray || Array.isArray(value)) {
      type = `${type}[]`;
    }
    this.addField(
      makeField(
        {
          name: path,
          type,
          facet: parent.facet,
          index: parent.index,
          optional: true,
          locale: parent.locale,
          infix: parent.infix
        },
        true
      )
    );
  }
}
