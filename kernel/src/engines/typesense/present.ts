import type { ConsoleRequest, JsonValue } from '../../console/cell';
import type { DocumentLayout } from '../../../../contracts/mime-types';
import { asObject } from '../../driver-core/document-columns';
import type {
  ConsoleResult,
  EngineResponse,
  PresentedResult,
  SearchPart
} from '../../driver-core/driver';
import type { Column } from '../../../../contracts/columns';
import type { FieldTree } from '../../driver-core/field-tree';
import { structureFields } from '../../driver-core/structure-cache';
import {
  documentGrid,
  type GridDocument,
  hitsResult
} from '../../driver-core/grid-columns';
import { facetTables } from './facets';
import { structureOfCollection } from './schema';
import { documentsEndpoint, eachSearch, filtersFields } from './targets';
import { emptyAnswerText } from '../../driver-core/http/http-status';

/** `id` leads every Typesense grid, read-only: the engine refuses to rewrite it. */
export const LEADING: Column[] = [
  {
    name: 'id',
    type: 'string',
    readOnly: true,
    json: false,
    origin: 'meta',
    primaryKey: true
  }
];

/** An array answer, or the export's lines: each element is a document, `id` among its fields. */
const LISTED: DocumentLayout = { at: [], source: [], meta: {} };

/**
 * `hits` → grid, a multi_search of one search → grid, arrays and the
 * export's JSONL → grid, anything else → JSON. Document answers take their columns from the
 * collection schema when `tree` is known.
 */
export function presentTypesense(
  request: ConsoleRequest,
  response: EngineResponse,
  treeFor: (request: ConsoleRequest) => FieldTree | undefined = () => undefined
): PresentedResult {
  const endpoint = documentsEndpoint(request);
  const tree = treeFor(request);
  const grid = (
    values: JsonValue[],
    structure?: FieldTree,
    documents: DocumentLayout = LISTED,
    extra: Partial<HitsResult> = {}
  ) =>
    hitsResult(documentsGrid(values, structure, filtersFields(request)), {
      documents,
      ...extra
    });
  if (endpoint?.kind === 'export' && response.status < 300) {
    // JSONL of one line parses as one JSON value, and an empty collection exports nothing.
    const body = response.body;
    if (body.kind === 'jsonl') {
      return grid(body.values, tree);
    }
    if (body.kind === 'empty') {
      return grid([], tree);
    }
    if (body.kind === 'json' && asObject(body.value)) {
      return grid([body.value], tree);
    }
  }
  if (response.body.kind === 'text') {
    return { kind: 'text', text: response.body.text };
  }
  if (response.body.kind === 'empty') {
    return { kind: 'text', text: emptyAnswerText(response) };
  }
  if (response.body.kind === 'jsonl') {
    return grid(response.body.values);
  }
  const body = response.body.value;
  if (Array.isArray(body)) {
    return grid(body);
  }
  const object = asObject(body);
  const results = object?.results;
  if (response.status < 300 && Array.isArray(results) && results.length > 1) {
    return {
      kind: 'searches',
      searches: multiSearchParts(request, response, results, treeFor)
    };
  }
  const single =
    Array.isArray(results) && results.length === 1
      ? asObject(results[0])
      : object;
  if (response.status < 300 && single && Array.isArray(single.hits)) {
    const docs = single.hits.map(hit => asObject(hit)?.document ?? {});
    const facets = facetTables(single.facet_counts);
    return grid(
      docs,
      endpoint ? tree : undefined,
      {
        at: single === object ? ['hits'] : ['results', 0, 'hits'],
        source: ['document'],
        meta: {}
      },
      {
        ...(typeof single.found === 'number'
          ? { total: { value: single.found, relation: 'eq' as const } }
          : {}),
        ...(facets.length > 0 ? { aggregations: facets } : {})
      }
    );
  }
  return {
    kind: 'json',
    value: body,
    ...structureFields(request, response, structureOfCollection)
  };
}

/** A multi_search of several searches: each result shown as its own search, titled with its collection. */
function multiSearchParts(
  request: ConsoleRequest,
  response: EngineResponse,
  results: JsonValue[],
  treeFor: (request: ConsoleRequest) => FieldTree | undefined
): SearchPart[] {
  const singles = eachSearch(request);
  return results.map((answer, i) => {
    const single = singles[i] ?? request;
    const collection = documentsEndpoint(single)?.collection;
    // A failed search is `{"code": 404, "error": "..."}` inside a 200 answer.
    const code = asObject(answer)?.code;
    const status = typeof code === 'number' ? code : response.status;
    const part = presentTypesense(
      single,
      { ...response, status, body: { kind: 'json', value: answer } },
      treeFor
    );
    return {
      target: collection ? decodeURIComponent(collection) : '',
      status,
      result: part.kind === 'hits' ? part : { kind: 'json', value: answer },
      raw: answer
    };
  });
}

type HitsResult = Extract<ConsoleResult, { kind: 'hits' }>;

export function documentsGrid(
  values: JsonValue[],
  tree: FieldTree | undefined,
  onlyPresent: boolean
): ReturnType<typeof documentGrid> {
  const documents = values.map((value): GridDocument => {
    const id = asObject(value)?.id;
    return { meta: id === undefined ? {} : { id }, source: value };
  });
  // Arrays that are not documents (the collection listing) have no `id` to lead with.
  const leading = tree || documents.some(d => 'id' in d.meta) ? LEADING : [];
  return documentGrid({ tree, leading, documents, onlyPresent });
}
