/**
 * How exported documents become file bytes: JSONL (the engine's re-importable lines), a JSON
 * array of the same objects, or CSV with the grid's columns and a header line.
 */
import type { ExportPage, ExportStream } from '../engine/capabilities/export';
import { documentGrid } from '../engine/grid-columns';
import { ownValue } from '../../../contracts/own-fields';
import type { ExportFormatName } from '../../../contracts/export-formats';
import { csvRecord } from './csv';

export type ExportFormat = ExportFormatName;

export interface PageWriter {
  /** The bytes of one page (the header or the array's opening included on the first). */
  page(page: ExportPage): string | Buffer;
  /** What ends the file (the array's closing bracket); '' for line formats. */
  end(): string;
  /** Document fields the CSV header lacked (they appeared after the first page). */
  readonly leftOut: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

export function pageWriter(
  format: ExportFormat,
  stream: ExportStream,
  fields: string[] | undefined
): PageWriter {
  if (format === 'jsonl') {
    return {
      page: page => (page.count > 0 ? page.jsonl() : ''),
      end: () => '',
      leftOut: NONE
    };
  }
  if (format === 'json') {
    let first = true;
    return {
      page: page => {
        if (page.count === 0) {
          return '';
        }
        // JSONL lines hold no line break inside, so each one but the last ends an array element.
        const text = `${first ? '[\n' : ',\n'}${page.jsonl().toString().slice(0, -1).replaceAll('\n', ',\n')}`;
        first = false;
        return text;
      },
      end: () => (first ? '[]\n' : '\n]\n'),
      leftOut: NONE
    };
  }
  return new CsvWriter(stream, fields);
}

/** CSV columns follow the grid's: fixed from the mapping and the first page, as the header is written first. */
class CsvWriter implements PageWriter {
  private header: string[] | undefined;
  private headerSet = new Set<string>();
  readonly leftOut = new Set<string>();

  constructor(
    private readonly stream: ExportStream,
    private readonly fields: string[] | undefined
  ) {}

  page(page: ExportPage): string {
    const documents = page.documents();
    const grid = documentGrid({
      tree: this.stream.tree,
      leading: this.stream.leading,
      documents,
      ...(this.fields ? { onlyPresent: true } : {})
    });
    let text = '';
    if (!this.header) {
      this.header = this.columns(grid.columns.map(c => c.name));
      this.headerSet = new Set(this.header);
      text = csvRecord(this.header);
    }
    const header = this.header;
    for (const row of grid.rows) {
      for (const name of Object.keys(row)) {
        if (!this.headerSet.has(name)) {
          this.leftOut.add(name);
        }
      }
      text += csvRecord(header.map(name => ownValue(row, name)));
    }
    return text;
  }

  end(): string {
    // An empty export still says which columns it would have had.
    return this.header
      ? ''
      : csvRecord(
          this.columns(
            documentGrid({
              tree: this.stream.tree,
              leading: this.stream.leading,
              documents: []
            }).columns.map(c => c.name)
          )
        );
  }

  /** The grid's columns; with fields=, in the order given, a picked object by its dotted columns. */
  private columns(grid: string[]): string[] {
    if (!this.fields) {
      return grid;
    }
    const picked = this.fields.flatMap(f => {
      const matching = grid.filter(
        name => name === f || name.startsWith(`${f}.`)
      );
      return matching.length > 0 ? matching : [f];
    });
    return [...new Set([...this.stream.leading.map(c => c.name), ...picked])];
  }
}
