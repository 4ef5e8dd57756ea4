import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import type {
  CellItem,
  ConsoleRequest,
  Refusal
} from '../../kernel/src/console/cell';
import { parseCell } from '../../kernel/src/console/parse';
import { VariableScope } from '../../kernel/src/console/variables';

export const SECRET = 's3cr3t-V4LUE';

export function scope(
  env: Record<string, string> = { API_KEY: SECRET }
): VariableScope {
  return new VariableScope(name => env[name]);
}

export function items(text: string, s: VariableScope = scope()): CellItem[] {
  const result = parseCell(text, s, CONSOLE_WORDING);
  if (!result.ok) {
    throw new Error(
      `refused: ${result.refusal.ename}: ${result.refusal.message}`
    );
  }
  return result.items;
}

export function requests(text: string, s?: VariableScope): ConsoleRequest[] {
  return items(text, s).filter(
    (i): i is ConsoleRequest => i.kind === 'request'
  );
}

export function refusal(text: string, s: VariableScope = scope()): Refusal {
  const result = parseCell(text, s, CONSOLE_WORDING);
  if (result.ok) {
    throw new Error(`expected a refusal, got ${JSON.stringify(result.items)}`);
  }
  return result.refusal;
}
