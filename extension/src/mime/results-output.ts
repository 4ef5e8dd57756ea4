import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Panel, Widget } from '@lumino/widgets';
import type { z } from 'zod';
import {
  aggregationRows,
  type DocumentPlaces,
  hitsPayloadDocumentPlaces,
  hitsPayloadRowCount,
  hitsPayloadRowReader,
  hitsPayloadRows,
  tablePayloadRowCount,
  tablePayloadRows
} from '@searchbook/contracts/answer-rows';
import { answerText } from '@searchbook/contracts/answer-text';
import { COMPRESSED_ANSWER_FORMAT } from '@searchbook/contracts/answer-format';
import {
  type AggregationTable,
  aggregationColumns,
  aggregationFooter,
  aggregationTitle,
  HITS_MIME,
  type HitsPayload,
  HitsPayloadSchema,
  type TablePayload,
  TablePayloadSchema
} from '@searchbook/contracts/mime-types';
import { GridView } from '../datagrid/grid-view';
import { headerRowCount, type Rows } from '../datagrid/rows-model';
import type { Column } from '@searchbook/contracts/columns';
import { barChart, bucketsOf } from './bar-chart';
import { block, warningBlock } from './block';
import { GridWhenNear } from './grid-when-near';
import { prefetchAnswer } from './answer-prefetch';
import { omittedText, statusText, warningText } from './status-line';
import { toolbar } from './toolbar';
import { exactJson } from '@searchbook/contracts/exact-json';

/**
 * Both payloads, brought to the one shape the output shows before its grid is built: all but
 * the rows and the answer, which stay in the output's model until a grid or the raw view asks.
 */
interface Results {
  info: z.infer<typeof HitsPayloadSchema>['info'];
  columns: Column[];
  /** How many rows the grid shows, counted without building them. */
  rowCount: number;
  /** Where the documents lie in the kept answer's text: found once, each row read from its own. */
  places?: DocumentPlaces;
  cut: { row: number; column: string }[];
  total?: { value: number; relation: 'eq' | 'gte' };
  omittedRows: number;
  aggregations: AggregationTable[];
  /** What the engine says about a table as a whole, shown under it (a partial ES|QL answer). */
  notes: string[];
  /** Whether the payload keeps the engine's answer (older notebooks kept it as application/json). */
  keepsAnswer: boolean;
  /** Whether that answer is kept compressed: decompressed ahead of the grid's build (prefetchAnswer). */
  compressed: boolean;
}

type Payload =
  { kind: 'hits'; hits: HitsPayload } | { kind: 'table'; table: TablePayload };

function readPayload(mimeType: string, data: unknown): Payload {
  return mimeType === HITS_MIME
    ? { kind: 'hits', hits: HitsPayloadSchema.parse(data) }
    : { kind: 'table', table: TablePayloadSchema.parse(data) };
}

/** Picks out what the output shows at once: no field of the result holds the answer. */
function readResults(payload: Payload): Results {
  if (payload.kind === 'hits') {
    const { hits } = payload;
    // An answer that says its row count is read only when its grid is built: off screen, a
    // large one is never decompressed nor scanned while the notebook opens.
    const places =
      hits.rowCount === undefined ? hitsPayloadDocumentPlaces(hits) : undefined;
    return {
      info: hits.info,
      columns: hits.columns,
      rowCount: places ? places.spans.length / 2 : hitsPayloadRowCount(hits),
      ...(places ? { places } : {}),
      cut: hits.cut,
      ...(hits.total ? { total: hits.total } : {}),
      omittedRows: hits.omittedRows,
      aggregations: hits.aggregations.map(table => ({
        ...table,
        rows: aggregationRows(table)
      })),
      notes: [],
      keepsAnswer: hits.answer !== undefined,
      compressed: hits.answerFormat === COMPRESSED_ANSWER_FORMAT
    };
  }
  const { table } = payload;
  return {
    info: table.info,
    columns: table.columns.map((name, i) => ({
      name,
      type: table.types?.[i] ?? '',
      readOnly: false,
      json: false
    })),
    rowCount: tablePayloadRowCount(table),
    cut: table.cut,
    omittedRows: table.omittedRows,
    aggregations: [],
    notes: table.notes ?? [],
    keepsAnswer: table.answer !== undefined,
    compressed: table.answerFormat === COMPRESSED_ANSWER_FORMAT
  };
}

/** A hits grid builds each row from its own document's text when it first draws it. */
function payloadRows(payload: Payload, places?: DocumentPlaces): Rows {
  return payload.kind === 'hits'
    ? (hitsPayloadRowReader(payload.hits, places) ??
        hitsPayloadRows(payload.hits))
    : tablePayloadRows(payload.table);
}

/**
 * One console response: status line, toolbar, the grid, the rows-left-out notice, the raw
 * response on demand, and a chart and table per aggregation.
 */
export class ResultsOutput extends Panel implements IRenderMime.IRenderer {
  /** Counts the renders asked for: a render overtaken by a newer one while it waited stops. */
  private renders = 0;

  constructor(private readonly mimeType: string) {
    super();
    this.addClass('searchbook-Results');
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const render = ++this.renders;
    // A notebook being opened renders the outputs of all its cells in the one task that builds
    // them: each answer is read (its documents counted) in a task of its own, so the page
    // answers between them and opening many answers makes no long task of their reading.
    await nextTask();
    if (render !== this.renders || this.isDisposed) {
      return;
    }
    for (const child of [...this.widgets]) {
      child.dispose();
    }
    let results: Results;
    try {
      results = readResults(
        readPayload(this.mimeType, model.data[this.mimeType])
      );
    } catch (error) {
      this.addWidget(new Widget({ node: this.unreadable(error, model) }));
      return;
    }
    // JupyterLab's output model hands out a fresh copy of its bundle on every read of `data`:
    // the payload is read again when a grid or the raw view needs it, and dropped after, so the
    // page holds no copy of an answer beside the model's own.
    const payload = () => readPayload(this.mimeType, model.data[this.mimeType]);
    this.showResults(
      results,
      () => payloadRows(payload(), results.places),
      results.compressed
        ? async () => {
            try {
              const read = payload();
              await prefetchAnswer(
                read.kind === 'hits' ? read.hits : read.table
              );
            } catch {
              // Unreadable: the grid's build says so.
            }
          }
        : undefined,
      // Notebooks saved before the answer moved into the payload kept it as application/json.
      results.keepsAnswer
        ? () => {
            const read = payload();
            return answerText(read.kind === 'hits' ? read.hits : read.table);
          }
        : () => jsonText(model.data['application/json'])
    );
  }

  /** `raw`: the engine's answer as Raw JSON shows it, undefined when the output holds none. */
  private showResults(
    results: Results,
    rows: () => Rows,
    prepareRows: (() => Promise<void>) | undefined,
    raw: () => string | undefined
  ): void {
    const label = `${results.rowCount} rows from ${results.info.connection}, columns ${results.columns.map(c => c.name).join(', ')}`;
    const grid = new GridWhenNear({
      build: () =>
        new GridView(results.columns, rows(), results.cut, label, rows),
      rows: results.rowCount,
      headerRows: headerRowCount(results.columns),
      ...(prepareRows ? { prepare: prepareRows } : {})
    });
    // A search with `size: 0` is asked for its aggregations: an empty grid of every mapped
    // column would only push them down.
    const main: Widget =
      results.rowCount > 0
        ? grid
        : new Widget({
            node: block('searchbook-Empty', 'No documents in this response.')
          });
    const rawView = block('searchbook-RawJson');
    rawView.hidden = true;
    const extras: Widget[] = [];
    const counts = {
      total: results.total,
      shown: results.rowCount,
      omitted: results.omittedRows
    };
    if (results.info.title) {
      this.addWidget(
        new Widget({
          node: block('searchbook-SearchTitle', results.info.title)
        })
      );
    }
    this.addWidget(
      new Widget({
        node: block('searchbook-Status', statusText(results.info, counts))
      })
    );
    const warning = warningText(results.info);
    if (warning) {
      this.addWidget(new Widget({ node: warningBlock(warning) }));
    }
    this.addWidget(
      new Widget({
        node: toolbar({
          ...(results.rowCount > 0
            ? {
                copy: (format: 'tsv' | 'json') =>
                  grid.ensureBuilt().copy(format)
              }
            : {}),
          toggleRaw: () => {
            if (rawView.childElementCount === 0) {
              rawView.append(rawJsonNode(raw()));
            }
            rawView.hidden = !rawView.hidden;
            for (const widget of [main, ...extras]) {
              widget.setHidden(!rawView.hidden);
            }
            return !rawView.hidden;
          }
        })
      })
    );
    this.addWidget(main);
    const omitted = omittedText(results.omittedRows);
    if (omitted) {
      extras.push(new Widget({ node: block('searchbook-Omitted', omitted) }));
    }
    for (const note of results.notes) {
      extras.push(new Widget({ node: block('searchbook-TableNote', note) }));
    }
    for (const aggregation of results.aggregations) {
      extras.push(...aggregationWidgets(aggregation, results.info.connection));
    }
    for (const widget of extras) {
      this.addWidget(widget);
    }
    this.addWidget(new Widget({ node: rawView }));
  }

  private unreadable(
    error: unknown,
    model: IRenderMime.IMimeModel
  ): HTMLElement {
    const node = block('searchbook-Unreadable');
    const reason = error instanceof Error ? error.message : String(error);
    node.append(
      block(
        'searchbook-Unreadable-reason',
        `searchbook cannot show this output as a grid (${this.mimeType} did not match its schema: ${reason.slice(0, 300)}). The plain text follows.`
      )
    );
    const text = document.createElement('pre');
    text.textContent =
      typeof model.data['text/plain'] === 'string'
        ? model.data['text/plain']
        : '';
    node.append(text);
    return node;
  }
}

function nextTask(): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, 0));
}

function jsonText(value: unknown): string | undefined {
  return value === undefined ? undefined : exactJson(value, 2);
}

function rawJsonNode(raw: string | undefined): HTMLElement {
  const pre = document.createElement('pre');
  pre.textContent = raw ?? 'This output does not hold the raw response.';
  return pre;
}

function aggregationWidgets(
  aggregation: Results['aggregations'][number],
  connection: string
): Widget[] {
  const section = block('searchbook-Aggregation');
  const title = block(
    'searchbook-Aggregation-title',
    aggregationTitle(aggregation)
  );
  section.append(title);
  const buckets = bucketsOf(aggregation.rows, aggregation.keyColumns);
  if (buckets.length > 0) {
    section.append(barChart(buckets, aggregation.name));
  }
  const names = aggregationColumns(aggregation);
  // Bucket keys (years, prices) read best as written; counts and metrics are grouped and shortened.
  const keys = new Set(aggregation.keyColumns ?? ['key']);
  const columns = names.map(name => ({
    name,
    type: '',
    readOnly: false,
    json: false,
    statistic: !keys.has(name) && name !== 'key'
  }));
  const label = `${aggregationTitle(aggregation)} from ${connection}: ${aggregation.rows.length} rows, columns ${names.join(', ')}`;
  const widgets: Widget[] = [
    new Widget({ node: section }),
    new GridWhenNear({
      build: () => new GridView(columns, aggregation.rows, [], label),
      rows: aggregation.rows.length,
      headerRows: headerRowCount(columns)
    })
  ];
  // What the engine says about the buckets as a whole, and what only Raw JSON shows: as text.
  for (const line of aggregationFooter(aggregation)) {
    widgets.push(
      new Widget({ node: block('searchbook-Aggregation-note', line) })
    );
  }
  return widgets;
}
