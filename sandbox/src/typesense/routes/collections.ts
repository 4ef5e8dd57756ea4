import { Collection } from '../collection';
import { documentsCollection, findCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson, type JsonObject } from '../json';
import type { Router } from '../router';
import { collectionInput, fieldSummary, parseFields } from '../schema';
import { pageOf } from '../synonyms';
import { parseJsonBody } from './body';

/** 30: the synonym or curation sets a collection names; each must exist. */
function setNames(
  engine: Engine,
  raw: unknown,
  key: 'synonym_sets' | 'curation_sets'
): string[] {
  if (raw === undefined) {
    return [];
  }
  const noun = key === 'synonym_sets' ? 'synonym' : 'curation';
  if (!Array.isArray(raw)) {
    throw new ApiError(400, `\`${key}\` should be an array of ${noun} sets.`);
  }
  const sets: Map<string, unknown> =
    key === 'synonym_sets' ? engine.synonymSets : engine.curationSets;
  for (const n of raw) {
    if (typeof n !== 'string' || n === '') {
      throw new ApiError(
        400,
        `\`${key}\` should be an array of non-empty strings.`
      );
    }
    if (!sets.has(n)) {
      throw new ApiError(
        404,
        `${noun === 'synonym' ? 'Synonym' : 'Curation'} set \`${n}\` not found.`
      );
    }
  }
  return raw as string[];
}

export function createCollection(engine: Engine, body: unknown): Collection {
  const parsed = collectionInput.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(400, 'Bad JSON.');
  }
  const input = parsed.data;
  if (input.name === undefined) {
    throw new ApiError(400, 'Parameter `name` is required.');
  }
  if (typeof input.name !== 'string' || input.name === '') {
    throw new ApiError(400, 'Parameter `name` must be a non-empty string.');
  }
  if (engine.collections.has(input.name)) {
    throw new ApiError(
      409,
      `A collection with name \`${input.name}\` already exists.`
    );
  }
  const enableNested = input.enable_nested_fields ?? false;
  const dsf = input.default_sorting_field ?? '';
  const sets = engine.feat.globalSets;
  const coll = new Collection({
    name: input.name,
    fields: parseFields(input.fields, enableNested, dsf),
    defaultSortingField: dsf,
    enableNestedFields: enableNested,
    tokenSeparators: input.token_separators ?? [],
    symbolsToIndex: input.symbols_to_index ?? [],
    metadata: input.metadata,
    createdAt: Math.floor(Date.now() / 1000),
    synonymSets: sets
      ? setNames(engine, input.synonym_sets, 'synonym_sets')
      : [],
    curationSets: sets
      ? setNames(engine, input.curation_sets, 'curation_sets')
      : []
  });
  engine.collections.set(coll.name, coll);
  return coll;
}

/** `POST /collections?src_name=X`: a new, empty collection with X's schema under the body's name. */
function cloneCollection(
  engine: Engine,
  source: string,
  body: unknown
): Collection {
  const src = findCollection(engine, source);
  if (!src) {
    throw new ApiError(400, `Collection with name \`${source}\` not found.`);
  }
  const name = isPlainObject(body) ? body.name : undefined;
  if (typeof name !== 'string' || name === '') {
    throw new ApiError(400, 'Collection name must be provided.');
  }
  if (engine.collections.has(name)) {
    throw new ApiError(400, `Collection with name \`${name}\` already exists.`);
  }
  const schema = src.summary(engine.feat);
  const fields = (schema.fields as JsonObject[]).filter(f => {
    const declared = src.field(String(f.name));
    return !declared?.nested;
  });
  return createCollection(engine, { ...schema, name, fields });
}

function existing(engine: Engine, name: string): Collection {
  const c = findCollection(engine, name);
  if (!c) {
    throw new ApiError(404, `No collection with name \`${name}\` found.`);
  }
  return c;
}

/** `PATCH /collections/:c`: drop and add fields (drops first, as the engine reorders them), metadata, 30's sets. */
function alterCollection(
  engine: Engine,
  coll: Collection,
  body: unknown
): JsonObject {
  if (!isPlainObject(body)) {
    throw new ApiError(400, 'Bad JSON.');
  }
  if (
    !engine.feat.alterMetadata &&
    (Object.keys(body).length !== 1 || body.fields === undefined)
  ) {
    throw new ApiError(400, 'Only `fields` can be updated at the moment.');
  }
  if (Object.keys(body).length === 0) {
    throw new ApiError(400, 'Alter payload is empty.');
  }
  const allowed = engine.feat.globalSets
    ? ['metadata', 'fields', 'synonym_sets', 'curation_sets']
    : ['metadata', 'fields'];
  if (Object.keys(body).some(k => !allowed.includes(k))) {
    throw new ApiError(
      400,
      engine.feat.globalSets
        ? 'Only `fields`, `metadata` and `synonym_sets` can be updated at the moment.'
        : 'Only `fields` and `metadata` can be updated at the moment.'
    );
  }
  if (body.metadata !== undefined && !isPlainObject(body.metadata)) {
    throw new ApiError(400, 'The `metadata` value should be an object.');
  }
  for (const key of ['synonym_sets', 'curation_sets']) {
    if (body[key] !== undefined && !Array.isArray(body[key])) {
      throw new ApiError(400, `The \`${key}\` value should be an array.`);
    }
  }
  // The engine's order; a refusal part-way leaves the earlier parts applied, as there.
  const out: JsonObject = { ...body };
  if (isPlainObject(body.metadata)) {
    coll.metadata = body.metadata;
  }
  if (body.synonym_sets !== undefined) {
    coll.synonymSets = setNames(engine, body.synonym_sets, 'synonym_sets');
  }
  if (body.curation_sets !== undefined) {
    coll.curationSets = setNames(engine, body.curation_sets, 'curation_sets');
  }
  if (body.fields !== undefined) {
    out.fields = alterFields(coll, body.fields, engine.feat);
  }
  coll.generation++;
  return out;
}

/**
 * The answer lists the fields as sent; from 29 each added field comes back with the defaults
 * the engine filled in (`facet`, `index`, `optional`, `sort`, ...), as its clients read it.
 */
function alterFields(
  coll: Collection,
  raw: unknown,
  feat: Engine['feat']
): unknown[] {
  const shape =
    'The `fields` value should be an array of objects containing the field `name` and other properties.';
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new ApiError(400, shape);
  }
  for (const f of raw) {
    if (!isPlainObject(f) || typeof f.name !== 'string') {
      throw new ApiError(400, shape);
    }
    if (f.name === 'id') {
      throw new ApiError(400, 'Field `id` cannot be altered.');
    }
  }
  const items = raw as JsonObject[];
  // The engine sorts drops before additions (a stable sort), so a field can be dropped and re-added at once.
  const ordered = [
    ...items.filter(f => f.drop !== undefined),
    ...items.filter(f => f.drop === undefined)
  ];
  const dropped = new Set<string>();
  const added: JsonObject[] = [];
  for (const f of ordered) {
    const name = f.name as string;
    if (f.drop !== undefined) {
      if (f.drop !== true) {
        throw new ApiError(
          400,
          `Field \`${name}\` must have a drop value of \`true\`.`
        );
      }
      if (!coll.field(name) && !coll.fields.some(x => x.name === name)) {
        throw new ApiError(
          400,
          `Field \`${name}\` is not part of collection schema.`
        );
      }
      dropped.add(name);
    } else {
      const present = coll.fields.some(x => x.name === name);
      if (present && !dropped.has(name)) {
        throw new ApiError(
          400,
          `Field \`${name}\` is already part of the schema: To change this field, drop it first before adding it back to the schema.`
        );
      }
      added.push(f);
    }
  }
  // Additions go through the same checks as a new collection's fields.
  const newFields =
    added.length > 0 ? parseFields(added, coll.enableNestedFields, '') : [];
  for (const name of dropped) {
    coll.dropField(name);
  }
  for (const f of newFields) {
    coll.addDeclaredField(f);
  }
  return ordered.map(f => {
    const declared =
      f.drop === undefined ? newFields.find(n => n.name === f.name) : undefined;
    return declared && feat.alterAnswersFilledFields
      ? fieldSummary(declared, feat)
      : f;
  });
}

export function registerCollections(router: Router, engine: Engine): void {
  router
    .add('GET', '/collections', ctx => {
      const excludeParam = engine.feat.collectionListExclude
        ? (ctx.query.get('exclude_fields') ?? '')
        : '';
      const exclude = excludeParam
        .split(',')
        .map(s => s.trim())
        .filter(s => s !== '');
      const list = pageOf(
        [...engine.collections.values()].reverse(),
        ctx.query
      ).map(c => {
        const summary = c.summary(engine.feat);
        for (const key of exclude) {
          delete summary[key];
        }
        return summary;
      });
      return json(200, sortedJson(list));
    })
    .add('POST', '/collections', ctx => {
      const body = parseJsonBody(ctx.body);
      const source = ctx.query.get('src_name');
      const coll =
        source === undefined
          ? createCollection(engine, body)
          : cloneCollection(engine, source, body);
      return json(201, sortedJson(coll.summary(engine.feat)));
    })
    // The summary handler writes the documents endpoints' text; only DELETE names the collection.
    .add('GET', '/collections/:collection', ctx =>
      json(
        200,
        sortedJson(
          documentsCollection(engine, ctx.params.collection ?? '').summary(
            engine.feat
          )
        )
      )
    )
    .add('PATCH', '/collections/:collection', ctx => {
      let body: unknown;
      try {
        body = JSON.parse(ctx.body);
      } catch {
        throw new ApiError(400, 'Bad JSON.');
      }
      const coll = documentsCollection(engine, ctx.params.collection ?? '');
      return json(200, sortedJson(alterCollection(engine, coll, body)));
    })
    .add('DELETE', '/collections/:collection', ctx => {
      const coll = existing(engine, ctx.params.collection ?? '');
      const summary = coll.summary(engine.feat);
      engine.collections.delete(coll.name);
      coll.truncate();
      return json(200, sortedJson(summary));
    });
}
