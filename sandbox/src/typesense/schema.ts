/**
 * Collection schemas: field types, the defaults the engine fills in, and the summary shape
 * that `GET /collections` prints per version.
 */
import { z } from 'zod';
import { ApiError } from './errors';
import type { Features } from './version';
import { fieldInput, type FieldDef, type FieldInput } from './field-def';
import { vectorOf } from './vector-fields';

export const SCALAR_TYPES = [
  'string',
  'int32',
  'int64',
  'float',
  'bool',
  'geopoint',
  'object'
] as const;
const ALL_TYPES = new Set<string>([
  ...SCALAR_TYPES,
  ...SCALAR_TYPES.map(t => `${t}[]`),
  'auto',
  'string*',
  'image'
]);

export const collectionInput = z.looseObject({
  name: z.unknown(),
  fields: z.unknown(),
  default_sorting_field: z.string().optional(),
  enable_nested_fields: z.boolean().optional(),
  token_separators: z.array(z.string()).optional(),
  symbols_to_index: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional()
});

export function isNumericType(type: string): boolean {
  return type === 'int32' || type === 'int64' || type === 'float';
}

export function baseType(type: string): string {
  return type.endsWith('[]') ? type.slice(0, -2) : type;
}

export function isArrayType(type: string): boolean {
  return type.endsWith('[]');
}

export function isDynamicName(name: string): boolean {
  return name.includes('.*') || name === '*';
}

/** Singular numbers, bools and geopoints sort unless told not to; strings only when asked. */
function defaultSort(type: string): boolean {
  return (
    type === 'int32' ||
    type === 'int64' ||
    type === 'float' ||
    type === 'bool' ||
    type === 'geopoint'
  );
}

export function makeField(input: FieldInput, nested = false): FieldDef {
  const dynamic = isDynamicName(input.name);
  return {
    name: input.name,
    type: input.type,
    facet: input.facet ?? false,
    optional: input.optional ?? (dynamic || nested),
    index: input.index ?? true,
    sort: input.sort ?? defaultSort(input.type),
    infix: input.infix ?? false,
    locale: input.locale ?? '',
    stem: input.stem ?? false,
    store: input.store ?? true,
    stemDictionary: input.stem_dictionary ?? '',
    rangeIndex: input.range_index ?? false,
    truncateLen: input.truncate_len ?? 100,
    nested,
    dynamic,
    numDim: 0,
    vecDist: 'cosine',
    hnswParams: {},
    embed: undefined
  };
}

export function parseFields(
  raw: unknown,
  enableNested: boolean,
  defaultSortingField: string
): FieldDef[] {
  if (raw === undefined) {
    throw new ApiError(400, 'Parameter `fields` is required.');
  }
  if (!Array.isArray(raw)) {
    throw new ApiError(
      400,
      'Wrong format for `fields`. It should be an array of objects.'
    );
  }
  const fields: FieldDef[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const parsed = fieldInput.safeParse(item);
    if (!parsed.success) {
      throw new ApiError(
        400,
        'Wrong format for `fields`. It should be an array of objects.'
      );
    }
    const f = parsed.data;
    if (f.name === 'id') {
      continue;
    }
    if (seen.has(f.name)) {
      throw new ApiError(400, `There are duplicate field names in the schema.`);
    }
    seen.add(f.name);
    if (!ALL_TYPES.has(f.type)) {
      throw new ApiError(
        400,
        `Field \`${f.name}\` has an invalid data type \`${f.type}\`, see docs for supported data types.`
      );
    }
    if ((f.type === 'object' || f.type === 'object[]') && !enableNested) {
      throw new ApiError(
        400,
        'Type `object` or `object[]` can be used only when nested fields are enabled by setting` enable_nested_fields` to true.'
      );
    }
    const field = makeField(f);
    Object.assign(field, vectorOf(f, field));
    if (field.dynamic && f.optional === false) {
      throw new ApiError(400, `Field \`${f.name}\` must be an optional field.`);
    }
    if (
      field.sort &&
      !(defaultSort(baseType(field.type)) || field.type === 'string')
    ) {
      throw new ApiError(
        400,
        `Field \`${f.name}\` cannot be a sortable field.`
      );
    }
    if (!field.index && field.facet) {
      throw new ApiError(
        400,
        `Field \`${f.name}\` cannot be a facet since it's marked as non-indexable.`
      );
    }
    if (field.name === defaultSortingField) {
      if (
        !defaultSort(field.type) &&
        !(field.type === 'string' && field.sort)
      ) {
        throw new ApiError(
          400,
          `Default sorting field \`${defaultSortingField}\` is not a sortable type.`
        );
      }
      if (field.optional) {
        throw new ApiError(
          400,
          `Default sorting field \`${defaultSortingField}\` cannot be an optional field.`
        );
      }
      if (field.type === 'geopoint') {
        throw new ApiError(
          400,
          'Default sorting field cannot be of type geopoint.'
        );
      }
    }
    fields.push(field);
  }
  if (
    defaultSortingField !== '' &&
    !fields.some(f => f.name === defaultSortingField)
  ) {
    throw new ApiError(
      400,
      `Default sorting field is defined as \`${defaultSortingField}\` but is not found in the schema.`
    );
  }
  return fields;
}

export function fieldSummary(
  f: FieldDef,
  feat: Features
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: f.name,
    type: f.type,
    facet: f.facet,
    optional: f.optional,
    index: f.index,
    sort: f.sort,
    infix: f.infix,
    locale: f.locale,
    stem: f.stem
  };
  if (feat.fieldStore) {
    out.store = f.store;
  }
  if (feat.fieldStemDictionary) {
    out.stem_dictionary = f.stemDictionary;
  }
  if (f.rangeIndex) {
    out.range_index = true;
  }
  if (feat.fieldTruncateLen) {
    out.truncate_len = f.truncateLen;
  }
  if (f.numDim > 0) {
    if (feat.hnswParams) {
      out.hnsw_params = f.hnswParams;
    }
    out.num_dim = f.numDim;
    out.vec_dist = f.vecDist;
  }
  if (f.embed !== undefined) {
    out.embed = f.embed;
  }
  return out;
}

/** The engine's type for a value it meets in a document (auto schema, nested leaves). */
export function detectType(value: unknown): string | null {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return null;
    }
    const inner = detectType(value[0]);
    if (inner === null || inner.endsWith('[]')) {
      return null;
    }
    return `${inner}[]`;
  }
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float';
    case 'object':
      return value === null ? null : 'object';
    default:
      return null;
  }
}
