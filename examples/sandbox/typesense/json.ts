/**
 * Typesense serialises through nlohmann::json, whose objects keep their keys sorted. Clients
 * never rely on it, but diffs and snapshot tests read better when the sandbox does the same.
 */

/** A 64-bit score that must reach the wire with all its digits. */
export class RawNumber {
  constructor(readonly digits: string) {}
}

export function sortedJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (typeof value === 'string') {
    out.push(JSON.stringify(value));
  } else if (typeof value === 'number') {
    out.push(Number.isFinite(value) ? String(value) : 'null');
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false');
  } else if (typeof value === 'bigint') {
    out.push(value.toString());
  } else if (value instanceof RawNumber) {
    out.push(value.digits);
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], out);
    }
    out.push(']');
  } else if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    out.push('{');
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      if (i > 0) out.push(',');
      out.push(JSON.stringify(k), ':');
      write(obj[k], out);
    }
    out.push('}');
  } else {
    out.push('null');
  }
}

/** A copy with object keys sorted at every depth, so that plain JSON.stringify emits them in order. */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => canonical(v)) as T;
  if (value !== null && typeof value === 'object') {
    const src = value as Record<string, unknown>;
    const dst: Record<string, unknown> = {};
    for (const k of Object.keys(src).sort()) dst[k] = canonical(src[k]);
    return dst as T;
  }
  return value;
}

export type JsonObject = Record<string, unknown>;

export function isPlainObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
