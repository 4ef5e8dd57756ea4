import type { ConsoleRequest } from '../../console/cell';
import type { DocumentLayout } from '../../../../contracts/mime-types';
import { asObject } from '../../driver-core/document-columns';
import type {
  EngineResponse,
  PresentedResult,
  SearchPart
} from '../../driver-core/driver';
import type { Column } from '../../../../contracts/columns';
import type { FieldTree } from '../../driver-core/field-tree';
import { structureFields } from '../../driver-core/structure-cache';
import {
  documentGrid,
  hitsResult,
  tableResult
} from '../../driver-core/grid-columns';
import { aggregationTables } from './aggregation-tables';
import { esqlTable } from './esql-table';
import { msearchSearches } from './msearch';
import { structureOfMapping } from './mapping';
import { filtersFields } from './targets';
import { emptyAnswerText } from '../../driver-core/http/http-status';

/** Every Elasticsearch grid starts with these, read-only: the metadata of a hit, not fields of its `_source`. */
export const LEADING: Column[] = [
  {
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta',
    primaryKey: true
  },
  {
    name: '_index',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta'
  },
  { name: '_score', type: 'float', readOnly: true, json: false, origin: 'meta' }
];

/** The leading columns of a grid that browses rather than ranks (the panel's, a sorted search's): no `_score`, which would be empty. */
export const UNSCORED_LEADING: Column[] = LEADING.filter(
  c => c.name !== '_score'
);

/** Where a search answer's documents and their leading columns sit. */
const HITS_LAYOUT: DocumentLayout = {
  at: ['hits', 'hits'],
  source: ['_source'],
  meta: { _id: ['_id'], _index: ['_index'], _score: ['_score'] }
};
const UNSCORED_LAYOUT: DocumentLayout = {
  ...HITS_LAYOUT,
  meta: { _id: ['_id'], _index: ['_index'] }
};

/** What the driver knows beside the answer itself. */
export interface PresentOptions {
  /** The cached mapping of a search's index, when it could be read: the grid's columns follow it. */
  treeFor?(
    request: ConsoleRequest,
    response: EngineResponse
  ): FieldTree | undefined;
  /** What to say under one search of an `_msearch` (a lone search's notice comes with its response). */
  partNotice?(
    request: ConsoleRequest,
    response: EngineResponse
  ): string | undefined;
}

/**
 * Search responses → hits grid, with columns from the mapping when it is known; arrays
 * (`_cat/...?format=json`) → table; the rest → JSON.
 */
export function presentElasticsearch(
  request: ConsoleRequest,
  response: EngineResponse,
  options: PresentOptions = {}
): PresentedResult {
  if (response.body.kind === 'text') {
    return { kind: 'text', text: response.body.text };
  }
  if (response.body.kind === 'empty') {
    return { kind: 'text', text: emptyAnswerText(response) };
  }
  if (response.body.kind === 'jsonl') {
    return tableResult(response.body.values);
  }
  const body = response.body.value;
  if (Array.isArray(body)) {
    return tableResult(body);
  }
  const esql = esqlTable(request, response);
  if (esql) {
    return esql;
  }
  const searches = msearchParts(request, response, options);
  if (searches) {
    return { kind: 'searches', searches };
  }
  const hits = asObject(asObject(body)?.hits);
  if (response.status < 300 && hits && Array.isArray(hits.hits)) {
    // A search sorted by a field scores nothing (`_score: null` in every hit): no empty column.
    const scored = hits.hits.some(
      hit => (asObject(hit)?._score ?? null) !== null
    );
    const documents = hits.hits.map(hit => {
      const h = asObject(hit) ?? {};
      return {
        meta: {
          _id: h._id ?? null,
          _index: h._index ?? null,
          ...(scored ? { _score: h._score ?? null } : {})
        },
        source: h._source ?? {}
      };
    });
    const grid = documentGrid({
      tree: options.treeFor?.(request, response),
      leading: scored ? LEADING : UNSCORED_LEADING,
      documents,
      onlyPresent: filtersFields(request)
    });
    const total = asObject(hits.total);
    const aggregations = aggregationTables(
      asObject(asObject(body)?.aggregations)
    );
    return hitsResult(grid, {
      documents: scored ? HITS_LAYOUT : UNSCORED_LAYOUT,
      ...(total && typeof total.value === 'number'
        ? {
            total: {
              value: total.value,
              relation: total.relation === 'gte' ? 'gte' : 'eq'
            }
          }
        : {}),
      ...(typeof hits.total === 'number'
        ? { total: { value: hits.total, relation: 'eq' as const } }
        : {}),
      ...(aggregations.length ? { aggregations } : {})
    });
  }
  return {
    kind: 'json',
    value: body,
    ...structureFields(request, response, structureOfMapping)
  };
}

/** An `_msearch` of several searches: each answer shown as that search run alone would be, titled with its index. */
function msearchParts(
  request: ConsoleRequest,
  response: EngineResponse,
  options: PresentOptions
): SearchPart[] | undefined {
  return msearchSearches(request, response)?.map(search => {
    const part = presentElasticsearch(search.request, search.response, options);
    const notice = options.partNotice?.(search.request, search.response);
    const answer =
      search.response.body.kind === 'json' ? search.response.body.value : null;
    return {
      target: search.target,
      status: search.response.status,
      result: part.kind === 'searches' ? { kind: 'json', value: answer } : part,
      raw: answer,
      ...(notice ? { notice } : {})
    };
  });
}
