/**
 * The engine resources the side panel manages beside documents over the `searchbook.panel`
 * comm: named things a search uses (aliases, synonym and curation sets and their items, per
 * collection synonyms and overrides, presets, stopword sets) and a collection's schema, shown
 * read-only. Engine-neutral: the driver says which kinds its server has (and, for a kind the
 * server's version lacks, the version that brings it) and plans each change as the request the
 * panel shows before it is sent.
 */
import { z } from 'zod';
import { PANEL_PROTOCOL_VERSION } from './protocol-version';

const Base = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string().min(1)
};
const ReplyBase = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string()
};
const Connection = z.string().min(1);

export const ResourceKindSchema = z.enum([
  'aliases',
  'synonymSets',
  'synonymSetItems',
  'curationSets',
  'curationSetItems',
  'synonyms',
  'overrides',
  'presets',
  'stopwords'
]);
export type ResourceKind = z.infer<typeof ResourceKindSchema>;

/** A kind as the panel lists it: its title, and why it is disabled when the server lacks it. */
export const ResourceKindInfoSchema = z.object({
  kind: ResourceKindSchema,
  title: z.string(),
  /** `collection`: one list per collection; `set`: the items of one set of another kind. */
  scope: z.enum(['server', 'collection', 'set']),
  available: z.boolean(),
  /** For a kind the server lacks: what brings it ("Typesense 30"), or what replaced it. */
  unavailableReason: z.string().optional(),
  /** A new entry's JSON to start from. */
  template: z.string(),
  /** For a kind whose entries are sets: the kind of the items inside each set. */
  items: ResourceKindSchema.optional()
});
export type ResourceKindInfo = z.infer<typeof ResourceKindInfoSchema>;

/** Where a kind's entries live: the collection or set they belong to, for scoped kinds. */
export const ResourceTargetSchema = z.object({
  kind: ResourceKindSchema,
  parent: z.string().min(1).optional()
});
export type ResourceTarget = z.infer<typeof ResourceTargetSchema>;

export const ResourceEntrySchema = z.object({
  name: z.string(),
  /** The entry's body as its PUT takes it: what the panel edits as JSON. */
  value: z.unknown(),
  /** Sets: the collections that name them. Aliases: the collection they stand for. */
  usedBy: z.array(z.string()).optional()
});
export type ResourceEntry = z.infer<typeof ResourceEntrySchema>;

export const ResourceChangeSchema = z.object({
  target: ResourceTargetSchema,
  /**
   * `link`: a set (kinds whose entries are sets) added to the sets a collection uses, the
   * collection named in `body.collection`; planned from the collection's list as the server
   * holds it when sent, so a set another change added meanwhile stays.
   */
  op: z.enum(['put', 'delete', 'link']),
  name: z
    .string()
    .trim()
    .min(1, 'Give the entry a name (letters, digits, - and _).'),
  /** For `put`: the entry's JSON body. */
  body: z.unknown().optional(),
  /**
   * What the form started from, as the panel read it from the server when the form opened:
   * the entry's listed value, or null for an entry that did not exist. When given, the kernel
   * reads the entry again just before sending and sends nothing if the server now holds
   * something else (another tab, a console cell), answering `resourceConflict` instead, so
   * that no change overwrites one it never saw.
   */
  basis: z.object({ value: z.unknown() }).nullable().optional()
});
export type ResourceChange = z.infer<typeof ResourceChangeSchema>;

/** The HTTP request a change sends, shown to the user before it is sent. */
export const PlannedRequestSchema = z.object({
  method: z.enum(['PUT', 'DELETE', 'PATCH', 'POST']),
  path: z.string(),
  body: z.unknown().optional()
});
export type PlannedRequest = z.infer<typeof PlannedRequestSchema>;

export const SchemaFieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  facet: z.boolean(),
  index: z.boolean(),
  sort: z.boolean(),
  infix: z.boolean(),
  optional: z.boolean(),
  locale: z.string(),
  /** A field inside an object field (`a.b`), or the collection a `reference` points to. */
  nested: z.boolean(),
  reference: z.string().optional(),
  /** A vector field: its dimensions, distance and index parameters as the server lists them. */
  vector: z
    .object({
      numDim: z.number(),
      vecDist: z.string().optional(),
      hnswParams: z.record(z.string(), z.number()).optional()
    })
    .optional(),
  /** Auto-embedding: the fields the vector is computed from and the model (never its credentials). */
  embed: z
    .object({ from: z.array(z.string()), modelName: z.string() })
    .optional()
});
export type SchemaField = z.infer<typeof SchemaFieldSchema>;

export const CollectionSchemaViewSchema = z.object({
  name: z.string(),
  fields: z.array(SchemaFieldSchema),
  defaultSortingField: z.string(),
  tokenSeparators: z.array(z.string()),
  symbolsToIndex: z.array(z.string()),
  enableNestedFields: z.boolean(),
  /** The synonym and curation sets the collection names, on servers that keep sets. */
  synonymSets: z.array(z.string()).optional(),
  curationSets: z.array(z.string()).optional(),
  /** The request that would add a field, for "copy as cell". */
  addFieldCell: z.string()
});
export type CollectionSchemaView = z.infer<typeof CollectionSchemaViewSchema>;

export const ResourceRequestSchemas = [
  z.object({
    ...Base,
    type: z.literal('resourceKinds'),
    connection: Connection
  }),
  z.object({
    ...Base,
    type: z.literal('resourceList'),
    connection: Connection,
    target: ResourceTargetSchema
  }),
  /** The request a change would send; nothing is sent. */
  z.object({
    ...Base,
    type: z.literal('resourcePlan'),
    connection: Connection,
    change: ResourceChangeSchema
  }),
  z.object({
    ...Base,
    type: z.literal('resourceApply'),
    connection: Connection,
    change: ResourceChangeSchema
  }),
  z.object({
    ...Base,
    type: z.literal('collectionSchema'),
    connection: Connection,
    collection: z.string().min(1)
  })
] as const;

export const ResourceReplySchemas = [
  z.object({
    ...ReplyBase,
    type: z.literal('resourceKinds'),
    connection: z.string(),
    kinds: z.array(ResourceKindInfoSchema)
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('resourceList'),
    connection: z.string(),
    target: ResourceTargetSchema,
    entries: z.array(ResourceEntrySchema)
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('resourcePlan'),
    connection: z.string(),
    request: PlannedRequestSchema
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('resourceApplied'),
    connection: z.string(),
    request: PlannedRequestSchema,
    answer: z.unknown()
  }),
  /** Nothing was sent: the entry changed on the server since the form read it. */
  z.object({
    ...ReplyBase,
    type: z.literal('resourceConflict'),
    connection: z.string(),
    name: z.string(),
    /** What the server holds now; null when the entry is gone. */
    current: ResourceEntrySchema.nullable()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('collectionSchema'),
    connection: z.string(),
    schema: CollectionSchemaViewSchema
  })
] as const;

export type ResourceRequest = z.infer<(typeof ResourceRequestSchemas)[number]>;
export type ResourceReply = z.infer<(typeof ResourceReplySchemas)[number]>;
