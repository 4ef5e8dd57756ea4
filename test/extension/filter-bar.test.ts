/** @jest-environment jsdom */
import './support/dom';
import { FilterBar } from '../../extension/src/documents/filter-bar';
import { OPERATORS as ELASTICSEARCH_OPERATORS } from '../../kernel/src/engines/elasticsearch/grid-query';
import { OPERATORS as TYPESENSE_OPERATORS } from '../../kernel/src/engines/typesense/grid-filter';
import type { Column, GridView } from '../../contracts/panel-protocol';

const columns: Column[] = [
  { name: '_id', type: 'keyword', readOnly: true, json: false, origin: 'meta' },
  {
    name: 'price',
    type: 'double',
    readOnly: false,
    json: false,
    origin: 'mapping'
  },
  {
    name: 'variants',
    type: 'nested',
    readOnly: false,
    json: true,
    origin: 'mapping'
  },
  {
    name: 'variants.sku',
    type: 'keyword',
    readOnly: false,
    json: false,
    origin: 'mapping',
    arrayParent: 'variants'
  }
];

/** A bar as the grid builds it: Elasticsearch's operators and case control, or Typesense's. */
function bar(matchCaseSupported = true): FilterBar {
  const b = new FilterBar(columns, {
    matchCaseSupported,
    rawPlaceholder: 'raw',
    operators: matchCaseSupported
      ? ELASTICSEARCH_OPERATORS
      : TYPESENSE_OPERATORS
  });
  document.body.append(b.node);
  return b;
}

function setRow(
  b: FilterBar,
  index: number,
  column: string,
  operator: string,
  value: string
): void {
  const row = b.node.querySelectorAll('[role="group"]')[index] as HTMLElement;
  const [col, op] = [...row.querySelectorAll('select')] as HTMLSelectElement[];
  (col as HTMLSelectElement).value = column;
  col?.dispatchEvent(new Event('change'));
  (op as HTMLSelectElement).value = operator;
  op?.dispatchEvent(new Event('change'));
  (row.querySelector('input[type="text"]') as HTMLInputElement).value = value;
}

describe('the filter bar', () => {
  it('labels every control', () => {
    const b = bar();
    b.addRow();
    for (const control of b.node.querySelectorAll('input, select')) {
      const labelled = (control as HTMLInputElement).labels?.length ?? 0;
      expect({
        id: control.id,
        labelled: labelled > 0 || control.hasAttribute('aria-label')
      }).toEqual({ id: control.id, labelled: true });
    }
    for (const button of b.node.querySelectorAll('button')) {
      expect(
        button.textContent?.trim() || button.getAttribute('aria-label')
      ).toBeTruthy();
    }
  });

  it('offers leaf columns, not the JSON column of a nested array; the element label only for nested leaves', () => {
    const b = bar();
    b.addRow();
    const options = [
      ...b.node
        .querySelectorAll('[role="group"] select')[0]!
        .querySelectorAll('option')
    ].map(o => o.value);
    expect(options).toEqual(['_id', 'price', 'variants.sku']);
    setRow(b, 0, 'price', 'equals', '3');
    const element = b.node.querySelector(
      '[role="group"] input[id$="-element"]'
    ) as HTMLInputElement;
    expect(element.hidden).toBe(true);
    setRow(b, 0, 'variants.sku', 'equals', 'A1');
    expect(element.hidden).toBe(false);
    element.value = '1';
    expect(b.view().filters).toEqual([
      { column: 'variants.sku', operator: 'equals', value: 'A1', element: '1' }
    ]);
  });

  it('reads lists, ranges and value-less operators into the view', () => {
    const b = bar();
    b.addRow();
    b.addRow();
    b.addRow();
    setRow(b, 0, '_id', 'in list', 'a, b ,,c');
    setRow(b, 1, 'price', 'between', '1 .. 9');
    setRow(b, 2, 'price', 'is null', 'ignored');
    const view: Omit<GridView, 'sort'> = b.view();
    expect(view.filters).toEqual([
      { column: '_id', operator: 'in list', value: ['a', 'b', 'c'] },
      { column: 'price', operator: 'between', value: ['1', '9'] },
      { column: 'price', operator: 'is null', value: '' }
    ]);
    expect(view).toMatchObject({ join: 'all', raw: '', matchCase: false });
  });

  it('Elasticsearch: Match case starts off, so string filters ignore case until it is ticked', () => {
    const b = bar();
    const box = b.node.querySelector(
      'input[type="checkbox"]'
    ) as HTMLInputElement;
    expect(box.disabled).toBe(false);
    expect(box.checked).toBe(false);
    expect(b.view().matchCase).toBe(false);
    box.checked = true;
    expect(b.view().matchCase).toBe(true);
  });

  it("operators carry the engine's names and say what they do; Typesense's word matches are named as such", () => {
    const shown = (b: FilterBar) => {
      b.addRow();
      const select = b.node.querySelectorAll(
        '[role="group"] select'
      )[1] as HTMLSelectElement;
      return new Map(
        [...select.querySelectorAll('option')].map(o => [
          o.value,
          { text: o.textContent, title: o.title }
        ])
      );
    };
    const typesense = shown(bar(false));
    expect(typesense.get('contains')?.text).toBe('has word');
    expect(typesense.get('not contains')?.text).toBe('lacks word');
    expect(typesense.get('starts with')?.text).toBe('has word starting with');
    expect(typesense.get('contains')?.title).toContain('infix');
    expect(typesense.get('ends with')?.title).toContain('infix: true');
    for (const op of ['ends with', 'is null', 'matches regex']) {
      expect(typesense.get(op)?.title).not.toMatch(/contains/);
    }
    const elasticsearch = shown(bar());
    expect(elasticsearch.get('contains')).toEqual({
      text: 'contains',
      title: expect.stringContaining(
        'In any case unless Match case is on'
      ) as unknown
    });
  });

  it('Typesense: the case control is disabled and says why', () => {
    const b = bar(false);
    const box = b.node.querySelector(
      'input[type="checkbox"]'
    ) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(box.title).toBe('Not supported by this database');
    expect(b.node.textContent).toContain('Not supported by this database');
    expect(b.view().matchCase).toBe(false);
  });

  it('shows a refusal under its row, and clears it on the next apply', () => {
    const b = bar();
    b.addRow();
    b.showRefusal(0, 'price (double): "x" is not a number');
    const alert = b.node.querySelector(
      '[role="group"] [role="alert"]'
    ) as HTMLElement;
    expect(alert.hidden).toBe(false);
    expect(alert.textContent).toContain('is not a number');
    const applied: unknown[] = [];
    b.applied.connect((_, v) => applied.push(v));
    (
      [...b.node.querySelectorAll('button')].find(
        x => x.textContent === 'Apply'
      ) as HTMLButtonElement
    ).click();
    expect(alert.hidden).toBe(true);
    expect(applied).toHaveLength(1);
  });

  it('puts a view back in the controls (Back to the previous filter): rows, ranges, element labels, join, raw and case', () => {
    const b = bar();
    b.addRow();
    setRow(b, 0, 'price', 'equals', '3');
    const view: Omit<GridView, 'sort'> = {
      filters: [
        { column: 'price', operator: 'between', value: ['1', '9'] },
        {
          column: 'variants.sku',
          operator: 'in list',
          value: ['a', 'b'],
          element: 'v'
        }
      ],
      join: 'any',
      raw: 'price:>1',
      matchCase: false
    };
    b.setView(view);
    expect(b.view()).toEqual(view);
    expect(b.node.querySelectorAll('[role="group"]')).toHaveLength(2);
  });
});
