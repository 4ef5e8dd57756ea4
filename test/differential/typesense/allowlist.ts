import type { Difference } from '../compare';

export interface TypesenseAllowance {
  kind: string;
  entries: string[];
  reason: string;
}
export const TYPESENSE_ALLOWLIST: TypesenseAllowance[] = [];
export function classify(
  _entry: string,
  _d: Difference
): TypesenseAllowance | undefined {
  return undefined;
}
