/**
 * Pages of a point in time read in the reverse of the index order, or sorted on a field, are
 * the rows a full forward scroll gives, whichever way the sandbox finds them: the reversed
 * index order by walking back from the last document, a sort's first page by picking its best
 * hits, its later pages from a ranking of them all.
 */
import { call, ndjson, start, type Running } from './helpers';

let es: Running;
let pit: string;
const PER_INDEX = 240;

interface Hit {
  _id: string;
  sort: (number | string | null)[];
}

function sourceOf(i: number): Record<string, unknown> {
  return {
    // Ties (i % 37) and missing values (every seventh) for the sort to place.
    ...(i % 7 === 3 ? {} : { n: i % 37 }),
    ...(i % 5 === 1 ? {} : { label: `L${(i * 13) % 50}` }),
    group: i % 3
  };
}

beforeAll(async () => {
  es = await start({ security: false });
  for (const name of ['pages-a', 'pages-b']) {
    await call(es, 'PUT', `/${name}`, {
      mappings: {
        properties: {
          n: { type: 'long' },
          label: { type: 'keyword' },
          group: { type: 'integer' }
        }
      }
    });
    const lines: unknown[] = [];
    for (let i = 0; i < PER_INDEX; i++) {
      lines.push({ index: { _id: `${name}-${i}` } }, sourceOf(i));
    }
    await call(es, 'POST', `/${name}/_bulk?refresh=true`, ndjson(lines));
  }
  const opened = await call(es, 'POST', '/pages-*/_pit?keep_alive=5m');
  pit = opened.body.id;
});

afterAll(async () => {
  await es.close();
});

/** Every page of the search, chained by search_after from the last hit of the one before. */
async function scroll(
  body: Record<string, unknown>,
  size: number
): Promise<Hit[]> {
  const hits: Hit[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const reply = await call(es, 'POST', '/_search', {
      ...body,
      size,
      pit: { id: pit },
      track_total_hits: false,
      ...(after ? { search_after: after } : {})
    });
    expect(reply.status).toBe(200);
    const page = reply.body.hits.hits as Hit[];
    hits.push(...page);
    if (page.length < size) {
      return hits;
    }
    after = page[page.length - 1]?.sort;
  }
}

const ids = (hits: Hit[]): string[] => hits.map(h => h._id);

describe('the reversed index order', () => {
  it('read back page by page from the end is the forward scroll reversed, with the same sort values', async () => {
    const forward = await scroll({ sort: [{ _shard_doc: 'asc' }] }, 50);
    expect(forward).toHaveLength(2 * PER_INDEX);
    const backward = await scroll({ sort: [{ _shard_doc: 'desc' }] }, 50);
    expect(ids(backward)).toEqual(ids(forward).reverse());
    expect(backward.map(h => h.sort)).toEqual(
      forward.map(h => h.sort).reverse()
    );
  });

  it('under a query, and from an offset, keeps only the matches, last first', async () => {
    const query = { term: { group: 1 } };
    const forward = await scroll({ query, sort: [{ _shard_doc: 'asc' }] }, 40);
    expect(forward).toHaveLength((2 * PER_INDEX) / 3);
    const backward = await scroll(
      { query, sort: [{ _shard_doc: 'desc' }] },
      40
    );
    expect(ids(backward)).toEqual(ids(forward).reverse());
    const page = await call(es, 'POST', '/_search', {
      query,
      size: 7,
      from: 11,
      pit: { id: pit },
      sort: [{ _shard_doc: 'desc' }]
    });
    expect(ids(page.body.hits.hits)).toEqual(
      ids(forward).reverse().slice(11, 18)
    );
    expect(page.body.hits.total).toEqual({
      value: (2 * PER_INDEX) / 3,
      relation: 'eq'
    });
  });
});

describe('a sort on a field', () => {
  /** The documents in the order of `sort`, ties by their index order, worked out here from their sources. */
  async function expectedOrder(
    field: 'n' | 'label',
    order: 1 | -1,
    missingFirst: boolean
  ): Promise<string[]> {
    const forward = await scroll({ sort: [{ _shard_doc: 'asc' }] }, 100);
    const place = new Map(forward.map((h, i) => [h._id, i]));
    const value = (id: string): number | string | undefined => {
      const i = Number(id.split('-').pop());
      return sourceOf(i)[field] as number | string | undefined;
    };
    return forward
      .map(h => h._id)
      .sort((x, y) => {
        const a = value(x);
        const b = value(y);
        if (a === undefined || b === undefined) {
          if (a !== b) {
            return (a === undefined) === missingFirst ? -1 : 1;
          }
        } else if (a !== b) {
          return (a < b ? -1 : 1) * order;
        }
        return ((place.get(x) ?? 0) - (place.get(y) ?? 0)) * order;
      });
  }

  it.each([
    ['n', 'asc', '_last'],
    ['n', 'desc', '_last'],
    ['n', 'desc', '_first'],
    ['label', 'asc', '_first'],
    ['label', 'desc', '_last']
  ] as const)(
    'on %s %s (missing %s), page by page, is every document once in that order',
    async (field, direction, missing) => {
      const order = direction === 'asc' ? 1 : -1;
      const expected = await expectedOrder(field, order, missing === '_first');
      const sort = [
        { [field]: { order: direction, missing } },
        { _shard_doc: direction }
      ];
      expect(ids(await scroll({ sort }, 45))).toEqual(expected);
      // One page from an offset of a search not asked before: asked once (picked), then again
      // (sliced from the ranking).
      for (let ask = 0; ask < 2; ask++) {
        const page = await call(es, 'POST', '/_search', {
          query: { match_all: {} },
          size: 30,
          from: 200,
          pit: { id: pit },
          sort
        });
        expect(ids(page.body.hits.hits)).toEqual(expected.slice(200, 230));
      }
    }
  );
});
