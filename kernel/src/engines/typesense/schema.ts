/**
 * `GET /collections/<name>` as a field tree
 * ([collections](https://typesense.org/docs/latest/api/collections.html)). With nested fields enabled the
 * leaves of `object` and `object[]` fields are listed as dotted names (`meta.pages`,
 * `variants.sku`), after their parents; they are placed under them here, so each leaf is its own column.
 */
import { z } from 'zod';
import type { EngineResponse } from '../../driver-core/driver';
import type { FieldNode, FieldTree } from '../../driver-core/field-tree';
import {
  type Structure,
  StructureUnavailable
} from '../../driver-core/structure-cache';

export const CollectionSummary = z
  .object({
    name: z.string(),
    enable_nested_fields: z.boolean().optional(),
    fields: z.array(
      z
        .object({
          name: z.string(),
          type: z.string(),
          sort: z.boolean().optional(),
          index: z.boolean().optional()
        })
        .loose()
    )
  })
  .loose();

const NUMERIC = new Set(['int32', 'int64', 'float']);

/** Whether the engine sorts on a field: as the schema says, else numbers do (the engine's default). */
function sortableField(field: {
  type: string;
  sort?: boolean | undefined;
}): boolean {
  return field.sort ?? NUMERIC.has(field.type);
}

/** Text a search's `query_by` may name: string fields the engine indexes. */
function searchableField(field: {
  type: string;
  index?: boolean | undefined;
}): boolean {
  return field.index !== false && /^string(\[\]|\*)?$/.test(field.type);
}

function nodeOf(
  type: string,
  children: FieldTree,
  sortable: boolean,
  searchable = false
): FieldNode {
  if (type === 'object') {
    return { kind: 'object', type, children };
  }
  if (type === 'object[]') {
    return { kind: 'array', type, children };
  }
  // Array types and geopoints ([lat, lng]) hold JSON.
  return {
    kind: 'leaf',
    type,
    ...(type.endsWith('[]') || type === 'geopoint' ? { json: true } : {}),
    ...(sortable ? { sortable } : {}),
    ...(searchable ? { searchable } : {})
  };
}

export function treeOfSchema(
  fields: {
    name: string;
    type: string;
    sort?: boolean | undefined;
    index?: boolean | undefined;
  }[],
  nested: boolean
): FieldTree {
  const root: FieldTree = new Map();
  for (const field of fields) {
    // `.*` and other regex names say which fields to learn; they are not fields. `id` always leads.
    if (field.name.includes('*') || field.name === 'id') {
      continue;
    }
    const parts = nested ? field.name.split('.') : [field.name];
    const last = parts.pop() as string;
    let tree = root;
    for (const part of parts) {
      let parent = tree.get(part);
      if (!parent || parent.kind === 'leaf') {
        tree.set(
          part,
          (parent = { kind: 'object', type: 'object', children: new Map() })
        );
      }
      tree = parent.children;
    }
    const existing = tree.get(last);
    // Map.set keeps an existing key's place, so a parent declared after its leaves stays put.
    tree.set(
      last,
      nodeOf(
        field.type,
        existing && existing.kind !== 'leaf' ? existing.children : new Map(),
        sortableField(field),
        searchableField(field)
      )
    );
  }
  return root;
}

export function structureOfCollection(response: EngineResponse): Structure {
  if (response.status >= 300 || response.body.kind !== 'json') {
    throw new StructureUnavailable(
      `GET /collections/<name> answered ${response.status}`
    );
  }
  const parsed = CollectionSummary.safeParse(response.body.value);
  if (!parsed.success) {
    throw new StructureUnavailable(
      `GET /collections/<name> answered an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`
    );
  }
  const { name, fields, enable_nested_fields } = parsed.data;
  return {
    tree: treeOfSchema(fields, enable_nested_fields === true),
    members: [name]
  };
}
