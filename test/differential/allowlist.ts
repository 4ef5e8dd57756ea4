import {
  differs,
  REAL_NODE_DIFFERENCES,
  type RealNodeDifference,
  type ReleaseLine
} from '../support/real-node-differences';

/**
 * The differential suite's allowlist: the ONLY place where a sandbox answer may differ from a
 * real node's. At most 10 entries, each naming corpus entries (`file: title`) and saying why
 * the difference is accepted rather than fixed: a shortcoming of the sandbox (`reason`), or a
 * way real Elasticsearch 9.x or OpenSearch answers unlike 8.19, which the sandbox plays
 * (`difference`, named in test/support/real-node-differences.ts with its reason, and accepted
 * on the lines it names only). An allowlisted entry still counts as not identical in the
 * printed share.
 */
export type Allowance = {
  /** Corpus entry ids this allowance covers. */
  entries: string[];
} & (
  | {
      /** Release lines it applies to; all when absent. */
      lines?: ReleaseLine[];
      reason: string;
    }
  | { difference: RealNodeDifference }
);

export const ALLOWLIST: Allowance[] = [
  {
    entries: ['04-writes: search the writes'],
    reason:
      "A long beyond 2^53 (9007199254740993) in a hit's `sort`: the sandbox keeps such integers exact in _source and " +
      'prints the Long.MIN/MAX sentinels exactly, but sorts on doc values held as doubles, so the sort value it shows ' +
      'is the rounded double. Exact 64-bit doc values would need BigInt columns throughout sorting and aggregations.'
  },
  {
    entries: ['05-mappings: an index with everything'],
    difference: 'index-settings-of-its-own'
  },
  {
    entries: [
      '07-errors: nested query on a non-nested path',
      '07-errors: no handler'
    ],
    difference: 'nine-error-texts'
  },
  {
    entries: [
      '03-paging: open a point in time',
      '03-paging: search a point in time, first page',
      '03-paging: search a point in time, next page',
      '03-paging: a point in time with an index in the path',
      '03-paging: close the point in time',
      '03-paging: _shard_doc without a point in time'
    ],
    difference: 'opensearch-point-in-time-api'
  },
  {
    entries: [
      '02-aggregations: terms on a text field is refused',
      '02-aggregations: too many buckets',
      '04-writes: a value that does not fit the mapping',
      '04-writes: a date that does not parse',
      '04-writes: bulk of mixed actions',
      '04-writes: grid: an edit the mapping refuses',
      '04-writes: an empty field name is refused',
      '04-writes: an empty field name inside an object is refused',
      '05-mappings: an unknown field type',
      '05-mappings: a document in ISO format is refused by a custom format',
      '07-errors: get from a missing index',
      '07-errors: malformed JSON',
      '07-errors: sort on a text field',
      '07-errors: negative from',
      '07-errors: no handler',
      '07-errors: an aggregation without a field'
    ],
    difference: 'opensearch-error-texts'
  },
  {
    entries: ['01-search: the fields option'],
    difference: 'opensearch-fields-flattened'
  }
];

export function allowed(
  entry: string,
  line: ReleaseLine
): Allowance | undefined {
  return ALLOWLIST.find(
    a =>
      a.entries.includes(entry) &&
      ('difference' in a
        ? differs({ line }, a.difference)
        : !a.lines || a.lines.includes(line))
  );
}

/** Why an allowed difference is accepted, in words. */
export function reasonOf(allowance: Allowance): string {
  return 'difference' in allowance
    ? REAL_NODE_DIFFERENCES[allowance.difference].reason
    : allowance.reason;
}
