/**
 * The panel's requests as one table: each request type, the schema it is read with, and the
 * reply types it may be answered with (besides `error`, which any request may get). The kernel
 * routes by it and the panel types its replies by it; a new request is one entry here, its
 * schema in its protocol file, and one handler in the kernel.
 */
import {
  type GridReply,
  GridReplySchema,
  type GridRequest,
  GridRequestSchema
} from './panel-protocol';

export type PanelRequestType = GridRequest['type'];
export type PanelReplyType = GridReply['type'];

/** The reply types each request is answered with; a progress message (`exportProgress`) precedes its answer. */
export const PANEL_REPLIES = {
  connections: ['connections'],
  profiles: ['profiles'],
  targets: ['targets'],
  open: ['opened'],
  read: ['block'],
  refresh: ['opened'],
  curl: ['curl'],
  python: ['python'],
  close: ['closed'],
  outputRows: ['outputRows'],
  environment: ['environment'],
  offers: ['offers'],
  keys: ['keys'],
  addKey: ['keyAdded'],
  scopedKey: ['scopedKeyMade'],
  deleteKey: ['keyDeleted'],
  metrics: ['metrics'],
  plan: ['plan'],
  save: ['saved'],
  wholeValue: ['wholeValue'],
  wholeDocument: ['wholeDocument'],
  targetActions: ['targetActions'],
  targetAction: ['targetActionDone'],
  export: ['exported'],
  cancelExport: ['exportCancelled'],
  resourceKinds: ['resourceKinds'],
  resourceList: ['resourceList'],
  resourcePlan: ['resourcePlan'],
  resourceApply: ['resourceApplied', 'resourceConflict'],
  collectionSchema: ['collectionSchema']
} as const satisfies { [T in PanelRequestType]: readonly PanelReplyType[] };

type RequestSchema = (typeof GridRequestSchema.options)[number];
type ReplySchema = (typeof GridReplySchema.options)[number];

/** One row of the table: the schema a request is read with, and those of the replies it may get. */
export interface PanelRequestEntry {
  request: RequestSchema;
  replies: readonly ReplySchema[];
}

const replySchemas = new Map<string, ReplySchema>(
  GridReplySchema.options.map(schema => [schema.shape.type.value, schema])
);

/** The table itself, request type → its entry, built from the protocol's schemas. */
export const PANEL_REQUESTS: ReadonlyMap<string, PanelRequestEntry> = new Map(
  GridRequestSchema.options.map(request => {
    const type = request.shape.type.value;
    const replies: readonly string[] = PANEL_REPLIES[type];
    return [
      type,
      {
        request,
        replies: replies.flatMap(reply => replySchemas.get(reply) ?? [])
      }
    ];
  })
);

/** A request of this type, as the kernel reads it. */
export type PanelRequest<T extends PanelRequestType> = Extract<
  GridRequest,
  { type: T }
>;
/** A reply of this type, as it crosses the comm. */
export type PanelReply<T extends PanelReplyType> = Extract<
  GridReply,
  { type: T }
>;
/** A reply without the envelope (`v`, `requestId`) the comm adds. */
export type ReplyBody<R> = R extends GridReply
  ? Omit<R, 'v' | 'requestId'>
  : never;
