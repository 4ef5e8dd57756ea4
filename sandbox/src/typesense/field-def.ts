/** A collection field as declared (what a schema's `fields` entry may hold) and as the engine keeps it. */
import { z } from 'zod';

export interface FieldDef {
  name: string;
  type: string;
  facet: boolean;
  optional: boolean;
  index: boolean;
  sort: boolean;
  infix: boolean;
  locale: string;
  stem: boolean;
  store: boolean;
  stemDictionary: string;
  rangeIndex: boolean;
  truncateLen: number;
  /** A leaf found inside an `object`/`object[]` field rather than declared. */
  nested: boolean;
  /** Name is a pattern (`.*`, `.*_facet`) that types fields learned from documents. */
  dynamic: boolean;
  /** A vector field's dimensions (a `float[]` with `num_dim`), 0 for any other field. */
  numDim: number;
  /** A vector field's distance: `cosine` unless `ip` was asked for. */
  vecDist: string;
  /** A vector field's index parameters, the engine's defaults filled in. */
  hnswParams: Record<string, number>;
  /** Auto-embedding: the fields it is computed from and the model, as declared. */
  embed: Record<string, unknown> | undefined;
}

export const fieldInput = z.looseObject({
  name: z.string(),
  type: z.string(),
  facet: z.boolean().optional(),
  optional: z.boolean().optional(),
  index: z.boolean().optional(),
  sort: z.boolean().optional(),
  infix: z.boolean().optional(),
  locale: z.string().optional(),
  stem: z.boolean().optional(),
  store: z.boolean().optional(),
  stem_dictionary: z.string().optional(),
  range_index: z.boolean().optional(),
  truncate_len: z.number().int().positive().optional(),
  num_dim: z.unknown().optional(),
  vec_dist: z.unknown().optional(),
  hnsw_params: z.unknown().optional(),
  embed: z.unknown().optional()
});
export type FieldInput = z.infer<typeof fieldInput>;
