/**
 * How exported documents become file bytes: JSONL (the engine's re-importable lines), a JSON
 * array of the same objects, or CSV with the grid's columns and a header line.
 */
import type {
  ExportPage,
  ExportStream
} from '../driver-core/capabilities/export';
import { documentGrid, type GridDocument } from '../driver-core/grid-columns';
import {
  fieldPlacement,
  fieldPlacer,
  type PlaceField
} from '../../../contracts/answer-rows';
import type { Column } from '../../../contracts/columns';
import type { JsonValue } from '../console/cell';
import type { ExportFormatName } from '../../../contracts/export-formats';
import { csvRecord, csvValues } from './csv';
import { CsvTextLines } from './csv-text';
import { DocumentShapes } from './document-shape';
import { PageBytes } from './page-bytes';

type Place = ReturnType<typeof fieldPlacer>;

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
    return new JsonArrayWriter();
  }
  return new CsvWriter(stream, fields);
}

const NEWLINE = 0x0a;
const EMPTY_SOURCE = Buffer.from('{}');
const ELEMENT_END = Buffer.from(',\n');

/** The JSONL lines as the elements of one array, copied byte for byte. */
class JsonArrayWriter implements PageWriter {
  readonly leftOut = NONE;
  private first = true;
  private readonly out = new PageBytes();

  page(page: ExportPage): string | Buffer {
    if (page.count === 0) {
      return '';
    }
    const jsonl = page.jsonl();
    const lines = typeof jsonl === 'string' ? Buffer.from(jsonl) : jsonl;
    this.out.reset();
    this.out.text(this.first ? '[\n' : ',\n');
    this.first = false;
    // JSONL lines hold no line break inside, so each one but the last ends an array element.
    const last = lines.length - 1;
    for (let start = 0; start < last;) {
      const end = lines.indexOf(NEWLINE, start);
      if (end === -1 || end >= last) {
        this.out.copy(lines, start, last);
        break;
      }
      this.out.copy(lines, start, end);
      this.out.copy(ELEMENT_END, 0, ELEMENT_END.length);
      start = end + 1;
    }
    return this.out.bytes();
  }

  end(): string {
    return this.first ? '[]\n' : '\n]\n';
  }
}

/**
 * CSV columns follow the grid's: fixed from the mapping and the first page, as the header is
 * written first. Each document becomes its line before the next one is read: from its JSON text
 * where the page offers it (csv-text.ts), else decoded, its fields placed as the grid places them.
 */
class CsvWriter implements PageWriter {
  private header: string[] | undefined;
  /** Each header name's place, and the values of the line being written in those places. */
  private headerIndex = new Map<string, number>();
  private values: (JsonValue | undefined)[] = [];
  /**
   * Whole documents: the rows of every page are built as the grid of the first page builds
   * them (a row's fields follow the mapping's columns, the same on every page). With fields=,
   * a mapped column no document of a page holds is not the grid's, so each page has its own.
   */
  private build: Place | undefined;
  /** The same lines made from the documents' JSON text, where the page offers it. */
  private text: CsvTextLines | undefined;
  readonly leftOut = new Set<string>();
  private readonly out = new PageBytes();

  constructor(
    private readonly stream: ExportStream,
    private readonly fields: string[] | undefined
  ) {}

  page(page: ExportPage): Buffer {
    this.out.reset();
    const build = this.build;
    if (build) {
      if (!this.textLines(page, build)) {
        page.eachDocument(document => this.line(build, document));
      }
      return this.out.bytes();
    }
    const documents = this.columnDocuments(page);
    const columns = this.grid(documents, this.fields !== undefined);
    if (!this.header) {
      this.header = this.columns(columns.map(c => c.name));
      this.headerIndex = new Map(this.header.map((name, i) => [name, i]));
      this.values = this.header.map(() => undefined);
      this.out.text(csvRecord(this.header));
    }
    const pageBuild = fieldPlacer(columns);
    if (!this.fields) {
      this.build = pageBuild;
      this.text = new CsvTextLines(
        this.values.length,
        this.headerIndex,
        fieldPlacement(columns),
        this.leftOut
      );
    }
    // The first page's documents were decoded for its columns; its lines are made as the next ones.
    if (!this.textLines(page, pageBuild)) {
      for (const document of documents) {
        this.line(pageBuild, document);
      }
    }
    return this.out.bytes();
  }

  /**
   * The first page's documents the columns are found from: each decoded; where the lines are
   * made from the documents' text, only one document of each shape (document-shape.ts), as the
   * others add no column.
   */
  private columnDocuments(page: ExportPage): GridDocument[] {
    const documents: GridDocument[] = [];
    if (this.fields || !page.eachDocumentText) {
      page.eachDocument(document => documents.push(document));
      return documents;
    }
    const shapes = new DocumentShapes();
    page.eachDocumentText(text => {
      // A hit without a source is an empty document: one shape.
      const isNew =
        text.start === -1
          ? shapes.isNew(EMPTY_SOURCE, 0, EMPTY_SOURCE.length)
          : shapes.isNew(text.bytes, text.start, text.end);
      if (isNew) {
        documents.push(text.decoded());
      }
    });
    return documents;
  }

  /** The page's lines from its documents' JSON text, when it offers it; false when it does not. */
  private textLines(page: ExportPage, build: Place): boolean {
    const text = this.text;
    if (!text || !page.eachDocumentText) {
      return false;
    }
    page.eachDocumentText(document => {
      if (!text.line(document, this.out)) {
        this.line(build, document.decoded());
      }
    });
    return true;
  }

  end(): string {
    // An empty export still says which columns it would have had.
    return this.header
      ? ''
      : csvRecord(this.columns(this.grid([]).map(c => c.name)));
  }

  /** The grid's columns; `onlyPresent` with fields= (the header of an empty export names them all). */
  private grid(documents: GridDocument[], onlyPresent = false): Column[] {
    return documentGrid({
      tree: this.stream.tree,
      leading: this.stream.leading,
      documents,
      ...(onlyPresent ? { onlyPresent } : {})
    }).columns;
  }

  /** Puts a field in its header column, or notes it as left out: no row object a document. */
  private readonly set: PlaceField = (name, value) => {
    const at = this.headerIndex.get(name);
    if (at === undefined) {
      this.leftOut.add(name);
    } else {
      this.values[at] = value;
    }
  };

  private line(place: Place, document: GridDocument): void {
    // The leading values first: a document field of the same name replaces one, as in the grid.
    const meta = document.meta;
    for (const name of Object.keys(meta)) {
      this.set(name, meta[name] as JsonValue);
    }
    place(document.source, this.set);
    this.out.text(csvValues(this.values));
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
