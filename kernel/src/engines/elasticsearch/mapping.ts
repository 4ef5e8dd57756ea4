/**
 * `GET /<target>/_mapping` as a field tree
 * ([get mapping](https://www.elastic.co/docs/api/doc/elasticsearch/operation/operation-indices-get-mapping)):
 * one key per concrete index, so an alias or pattern gives the union of its indices' mappings.
 */
import { z } from 'zod';
import { fieldsRecord } from '../../../../contracts/own-fields';
import type { EngineResponse } from '../../driver-core/driver';
import {
  type FieldNode,
  type FieldTree,
  mergeTrees
} from '../../driver-core/field-tree';
import {
  type Structure,
  StructureUnavailable
} from '../../driver-core/structure-cache';

interface PropertyDef {
  type?: string | undefined;
  properties?: Record<string, PropertyDef> | undefined;
  fields?: Record<string, unknown> | undefined;
  format?: string | undefined;
}

const Property: z.ZodType<PropertyDef> = z.lazy(() =>
  z
    .object({
      type: z.string().optional(),
      properties: fieldsRecord(
        Property,
        'properties maps field names to their mappings'
      ).optional(),
      fields: z.record(z.string(), z.unknown()).optional(),
      format: z.string().optional()
    })
    .loose()
);

export const MappingResponse = z.record(
  z.string(),
  z
    .object({
      mappings: z
        .object({
          properties: fieldsRecord(
            Property,
            'properties maps field names to their mappings'
          ).optional()
        })
        .loose()
    })
    .loose()
);

function nodeOf(def: PropertyDef): FieldNode | undefined {
  // A field alias is another name for a field; documents do not hold it.
  if (def.type === 'alias') {
    return undefined;
  }
  if (def.type === 'nested') {
    return { kind: 'array', type: 'nested', children: treeOf(def.properties) };
  }
  // An object prints without a type; `enabled: false` objects keep `type: object` and no properties.
  if (def.properties || def.type === undefined || def.type === 'object') {
    return { kind: 'object', type: 'object', children: treeOf(def.properties) };
  }
  const subfields = Object.keys(def.fields ?? {});
  const exactSubfield = keywordSubfield(def.fields);
  return {
    kind: 'leaf',
    type: def.type,
    ...(subfields.length ? { subfields } : {}),
    ...(exactSubfield ? { exactSubfield } : {}),
    ...(def.format ? { format: def.format } : {})
  };
}

/** The `keyword` subfield exact filters and sorts of a text field use (`keyword` first, else any). */
function keywordSubfield(
  fields: Record<string, unknown> | undefined
): string | undefined {
  const keywords = Object.entries(fields ?? {})
    .filter(
      ([, def]) =>
        z
          .object({ type: z.literal('keyword') })
          .loose()
          .safeParse(def).success
    )
    .map(([name]) => name);
  return keywords.includes('keyword') ? 'keyword' : keywords[0];
}

function treeOf(
  properties: Record<string, PropertyDef> | undefined
): FieldTree {
  const tree: FieldTree = new Map();
  for (const [name, def] of Object.entries(properties ?? {})) {
    const node = nodeOf(def);
    if (node) {
      tree.set(name, node);
    }
  }
  return tree;
}

/** The union of the mappings in a `_mapping` answer; StructureUnavailable when there is none. */
export function structureOfMapping(response: EngineResponse): Structure {
  if (response.status >= 300 || response.body.kind !== 'json') {
    throw new StructureUnavailable(`GET _mapping answered ${response.status}`);
  }
  const parsed = MappingResponse.safeParse(response.body.value);
  if (!parsed.success) {
    throw new StructureUnavailable(
      `GET _mapping answered an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`
    );
  }
  // Index names in order, so the union's column order does not depend on the cluster's answer order.
  const members = Object.keys(parsed.data).sort();
  let tree: FieldTree = new Map();
  for (const index of members) {
    tree = mergeTrees(tree, treeOf(parsed.data[index]?.mappings.properties));
  }
  return { tree, members };
}
