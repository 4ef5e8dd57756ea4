/**
 * Elasticsearch's error envelope: {"error":{"root_cause":[...],"type","reason",...},"status"}.
 * Handlers throw EsError; the router turns it into the response.
 */
export type ErrorCause = { type: string; reason: string } & Record<
  string,
  unknown
>;

export class EsError extends Error {
  /**
   * Where in the request body the error points: the JSON key named here (its name token, or
   * the value after it). The router fills in `line` / `col` and `[line:col]` prefixes from it.
   */
  locate?: { key: string; at: 'key' | 'value' };

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string | string[]> = {}
  ) {
    super(
      typeof body === 'object' && body !== null
        ? JSON.stringify(body)
        : String(body)
    );
  }
}

/** Builds the usual envelope; `rootCauses` defaults to the outer cause itself. */
export function esError(
  status: number,
  cause: ErrorCause,
  opts: {
    rootCauses?: ErrorCause[];
    outerExtra?: Record<string, unknown>;
    headers?: Record<string, string | string[]>;
  } = {}
): EsError {
  const rootCauses = opts.rootCauses ?? [cause];
  return new EsError(
    status,
    {
      error: { root_cause: rootCauses, ...cause, ...(opts.outerExtra ?? {}) },
      status
    },
    opts.headers
  );
}

export function illegalArgument(reason: string): EsError {
  return esError(400, { type: 'illegal_argument_exception', reason });
}

export function validationFailed(messages: string[]): EsError {
  const reason = `Validation Failed: ${messages.map((m, i) => `${i + 1}: ${m};`).join('')}`;
  return esError(400, { type: 'action_request_validation_exception', reason });
}

export function parsingError(reason: string, line = 1, col = 1): EsError {
  return esError(400, { type: 'parsing_exception', reason, line, col });
}

export function indexNotFound(
  name: string,
  resourceType = 'index_or_alias'
): EsError {
  return esError(404, {
    type: 'index_not_found_exception',
    reason: `no such index [${name}]`,
    'resource.type': resourceType,
    'resource.id': name,
    index_uuid: '_na_',
    index: name
  });
}

export function resourceAlreadyExists(name: string, uuid: string): EsError {
  return esError(400, {
    type: 'resource_already_exists_exception',
    reason: `index [${name}/${uuid}] already exists`,
    index_uuid: uuid,
    index: name
  });
}

export function invalidIndexName(name: string, why: string): EsError {
  return esError(400, {
    type: 'invalid_index_name_exception',
    reason: `Invalid index name [${name}], ${why}`,
    index_uuid: '_na_',
    index: name
  });
}

/** Exceptions of Java itself (not Elasticsearch's): ES prints them with one more level of caused_by. */
const JAVA_EXCEPTIONS = new Set([
  'illegal_argument_exception',
  'illegal_state_exception',
  'number_format_exception',
  'null_pointer_exception',
  'unsupported_operation_exception',
  'arithmetic_exception'
]);

/**
 * A failure raised while a shard executes a search: ES wraps it in
 * search_phase_execution_exception "all shards failed", with the shard's cause as root cause.
 * When that cause is a Java exception (not one of Elasticsearch's), the outer error also
 * carries it as caused_by, wrapping itself once more, as ES renders the shard failure's cause.
 */
export function shardFailure(
  status: number,
  cause: ErrorCause,
  index: { name: string; uuid: string },
  phase = 'query'
): EsError {
  const { caused_by: _inner, ...rootCause } = cause;
  const outerExtra: Record<string, unknown> = {
    phase,
    grouped: true,
    failed_shards: [
      {
        shard: 0,
        index: index.name,
        node: 'sandbox-node-0000000000',
        reason: cause
      }
    ]
  };
  if (JAVA_EXCEPTIONS.has(cause.type)) {
    outerExtra['caused_by'] = {
      ...cause,
      caused_by: cause['caused_by'] ?? rootCause
    };
  }
  return esError(
    status,
    { type: 'search_phase_execution_exception', reason: 'all shards failed' },
    { rootCauses: [rootCause], outerExtra }
  );
}

/** Request bodies that are not JSON: ES answers x_content_parse_exception / json_parse_exception. */
export function badJson(detail: string): EsError {
  return esError(400, {
    type: 'x_content_parse_exception',
    reason: `[1:1] ${detail}`
  });
}

/**
 * A body that ends inside an object or array: Jackson's end-of-input error, as 7.x prints it
 * (json_e_o_f_exception) or as 8.x wraps it (x_content_e_o_f_exception). Undefined for other
 * syntax errors. Columns are 1-based; the start marker is the innermost unclosed bracket.
 */
export function truncatedJson(
  text: string,
  major: number
): EsError | undefined {
  const open: { ch: string; line: number; col: number }[] = [];
  let line = 1;
  let col = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\n') {
      line++;
      col = 0;
      continue;
    }
    col++;
    if (inString) {
      if (ch === '\\') {
        i++;
        col++;
      } else if (ch === '"') {
        inString = false;
      }
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{' || ch === '[') {
      open.push({ ch, line, col });
    } else if (ch === '}' || ch === ']') {
      open.pop();
    }
  }
  const marker = open[open.length - 1];
  if (!marker || inString) {
    return undefined;
  }
  const endCol = col + 1;
  const kind = marker.ch === '{' ? 'Object' : 'Array';
  const source =
    major === 7
      ? '(org.elasticsearch.common.io.stream.ByteBufferStreamInput)'
      : `(byte[])"${text}"`;
  const jackson = `Unexpected end-of-input: expected close marker for ${kind} (start marker at [Source: ${source}; line: ${marker.line}, column: ${marker.col}])\n at [Source: ${source}; line: ${line}, column: ${endCol}]`;
  if (major === 7) {
    return esError(400, { type: 'json_e_o_f_exception', reason: jackson });
  }
  const cause = {
    type: 'x_content_e_o_f_exception',
    reason: `[${line}:${endCol}] Unexpected end of file`
  };
  return esError(
    400,
    { ...cause, caused_by: { type: 'json_e_o_f_exception', reason: jackson } },
    { rootCauses: [cause] }
  );
}
