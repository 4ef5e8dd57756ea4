/**
 * What the engine contract suite expects of each engine, one row per registered engine: the
 * words and paths a user sees differ by engine, the behaviour does not. A test body reads
 * these rows and never asks which engine it talks to, so a new engine is a new row here and a
 * target in targets.ts.
 */
import { z } from 'zod';
import { ENGINE_NAMES } from '../../../kernel/src/engines/engine-registry';
import { SECRETS } from '../../support/secrets';
import type { SeenRequest } from '../../support/breaking-proxy';
import type { RealFlavourId } from '../../support/real-elasticsearch/flavours';
import { differs } from '../../support/real-node-differences';
import { typesenseDiffers } from '../../support/real-typesense-differences';

/** The engine names the kernel registers: the one place the suite reads the registry. */
export function registeredEngines(): string[] {
  return [...ENGINE_NAMES].sort();
}

/** A document of the suite's data set, as loaded into every engine. */
export interface ShopDocument {
  id: string;
  fields: { price: number; rank: number; tag: string; title: string };
}

const TAGS = ['red', 'green', 'blue'];

/** 30 documents: three tags, distinct prices not in id order (a sort is visible and has no ties). */
export const SHOP: ShopDocument[] = Array.from({ length: 30 }, (_, n) => ({
  id: `c${String(n).padStart(2, '0')}`,
  fields: {
    price: ((n * 7) % 30) + 0.5,
    rank: n,
    tag: TAGS[n % 3] ?? 'red',
    title: `Item ${String(n).padStart(3, '0')}`
  }
}));

/** The field names of the data set, in name order. */
export const SHOP_FIELDS = ['price', 'rank', 'tag', 'title'] as const;

/** An engine over plain HTTP, outside the kernel: how the tests load data and check what is stored. */
export interface EngineHttp {
  url: string;
  call(
    method: string,
    path: string,
    body?: string,
    contentType?: string
  ): Promise<{ status: number; text: string }>;
}

export interface StoredDocument {
  found: boolean;
  /** The document's fields, without the engine's id and metadata. */
  source: Record<string, unknown>;
}

export interface EngineFixture {
  /** The name the registry gives it. */
  engine: string;
  /** How the engine names itself in messages ("Elasticsearch answered 404: ..."). */
  product: string;
  /** What a target is called. */
  noun: string;
  /** The column holding a document's id in grids and exports. */
  idColumn: string;
  /** The type the engine reports for the price field (filter refusals name it). */
  priceType: string;
  /** `%connect` arguments after the engine name and address. */
  connectOptions: string;
  headers: Record<string, string>;
  /**
   * Creates a target holding these documents, readable at once. Its fields are SHOP_FIELDS and,
   * for the writes' target (`desk`), a list of strings `notes` (a long list is cut in the grid),
   * an object `place` with a string leaf `place.city`, and what `engineRefusal` needs.
   */
  createTarget(
    http: EngineHttp,
    name: string,
    docs: ShopDocument[],
    options?: { desk: boolean }
  ): Promise<void>;
  /** Adds one document as it is, outside the kernel, readable at once. */
  putDocument(
    http: EngineHttp,
    target: string,
    id: string,
    source: Record<string, unknown>
  ): Promise<void>;
  /** Removes one document outside the kernel. */
  removeDocument(http: EngineHttp, target: string, id: string): Promise<void>;
  /** The document's version as the grid must send it back (null where the engine keeps none). */
  storedVersion(http: EngineHttp, target: string, id: string): Promise<unknown>;
  /** The request a save of these typed fields of a row read at `version` sends, as the plan lists it. */
  updateRequest(
    target: string,
    id: string,
    version: unknown,
    fields: Record<string, unknown>
  ): { method: string; path: string; body: unknown };
  /** The request that creates a new row, with the id typed or without one. */
  insertRequest(
    target: string,
    id: string | undefined
  ): { method: string; path: string; status: number };
  /** The request that deletes a row read at `version`. */
  deleteRequest(
    target: string,
    id: string,
    version: unknown
  ): { method: string; path: string; status: number };
  /** The status of a saved edit's request. */
  updateStatus: number;
  /** The request a conflict with a concurrent change reports (the write refused, or the read that found the change). */
  conflictRequest: { method?: string; status: number };
  /** The actions the panel offers on a target, and the request each sends. */
  targetActions(
    target: string
  ): { action: string; label: string; request: string; unavailable?: string }[];
  targetExists(http: EngineHttp, target: string): Promise<boolean>;
  /** Whether a request the kernel sent writes (reads, searches and points in time do not). */
  isWrite(method: string, url: string): boolean;
  /** A change the grid lets through and the engine refuses (an edit of a desk row, or a new row), with the engine's reason. */
  engineRefusal: {
    kind: 'update' | 'insert';
    id: string;
    fields: Record<string, string>;
    reason: string;
  };
  /** What a save sent again after its answers were lost answers, per change kind: the engine's "already done". */
  resent: {
    insert: { method: string; status: number };
    update: { method: string; status?: number };
    delete: { method: string; status?: number };
  };
  deleteTarget(http: EngineHttp, name: string): Promise<void>;
  stored(http: EngineHttp, target: string, id: string): Promise<StoredDocument>;
  /** Someone else changes a document (outside the kernel), visible to the next read. */
  changeBehindTheGrid(
    http: EngineHttp,
    target: string,
    id: string,
    fields: Record<string, unknown>
  ): Promise<void>;
  /** A console cell searching the target for every document, in one page. */
  searchCell(target: string): string;
  /** A console cell asking a target that does not exist, and the engine's reason for refusing it. */
  missingTarget(name: string): { cell: string; reason: RegExp };
  /** A console line whose completion at the end lists target names starting with `prefix`, and the match for `name`. */
  targetCompletion(
    prefix: string,
    name: string
  ): { code: string; match: string };
  /** A console cell whose completion at the end lists field names of `target` starting with `prefix`. */
  fieldCompletion(target: string, prefix: string): string;
  /** The exact JSONL lines an export of the target writes, in any order. */
  exportedLines(
    http: EngineHttp,
    target: string,
    docs: ShopDocument[]
  ): Promise<string[]>;
  /** The CSV export's header line. */
  csvHeader: string[];
  /** A JSONL export line as the document's id and fields. */
  exportedDocument(line: string): {
    id: string;
    fields: Record<string, unknown>;
  };
  /** The lines after `%export` that keep the documents priced 20 or more. */
  exportQuery: string;
  /** The fields the export asked the engine for, from the requests the kernel sent. */
  sentFields(seen: SeenRequest[]): unknown;
  /** What sentFields finds when the export names these fields. */
  fieldsAsked(fields: string[]): string[];
  /** The CSV export's header line when it names these fields. */
  csvHeaderOf(fields: string[]): string[];
  /** `%export` lines the engine's export cannot take (options after the file name, a body), each refused saying so. */
  refusedExports: { options: string; body?: string; message: RegExp }[];
  /** A concurrent change's conflict message. */
  conflict: RegExp;
  /** Whether the grid's case control applies (false where the engine always ignores case). */
  matchCaseSupported: boolean;
  /** A column of the data set the engine cannot sort on; undefined where it sorts on every one. */
  unsortable: string | undefined;
  /** The ids and total of a search answer, as the engine answers the grid's request. */
  answerPage(answer: unknown): { total: number; ids: string[] };
  /** Whether rows carry the engine's version (Elasticsearch) or null (engines that keep none). */
  keepsVersions: boolean;
}

const json = (value: unknown): string => JSON.stringify(value);
const parsed = (text: string): unknown =>
  text === '' ? null : (JSON.parse(text) as unknown);

async function expectOk(
  answer: Promise<{ status: number; text: string }>,
  what: string
): Promise<string> {
  const { status, text } = await answer;
  if (status >= 300) {
    throw new Error(`${what} answered ${status}: ${text.slice(0, 400)}`);
  }
  return text;
}

/** The optimistic concurrency parameters of a write made against a version read. */
function esVersionQuery(version: unknown): string {
  const { seqNo, primaryTerm } = z
    .object({ seqNo: z.number(), primaryTerm: z.number() })
    .parse(version);
  return `&if_seq_no=${seqNo}&if_primary_term=${primaryTerm}`;
}

const EsVersion = z
  .object({ _seq_no: z.number(), _primary_term: z.number() })
  .loose();
const EsDoc = z
  .object({
    found: z.boolean(),
    _source: z.record(z.string(), z.unknown()).optional()
  })
  .loose();

function missingIndex(
  product: string,
  name: string
): { cell: string; reason: RegExp } {
  return {
    cell: `GET /${name}/_search`,
    reason: new RegExp(
      `^${product} answered 404: index_not_found_exception: no such index \\[${name}\\]`
    )
  };
}

const elasticsearch: EngineFixture = {
  engine: 'elasticsearch',
  product: 'Elasticsearch',
  noun: 'index',
  idColumn: '_id',
  priceType: 'double',
  connectOptions: 'auth=none',
  headers: {},
  createTarget: async (http, name, docs, options) => {
    const mappings = {
      properties: {
        price: { type: 'double' },
        rank: { type: 'integer' },
        tag: { type: 'keyword' },
        title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
        ...(options?.desk
          ? {
              notes: { type: 'keyword' },
              place: { properties: { city: { type: 'keyword' } } },
              host: { type: 'ip' }
            }
          : {})
      }
    };
    await expectOk(
      http.call(
        'PUT',
        `/${name}`,
        json({
          settings: { number_of_shards: 1, number_of_replicas: 0 },
          mappings
        })
      ),
      `PUT /${name}`
    );
    if (docs.length === 0) {
      return;
    }
    const lines = docs
      .map(d => `${json({ index: { _id: d.id } })}\n${json(d.fields)}\n`)
      .join('');
    await expectOk(
      http.call(
        'POST',
        `/${name}/_bulk?refresh=true`,
        lines,
        'application/x-ndjson'
      ),
      `bulk into ${name}`
    );
  },
  deleteTarget: async (http, name) => {
    await http.call('DELETE', `/${name}`);
  },
  putDocument: async (http, target, id, source) => {
    await expectOk(
      http.call('PUT', `/${target}/_doc/${id}?refresh=true`, json(source)),
      `put ${id}`
    );
  },
  removeDocument: async (http, target, id) => {
    await expectOk(
      http.call('DELETE', `/${target}/_doc/${id}?refresh=true`),
      `delete ${id}`
    );
  },
  storedVersion: async (http, target, id) => {
    const doc = EsVersion.parse(
      parsed((await http.call('GET', `/${target}/_doc/${id}`)).text)
    );
    return { seqNo: doc._seq_no, primaryTerm: doc._primary_term };
  },
  updateRequest: (target, id, version, fields) => ({
    method: 'POST',
    path: `/${target}/_update/${id}?refresh=wait_for&_source=true${esVersionQuery(version)}`,
    body: { doc: fields }
  }),
  insertRequest: (target, id) =>
    id === undefined
      ? {
          method: 'POST',
          path: `/${target}/_doc?refresh=wait_for`,
          status: 201
        }
      : {
          method: 'PUT',
          path: `/${target}/_doc/${id}?op_type=create&refresh=wait_for`,
          status: 201
        },
  deleteRequest: (target, id, version) => ({
    method: 'DELETE',
    path: `/${target}/_doc/${id}?refresh=wait_for${esVersionQuery(version)}`,
    status: 200
  }),
  updateStatus: 200,
  conflictRequest: { status: 409 },
  // Elasticsearch has no "empty index": delete only.
  targetActions: target => [
    { action: 'delete', label: 'Delete index', request: `DELETE /${target}` }
  ],
  targetExists: async (http, target) =>
    (await http.call('HEAD', `/${target}`)).status === 200,
  isWrite: (method, url) =>
    method === 'PUT' ||
    (method === 'DELETE' &&
      !url.startsWith('/_pit') &&
      !url.startsWith('/_search/point_in_time')) ||
    (method === 'POST' && /\/_(update|doc)\b/.test(url)),
  // The grid sends an ip column's text as it is; the engine parses it.
  engineRefusal: {
    kind: 'update',
    id: 'c00',
    fields: { host: 'not-an-ip' },
    reason: 'failed to parse field [host] of type [ip]'
  },
  resent: {
    insert: { method: 'PUT', status: 409 },
    update: { method: 'POST', status: 409 },
    delete: { method: 'DELETE' }
  },
  stored: async (http, target, id) => {
    const doc = EsDoc.parse(
      parsed((await http.call('GET', `/${target}/_doc/${id}`)).text)
    );
    return { found: doc.found, source: doc._source ?? {} };
  },
  changeBehindTheGrid: async (http, target, id, fields) => {
    await expectOk(
      http.call(
        'POST',
        `/${target}/_update/${id}?refresh=true`,
        json({ doc: fields })
      ),
      `update ${id}`
    );
  },
  searchCell: target => `GET /${target}/_search\n{"size": 100}`,
  missingTarget: name => missingIndex('Elasticsearch', name),
  targetCompletion: (prefix, name) => ({
    code: `GET /${prefix}`,
    match: `/${name}`
  }),
  fieldCompletion: (target, prefix) =>
    `GET /${target}/_search\n{"sort": ["${prefix}`,
  // Each line is {"_index","_id","_source"} with the source as stored, byte for byte.
  exportedLines: async (_http, target, docs) =>
    docs.map(
      d =>
        `{"_index":${json(target)},"_id":${json(d.id)},"_source":${json(d.fields)}}`
    ),
  csvHeader: ['_id', '_index', ...SHOP_FIELDS],
  exportedDocument: line => {
    const hit = z
      .object({ _id: z.string(), _source: z.record(z.string(), z.unknown()) })
      .parse(JSON.parse(line));
    return { id: hit._id, fields: hit._source };
  },
  exportQuery: '{"range": {"price": {"gte": 20}}}',
  // The fields go as _source of each page's search.
  sentFields: seen =>
    seen
      .filter(r => r.url === '/_search')
      .map(
        r =>
          z.object({ _source: z.unknown() }).loose().parse(JSON.parse(r.body))
            ._source
      )[0],
  fieldsAsked: fields => fields,
  csvHeaderOf: fields => ['_id', '_index', ...fields],
  refusedExports: [
    {
      options: '',
      body: '{"query": {"match_all": {}}, "size": 10}',
      message:
        /takes only "query" and "_source", not "size"\. Nothing was sent\. Write an Elasticsearch query/
    }
  ],
  matchCaseSupported: true,
  unsortable: '_id',
  answerPage: answer => {
    const { hits } = z
      .object({
        hits: z.object({
          total: z.object({ value: z.number() }),
          hits: z.array(z.object({ _id: z.string() }))
        })
      })
      .parse(answer);
    return { total: hits.total.value, ids: hits.hits.map(h => h._id) };
  },
  conflict: /version conflict/,
  keepsVersions: true
};

const typesense: EngineFixture = {
  engine: 'typesense',
  product: 'Typesense',
  noun: 'collection',
  idColumn: 'id',
  priceType: 'float',
  connectOptions: 'key=${env:TS_API_KEY}',
  headers: { 'x-typesense-api-key': SECRETS.TS_API_KEY },
  createTarget: async (http, name, docs, options) => {
    const fields = [
      { name: 'price', type: 'float', sort: true, optional: true },
      { name: 'rank', type: 'int32', sort: true, optional: true },
      { name: 'tag', type: 'string', facet: true, optional: true },
      { name: 'title', type: 'string', sort: true },
      ...(options?.desk
        ? [
            { name: 'notes', type: 'string[]', optional: true },
            { name: 'place', type: 'object', optional: true },
            { name: 'place.city', type: 'string', optional: true }
          ]
        : [])
    ];
    await expectOk(
      http.call(
        'POST',
        '/collections',
        json({
          name,
          fields,
          ...(options?.desk ? { enable_nested_fields: true } : {})
        })
      ),
      `create ${name}`
    );
    if (docs.length === 0) {
      return;
    }
    const lines = docs.map(d => json({ id: d.id, ...d.fields })).join('\n');
    const answer = await expectOk(
      http.call(
        'POST',
        `/collections/${name}/documents/import?action=create`,
        lines,
        'text/plain'
      ),
      `import into ${name}`
    );
    if (answer.split('\n').some(l => !l.includes('"success":true'))) {
      throw new Error(`import into ${name}: ${answer.slice(0, 400)}`);
    }
  },
  deleteTarget: async (http, name) => {
    await http.call('DELETE', `/collections/${name}`);
  },
  putDocument: async (http, target, id, source) => {
    await expectOk(
      http.call(
        'POST',
        `/collections/${target}/documents`,
        json({ id, ...source })
      ),
      `put ${id}`
    );
  },
  removeDocument: async (http, target, id) => {
    await expectOk(
      http.call('DELETE', `/collections/${target}/documents/${id}`),
      `delete ${id}`
    );
  },
  storedVersion: async () => null,
  updateRequest: (target, id, _version, fields) => ({
    method: 'PATCH',
    path: `/collections/${target}/documents/${id}`,
    body: fields
  }),
  insertRequest: target => ({
    method: 'POST',
    path: `/collections/${target}/documents`,
    status: 201
  }),
  deleteRequest: (target, id) => ({
    method: 'DELETE',
    path: `/collections/${target}/documents/${id}`,
    status: 200
  }),
  updateStatus: 200,
  // Typesense keeps no versions: the kernel reads the document first and finds the change there.
  conflictRequest: { method: 'GET', status: 200 },
  targetActions: target => [
    {
      action: 'delete',
      label: 'Delete collection',
      request: `DELETE /collections/${target}`
    },
    {
      action: 'empty',
      label: 'Empty collection',
      request: `DELETE /collections/${target}/documents?truncate=true`
    }
  ],
  targetExists: async (http, target) =>
    (await http.call('GET', `/collections/${target}`)).status === 200,
  isWrite: (method, url) =>
    method !== 'GET' && !url.startsWith('/multi_search'),
  // The schema declares title without optional: true.
  engineRefusal: {
    kind: 'insert',
    id: 'untitled',
    fields: { rank: '1' },
    reason:
      'Field `title` has been declared in the schema, but is not found in the document.'
  },
  resent: {
    insert: { method: 'POST', status: 409 },
    update: { method: 'PATCH' },
    delete: { method: 'DELETE', status: 404 }
  },
  stored: async (http, target, id) => {
    const { status, text } = await http.call(
      'GET',
      `/collections/${target}/documents/${id}`
    );
    if (status === 404) {
      return { found: false, source: {} };
    }
    const { id: _id, ...source } = z
      .record(z.string(), z.unknown())
      .parse(parsed(text));
    return { found: true, source };
  },
  changeBehindTheGrid: async (http, target, id, fields) => {
    await expectOk(
      http.call(
        'PATCH',
        `/collections/${target}/documents/${id}`,
        json(fields)
      ),
      `patch ${id}`
    );
  },
  searchCell: target =>
    `GET /collections/${target}/documents/search?q=*&query_by=title&per_page=100`,
  missingTarget: name => ({
    cell: `GET /collections/${name}/documents/search?q=*&query_by=title`,
    reason: /^Typesense answered 404: Collection not found/
  }),
  targetCompletion: (prefix, name) => ({
    code: `GET /collections/${prefix}`,
    match: `/collections/${name}`
  }),
  fieldCompletion: (target, prefix) =>
    `POST /multi_search\n{"searches": [{"collection": "${target}", "sort_by": "${prefix}`,
  // The engine's own export, line for line: the file is what Typesense streams.
  exportedLines: async (http, target) =>
    (
      await expectOk(
        http.call('GET', `/collections/${target}/documents/export`),
        `export ${target}`
      )
    )
      .split('\n')
      .filter(l => l !== ''),
  csvHeader: ['id', ...SHOP_FIELDS],
  exportedDocument: line => {
    const { id, ...fields } = z
      .object({ id: z.string() })
      .loose()
      .parse(JSON.parse(line));
    return { id, fields };
  },
  exportQuery: '{"filter_by": "price:>=20"}',
  // The fields go as include_fields of the one export request, the id always among them.
  sentFields: seen =>
    seen
      .filter(r => r.url.includes('/documents/export'))
      .map(r =>
        new URL(r.url, 'http://x').searchParams.get('include_fields')
      )[0]
      ?.split(','),
  fieldsAsked: fields => ['id', ...fields],
  csvHeaderOf: fields => ['id', ...fields],
  refusedExports: [
    {
      options: '',
      body: '{"q": "dune"}',
      message:
        /does not take "q"\. Nothing was sent\. Write the export parameters/
    },
    {
      options: ' slices=2',
      message: /slices= does not apply\. Nothing was sent/
    }
  ],
  matchCaseSupported: false,
  // A string field without sort: true.
  unsortable: 'tag',
  answerPage: answer => {
    const { results } = z
      .object({
        results: z.array(
          z.object({
            found: z.number(),
            hits: z.array(z.object({ document: z.object({ id: z.string() }) }))
          })
        )
      })
      .parse(answer);
    return {
      total: results[0]?.found ?? 0,
      ids: results[0]?.hits.map(h => h.document.id) ?? []
    };
  },
  conflict:
    /^Someone changed rank in this document after the grid read it, so your change was not written/,
  keepsVersions: false
};

/** One row per engine the suite knows; registry.test.ts fails when a registered engine has none. */
export const ENGINE_FIXTURES: Record<string, EngineFixture> = {
  elasticsearch,
  typesense
};

/**
 * The engine's row as this target answers: the Elasticsearch row is written for 8.19, and a
 * real 9.x or OpenSearch node changes only what real-node-differences.ts lists (and why).
 */
export function fixtureFor(target: {
  engine: string;
  flavour: RealFlavourId | undefined;
  version: string;
}): EngineFixture | undefined {
  const fixture = ENGINE_FIXTURES[target.engine];
  if (target.engine === 'typesense' && fixture !== undefined) {
    return typesenseFixtureFor(fixture, target.version);
  }
  if (target.engine !== 'elasticsearch' || fixture === undefined) {
    return fixture;
  }
  const product = differs(target, 'opensearch-names-itself')
    ? 'OpenSearch'
    : fixture.product;
  return {
    ...fixture,
    product,
    missingTarget: name => missingIndex(product, name),
    ...(differs(target, 'opensearch-sorts-on-id')
      ? { unsortable: undefined }
      : {}),
    ...(differs(target, 'nine-asks-for-vectors')
      ? {
          sentFields: seen => {
            const asked = z
              .object({
                exclude_vectors: z.literal(false),
                includes: z.unknown()
              })
              .optional()
              .parse(fixture.sentFields(seen));
            return asked?.includes;
          }
        }
      : {})
  };
}

/**
 * The Typesense row is written for 30; an older server changes what test/support/
 * real-typesense-differences.ts lists, and before 28 the panel offers no "Empty collection".
 */
function typesenseFixtureFor(
  fixture: EngineFixture,
  version: string
): EngineFixture {
  const major = Number.parseFloat(version);
  return {
    ...fixture,
    ...(typesenseDiffers(version, 'older-texts')
      ? {
          missingTarget: name => ({
            ...fixture.missingTarget(name),
            reason: /^Typesense answered 404: Not found\./
          })
        }
      : {}),
    ...(typesenseDiffers(version, 'document-patch-created')
      ? { updateStatus: 201 }
      : {}),
    ...(major < 28
      ? {
          targetActions: target =>
            fixture.targetActions(target).map(a =>
              a.action === 'empty'
                ? {
                    ...a,
                    unavailable: `Empty collection needs Typesense 28.0 or later; this server runs ${version}. Delete the documents with DELETE /collections/${target}/documents?filter_by=... in a cell, or delete the collection and create it again.`
                  }
                : a
            )
        }
      : {})
  };
}
