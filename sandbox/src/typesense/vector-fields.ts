/**
 * Vector fields (`float[]` with `num_dim`) and auto-embedding (`embed`) as a collection schema
 * declares them: checked with the engine's texts, kept, and listed back in the field summary
 * with the distance and index parameters the engine fills in. The stand-in computes no
 * embeddings: a document may leave an embedded field out, as it does on a real server, but
 * nothing is written into it.
 */
import { ApiError } from './errors';
import type { FieldDef, FieldInput } from './field-def';

/** Dimensions of the models the stand-in knows by name (the engine learns them from the model). */
const MODEL_DIMENSIONS: Record<string, number> = {
  'ts/all-MiniLM-L12-v2': 384,
  'ts/e5-small': 384,
  'ts/multilingual-e5-small': 384,
  'openai/text-embedding-ada-002': 1536,
  'openai/text-embedding-3-small': 1536,
  'openai/text-embedding-3-large': 3072
};

/** Keys of a model's configuration the engine never lists in clear. */
const CREDENTIALS = [
  'api_key',
  'access_token',
  'refresh_token',
  'client_id',
  'client_secret',
  'project_id'
];

const DISTANCES = new Set(['cosine', 'ip']);

function property(name: string, text: string): ApiError {
  return new ApiError(400, `Property \`${name}\` ${text}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The model configuration as the summary lists it: credentials cut to their first five characters. */
function hidden(config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  for (const key of CREDENTIALS) {
    const value = out[key];
    if (typeof value === 'string' && value.length > 5) {
      out[key] = value.slice(0, 5) + '*'.repeat(value.length - 5);
    }
  }
  return out;
}

function embedding(embed: unknown): {
  embed: Record<string, unknown>;
  numDim: number;
} {
  if (!isObject(embed) || embed.from === undefined) {
    throw property('embed.from', 'not found.');
  }
  const config = embed.model_config;
  if (!isObject(config)) {
    throw property('embed.model_config', 'not found.');
  }
  const model = config.model_name;
  if (model === undefined) {
    throw new ApiError(
      400,
      'Property `embed.model_config.model_name`not found'
    );
  }
  if (typeof model !== 'string') {
    throw property('embed.model_config.model_name', 'must be a string.');
  }
  if (model === '') {
    throw property('embed.model_config.model_name', 'cannot be empty.');
  }
  const numDim = MODEL_DIMENSIONS[model];
  if (numDim === undefined) {
    throw new ApiError(
      400,
      `Model \`${model}\` is unknown to this stand-in (it knows ${Object.keys(MODEL_DIMENSIONS).join(', ')}).`
    );
  }
  return {
    embed: { ...embed, model_config: hidden(config) },
    numDim
  };
}

function hnswParams(raw: unknown): Record<string, number> {
  if (raw === undefined) {
    return { M: 16, ef_construction: 200 };
  }
  if (!isObject(raw)) {
    throw property('hnsw_params', 'must be an object.');
  }
  const out: Record<string, number> = {};
  for (const key of ['M', 'ef_construction', 'ef', 'max_elements']) {
    const value = raw[key];
    if (value === undefined) {
      continue;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      throw property(`hnsw_params.${key}`, 'must be a positive integer.');
    }
    out[key] = value;
  }
  return { M: 16, ef_construction: 200, ...out };
}

/** What a field declares of vectors and embedding, checked as the engine checks it. */
export function vectorOf(
  input: FieldInput,
  field: FieldDef
): Pick<FieldDef, 'numDim' | 'vecDist' | 'hnswParams' | 'embed'> {
  const embedded =
    input.embed === undefined ? undefined : embedding(input.embed);
  const numDim = embedded?.numDim ?? input.num_dim;
  if (numDim === undefined) {
    return { numDim: 0, vecDist: 'cosine', hnswParams: {}, embed: undefined };
  }
  if (typeof numDim !== 'number' || !Number.isInteger(numDim) || numDim <= 0) {
    throw property('num_dim', 'must be a positive integer.');
  }
  if (field.type !== 'float[]') {
    throw property('num_dim', 'is only allowed on a float array field.');
  }
  if (field.facet) {
    throw property('facet', 'is not allowed on a vector field.');
  }
  if (field.sort) {
    throw property('sort', 'cannot be enabled on a vector field.');
  }
  const vecDist = input.vec_dist ?? 'cosine';
  if (typeof vecDist !== 'string') {
    throw property('vec_dist', 'must be a string.');
  }
  if (!DISTANCES.has(vecDist)) {
    throw property('vec_dist', 'is invalid.');
  }
  return {
    numDim,
    vecDist,
    hnswParams: hnswParams(input.hnsw_params),
    embed: embedded?.embed
  };
}

/** A vector's length against its field's dimensions, in the engine's words. */
export function checkDimensions(field: FieldDef, value: unknown): void {
  if (
    field.numDim > 0 &&
    Array.isArray(value) &&
    value.length !== field.numDim
  ) {
    throw new ApiError(
      400,
      `Field \`${field.name}\` must have ${field.numDim} dimensions.`
    );
  }
}
