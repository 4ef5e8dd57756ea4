/**
 * A CSV export's columns come from the mapping and the first page's documents. Made from the
 * documents' JSON text, the first page decodes one document of each shape only (the others
 * add no column); the header and every line stay byte for byte those of decoding them all:
 * pages of many documents of a few shapes, whose values differ in what a column depends on
 * (null or not, a number past 15 digits, an empty object, an array of objects, mapped or not).
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
import { pageOf } from '../../kernel/src/engines/elasticsearch/export';
import {
  HitRanges,
  type RawHitsPage,
  readRawHits
} from '../../kernel/src/engines/elasticsearch/raw-hits';
import { pageWriter } from '../../kernel/src/export/formats';

const leaf = (type: string): FieldNode => ({ kind: 'leaf', type });
const tree: FieldTree = new Map<string, FieldNode>([
  ['a', leaf('keyword')],
  ['n', leaf('long')],
  [
    'o',
    {
      kind: 'object',
      type: 'object',
      children: new Map([['x', leaf('long')]])
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

const stream: ExportStream = {
  total: undefined,
  leading: [
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
  ],
  tree,
  pages: () => {
    throw new Error('not read');
  },
  close: async () => undefined
};

/** Kinds of value a member takes: each kind's values vary from document to document. */
const KINDS = {
  string: fc.constantFrom('"Lyon"', '"a,b"', '"x\\"y"', '"\\u00e9"', '""'),
  number: fc.constantFrom('0', '12', '-3.5', '1.0', '1e2', '0.0000001'),
  long: fc.constantFrom(
    '12345678901234567890',
    '9007199254740993',
    '1234567890123456'
  ),
  literal: fc.constantFrom('true', 'false', 'null'),
  empty: fc.constantFrom('{}', '[]', '{ }'),
  array: fc.constantFrom(
    '["x","y"]',
    '[1,null]',
    '[[1],[]]',
    '[{"k":"v"}]',
    '[{}]'
  ),
  object: fc.constantFrom('{"x":1}', '{"k":"v","x":null}', '{"x":{"y":2}}')
};
type Kind = keyof typeof KINDS;

const KEYS = ['a', 'n', 'o', 'nest', 'extra', 'o.x', 'more', 'é'];

/** A shape: members and the kind of each; documents of it draw their values anew. */
const shape = fc.array(
  fc.tuple(
    fc.constantFrom(...KEYS),
    fc.constantFrom(...(Object.keys(KINDS) as Kind[]))
  ),
  { maxLength: 5 }
);

const documentOf = (members: [string, Kind][]) =>
  fc
    .tuple(...members.map(([, kind]) => KINDS[kind]), fc.constantFrom('', ' '))
    .map(parts => {
      const blank = parts[parts.length - 1] as string;
      return `{${members.map(([key], i) => `${JSON.stringify(key)}:${blank}${parts[i] as string}`).join(',')}}`;
    });

/** A first page of 20-60 documents of at most four shapes, then a second page. */
const pages = fc.array(shape, { minLength: 1, maxLength: 4 }).chain(shapes =>
  fc.tuple(
    fc.array(fc.oneof(...shapes.map(members => documentOf(members))), {
      minLength: 20,
      maxLength: 60
    }),
    fc.array(fc.oneof(...shapes.map(members => documentOf(members))), {
      minLength: 1,
      maxLength: 10
    })
  )
);

const answer = (sources: string[], first: number) =>
  Buffer.from(
    `{"pit_id":"p","took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"max_score":null,"hits":[${sources
      .map(
        (s, i) =>
          `{"_index":"idx","_id":"d${first + i}","_score":null,"_source":${s},"sort":[${first + i}]}`
      )
      .join(',')}]}}`
  );

/** The pages' CSV bytes and left-out fields, and how many documents were decoded (either way). */
function written(
  pagesOfSources: string[][],
  text: boolean
): { bytes: string; leftOut: string[]; decodedCalls: number } {
  const writer = pageWriter('csv', stream, undefined);
  let bytes = '';
  let decodedCalls = 0;
  let first = 0;
  for (const sources of pagesOfSources) {
    const page = pageOf(
      readRawHits(answer(sources, first), {
        ranges: new HitRanges(),
        output: size => Buffer.alloc(size)
      }) as RawHitsPage
    );
    first += sources.length;
    const { eachDocumentText, ...decodedOnly } = page;
    const counted: ExportPage = {
      ...page,
      eachDocument: visit =>
        page.eachDocument(document => {
          decodedCalls++;
          visit(document);
        }),
      eachDocumentText: visit =>
        eachDocumentText?.(document =>
          visit({
            bytes: document.bytes,
            meta: document.meta,
            start: document.start,
            end: document.end,
            decoded: () => {
              decodedCalls++;
              return document.decoded();
            }
          })
        )
    };
    bytes += writer.page(text ? counted : decodedOnly).toString('latin1');
  }
  return { bytes, leftOut: [...writer.leftOut], decodedCalls };
}

it('the first page decodes one document a shape, and the file is byte for byte that of decoding every document', () => {
  let fewer = 0;
  fc.assert(
    fc.property(pages, ([firstPage, secondPage]) => {
      const decodedWay = written([firstPage, secondPage], false);
      const textWay = written([firstPage, secondPage], true);
      expect(textWay.bytes).toBe(decodedWay.bytes);
      expect(textWay.leftOut).toEqual(decodedWay.leftOut);
      if (textWay.decodedCalls < firstPage.length) {
        fewer++;
      }
    }),
    { numRuns: 300 }
  );
  // At most four shapes among 20 or more documents: most first pages decode fewer documents
  // than they hold (a document whose line its text does not settle is decoded for its line).
  expect(fewer).toBeGreaterThan(100);
});

it('a page of one shape decodes one document for its columns', () => {
  const sources = Array.from(
    { length: 1000 },
    (_, i) => `{"a":"p${i}","n":${i},"o":{"x":${i % 7}},"extra":[${i},"t"]}`
  );
  const textWay = written([sources], true);
  expect(textWay.bytes).toBe(written([sources], false).bytes);
  expect(textWay.decodedCalls).toBe(1);
});
