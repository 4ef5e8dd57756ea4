/**
 * CSV lines made from documents' JSON text are byte for byte the lines of the decoded way, and
 * leave out the same fields in the same order: for documents written any way JSON allows
 * (blanks, escapes, numbers as `1.0`, `1e2`, `-0` or past 2^53, keys that are dotted, repeated,
 * index-like or named like Object's properties) under a mapping with objects, nested arrays and
 * leaves, read from Elasticsearch answers and Typesense export lines, page after page.
 */
import fc from 'fast-check';
import type {
  ExportPage,
  ExportStream
} from '../../kernel/src/driver-core/capabilities/export';
import type {
  FieldNode,
  FieldTree
} from '../../kernel/src/driver-core/field-tree';
import type { Column } from '../../contracts/columns';
import { pageOf } from '../../kernel/src/engines/elasticsearch/export';
import {
  HitRanges,
  type RawHitsPage,
  readRawHits
} from '../../kernel/src/engines/elasticsearch/raw-hits';
import { linesPage } from '../../kernel/src/engines/typesense/export';
import { pageWriter } from '../../kernel/src/export/formats';

const leaf = (type: string): FieldNode => ({ kind: 'leaf', type });
const tree: FieldTree = new Map<string, FieldNode>([
  ['a', leaf('keyword')],
  ['n', leaf('long')],
  ['tags', leaf('keyword')],
  ['whole', leaf('flattened')],
  [
    'o',
    {
      kind: 'object',
      type: 'object',
      children: new Map([
        ['x', leaf('long')],
        ['y', leaf('keyword')]
      ])
    }
  ],
  [
    'nest',
    {
      kind: 'array',
      type: 'nested',
      children: new Map([['k', leaf('keyword')]])
    }
  ]
]);

const KEYS = [
  'a',
  'n',
  'tags',
  'whole',
  'o',
  'x',
  'y',
  'o.x',
  'nest',
  'k',
  'value',
  '_id',
  '1',
  '__proto__',
  'constructor',
  'é',
  'with space',
  'q"uote',
  'comma,key'
];

/** Blanks JSON allows between tokens, mostly none. */
const blank = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\n  ', '\t', '\r\n') }
);

/** A string's JSON text, written plainly or with escapes where JSON allows them. */
const stringText = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(
        '',
        'Lyon',
        'a,b',
        'x"y',
        'back\\slash',
        'line\nbreak',
        'é',
        '🙂',
        '\u2028',
        '12',
        // Longer than a field copied byte by byte: copied at once, quoted or not.
        'a value of more than thirty-two bytes, with commas',
        'a value of more than thirty-two bytes and no comma at all',
        '"quoted" and more than thirty-two bytes long, 🙂'
      ),
      fc.string({ maxLength: 6 }),
      fc.string({ minLength: 30, maxLength: 80 })
    ),
    fc.boolean()
  )
  .map(([text, escaped]) =>
    escaped
      ? `"${[...text].map(c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(text)
  );

/** Number literals as engines write them, plain and otherwise. */
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(d => String(d)),
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '1.50',
    '1e2',
    '1E-7',
    '0.000001',
    '0.0000001',
    '0.1',
    '123456789012345',
    '1234567890123456',
    '12345678901234567890',
    '9007199254740993',
    '-12.345',
    '0.30000000000000004',
    '123456789012345.6',
    '1.7976931348623157e308'
  )
);

const scalarText = fc.oneof(
  { weight: 4, arbitrary: stringText },
  { weight: 3, arbitrary: numberText },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null') }
);

const { value: valueText } = fc.letrec<{ value: string }>(tie => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: scalarText },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(tie('value'), { maxLength: 4 }), blank, blank)
        .map(([items, b1, b2]) => `[${b1}${items.join(`${b2},${b1}`)}${b2}]`)
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), {
            maxLength: 4
          }),
          blank,
          fc.boolean()
        )
        .map(([members, b, escapedKeys]) => objectText(members, b, escapedKeys))
    }
  )
}));

function objectText(
  members: [string, string][],
  b: string,
  escapedKeys: boolean
): string {
  const key = (k: string) =>
    escapedKeys && k === 'a' ? '"\\u0061"' : JSON.stringify(k);
  return `{${b}${members.map(([k, v]) => `${key(k)}${b}:${b}${v}`).join(`,${b}`)}${b}}`;
}

/** A document's `_source`: an object mostly, sometimes another value (it shows in `value`). */
const sourceText = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(
        fc.array(fc.tuple(fc.constantFrom(...KEYS), valueText), {
          maxLength: 7
        }),
        blank,
        fc.boolean()
      )
      .map(([members, b, escapedKeys]) => objectText(members, b, escapedKeys))
  },
  { weight: 1, arbitrary: valueText }
);

const esAnswer = (sources: (string | undefined)[], first: number) =>
  Buffer.from(
    `{"pit_id":"p","took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"max_score":null,"hits":[${sources
      .map(
        (s, i) =>
          `{"_index":"idx","_id":${JSON.stringify(`d${first + i}`)},"_score":null${s === undefined ? '' : `,"_source":${s}`},"sort":[${first + i}]}`
      )
      .join(',')}]}}`
  );

const LEADING: Column[] = [
  {
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta'
  },
  {
    name: '_index',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta'
  }
];

const esStream: ExportStream = {
  total: undefined,
  leading: LEADING,
  tree,
  pages: () => {
    throw new Error('not read');
  },
  close: async () => undefined
};

const tsStream: ExportStream = {
  ...esStream,
  leading: [{ ...(LEADING[0] as Column), name: 'id' }]
};

/** The writer's bytes for each page, and the fields it left out, with or without the text way. */
function written(
  pages: ExportPage[],
  text: boolean,
  stream = esStream
): { bytes: string; leftOut: string[] } {
  const writer = pageWriter('csv', stream, undefined);
  let bytes = '';
  for (const page of pages) {
    const { eachDocumentText, ...decodedOnly } = page;
    expect(eachDocumentText).toBeDefined();
    bytes += writer.page(text ? page : decodedOnly).toString('latin1');
  }
  return { bytes, leftOut: [...writer.leftOut] };
}

const esPages = (pagesOfSources: (string | undefined)[][]) => {
  let first = 0;
  return pagesOfSources.map(sources => {
    const page = pageOf(
      readRawHits(esAnswer(sources, first), {
        ranges: new HitRanges(),
        output: size => Buffer.alloc(size)
      }) as RawHitsPage
    );
    first += sources.length;
    return page;
  });
};

it('Elasticsearch answers: the lines from JSON text are those of decoded hits, byte for byte, and leave out the same fields', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.array(fc.option(sourceText, { nil: undefined, freq: 8 }), {
          minLength: 1,
          maxLength: 6
        }),
        { minLength: 2, maxLength: 4 }
      ),
      pagesOfSources => {
        // Pages are read one at a time: each is written before the next is scanned.
        const decodedWay = written(esPages(pagesOfSources), false);
        const textWay = written(esPages(pagesOfSources), true);
        expect(textWay).toEqual(decodedWay);
      }
    ),
    { numRuns: 600 }
  );
});

it("a number past a double's range is written as sent, in a cell of its own and inside an object cell", () => {
  const sources = [['{"value":1e400,"o":{"x":-1E-400}}', '{"value":1e308}']];
  const textWay = written(esPages(sources), true);
  expect(textWay).toEqual(written(esPages(sources), false));
  expect(textWay.bytes).toContain('1e400');
  expect(textWay.bytes).toContain('-1E-400');
});

/** Typesense export lines: a document with its `id` among its fields, blank lines skipped. */
const lineText = fc
  .tuple(fc.nat(), sourceText, fc.boolean())
  .map(([id, text, withId]) => {
    // A line holds no line break; within strings JSON writes them escaped.
    const source = text.replace(/[\r\n]/g, ' ');
    return withId && source.startsWith('{')
      ? `{"id":"t${id}",${source.slice(1)}`.replace(/,\s*}$/, '}')
      : source;
  });

it('Typesense export lines: the lines from JSON text are those of decoded lines, byte for byte, and leave out the same fields', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(lineText, { minLength: 1, maxLength: 6 }), {
        minLength: 2,
        maxLength: 4
      }),
      fc.boolean(),
      (pagesOfLines, blankLine) => {
        const pages = () =>
          pagesOfLines.map(lines =>
            linesPage(Buffer.from(lines.join(blankLine ? '\n\n' : '\n')))
          );
        expect(written(pages(), true, tsStream)).toEqual(
          written(pages(), false, tsStream)
        );
      }
    ),
    { numRuns: 400 }
  );
});

it('the text way handles the usual documents itself, and a page that is not UTF-8 is decoded', () => {
  const usual = [
    '{"a":"Lyon","n":12,"tags":["x","y"],"o":{"x":3,"y":"a,b"},"whole":{"k":[1,2]},"more":1.5}'
  ];
  const [first, second] = esPages([['{"a":"Oslo"}'], usual]) as [
    ExportPage,
    ExportPage
  ];
  const writer = pageWriter('csv', esStream, undefined);
  writer.page(first);
  let decodedCalls = 0;
  const counted: ExportPage = {
    ...second,
    eachDocumentText: visit =>
      second.eachDocumentText?.(document =>
        visit({
          ...document,
          meta: document.meta,
          start: document.start,
          end: document.end,
          bytes: document.bytes,
          decoded: () => {
            decodedCalls++;
            return document.decoded();
          }
        })
      )
  };
  expect(writer.page(counted).toString()).toBe(
    'd1,idx,Lyon,12,"[""x"",""y""]","{""k"":[1,2]}",3,"a,b",,\r\n'
  );
  expect(decodedCalls).toBe(0);
  expect([...writer.leftOut]).toEqual(['more']);

  const bytes = esAnswer(['{"a":"Z"}'], 0);
  bytes[bytes.indexOf('Z')] = 0xff;
  const notUtf8 = readRawHits(bytes, {
    ranges: new HitRanges(),
    output: size => Buffer.alloc(size)
  }) as RawHitsPage;
  expect(notUtf8.count).toBe(1);
  expect(pageOf(notUtf8).eachDocumentText).toBeUndefined();
});
