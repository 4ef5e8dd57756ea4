/**
 * An answer's body as the console reads it: JSON (every digit of its numbers kept), JSONL,
 * or text, with a notice when it is not what its Content-Type says or is cut to what one
 * answer may hold.
 */
import { isAscii } from 'node:buffer';
import type { Dispatcher } from 'undici';
import { parseExactJson } from '../../json/exact-integers';
import type { EngineResponse } from '../capabilities/console';
import type { EngineError } from '../errors';
import { elideJson, elisionNotice } from './elided-json';
import { MAX_ANSWER_DEPTH, nestingDepth } from './json-depth';
import { jsonFault } from './json-fault';

/** A whole response, its body as the engine sent it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  elapsedMs: number;
  /** Which node answered, when the connection has several and it is not the first: a status line. */
  answeredBy?: string;
}

/** A raw response with its body decoded (JSON, JSONL or text). */
export function decoded(raw: RawResponse): EngineResponse {
  const { body, notice } = decodeBody(
    raw.bytes,
    raw.headers['content-type'] ?? ''
  );
  return {
    status: raw.status,
    headers: raw.headers,
    body,
    elapsedMs: raw.elapsedMs,
    ...(notice ? { notice } : {}),
    ...(raw.answeredBy ? { answeredBy: raw.answeredBy } : {})
  };
}

/** A response whose body is read as it arrives; read it to the end or the socket stays busy. */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  /** Rejects with EngineError when the connection breaks mid-body. */
  body: AsyncIterable<Buffer>;
  /** As RawResponse's. */
  answeredBy?: string;
}

/** The chunks of a streamed body, a failure mid-body mapped to an EngineError. */
export async function* mappedChunks(
  body: AsyncIterable<Buffer>,
  mapError: (err: unknown) => EngineError
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of body) {
      yield chunk;
    }
  } catch (err) {
    throw mapError(err);
  }
}

/** Drops a byte-order mark, as undici's text() does. */
const UTF8 = new TextDecoder();
const BOM = 3;

/**
 * The body as read: JSON holding more values than one answer may (see elided-json.ts) is cut
 * to them before it is parsed, a step of its own in front of parsing, and said so.
 */
function decodeBody(
  bytes: Buffer,
  contentType: string
): { body: EngineResponse['body']; notice?: string } {
  const elided = elideJson(bytes);
  if (elided) {
    const read = decodeWhole(elided.bytes, contentType);
    if (read.body.kind === 'json') {
      return {
        body: { ...read.body, elisions: elided.elisions },
        notice: elisionNotice(elided.elisions)
      };
    }
  }
  return decodeWhole(bytes, contentType);
}

function decodeWhole(
  bytes: Buffer,
  contentType: string
): { body: EngineResponse['body']; notice?: string } {
  // ASCII (most answers) is Latin-1 too, which Node copies as it is: UTF-8 decoding checks each byte again.
  const text = isAscii(bytes) ? bytes.toString('latin1') : UTF8.decode(bytes);
  if (text.length === 0) {
    return { body: { kind: 'empty' } };
  }
  const depth = nestingDepth(bytes);
  if (depth > MAX_ANSWER_DEPTH) {
    return {
      body: { kind: 'text', text },
      notice: `The answer nests arrays and objects deeper than ${MAX_ANSWER_DEPTH} levels, more than searchbook reads as JSON, so it is shown as the text it came as. Ask the engine for only the parts you need.`
    };
  }
  try {
    // Every digit the engine sent: a long past 2^53 is an ExactNumber, not the nearest double.
    const value = parseExactJson(text);
    const bom =
      bytes.length >= BOM &&
      bytes[0] === 0xef &&
      bytes[1] === 0xbb &&
      bytes[2] === 0xbf;
    return {
      body: { kind: 'json', value, bytes: bom ? bytes.subarray(BOM) : bytes }
    };
  } catch {
    // JSONL (Typesense export and import): one JSON value per line.
    const lines = text.split('\n').filter(l => l.trim().length > 0);
    if (lines.length > 1 || /jsonl|ndjson|octet-stream/.test(contentType)) {
      try {
        return {
          body: {
            kind: 'jsonl',
            values: lines.map(parseExactJson)
          }
        };
      } catch {
        // Not JSONL either: fall through to text.
      }
    }
    return {
      body: { kind: 'text', text },
      ...notJsonNotice(text, contentType)
    };
  }
}

/** A body whose Content-Type says JSON but that does not parse: shown as text, and said so. */
function notJsonNotice(text: string, contentType: string): { notice?: string } {
  if (!/\bjson\b/i.test(contentType)) {
    return {};
  }
  const fault = jsonFault(text);
  const where = fault ? ` (at character ${fault.offset}: ${fault.what})` : '';
  return {
    notice: `The answer says it is ${contentType.split(';')[0]?.trim()} (its Content-Type) but is not valid JSON${where}, so it is shown as the text it came as.`
  };
}

/** Response headers as one string each (repeated ones joined with commas). */
export function flattenHeaders(
  headers: Dispatcher.ResponseData['headers']
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      flat[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return flat;
}
