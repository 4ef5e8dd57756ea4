/**
 * Typesense's resources beside documents for the side panel: aliases, synonym and curation
 * sets (30+) or each collection's synonyms and overrides (up to 29), presets, stopword sets,
 * and a collection's schema read-only. Every change is one PUT or DELETE, planned first so the
 * panel shows it before it is sent.
 */
import { z } from 'zod';
import type {
  CollectionSchemaView,
  PlannedRequest,
  ResourceChange,
  ResourceEntry,
  ResourceKind,
  ResourceKindInfo
} from '../../../../contracts/resource-protocol';
import type { JsonValue } from '../../console/cell';
import type { ResourceAdmin } from '../../driver-core/capabilities/resources';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typesenseFailure } from './failure';
import { checkedBody } from './resource-bodies';
import {
  GLOBAL_SETS_SINCE,
  resourceVersion,
  STOPWORDS_SINCE_TEXT
} from './versions';

interface KindSpec {
  title: string;
  scope: ResourceKindInfo['scope'];
  /** Present only with global sets (true), only without (false), or always (undefined). */
  globalSets?: boolean;
  /** Present only where the server has stopword sets (0.25 on). */
  stopwords?: true;
  base(parent: string): string;
  template: string;
  /** For sets: the kind of their items. */
  items?: ResourceKind;
}

const seg = (s: string): string => encodeURIComponent(s);

const KINDS: Record<ResourceKind, KindSpec> = {
  aliases: {
    title: 'Aliases',
    scope: 'server',
    base: () => '/aliases',
    template: '{"collection_name": ""}'
  },
  synonymSets: {
    title: 'Synonym sets',
    scope: 'server',
    globalSets: true,
    base: () => '/synonym_sets',
    template: '{"items": []}',
    items: 'synonymSetItems'
  },
  synonymSetItems: {
    title: 'Synonyms',
    scope: 'set',
    globalSets: true,
    base: set => `/synonym_sets/${seg(set)}/items`,
    template: '{"synonyms": ["", ""]}'
  },
  curationSets: {
    title: 'Curation sets',
    scope: 'server',
    globalSets: true,
    base: () => '/curation_sets',
    template: '{"items": []}',
    items: 'curationSetItems'
  },
  curationSetItems: {
    title: 'Curation rules',
    scope: 'set',
    globalSets: true,
    base: set => `/curation_sets/${seg(set)}/items`,
    template:
      '{"rule": {"query": "", "match": "exact"}, "includes": [{"id": "", "position": 1}]}'
  },
  synonyms: {
    title: 'Synonyms',
    scope: 'collection',
    globalSets: false,
    base: c => `/collections/${seg(c)}/synonyms`,
    template: '{"synonyms": ["", ""]}'
  },
  overrides: {
    title: 'Overrides (curation)',
    scope: 'collection',
    globalSets: false,
    base: c => `/collections/${seg(c)}/overrides`,
    template:
      '{"rule": {"query": "", "match": "exact"}, "includes": [{"id": "", "position": 1}]}'
  },
  presets: {
    title: 'Presets',
    scope: 'server',
    base: () => '/presets',
    template: '{"value": {"query_by": ""}}'
  },
  stopwords: {
    title: 'Stopwords',
    stopwords: true,
    scope: 'server',
    base: () => '/stopwords',
    template: '{"stopwords": [""], "locale": "en"}'
  }
};

const Named = z.looseObject({ name: z.string() });
const WithId = z.looseObject({ id: z.string() });
const Listing: Record<ResourceKind, (body: unknown) => ResourceEntry[]> = {
  aliases: body =>
    z
      .object({
        aliases: z.array(
          z.object({ name: z.string(), collection_name: z.string() })
        )
      })
      .parse(body)
      .aliases.map(a => ({
        name: a.name,
        value: { collection_name: a.collection_name },
        usedBy: [a.collection_name]
      })),
  synonymSets: body => setEntries(body),
  curationSets: body => setEntries(body),
  synonymSetItems: body => idEntries(z.array(WithId).parse(body)),
  curationSetItems: body => idEntries(z.array(WithId).parse(body)),
  synonyms: body =>
    idEntries(z.object({ synonyms: z.array(WithId) }).parse(body).synonyms),
  overrides: body =>
    idEntries(z.object({ overrides: z.array(WithId) }).parse(body).overrides),
  presets: body =>
    z
      .object({
        presets: z.array(z.object({ name: z.string(), value: z.unknown() }))
      })
      .parse(body)
      .presets.map(p => ({ name: p.name, value: { value: p.value } })),
  stopwords: body =>
    idEntries(z.object({ stopwords: z.array(WithId) }).parse(body).stopwords)
};

function setEntries(body: unknown): ResourceEntry[] {
  return z
    .array(Named)
    .parse(body)
    .map(({ name, ...rest }) => ({ name, value: rest }));
}

function idEntries(items: z.infer<typeof WithId>[]): ResourceEntry[] {
  return items.map(({ id, ...rest }) => ({ name: id, value: rest }));
}

const SchemaField = z.looseObject({
  name: z.string(),
  type: z.string(),
  facet: z.boolean().default(false),
  index: z.boolean().default(true),
  sort: z.boolean().default(false),
  infix: z.boolean().default(false),
  optional: z.boolean().default(false),
  locale: z.string().default(''),
  reference: z.string().optional(),
  num_dim: z.number().optional(),
  vec_dist: z.string().optional(),
  hnsw_params: z.record(z.string(), z.number()).optional(),
  embed: z
    .looseObject({
      from: z.array(z.string()).optional(),
      model_config: z
        .looseObject({ model_name: z.string().optional() })
        .optional()
    })
    .optional()
});
const CollectionSummary = z.looseObject({
  name: z.string(),
  fields: z.array(SchemaField),
  default_sorting_field: z.string().default(''),
  token_separators: z.array(z.string()).default([]),
  symbols_to_index: z.array(z.string()).default([]),
  enable_nested_fields: z.boolean().default(false),
  synonym_sets: z.array(z.string()).optional(),
  curation_sets: z.array(z.string()).optional()
});

/** What a field declares of vectors and auto-embedding; nothing for other fields (0.24 lists `num_dim: 0` on them). */
function vectorView(
  f: z.infer<typeof SchemaField>
): Pick<CollectionSchemaView['fields'][number], 'vector' | 'embed'> {
  const model = f.embed?.model_config?.model_name;
  return {
    ...(f.num_dim !== undefined && f.num_dim > 0
      ? {
          vector: {
            numDim: f.num_dim,
            ...(f.vec_dist !== undefined ? { vecDist: f.vec_dist } : {}),
            ...(f.hnsw_params !== undefined
              ? { hnswParams: f.hnsw_params }
              : {})
          }
        }
      : {}),
    ...(model !== undefined
      ? { embed: { from: f.embed?.from ?? [], modelName: model } }
      : {})
  };
}

export function typesenseResources(
  transport: Transport,
  version: () => string | undefined
): ResourceAdmin {
  const send = (
    method: 'GET' | PlannedRequest['method'],
    path: string,
    signal: AbortSignal,
    body?: JsonValue
  ) =>
    sendGridRequest(
      transport,
      { method, path, ...(body !== undefined ? { body } : {}) },
      typesenseFailure,
      [],
      signal
    );

  const availability = (kind: ResourceKind): string | null => {
    const spec = KINDS[kind];
    const offered = resourceVersion(version());
    const global = offered.globalSets;
    if (spec.stopwords && !offered.stopwords) {
      return `${spec.title} come with ${STOPWORDS_SINCE_TEXT}; this server (${version() ?? 'version unknown'}) has none.`;
    }
    if (spec.globalSets === true && !global) {
      return `${spec.title} come with ${GLOBAL_SETS_SINCE}; this server (${version() ?? 'version unknown'}) keeps synonyms and overrides per collection.`;
    }
    if (spec.globalSets === false && global) {
      // Short: the collection's menu shows it beside the item it disables.
      return `in synonym and curation sets from ${GLOBAL_SETS_SINCE} on`;
    }
    return null;
  };

  const plan = (change: ResourceChange): PlannedRequest => {
    const { kind, parent } = change.target;
    const spec = KINDS[kind];
    const refused = availability(kind);
    if (refused !== null) {
      throw new Error(`${refused} Nothing was sent.`);
    }
    if (spec.scope !== 'server' && parent === undefined) {
      throw new Error(
        `${spec.title} belong to a ${spec.scope}: say which one. Nothing was sent.`
      );
    }
    const path = `${spec.base(parent ?? '')}/${seg(change.name)}`;
    if (change.op === 'delete') {
      return { method: 'DELETE', path };
    }
    const body = checkedBody(kind, change.body, spec.template);
    return { method: 'PUT', path, body };
  };

  /** A set added to a collection's sets: the PATCH of the list the collection holds now, with the set. */
  const planLink = async (
    change: ResourceChange,
    signal: AbortSignal
  ): Promise<PlannedRequest> => {
    const { kind } = change.target;
    if (kind !== 'synonymSets' && kind !== 'curationSets') {
      throw new Error(
        `Only synonym and curation sets are used by collections; ${KINDS[kind].title.toLowerCase()} are not. Nothing was sent.`
      );
    }
    const refused = availability(kind);
    if (refused !== null) {
      throw new Error(`${refused} Nothing was sent.`);
    }
    const named = z
      .object({ collection: z.string().trim().min(1) })
      .safeParse(change.body);
    if (!named.success) {
      throw new Error(
        'Name the collection that should use the set. Nothing was sent.'
      );
    }
    const collection = named.data.collection;
    const key = kind === 'synonymSets' ? 'synonym_sets' : 'curation_sets';
    const held = CollectionSummary.parse(
      await send('GET', `/collections/${seg(collection)}`, signal)
    );
    const sets = held[key] ?? [];
    if (sets.includes(change.name)) {
      throw new Error(
        `${collection} already uses ${change.name}. Nothing was sent.`
      );
    }
    return {
      method: 'PATCH',
      path: `/collections/${seg(collection)}`,
      body: { [key]: [...sets, change.name] }
    };
  };

  const usage = async (
    signal: AbortSignal
  ): Promise<z.infer<typeof CollectionSummary>[]> =>
    z.array(CollectionSummary).parse(await send('GET', '/collections', signal));

  return {
    async kinds() {
      return (Object.keys(KINDS) as ResourceKind[]).map(kind => {
        const reason = availability(kind);
        return {
          kind,
          title: KINDS[kind].title,
          scope: KINDS[kind].scope,
          available: reason === null,
          ...(reason !== null ? { unavailableReason: reason } : {}),
          template: KINDS[kind].template,
          ...(KINDS[kind].items ? { items: KINDS[kind].items } : {})
        };
      });
    },
    async list(target, signal) {
      const spec = KINDS[target.kind];
      const refused = availability(target.kind);
      if (refused !== null) {
        throw new Error(refused);
      }
      if (spec.scope !== 'server' && target.parent === undefined) {
        throw new Error(
          `${spec.title} belong to a ${spec.scope}: say which one.`
        );
      }
      const body = await send('GET', spec.base(target.parent ?? ''), signal);
      let entries: ResourceEntry[];
      try {
        entries = Listing[target.kind](body);
      } catch {
        throw new Error(
          `GET ${spec.base(target.parent ?? '')} did not answer a list of ${spec.title.toLowerCase()}.`
        );
      }
      if (target.kind === 'synonymSets' || target.kind === 'curationSets') {
        const key =
          target.kind === 'synonymSets' ? 'synonym_sets' : 'curation_sets';
        const collections = await usage(signal);
        entries = entries.map(e => ({
          ...e,
          usedBy: collections
            .filter(c => (c[key] ?? []).includes(e.name))
            .map(c => c.name)
        }));
      }
      return entries;
    },
    async plan(change, signal) {
      return change.op === 'link' ? planLink(change, signal) : plan(change);
    },
    async apply(change, signal) {
      // Planned again as it is sent: a link adds to the list the collection holds now.
      const request =
        change.op === 'link' ? await planLink(change, signal) : plan(change);
      const answer = await send(
        request.method,
        request.path,
        signal,
        request.body as JsonValue | undefined
      );
      return { request, answer };
    },
    async schema(collection, signal) {
      const raw = await send('GET', `/collections/${seg(collection)}`, signal);
      const parsed = CollectionSummary.safeParse(raw);
      if (!parsed.success) {
        throw new Error(
          `GET /collections/${collection} did not answer a collection schema.`
        );
      }
      const s = parsed.data;
      const view: CollectionSchemaView = {
        name: s.name,
        fields: s.fields.map(f => ({
          name: f.name,
          type: f.type,
          facet: f.facet,
          index: f.index,
          sort: f.sort,
          infix: f.infix,
          optional: f.optional,
          locale: f.locale,
          nested: f.name.includes('.') || f.type.startsWith('object'),
          ...(f.reference !== undefined ? { reference: f.reference } : {}),
          ...vectorView(f)
        })),
        defaultSortingField: s.default_sorting_field,
        tokenSeparators: s.token_separators,
        symbolsToIndex: s.symbols_to_index,
        enableNestedFields: s.enable_nested_fields,
        ...(s.synonym_sets !== undefined
          ? { synonymSets: s.synonym_sets }
          : {}),
        ...(s.curation_sets !== undefined
          ? { curationSets: s.curation_sets }
          : {}),
        addFieldCell: `PATCH /collections/${s.name}\n${JSON.stringify(
          { fields: [{ name: 'new_field', type: 'string', optional: true }] },
          null,
          2
        )}`
      };
      return view;
    }
  };
}
