/**
 * An answer's body as the console reads it: JSON (every digit of its numbers kept), JSONL,
 * or text, with a notice when it is not what its Content-Type says or is cut to what one
 * answer may hold.
 */
import { isAscii } from 'node:buffer';
import type { Dispatcher } from 'undici';
import { parseExactJson } from '../../json/exact-integers';
import type { EngineResponse } from '../capabilities/console';
import type { JsonValue } from '../../console/cell';
import type { EngineError } from '../errors';
import { elideJson, elisionNotice } from './elided-json';
import { MAX_ANSWER_DEPTH, nestingDepth } from './json-depth';
import { jsonFault } from './json-fault';
import { sharedSources, type SourcesAt } from './shared-sources';
import { isJsonObject } from '../../../../contracts/json';
import { ownValue } from '../../../../contracts/own-fields';

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

/**
 * A raw response as `decoded` reads it, except that a 2xx JSON answer holding documents at
 * `sources` is parsed with their source values blanked (blanked-sources.ts): `bytes` stays the
 * engine's whole answer and `shapeOnly` says that `value` holds the documents' shape only.
 * Whatever this reading does not settle (an answer cut to the read budget, nested too deep,
 * not JSON, with a byte-order mark) is decoded whole, as `decoded` does.
 */
export function decodedShapeOnly(
  raw: RawResponse,
  sources: SourcesAt
): EngineResponse {
  const bytes = raw.bytes;
  if (
    raw.status < 200 ||
    raw.status >= 300 ||
    bytes[0] === 0xef ||
    bytes.length === 0 ||
    elideJson(bytes)
  ) {
    return decoded(raw);
  }
  const shared = sharedSources(bytes, sources);
  if (!shared) {
    return decoded(raw);
  }
  let value: JsonValue;
  try {
    value = parseExactJson(answerText(shared.skeleton));
    if (shared.shapes.length > 0) {
      const shapes = shared.shapes.map(shape =>
        parseExactJson(answerText(shape))
      );
      withShapes(value, sources, shapes);
    }
  } catch {
    return decoded(raw);
  }
  return {
    status: raw.status,
    headers: raw.headers,
    body: {
      kind: 'json',
      value,
      bytes,
      ...(shared.shapes.length > 0
        ? {
            shapeOnly: true as const,
            documentRanges: shared.documents
          }
        : {})
    },
    elapsedMs: raw.elapsedMs,
    ...(raw.answeredBy ? { answeredBy: raw.answeredBy } : {})
  };
}

/** Puts each document's shape where the skeleton holds its number (every source there is one: sharedSources). */
function withShapes(
  value: JsonValue,
  { at, source }: SourcesAt,
  shapes: JsonValue[]
): void {
  let documents: JsonValue | undefined = value;
  for (const key of at) {
    documents = isJsonObject(documents) ? ownValue(documents, key) : undefined;
  }
  if (!Array.isArray(documents)) {
    throw new Error('The documents are not where their sources were read.');
  }
  for (const document of documents) {
    const number = isJsonObject(document)
      ? ownValue(document, source)
      : undefined;
    if (isJsonObject(document) && number !== undefined) {
      const shape = shapes[number as number];
      if (shape === undefined) {
        throw new Error('A document holds no shape number.');
      }
      document[source] = shape;
    }
  }
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

/** An answer's text. ASCII (most answers) is Latin-1 too, which Node copies as it is: UTF-8 decoding checks each byte again. */
function answerText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : UTF8.decode(bytes);
}

/** An answer's value as the engine wrote it, every digit of its numbers kept. */
export function wholeValue(bytes: Buffer): JsonValue {
  return parseExactJson(answerText(bytes));
}

/**
 * A response read for its documents' shape only (decodedShapeOnly), read whole: for a
 * caller that finds it needs the documents' values after all. Any other response as it is.
 */
export function wholeResponse(response: EngineResponse): EngineResponse {
  const body = response.body;
  if (body.kind !== 'json' || !body.shapeOnly || !body.bytes) {
    return response;
  }
  return {
    ...response,
    body: {
      kind: 'json',
      value: wholeValue(body.bytes),
      bytes: body.bytes
    }
  };
}
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
  const text = answerText(bytes);
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
