/**
 * Completion on a `%export` line: the index or collection first, then (after the file name)
 * the options: `format=` and its formats, `fields=` and the target's field names, the
 * engine's own (`slices=`), `overwrite`. Options already on the line are not offered again.
 */
import type { EngineName } from '../driver-core/driver';
import { ENGINES, findEngine } from '../engines/engine-registry';
import type { FieldNameOptions } from '../driver-core/field-tree';
import { EXPORT_FORMATS } from '../../../contracts/export-formats';

export interface ExportCompletionContext {
  engine?: EngineName;
  targetNames(): Promise<string[]>;
  fieldNames(target: string, options?: FieldNameOptions): Promise<string[]>;
}

export interface ExportCandidate {
  text: string;
  type: string;
}

export interface ExportCompletion {
  candidates: ExportCandidate[];
  /** Where the replaced text starts (the word, or the part of `fields=` after the last comma). */
  start: number;
}

/** A word as `%export` splits them: `"..."` keeps blanks inside. */
const WORD = /"[^"]*"?|\S+/g;

/**
 * `line` is the `%export` line up to the cursor, `lineStart` its offset in the cell and `after`
 * the rest of the line; undefined when the line is not a `%export` line.
 */
export async function completeExportLine(
  line: string,
  lineStart: number,
  after: string,
  ctx: ExportCompletionContext
): Promise<ExportCompletion | undefined> {
  const head = /^(\s*%export)(?=\s)/.exec(line);
  if (!head) {
    return undefined;
  }
  const rest = line.slice(head[0].length);
  const words = [...rest.matchAll(WORD)];
  const typing = words.length > 0 && /\S$/.test(rest);
  const current = typing ? (words.pop() as RegExpMatchArray) : undefined;
  const partial = current?.[0] ?? '';
  const start = lineStart + line.length - partial.length;
  const position = words.length;
  if (position === 0) {
    const names = await ctx.targetNames();
    const type = findEngine(ctx.engine)?.targetNoun ?? 'target';
    return {
      candidates: names
        .filter(
          n =>
            startsWithFold(n, partial) &&
            (!n.startsWith('.') || partial.startsWith('.'))
        )
        .sort()
        .map(text => ({ text, type })),
      start
    };
  }
  // The file name is the user's to write.
  if (position === 1) {
    return { candidates: [], start };
  }
  const given = new Set(words.slice(2).map(w => w[0].split('=')[0]));
  const format = /^format=(\w*)$/.exec(partial);
  if (format) {
    return {
      candidates: EXPORT_FORMATS.filter(f => f.startsWith(format[1] ?? '')).map(
        f => ({ text: `format=${f}`, type: 'format' })
      ),
      start
    };
  }
  const fields = /^fields=((?:[^,]*,)*)([^,]*)$/.exec(partial);
  if (fields) {
    const target = words[0]?.[0].replace(/^"|"$/g, '') ?? '';
    const listedAfter = (/^\S*/.exec(after)?.[0] ?? '').split(',').slice(1);
    const chosen = new Set(
      [...(fields[1] ?? '').split(','), ...listedAfter].filter(Boolean)
    );
    const typed = fields[2] ?? '';
    // fields= picks document fields: a multi-field (`name.keyword`) is in no document.
    const names = (await ctx.fieldNames(target, { subfields: false })).filter(
      f => !chosen.has(f) && startsWithFold(f, typed)
    );
    return {
      candidates: names.map(text => ({ text, type: 'field' })),
      start: start + partial.length - typed.length
    };
  }
  // Without a connection, what any engine takes: the line is checked when it runs.
  const engines =
    ctx.engine === undefined
      ? ENGINES
      : [findEngine(ctx.engine)].filter(e => e !== undefined);
  const options = [
    'format=',
    'fields=',
    ...new Set(engines.flatMap(e => e.completion.exportOptions)),
    'overwrite'
  ];
  return {
    candidates: options
      .filter(o => !given.has(o.replace('=', '')) && o.startsWith(partial))
      .map(text => ({ text, type: 'option' })),
    start
  };
}

function startsWithFold(text: string, prefix: string): boolean {
  return text.toLowerCase().startsWith(prefix.toLowerCase());
}
