/**
 * The administration messages of the `searchbook.panel` comm: what a connection offers
 * (API keys, a server dashboard or cluster overview), key listing, creation and deletion, and
 * metric snapshots. Engine-neutral: the driver says what its engine offers and names each
 * figure; the panel shows what it is given and never asks which engine it talks to.
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

/** A key as listed: never its value, only the first characters the engine shows. */
export const KeyInfoSchema = z.object({
  id: z.string(),
  description: z.string(),
  actions: z.array(z.string()),
  collections: z.array(z.string()),
  valuePrefix: z.string(),
  /** Seconds since the epoch; null when the key never expires. */
  expiresAt: z.number().int().nullable()
});
export type KeyInfo = z.infer<typeof KeyInfoSchema>;

export const NewKeySchema = z.object({
  description: z
    .string()
    .trim()
    .min(1, 'Write a description, so the key can be told apart later.'),
  actions: z
    .array(z.string().trim().min(1))
    .min(1, 'Choose at least one action (for example documents:search).'),
  collections: z
    .array(z.string().trim().min(1))
    .min(1, 'Name at least one collection, or * for every collection.'),
  /** Seconds since the epoch; absent for a key that never expires. */
  expiresAt: z.number().int().positive().optional()
});
export type NewKey = z.infer<typeof NewKeySchema>;

/**
 * A scoped search key to compute from a parent search-only key: `params` are the search
 * parameters embedded in it (`filter_by`, `expires_at`, ...), which its users cannot change.
 */
export const ScopedKeyRequestSchema = z.object({
  parentKey: z
    .string()
    .min(
      4,
      'Paste the value of a search-only key (documents:search) to derive the scoped key from.'
    ),
  params: z
    .record(z.string(), z.unknown())
    .refine(p => Object.keys(p).length > 0, {
      message:
        'Embed at least one search parameter, for example {"filter_by": "company_id:124"}.'
    })
});
export type ScopedKeyRequest = z.infer<typeof ScopedKeyRequestSchema>;

/** A figure's unit, for formatting and charting. */
export const MetricUnitSchema = z.enum([
  'bytes',
  'ratio',
  'percent',
  'per_second',
  'ms',
  'count',
  'text'
]);
export type MetricUnit = z.infer<typeof MetricUnitSchema>;

export const MetricSchema = z.object({
  /** Stable within a view, so the panel can chart a figure across snapshots. */
  id: z.string(),
  label: z.string(),
  unit: MetricUnitSchema,
  /** null: the engine did not send it (shown as "not reported", never as 0). */
  value: z.number().nullable(),
  /** For `text` figures (a cluster status), and for a value out of a total (`of 16 GiB`). */
  text: z.string().optional(),
  /** For bytes: the total the value is part of. */
  total: z.number().optional(),
  /** Why the value is missing when it is not simply unreported (a rate needs two samples). */
  missing: z.string().optional(),
  /** `good`, `warn`, `bad`: a status worth colouring (cluster health). */
  tone: z.enum(['good', 'warn', 'bad']).optional()
});
export type Metric = z.infer<typeof MetricSchema>;

export const MetricGroupSchema = z.object({
  id: z.string(),
  title: z.string(),
  metrics: z.array(MetricSchema)
});
export type MetricGroup = z.infer<typeof MetricGroupSchema>;

export const MetricsSnapshotSchema = z.object({
  title: z.string(),
  /** Milliseconds since the epoch when the kernel read the figures. */
  at: z.number(),
  groups: z.array(MetricGroupSchema),
  /** Panels a database client would have that this engine does not feed, with the reason. */
  notOffered: z.array(z.object({ label: z.string(), reason: z.string() })),
  /** The requests the snapshot cost. */
  requests: z.array(
    z.object({
      method: z.string(),
      path: z.string(),
      status: z.number().int(),
      elapsedMs: z.number()
    })
  )
});
export type MetricsSnapshot = z.infer<typeof MetricsSnapshotSchema>;

/** What the panel may show under a connection. */
export const AdminOffersSchema = z.object({
  /** Title of the keys section, when the engine has API keys the panel can manage. */
  keys: z
    .object({
      title: z.string(),
      immutableNote: z.string(),
      actionChoices: z.array(
        z.object({ label: z.string(), actions: z.array(z.string()) })
      ),
      /** Present when the engine's scoped search keys can be computed here. */
      scoped: z
        .object({ title: z.string(), note: z.string(), example: z.string() })
        .optional()
    })
    .optional(),
  /** Title of the metrics section (server dashboard, cluster overview). */
  metrics: z
    .object({ title: z.string(), refreshMs: z.number().int().positive() })
    .optional()
});
export type AdminOffers = z.infer<typeof AdminOffersSchema>;

export const AdminRequestSchemas = [
  z.object({ ...Base, type: z.literal('offers'), connection: Connection }),
  z.object({ ...Base, type: z.literal('keys'), connection: Connection }),
  z.object({
    ...Base,
    type: z.literal('addKey'),
    connection: Connection,
    key: NewKeySchema,
    /** An RSA-OAEP (SHA-256) public key, SPKI DER in base64, made by the panel for this one request: the value comes back sealed with it, so no other listener of the kernel's messages can read it. */
    sealWith: z.string().min(1).optional()
  }),
  z.object({
    ...Base,
    type: z.literal('scopedKey'),
    connection: Connection,
    scoped: ScopedKeyRequestSchema,
    /** As for `addKey`: the computed value comes back sealed with this public key. */
    sealWith: z.string().min(1).optional()
  }),
  z.object({
    ...Base,
    type: z.literal('deleteKey'),
    connection: Connection,
    id: z.string().min(1)
  }),
  z.object({ ...Base, type: z.literal('metrics'), connection: Connection })
] as const;

export const AdminReplySchemas = [
  z.object({
    ...ReplyBase,
    type: z.literal('offers'),
    connection: z.string(),
    offers: AdminOffersSchema
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('keys'),
    connection: z.string(),
    keys: z.array(KeyInfoSchema)
  }),
  /**
   * The one message that carries a new key's full value: `sealed` (base64 RSA-OAEP ciphertext)
   * when the request gave `sealWith`, else `value` (a panel without Web Crypto, served over
   * plain HTTP from another host). The panel shows it once and forgets it.
   */
  z.object({
    ...ReplyBase,
    type: z.literal('keyAdded'),
    connection: z.string(),
    key: KeyInfoSchema,
    value: z.string().optional(),
    sealed: z.string().optional()
  }),
  /** A scoped key: like `keyAdded`, the one message with its value, sealed when asked. */
  z.object({
    ...ReplyBase,
    type: z.literal('scopedKeyMade'),
    connection: z.string(),
    /** The parent key's first four characters, which the scoped key carries in clear. */
    parentPrefix: z.string(),
    /** The embedded parameters as signed, in the JSON text the key carries. */
    embedded: z.string(),
    value: z.string().optional(),
    sealed: z.string().optional()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('keyDeleted'),
    connection: z.string(),
    id: z.string()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('metrics'),
    connection: z.string(),
    snapshot: MetricsSnapshotSchema
  })
] as const;

export type AdminRequest = z.infer<(typeof AdminRequestSchemas)[number]>;
export type AdminReply = z.infer<(typeof AdminReplySchemas)[number]>;
