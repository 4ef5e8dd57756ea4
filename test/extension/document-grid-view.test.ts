/** @jest-environment jsdom */
import './support/dom';

// JupyterLab's dialogs ship as ES modules jest does not load; no dialog opens here.
jest.mock('@jupyterlab/apputils', () => ({
  showDialog: jest.fn(),
  Dialog: {
    okButton: jest.fn(),
    cancelButton: jest.fn(),
    warnButton: jest.fn()
  }
}));
import { Signal } from '@lumino/signaling';
import { OPERATORS } from '../../kernel/src/engines/elasticsearch/grid-query';
import type { Block, Column } from '../../contracts/panel-protocol';
import {
  DocumentGridWidget,
  type OpenedGrid
} from '../../extension/src/documents/document-grid-widget';
import type { PanelClient } from '../../extension/src/panel-client';

const columns: Column[] = [
  {
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta',
    primaryKey: true
  },
  { name: 'n', type: 'long', readOnly: false, json: false, origin: 'mapping' }
];
const rows = [
  { _id: 'a', n: 1 },
  { _id: 'b', n: 2 }
];
const first: Block = {
  block: 0,
  offset: 0,
  rows,
  cut: [],
  columns,
  requests: [],
  keys: rows.map(r => ({ index: 'items', id: r._id })),
  versions: undefined
};
const opened: OpenedGrid = {
  gridId: 'g1',
  connection: 'es',
  target: 'items',
  blockSize: 100,
  total: 2,
  columns,
  first,
  notes: [],
  sortedBy: [],
  request: { cell: 'GET /items/_search', curl: '' },
  matchCaseSupported: true,
  operators: OPERATORS,
  rawFilterHint: ''
};

interface Asked {
  body: { type: string; gridId?: string };
  resolve: (reply: unknown) => void;
  reject: (err: Error) => void;
}

/** The grid's end of the comm, answering only when the test says. */
function heldClient(): { client: PanelClient; asked: Asked[] } {
  const asked: Asked[] = [];
  const owner = {};
  const client = {
    ended: new Signal(owner),
    failed: new Signal(owner),
    isClosed: false,
    request: (body: Asked['body']) =>
      new Promise((resolve, reject) => asked.push({ body, resolve, reject }))
  };
  return { client: client as unknown as PanelClient, asked };
}

describe('the document grid while a new filter or sort loads', () => {
  beforeEach(() => window.localStorage.clear());

  it('a refresh asked meanwhile (Refresh, or another page saving) never brings back the rows of the view it replaces', async () => {
    const { client, asked } = heldClient();
    const grid = new DocumentGridWidget(client, opened, {
      insertCell: async () => undefined
    });
    const viewing = grid.applyView();
    expect(grid.model.rowCount('body')).toBe(0);
    const refreshing = grid.refresh();
    // The kernel answers the old grid's refresh with the old view's rows, and fails the new view.
    for (const request of asked.filter(r => r.body.type === 'refresh')) {
      request.resolve({ ...opened, type: 'opened' });
    }
    for (const request of asked.filter(r => r.body.type === 'open')) {
      request.reject(new Error('query_shard_exception'));
    }
    await Promise.all([viewing, refreshing]);
    expect(grid.model.rowCount('body')).toBe(0);
    expect(grid.dataGrid.node.dataset.view).toBe('failed');
    grid.dispose();
  });
});
