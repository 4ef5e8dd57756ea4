/** Compares two normalised answers; lists where they differ as JSON paths. */
import type { Json } from './normalise';

export interface Difference {
  path: string;
  sandbox: string;
  real: string;
}

const RELATIVE = 1e-5;

function close(a: number, b: number): boolean {
  if (a === b) {
    return true;
  }
  return Math.abs(a - b) <= RELATIVE * Math.max(Math.abs(a), Math.abs(b));
}

function show(v: Json | undefined): string {
  const text = v === undefined ? '(absent)' : JSON.stringify(v);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

export function differences(
  sandbox: Json | undefined,
  real: Json | undefined,
  at = '$',
  out: Difference[] = []
): Difference[] {
  if (out.length >= 20) {
    return out;
  }
  if (typeof sandbox === 'number' && typeof real === 'number') {
    if (!close(sandbox, real)) {
      out.push({ path: at, sandbox: show(sandbox), real: show(real) });
    }
    return out;
  }
  if (Array.isArray(sandbox) && Array.isArray(real)) {
    if (sandbox.length !== real.length) {
      out.push({
        path: `${at}.length`,
        sandbox: String(sandbox.length),
        real: String(real.length)
      });
    }
    for (let i = 0; i < Math.min(sandbox.length, real.length); i++) {
      differences(sandbox[i], real[i], `${at}[${i}]`, out);
    }
    return out;
  }
  const isObj = (v: Json | undefined): v is { [k: string]: Json } =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(sandbox) && isObj(real)) {
    const keys = new Set([...Object.keys(real), ...Object.keys(sandbox)]);
    for (const k of keys) {
      differences(sandbox[k], real[k], `${at}.${k}`, out);
    }
    return out;
  }
  if (JSON.stringify(sandbox) !== JSON.stringify(real)) {
    out.push({ path: at, sandbox: show(sandbox), real: show(real) });
  }
  return out;
}
