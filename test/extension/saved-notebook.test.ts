/** @jest-environment jsdom */
/**
 * A notebook saved by an earlier searchbook opens with the same grids. The fixture is what the
 * kernel sent for its cells against the sandbox engines, saved by nbformat, from the version
 * whose kernel and notebook built rows in two places (outputs that keep the answer, and outputs
 * that kept their rows where the two would have differed); the grids file holds, per hits
 * output, the columns and the cells that version showed.
 */
import './support/dom';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '../../contracts/json';
import { HITS_MIME } from '../../contracts/mime-types';
import { hasField } from '../../contracts/own-fields';
import { cellText } from '../../extension/src/datagrid/cell-text';
import { ResultsOutput } from '../../extension/src/mime/results-output';
import { outputGrids } from './support/output-grids';

const FIXTURES = join(__dirname, '..', 'fixtures');

interface SavedOutput {
  output_type: string;
  data?: Record<string, unknown>;
}
interface SavedGrid {
  columns: string[];
  rows: Record<string, JsonValue>[];
}

const notebook = JSON.parse(
  readFileSync(join(FIXTURES, 'saved-hits-outputs.ipynb'), 'utf8')
) as { cells: { outputs?: SavedOutput[] }[] };
const hitsOutputs = notebook.cells.flatMap(cell =>
  (cell.outputs ?? []).filter(o => o.data?.[HITS_MIME] !== undefined)
);
const grids = JSON.parse(
  readFileSync(join(FIXTURES, 'saved-hits-outputs.grids.json'), 'utf8')
) as SavedGrid[];

/** What a grid cell paints: the value's text, empty where the row lacks the field. */
const painted = (row: Record<string, JsonValue>, name: string): string =>
  hasField(row, name) ? cellText(row[name]) : '';

it('the fixture holds outputs of both kinds: answers kept, and rows kept', () => {
  expect(hitsOutputs).toHaveLength(grids.length);
  const kinds = hitsOutputs.map(o =>
    'answer' in (o.data?.[HITS_MIME] as object) ? 'answer' : 'rows'
  );
  expect(new Set(kinds)).toEqual(new Set(['answer', 'rows']));
});

it.each(hitsOutputs.map((output, i) => [i, output] as const))(
  'hits output %i renders the columns and cells it was saved with',
  async (i, output) => {
    const rendered = new ResultsOutput(HITS_MIME);
    await rendered.renderModel({
      data: output.data,
      metadata: {},
      trusted: false,
      setData: () => undefined
    } as never);
    const grid = outputGrids(rendered)[0];
    if (!grid) {
      throw new Error('no grid in the output');
    }
    const saved = grids[i] as SavedGrid;
    const columns = grid.model.columns.map(c => c.name);
    expect(columns).toEqual(saved.columns);
    expect(grid.model.rowCount('body')).toBe(saved.rows.length);
    saved.rows.forEach((row, r) =>
      expect(columns.map((_, c) => grid.model.data('body', r, c))).toEqual(
        columns.map(name => painted(row, name))
      )
    );
  }
);
