/**
 * The two bounds every request of a connection keeps, as `%connect` options and profile
 * fields: how long one answer may take (`timeout=`, seconds) and how much of it may be held in
 * memory (`max_answer=`, bytes).
 */
import { z } from 'zod';

/** Below this a request cannot reach even a local engine; above a day it is not a bound. */
export const MIN_TIMEOUT_SECONDS = 0.1;
export const MAX_TIMEOUT_SECONDS = 86_400;

const TIMEOUT_RANGE = `takes the seconds one answer may take, from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} (a day); write for example timeout=120`;

/** Seconds, within the range above (a timer outside it would fire at once or never). */
export const TimeoutSecondsSchema = z
  .number({ error: TIMEOUT_RANGE })
  .min(MIN_TIMEOUT_SECONDS, { error: TIMEOUT_RANGE })
  .max(MAX_TIMEOUT_SECONDS, { error: TIMEOUT_RANGE });

const MIB = 1024 * 1024;

/**
 * 256 MiB by default: reading an answer and parsing its JSON takes about four times its size
 * at the peak, so a capped answer stays near 1 GB of the kernel's memory, which an 8 GB
 * laptop survives next to JupyterLab and a browser, while every answer a notebook can use
 * (the notebook keeps at most 20 MB of one) still fits many times over.
 */
export const DEFAULT_ANSWER_CAP_BYTES = 256 * MIB;
/** Below a page of hits an answer is not useful; above ~512 M characters V8 cannot hold its text. */
export const MIN_ANSWER_CAP_BYTES = 64 * 1024;
export const MAX_ANSWER_CAP_BYTES = 500 * MIB;

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1_000,
  mb: 1_000_000,
  gb: 1_000_000_000,
  kib: 1024,
  mib: MIB,
  gib: 1024 * MIB
};
const SIZE = /^(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?$/i;

const CAP_RANGE = `takes the bytes one answer may hold in memory, from 64KiB to 500MiB, written as a number of bytes or with a unit (KB, MB, GB, KiB, MiB, GiB); for example max_answer=64MB`;

/** A byte count, or a size with a unit (`64MB`, `1MiB`), within the range above. */
export const AnswerCapSchema = z
  .union([z.number(), z.string()], { error: CAP_RANGE })
  .transform((value, ctx) => {
    const bytes = typeof value === 'number' ? value : sizeInBytes(value);
    if (
      bytes === undefined ||
      !Number.isFinite(bytes) ||
      bytes < MIN_ANSWER_CAP_BYTES ||
      bytes > MAX_ANSWER_CAP_BYTES
    ) {
      ctx.addIssue({ code: 'custom', message: CAP_RANGE });
      return z.NEVER;
    }
    return Math.floor(bytes);
  });

function sizeInBytes(text: string): number | undefined {
  const match = SIZE.exec(text.trim());
  if (!match?.[1]) {
    return undefined;
  }
  const unit = UNITS[(match[2] ?? '').toLowerCase()];
  return unit === undefined ? undefined : Number(match[1]) * unit;
}

/** `1.5 MiB`, `256 MiB`, `900 KiB`, `512 bytes`: sizes in messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} bytes`;
  }
  if (bytes < MIB) {
    return `${trim(bytes / 1024)} KiB`;
  }
  if (bytes < 1024 * MIB) {
    return `${trim(bytes / MIB)} MiB`;
  }
  return `${trim(bytes / (1024 * MIB))} GiB`;
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : String(Math.round(n * 10) / 10);
}
