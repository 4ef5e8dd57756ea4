/** @jest-environment jsdom */
import './support/dom';
import { Widget } from '@lumino/widgets';
import { JSON_MIME } from '../../contracts/mime-types';
import { JsonOutput } from '../../extension/src/mime/json-output';

const info = {
  connection: 'sandbox-es',
  engine: 'elasticsearch' as const,
  method: 'GET',
  path: '/products/_mapping',
  status: 200,
  elapsedMs: 7.6
};

async function render(data: Record<string, unknown>): Promise<JsonOutput> {
  const output = new JsonOutput();
  Widget.attach(output, document.body);
  await output.renderModel({
    data,
    metadata: {},
    trusted: false,
    setData: () => undefined
  } as never);
  return output;
}

afterEach(() => {
  document.body.innerHTML = '';
});

const mapping = {
  products: {
    mappings: {
      properties: Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [
          `field_${i}`,
          {
            type: i % 2 ? 'keyword' : 'text',
            fields: { keyword: { type: 'keyword' } }
          }
        ])
      )
    }
  }
};

it('leads with the status line and opens a mapping down to its properties, with a field / type table', async () => {
  const fields = [
    { field: 'field_0', type: 'text' },
    { field: 'field_1', type: 'keyword' }
  ];
  const output = await render({
    [JSON_MIME]: { info, fields },
    'application/json': mapping
  });
  expect(output.node.querySelector('.searchbook-Status')?.textContent).toBe(
    'sandbox-es · GET /products/_mapping · 200 · 8 ms'
  );
  const grid = output.node.querySelector('.searchbook-Grid');
  expect(JSON.parse(grid?.getAttribute('data-columns') ?? '[]')).toEqual([
    'field',
    'type'
  ]);
  expect(grid?.getAttribute('aria-rowcount')).toBe('2');
  // products › mappings › properties are open; each field's own definition starts closed.
  const open = [
    ...output.node.querySelectorAll(
      'details[open] > summary .searchbook-Json-key'
    )
  ].map(k => k.textContent);
  expect(open).toEqual(['products: ', 'mappings: ', 'properties: ']);
  expect(
    output.node.querySelector('.searchbook-JsonTree')?.textContent
  ).toContain('field_29: ');
});

it('shows a small write result as indented text, with no tree to open', async () => {
  const created = {
    _index: 'products',
    _id: '1',
    _version: 1,
    result: 'created',
    _shards: { total: 2, successful: 1, failed: 0 },
    _seq_no: 0,
    _primary_term: 1
  };
  const output = await render({
    [JSON_MIME]: {
      info: { ...info, method: 'PUT', path: '/products/_doc/1', status: 201 }
    },
    'application/json': created
  });
  expect(output.node.querySelector('.searchbook-Status')?.textContent).toBe(
    'sandbox-es · PUT /products/_doc/1 · 201 · 8 ms'
  );
  expect(output.node.querySelector('details')).toBeNull();
  expect(
    JSON.parse(
      output.node.querySelector('.searchbook-JsonCompact')?.textContent ?? ''
    )
  ).toEqual(created);
});

it('shows keys and values holding markup as characters', async () => {
  const hostile = {
    '<img src=x onerror=alert(1)>': '<script>window.__pwned=1</script>',
    pad: 'x'.repeat(500)
  };
  const output = await render({
    [JSON_MIME]: { info },
    'application/json': hostile
  });
  expect(output.node.querySelector('img, script')).toBeNull();
  expect(output.node.textContent).toContain(
    '<script>window.__pwned=1</script>'
  );
});

it('still shows the answer when the status payload is unreadable', async () => {
  const output = await render({
    [JSON_MIME]: { info: { connection: 3 } },
    'application/json': { acknowledged: true }
  });
  expect(output.node.textContent).toContain(
    `${JSON_MIME} did not match its schema`
  );
  expect(
    output.node.querySelector('.searchbook-JsonCompact')?.textContent
  ).toContain('"acknowledged": true');
});

it('shows a partial failure of a write (a _bulk with failed items) as a warning under the status line', async () => {
  const partialFailures = [
    {
      failed: 3,
      of: 1000,
      unit: 'items',
      outcome: 'failed',
      reasons: [
        'index 7 in products (400): mapper_parsing_exception: failed to parse field [price]'
      ]
    }
  ];
  const output = await render({
    [JSON_MIME]: {
      info: { ...info, method: 'POST', path: '/_bulk', partialFailures }
    },
    'application/json': { errors: true, items: [] }
  });
  expect(output.node.querySelector('.searchbook-Status')?.textContent).toBe(
    'sandbox-es · POST /_bulk · 200 · 8 ms · ⚠ 3 of 1,000 items failed'
  );
  expect(output.node.querySelector('.searchbook-Warning')?.textContent).toBe(
    'Warning: 3 of 1,000 items failed. First reasons:\n  - index 7 in products (400): mapper_parsing_exception: failed to parse field [price]'
  );
});
