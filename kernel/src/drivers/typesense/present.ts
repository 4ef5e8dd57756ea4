import type { ConsoleRequest, JsonValue } from '../../console/cell';
import { asObject, columnsFromRows, flattenDocument } from '../document-columns';
import type { ConsoleResult, EngineResponse, GridColumn } from '../driver';

const LEADING: GridColumn[] = [{ name: 'id', type: 'string', readOnly: true, json: false }];

/** `hits` → grid, a multi_search of one search → grid, arrays and export JSONL → grid, else JSON. */
export function presentTypesense(_request: ConsoleRequest, response: EngineResponse): ConsoleResult {
  if (response.body.kind === 'text') return { kind: 'text', text: response.body.text };
  if (response.body.kind === 'empty') return { kind: 'json', value: { status: response.status } };
  if (response.body.kind === 'jsonl') return documentGrid(response.body.values);
  const body = response.body.value;
  if (Array.isArray(body)) return documentGrid(body);
  const object = asObject(body);
  const results = object?.results;
  const single = Array.isArray(results) && results.length === 1 ? asObject(results[0]) : object;
  if (response.status < 300 && single && Array.isArray(single.hits)) {
    const docs = single.hits.map((hit) => asObject(hit)?.document ?? null);
    const grid = documentGrid(docs);
    return typeof single.found === 'number' ? { ...grid, total: { value: single.found, relation: 'eq' } } : grid;
  }
  return { kind: 'json', value: body };
}

function documentGrid(values: JsonValue[]): Extract<ConsoleResult, { kind: 'hits' }> {
  const rows = values.map((v) => {
    const doc = asObject(v);
    return doc ? flattenDocument(doc) : { value: v };
  });
  return { kind: 'hits', columns: columnsFromRows(rows, rows.some((r) => 'id' in r) ? LEADING : []), rows };
}
