/**
 * Parts of a Typesense request that failed while it answered 2xx: lines of a
 * `documents/import` (`{"success": false, "error": ...}`, one per line sent) and searches of a
 * `multi_search` (`{"code": 404, "error": ...}` in place of a result). Each says how many of
 * how many, with the first reasons.
 * https://typesense.org/docs/latest/api/documents.html#index-multiple-documents
 */
import type { ConsoleRequest, JsonValue } from '../../console/cell';
import type { PartialFailure } from '../../../../contracts/mime-types';
import { asObject } from '../../driver-core/document-columns';
import type { EngineResponse } from '../../driver-core/driver';
import { firstReasons } from '../../driver-core/partial-failure-reasons';

function isImport(request: ConsoleRequest): boolean {
  const [first, , third, fourth] = request.path.split('/').filter(Boolean);
  return (
    first === 'collections' && third === 'documents' && fourth === 'import'
  );
}

/** The id of the document a failed line carried (the engine echoes the line as `document` when asked to). */
function idOf(line: Record<string, JsonValue>): string | undefined {
  if (typeof line.id === 'string') {
    return line.id;
  }
  const document =
    typeof line.document === 'string' ? line.document : undefined;
  try {
    const id = document
      ? asObject(JSON.parse(document) as JsonValue)?.id
      : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Every partial failure of a 2xx answer; empty when the whole request succeeded. */
export function typesensePartialFailures(
  request: ConsoleRequest,
  response: EngineResponse
): PartialFailure[] {
  if (response.status >= 300) {
    return [];
  }
  const body = response.body;
  if (isImport(request)) {
    const lines =
      body.kind === 'jsonl'
        ? body.values
        : body.kind === 'json'
          ? [body.value]
          : [];
    const failed = lines.flatMap((value, i) => {
      const line = asObject(value);
      if (!line || line.success !== false) {
        return [];
      }
      const id = idOf(line);
      return [
        `line ${i + 1}${id ? ` (id ${id})` : ''}: ${typeof line.error === 'string' ? line.error : JSON.stringify(line.error ?? null)}`
      ];
    });
    return failed.length > 0
      ? [
          {
            failed: failed.length,
            of: lines.length,
            unit: 'lines',
            outcome: 'failed',
            reasons: firstReasons(failed)
          }
        ]
      : [];
  }
  const results =
    body.kind === 'json' ? asObject(body.value)?.results : undefined;
  if (!Array.isArray(results)) {
    return [];
  }
  const failed = results.flatMap((result, i) => {
    const error = asObject(result)?.error;
    return error === undefined
      ? []
      : [
          `search ${i + 1}: ${typeof error === 'string' ? error : JSON.stringify(error)}`
        ];
  });
  return failed.length > 0
    ? [
        {
          failed: failed.length,
          of: results.length,
          unit: 'searches',
          outcome: 'failed',
          reasons: firstReasons(failed)
        }
      ]
    : [];
}
