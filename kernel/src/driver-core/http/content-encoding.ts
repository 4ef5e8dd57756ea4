import { promisify } from 'node:util';
import {
  brotliDecompress,
  gunzip,
  inflate,
  inflateRaw,
  type ZlibOptions
} from 'node:zlib';
import { CapPassedError } from './buffered-response';
import { UnreadableAnswerError } from '../errors';

type Decoder = (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>;

const gunzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gunzip);
const inflateAsync = promisify<Buffer, ZlibOptions, Buffer>(inflate);
const inflateRawAsync = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);
const brotliAsync = promisify<Buffer, ZlibOptions, Buffer>(brotliDecompress);

/** `deflate` is zlib-wrapped by the standard, but some servers send it raw. */
const inflateEither: Decoder = async (bytes, options) => {
  try {
    return await inflateAsync(bytes, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw err;
    }
    return inflateRawAsync(bytes, options);
  }
};

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipAsync,
  'x-gzip': gunzipAsync,
  deflate: inflateEither,
  br: brotliAsync
};

/**
 * The body as the engine meant it, when it came compressed (Content-Encoding): undici's
 * dispatcher hands over the bytes as they travelled. Decompressed under the same cap as the
 * body, so a small compressed answer cannot grow past what the connection allows in memory.
 */
export async function decodeContent(
  bytes: Buffer,
  encoding: string | undefined,
  maxBytes: number
): Promise<{ bytes: Buffer; decoded: boolean }> {
  // Encodings apply in the order listed, so they are undone from the last.
  const codings = (encoding ?? '')
    .split(',')
    .map(c => c.trim().toLowerCase())
    .filter(c => c && c !== 'identity')
    .reverse();
  if (codings.length === 0 || bytes.length === 0) {
    return { bytes, decoded: false };
  }
  let body = bytes;
  for (const coding of codings) {
    const decoder = DECODERS[coding];
    if (!decoder) {
      throw new UnreadableAnswerError(
        `The answer came encoded as "${encoding}" (its Content-Encoding header), which searchbook cannot decode; it reads gzip, deflate and br.`
      );
    }
    try {
      body = await decoder(body, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new CapPassedError(maxBytes, maxBytes, 'decoded');
      }
      throw new UnreadableAnswerError(
        `The answer says it is ${coding}-compressed (its Content-Encoding header) but does not decompress (${(err as Error).message}).`
      );
    }
  }
  return { bytes: body, decoded: true };
}
