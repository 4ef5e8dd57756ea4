import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { serialise } from './encoded-string';
import { withBuffers } from './message-buffer';
import { SearchbookError } from '../../../contracts/errors';
import type { Signer } from './signer';
import { parseExactJson } from '../json/exact-integers';

export const PROTOCOL_VERSION = '5.3';
const DELIMITER = Buffer.from('<IDS|MSG>');

export const HeaderSchema = z.object({
  msg_id: z.string(),
  username: z.string().default(''),
  session: z.string(),
  date: z.string().optional(),
  msg_type: z.string(),
  version: z.string().default(PROTOCOL_VERSION)
});
export type Header = z.infer<typeof HeaderSchema>;

const JsonObject = z.record(z.string(), z.unknown());

/** A message as received: header validated, content still `unknown` for the handler's schema. */
export interface IncomingMessage {
  identities: Buffer[];
  header: Header;
  parentHeader: Record<string, unknown>;
  metadata: Record<string, unknown>;
  content: unknown;
  buffers: Buffer[];
  /** When the kernel read it off its socket (performance.now()): an interrupt stops only a cell that was running then. */
  receivedAt: number;
}

export interface OutgoingMessage {
  msgType: string;
  content: Record<string, unknown>;
  /** The request this answers or was caused by; `undefined` for unprompted messages. */
  parent?: IncomingMessage;
  metadata?: Record<string, unknown>;
  /** Routing frames (ROUTER identities, or the iopub topic). */
  identities?: Buffer[];
}

export class MessageError extends SearchbookError {
  override readonly name = 'MessageError';
  override readonly code = 'SEARCHBOOK_ERR_MESSAGE';
}

/** Parses raw frames; throws MessageError for anything that is not a valid, signed message. */
export function decode(frames: Buffer[], signer: Signer): IncomingMessage {
  const split = frames.findIndex(f => f.equals(DELIMITER));
  if (split < 0 || frames.length < split + 6) {
    throw new MessageError('malformed message: no delimiter or missing frames');
  }
  const signature = frames[split + 1] as Buffer;
  const body = frames.slice(split + 2, split + 6);
  if (!signer.verify(signature, body)) {
    throw new MessageError('invalid signature');
  }
  const [header, parentHeader, metadata] = body
    .slice(0, 3)
    .map(b => JSON.parse(b.toString('utf8')) as unknown);
  // An edit's value keeps every digit typed: a whole number past 2^53 is an ExactNumber.
  const content = parseExactJson((body[3] as Buffer).toString('utf8'));
  return {
    identities: frames.slice(0, split),
    header: HeaderSchema.parse(header),
    parentHeader: JsonObject.parse(parentHeader),
    metadata: JsonObject.parse(metadata),
    content,
    buffers: frames.slice(split + 6),
    receivedAt: performance.now()
  };
}

export function encode(
  message: OutgoingMessage,
  session: string,
  signer: Signer
): Buffer[] {
  const header: Header = {
    msg_id: randomUUID(),
    username: 'searchbook',
    session,
    date: new Date().toISOString(),
    msg_type: message.msgType,
    version: PROTOCOL_VERSION
  };
  const { value: body, buffers } = withBuffers(() =>
    [
      header,
      message.parent?.header ?? {},
      message.metadata ?? {},
      message.content
    ].map(serialise)
  );
  return [
    ...(message.identities ?? []),
    DELIMITER,
    Buffer.from(signer.sign(body), 'ascii'),
    ...body,
    ...buffers
  ];
}
