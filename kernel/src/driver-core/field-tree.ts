/**
 * The structure of an index or collection, engine-neutral: each driver turns its engine's
 * mapping or schema into this tree, and grid-columns.ts turns the tree and the documents into
 * grid columns and rows. Maps keep the engine's field order (a plain object would move
 * integer-like names such as `2024` to the front).
 */
import type { FieldNameOptions } from './capabilities/catalog';

export type FieldTree = Map<string, FieldNode>;

export type FieldNode =
  /** A value shown whole in one column (a number, a string, an array of keywords, a geo point). */
  | {
      kind: 'leaf';
      /** The engine's type name, for the column header. */
      type: string;
      /** The engine's type says the value is an array or object (Typesense `string[]`). */
      json?: boolean;
      /** Names queries may use that are not document fields (`name.keyword`); completion only. */
      subfields?: string[];
      /** A `keyword` subfield of a text field (`keyword` in `name.keyword`): exact filters and sorts use it. */
      exactSubfield?: string;
      /** The engine can sort on this field (Typesense: numeric, or declared `sort: true`). */
      sortable?: boolean;
      /** A date field's formats as the mapping names them (`yyyy-MM-dd||epoch_millis`): edits are checked against them. */
      format?: string;
      /** The engine searches this field's text by default in a search preview (Typesense: an indexed string field). */
      searchable?: boolean;
    }
  /** An object that flattens into dotted columns and has none of its own (`address.city`). */
  | { kind: 'object'; type: string; children: FieldTree }
  /**
   * An array of objects (`nested`, `object[]`): one JSON column for the whole array, plus one
   * column per leaf holding one entry per element, `null` where an element omits the leaf.
   */
  | { kind: 'array'; type: string; children: FieldTree };

/**
 * The union of two structures (an alias or pattern over several indices): fields of `b` that
 * `a` lacks are added after `a`'s; a field both hold with different types shows both (`long | keyword`).
 */
export function mergeTrees(a: FieldTree, b: FieldTree): FieldTree {
  const merged: FieldTree = new Map(a);
  for (const [name, theirs] of b) {
    const ours = merged.get(name);
    merged.set(name, ours ? mergeNodes(ours, theirs) : theirs);
  }
  return merged;
}

function mergeNodes(a: FieldNode, b: FieldNode): FieldNode {
  const type = a.type === b.type ? a.type : `${a.type} | ${b.type}`;
  if (a.kind === 'leaf' && b.kind === 'leaf') {
    const subfields = [
      ...new Set([...(a.subfields ?? []), ...(b.subfields ?? [])])
    ];
    const exactSubfield =
      a.exactSubfield !== undefined && a.exactSubfield === b.exactSubfield
        ? a.exactSubfield
        : undefined;
    const sortable = a.sortable === true && b.sortable === true;
    const format = a.format === b.format ? a.format : undefined;
    return {
      kind: 'leaf',
      type,
      ...(a.json || b.json ? { json: true } : {}),
      ...(subfields.length ? { subfields } : {}),
      ...(exactSubfield ? { exactSubfield } : {}),
      ...(sortable ? { sortable } : {}),
      ...(format ? { format } : {})
    };
  }
  if (a.kind !== 'leaf' && b.kind !== 'leaf') {
    // Nested in one index and a plain object in another: the array form shows both kinds of document.
    return {
      kind: a.kind === 'array' || b.kind === 'array' ? 'array' : 'object',
      type,
      children: mergeTrees(a.children, b.children)
    };
  }
  // A leaf in one index and an object in another: keep the object, whose columns hold more.
  return a.kind === 'leaf' ? b : a;
}

export type { FieldNameOptions };

/** Every name a query may use: objects, leaves, leaves of arrays and subfields (unless left out), dotted. */
export function fieldNamesOf(
  tree: FieldTree,
  prefix = '',
  options: FieldNameOptions = {}
): string[] {
  const names: string[] = [];
  for (const [name, node] of tree) {
    const path = prefix + name;
    names.push(path);
    if (node.kind !== 'leaf') {
      names.push(...fieldNamesOf(node.children, `${path}.`, options));
    } else if (options.subfields !== false) {
      names.push(...(node.subfields ?? []).map(sub => `${path}.${sub}`));
    }
  }
  return names;
}

/** Every field with its type, dotted, parents before their children: a mapping as a table. */
export function fieldTypesOf(
  tree: FieldTree,
  prefix = ''
): { field: string; type: string }[] {
  return [...tree].flatMap(([name, node]) => [
    { field: prefix + name, type: node.type },
    ...(node.kind === 'leaf'
      ? []
      : fieldTypesOf(node.children, `${prefix}${name}.`))
  ]);
}
