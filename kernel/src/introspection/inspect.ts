/** Inspection (Shift+Tab): a short help text for the request or magic under the cursor. */
import type { CompletionContext } from './complete';
import { splitCell } from '../console/cell-structure';
import { HTTP_METHODS, type HttpMethod } from '../console/cell';
import { matchEndpoints } from './endpoint-match';
import { CONSOLE_WORDING, MAGICS } from '../connections/console-wording';
import { magicInfo } from '../console/magics';

export async function inspect(
  text: string,
  cursorPos: number,
  ctx: CompletionContext
): Promise<string | undefined> {
  const cursor = Math.max(0, Math.min(cursorPos, text.length));
  const segment = splitCell(text).find(
    s => s.at <= cursor && cursor <= Math.max(s.end, s.lineEnd)
  );
  if (!segment) {
    return undefined;
  }
  const line = text.slice(segment.at, segment.lineEnd).trim();
  if (segment.kind === 'magic') {
    const name = /^%([\w-]*)/.exec(line)?.[1]?.toLowerCase() ?? '';
    const info = magicInfo(name, CONSOLE_WORDING);
    if (info) {
      return `${info.usage}\n${info.description}`;
    }
    return `Magics:\n${MAGICS.map(m => `${m.usage}  ${m.description}`).join('\n')}`;
  }
  if (segment.kind !== 'request') {
    return undefined;
  }
  const match = /^(\S+)\s+(\S+)/.exec(line);
  if (!match) {
    return undefined;
  }
  const method = (match[1] ?? '').toUpperCase();
  const known = (HTTP_METHODS as readonly string[]).includes(method)
    ? (method as HttpMethod)
    : undefined;
  const path = match[2] ?? '';
  const endpoints = matchEndpoints(await ctx.endpoints(), path, known);
  if (endpoints.length === 0) {
    return undefined;
  }
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const endpoint of endpoints) {
    const block = [
      `${endpoint.methods.join('|')} ${endpoint.path}`,
      endpoint.description,
      endpoint.docUrl ? `Documentation: ${endpoint.docUrl}` : ''
    ]
      .filter(l => l !== '')
      .join('\n');
    if (!seen.has(block)) {
      seen.add(block);
      blocks.push(block);
    }
  }
  return blocks.join('\n\n');
}
