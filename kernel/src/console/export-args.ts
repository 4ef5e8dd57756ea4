/**
 * `%export <index-or-collection> <file> [format=jsonl|csv|json] [fields=a,b,...] [slices=N] [overwrite]`:
 * the line's words, checked before anything is sent. A file name with spaces is written in
 * double quotes. Without format=, a `.csv` or `.json` file name picks its format, else JSONL.
 */
import {
  EXPORT_FORMATS,
  type ExportFormatName
} from '../../../contracts/export-formats';
import type { ExportArgs } from './cell';
import { refuse } from './refusal';
import type { ConsoleWording } from './wording';

export const EXPORT_USAGE =
  '%export <index-or-collection> <file> [format=jsonl|csv|json] [fields=a,b,...] [slices=N] [overwrite]';

const MAX_SLICES = 64;
const HINT = `Write \`${EXPORT_USAGE}\`, for example \`%export products products.jsonl\` or \`%export books books.csv fields=title,author overwrite\`; an optional query goes on the next lines.`;

/** Splits on blanks; `"..."` keeps blanks inside one word. */
function words(text: string, line: number): string[] {
  const out: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    const word = match[1] ?? match[2] ?? '';
    if (match[2]?.includes('"')) {
      refuse(
        'InvalidMagic',
        `%export on line ${line}: unbalanced quote in \`${word}\`.`,
        HINT,
        { line }
      );
    }
    out.push(word);
  }
  return out;
}

export function parseExportArgs(
  text: string,
  line: number,
  wording: Pick<ConsoleWording, 'slicesNote'>
): ExportArgs {
  const [target, file, ...options] = words(text, line);
  if (!target || !file) {
    refuse(
      'InvalidMagic',
      `%export on line ${line} needs an index or collection and a file name.`,
      HINT,
      { line }
    );
  }
  if (target.includes('=')) {
    refuse(
      'InvalidMagic',
      `%export on line ${line} starts with the option \`${target}\`; the index or collection comes first, then the file.`,
      HINT,
      { line }
    );
  }
  if (file.includes('=') && !/[/\\.]/.test(file.split('=')[0] ?? '')) {
    refuse(
      'InvalidMagic',
      `%export on line ${line}: \`${file}\` is an option, but the file name comes second.`,
      HINT,
      { line }
    );
  }
  const args: ExportArgs = {
    target,
    file,
    format: formatOfName(file),
    overwrite: false
  };
  const seen = new Set<string>();
  for (const option of options) {
    const [key = '', ...rest] = option.split('=');
    const value = rest.join('=');
    if (seen.has(key)) {
      refuse(
        'InvalidMagic',
        `%export on line ${line} gives ${key} twice.`,
        HINT,
        { line }
      );
    }
    seen.add(key);
    if (option === 'overwrite') {
      args.overwrite = true;
    } else if (key === 'format') {
      if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
        refuse(
          'InvalidMagic',
          `%export on line ${line}: format=${value} is not a format searchbook writes.`,
          'Write format=jsonl, format=csv or format=json.',
          { line }
        );
      }
      args.format = value as ExportFormatName;
    } else if (key === 'fields') {
      const fields = value.split(',').map(f => f.trim());
      if (fields.some(f => f === '')) {
        refuse(
          'InvalidMagic',
          `%export on line ${line}: fields= needs field names separated by commas.`,
          'Write fields=title,author (no blanks, no empty names).',
          { line }
        );
      }
      args.fields = fields;
    } else if (key === 'slices') {
      const slices = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      if (!(slices >= 1 && slices <= MAX_SLICES)) {
        refuse(
          'InvalidMagic',
          `%export on line ${line}: slices=${value} is not a number of slices.`,
          `Write slices=N with N from 1 to ${MAX_SLICES}, for example slices=4${wording.slicesNote}.`,
          { line }
        );
      }
      args.slices = slices;
    } else {
      refuse(
        'InvalidMagic',
        `%export on line ${line} does not know \`${option}\`.`,
        HINT,
        { line }
      );
    }
  }
  return args;
}

function formatOfName(file: string): ExportFormatName {
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) {
    return 'csv';
  }
  if (lower.endsWith('.json')) {
    return 'json';
  }
  return 'jsonl';
}
