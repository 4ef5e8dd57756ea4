/**
 * The console's texts that name engines, phrased from the registry's descriptors, so a new
 * engine appears in `%connect` and `%export` help and in the console's refusals by its
 * descriptor alone.
 */
import { magicList, type MagicInfo } from '../console/magics';
import type { ConsoleWording } from '../console/wording';
import { ENGINES, ENGINE_NAMES } from '../engines/engine-registry';

/** `a, b and c`: no comma before the last, as the console's texts write lists. */
function listed(items: readonly string[], last: string): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

/** `an index`, `a collection`: the article by the first letter, which is right for the engines' own words. */
export function withArticle(words: string): string {
  return `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;
}

const displayNames = ENGINES.map(engine => engine.displayName);
const nouns = [...new Set(ENGINES.map(engine => engine.targetNoun))];
const addressHints = ENGINES.flatMap(engine =>
  engine.console.addressHint
    ? [`${engine.displayName}: ${engine.console.addressHint}`]
    : []
);
const slices = ENGINES.flatMap(engine =>
  engine.console.slices ? [engine.console.slices] : []
);

export const CONSOLE_WORDING: ConsoleWording = {
  connectUsage: `%connect <profile> | %connect ${ENGINE_NAMES.join('|')} <address> [options] [--save <profile>]`,
  connectDescription: `Connects to ${withArticle(listed(displayNames, 'or'))} server and makes it the active connection: a saved profile by name, or an engine and an address${addressHints.length > 0 ? ` (${addressHints.join('; ')})` : ''}, or hosts=<host:port>,<host:port> for the nodes of one cluster. --save keeps it as a profile.`,
  exportDescription: `Writes every document of ${withArticle(nouns.join(' or '))} to a file (relative to the notebook), with progress. An optional body on the next lines narrows it: ${ENGINES.map(engine => engine.console.exportBody).join(', or ')}. overwrite replaces an existing file${slices.map(s => `; slices=N ${s.help}`).join('')}.`,
  oneValueAdvice: `A body holds one JSON value. Only ${listed(
    ENGINES.flatMap(engine => engine.console.ndjsonEndpoints),
    'and'
  )} take one JSON value a line.`,
  slicesNote: slices.map(s => ` (${s.note})`).join('')
};

/** The magics as the kernel's help and completion list them. */
export const MAGICS: readonly MagicInfo[] = magicList(CONSOLE_WORDING);
