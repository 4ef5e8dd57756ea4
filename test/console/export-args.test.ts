/** `%export` lines as the parser reads them: words, quoting, variables, defaults, the body. */
import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import { parseCell } from '../../kernel/src/console/parse';
import { VariableScope } from '../../kernel/src/console/variables';

const exportOf = (cell: string) => {
  const parsed = parseCell(
    cell,
    new VariableScope(name => ({ EXPORTS: '/data/exports' })[name]),
    CONSOLE_WORDING
  );
  if (!parsed.ok) {
    throw new Error(parsed.refusal.message);
  }
  return parsed.items
    .map(item => (item.kind === 'magic' ? item.export : undefined))
    .filter(Boolean);
};

it('reads the index, the file, options in any order, and picks the format from the file name', () => {
  expect(
    exportOf('%export products out.csv fields=name,price overwrite')
  ).toEqual([
    {
      target: 'products',
      file: 'out.csv',
      format: 'csv',
      fields: ['name', 'price'],
      overwrite: true
    }
  ]);
  expect(exportOf('%export books books.json slices=1')).toEqual([
    {
      target: 'books',
      file: 'books.json',
      format: 'json',
      slices: 1,
      overwrite: false
    }
  ]);
  expect(exportOf('%export logs-* logs.txt format=jsonl')).toEqual([
    { target: 'logs-*', file: 'logs.txt', format: 'jsonl', overwrite: false }
  ]);
});

it('takes a quoted file name with blanks, variables and environment variables', () => {
  const [first] = exportOf(
    '%set idx = "products"\n%export ${idx} "${env:EXPORTS}/${idx} copy.csv"'
  );
  expect(first).toEqual({
    target: 'products',
    file: '/data/exports/products copy.csv',
    format: 'csv',
    overwrite: false
  });
});

it('takes a body on the next lines, and the next request still runs after it', () => {
  const parsed = parseCell(
    '%export products cheap.jsonl\n{"range": {"price": {"lt": 20}}}\nGET /products/_count',
    new VariableScope(),
    CONSOLE_WORDING
  );
  expect(parsed.ok && parsed.items.map(i => i.kind)).toEqual([
    'magic',
    'request'
  ]);
  expect(
    parsed.ok &&
      parsed.items[0]?.kind === 'magic' &&
      parsed.items[0].export?.body
  ).toEqual({ range: { price: { lt: 20 } } });
});

it.each([
  ['%export', /needs an argument/],
  ['%export format=csv out.csv', /starts with the option `format=csv`/],
  ['%export products out.csv format=csv format=json', /gives format twice/],
  ['%export products "out.csv', /unbalanced quote/],
  ['%export ${nope} out.csv', /Unknown variable `\$\{nope\}`/]
])('%s is refused with what to write', (cell, message) => {
  const parsed = parseCell(cell, new VariableScope(), CONSOLE_WORDING);
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) {
    expect(parsed.refusal.message).toMatch(message);
  }
});
