/**
 * Elasticsearch 9.2+ leave `dense_vector` values out of a search's `_source` unless the search
 * asks for them. A console cell is sent as written, so its hits grid would show the mapping's
 * vector columns empty, which reads as "no value": this says why under the grid instead.
 */
import type { JsonValue } from '../../console/cell';
import type { JsonObject } from '../../../../contracts/json';
import type { EngineResponse } from '../../driver-core/capabilities/console';
import { asObject } from '../../driver-core/document-columns';
import { type FieldTree, fieldTypesOf } from '../../driver-core/field-tree';

/** The notice for a hits answer whose mapping has vector fields no hit carries; undefined otherwise. */
export function leftOutVectorsNotice(
  response: EngineResponse,
  tree: FieldTree | undefined
): string | undefined {
  if (!tree || response.status >= 300 || response.body.kind !== 'json') {
    return undefined;
  }
  const vectors = fieldTypesOf(tree)
    .filter(f => f.type.split(' | ').includes('dense_vector'))
    .map(f => f.field);
  const hits = asObject(asObject(response.body.value)?.hits)?.hits;
  if (vectors.length === 0 || !Array.isArray(hits)) {
    return undefined;
  }
  const sources = hits
    .map(hit => asObject(asObject(hit)?._source))
    .filter(source => source !== undefined);
  if (sources.length === 0) {
    return undefined;
  }
  const missing = vectors.filter(
    field => !sources.some(source => valueAt(source, field) !== undefined)
  );
  if (missing.length === 0) {
    return undefined;
  }
  const names = missing.join(', ');
  return `Elasticsearch 9.x leaves dense_vector fields out of _source unless a search asks for them, so ${names} ${missing.length === 1 ? 'is' : 'are'} not in these hits (not empty in the index). To see them, add "_source": {"exclude_vectors": false} to the search body.`;
}

/** A dotted field's value in a source, whether it is stored nested (`{"a": {"b": ...}}`) or flat (`{"a.b": ...}`). */
function valueAt(source: JsonObject, field: string): JsonValue | undefined {
  if (Object.hasOwn(source, field)) {
    return source[field];
  }
  // Any prefix may be an object key of its own (`{"a.b": {"c": ...}}`).
  for (
    let dot = field.indexOf('.');
    dot > 0;
    dot = field.indexOf('.', dot + 1)
  ) {
    const head = field.slice(0, dot);
    const inner = Object.hasOwn(source, head)
      ? asObject(source[head])
      : undefined;
    const found = inner ? valueAt(inner, field.slice(dot + 1)) : undefined;
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}
