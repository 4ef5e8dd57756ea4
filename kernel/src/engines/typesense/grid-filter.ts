/**
 * The grid's view as Typesense search parameters: filter rows
 * as one `filter_by` expression, the raw row verbatim, header sorts as `sort_by`. Operators the
 * engine cannot express and values it cannot quote are refused here, so nothing is sent.
 * Pure: nothing here sends anything.
 */
import type {
  FilterOperator,
  FilterRow,
  GridView,
  OperatorInfo,
  SortKey
} from '../../../../contracts/panel-protocol';
import type { FieldTree } from '../../driver-core/field-tree';
import {
  booleanValue,
  listValue,
  numberValue,
  pairValue,
  resolveColumn,
  singleValue
} from '../../driver-core/grid-view';
import { filterRefusal } from '../../console/refusal';
import {
  HIGHLIGHT_COLUMN,
  queryOfSearch,
  SCORE_COLUMN,
  searchNote
} from './search-preview';
import { majorOf } from './versions';

/** At most this many sort fields reach the engine: Typesense's `sort_by` takes no more. */
export const MAX_SORT_FIELDS = 3;
const INTEGER = new Set(['int32', 'int64']);
const NUMERIC = new Set([...INTEGER, 'float']);
export const CASE_CONTROL_NOTE = 'Not supported by this database';

/** What serves a search inside words: the engine's filters match whole words and word starts only. */
const INFIX_ADVICE =
  'To find text inside or at the end of words, declare the field infix: true in the schema and search it in a cell (q=<text>, query_by=<field>, infix=always)';
const NO_NULL_TEST =
  "Typesense's filter_by has no test for a missing, null or empty value. Give such documents a value that says so (a bool field such as has_<field>) and filter on it with equals, or filter on the values the field does hold.";

/**
 * The operators as Typesense does them: `f:word` matches whole words and `f:word*` word
 * starts, in any case, so they are named for what they match; those it has no filter for say
 * what serves instead. https://typesense.org/docs/latest/api/search.html#filter-parameters
 */
export const OPERATORS: OperatorInfo[] = [
  {
    operator: 'equals',
    label: 'equals',
    does: 'The whole value is this (filter_by field:=`value`).'
  },
  {
    operator: 'not equals',
    label: 'not equals',
    does: 'The whole value is not this (filter_by field:!=`value`).'
  },
  {
    operator: 'greater than',
    label: 'greater than',
    does: 'Numeric columns: more than this (field:>n).'
  },
  {
    operator: 'greater or equal',
    label: 'greater or equal',
    does: 'Numeric columns: this or more (field:>=n).'
  },
  {
    operator: 'less than',
    label: 'less than',
    does: 'Numeric columns: less than this (field:<n).'
  },
  {
    operator: 'less or equal',
    label: 'less or equal',
    does: 'Numeric columns: this or less (field:<=n).'
  },
  {
    operator: 'between',
    label: 'between',
    does: 'Numeric columns: from low to high, both included (low..high; field:[low..high]).'
  },
  {
    operator: 'in list',
    label: 'in list',
    does: 'The whole value is one of these (a, b, c; field:=[a,b,c]).'
  },
  {
    operator: 'not in list',
    label: 'not in list',
    does: 'The whole value is none of these (field:!=[a,b,c]).'
  },
  {
    operator: 'contains',
    label: 'has word',
    does: `The value holds this word (or these words, side by side), in any case (filter_by field:\`word\`). Whole words only: arden does not find Garden. ${INFIX_ADVICE}.`
  },
  {
    operator: 'not contains',
    label: 'lacks word',
    does: 'The value does not hold this word, in any case (filter_by field:!`word`). Whole words only.'
  },
  {
    operator: 'starts with',
    label: 'has word starting with',
    does: 'A word of the value starts with this, in any case (filter_by field:`Gla`*): Gla finds "The Glass Castle". Typesense has no filter for the start of the whole value: equals or in list match whole values.'
  },
  {
    operator: 'ends with',
    label: 'ends with',
    does: 'Not available on Typesense.',
    unavailable: `Typesense filters match whole words and word starts, never the end of a value. ${INFIX_ADVICE}; to match whole values, use equals or in list.`
  },
  {
    operator: 'is null',
    label: 'is null',
    does: 'Not available on Typesense.',
    unavailable: NO_NULL_TEST
  },
  {
    operator: 'is not null',
    label: 'is not null',
    does: 'Not available on Typesense.',
    unavailable: NO_NULL_TEST
  },
  {
    operator: 'is empty',
    label: 'is empty',
    does: 'Not available on Typesense.',
    unavailable: NO_NULL_TEST
  },
  {
    operator: 'is not empty',
    label: 'is not empty',
    does: 'Not available on Typesense.',
    unavailable: NO_NULL_TEST
  },
  {
    operator: 'matches regex',
    label: 'matches regex',
    does: 'Not available on Typesense.',
    unavailable:
      'Typesense has no regular expressions in filters: has word matches words, has word starting with matches word starts, equals and in list match whole values; a raw filter_by combines them.'
  }
];
const INFO = new Map(OPERATORS.map(info => [info.operator, info]));

/**
 * What a 0.24 server lacks of the filters the grid writes, each found to answer wrongly without
 * a word: `field:Gla*` finds no document at all, `field:!glass` the documents that DO hold the
 * word. Typesense 0.25 added both.
 */
const BEFORE_025: Partial<Record<FilterOperator, string>> = {
  'starts with':
    'this server filters whole words only (Typesense 0.25 added word starts, field:Gla*). Search the column in a cell instead (q=Gla, query_by=<field>, prefix=true), or use has word with whole words.',
  'not contains':
    'this server has no "lacks word" filter (Typesense 0.25 added field:!word; this one answers it with the documents that hold the word). Use not equals or not in list for whole values.'
};

/** The operators as this server offers them: 0.24 lacks two. */
export function operatorsFor(version: string | undefined): OperatorInfo[] {
  if (!before025(version)) {
    return OPERATORS;
  }
  return OPERATORS.map(info => {
    const unavailable = BEFORE_025[info.operator];
    return unavailable
      ? {
          ...info,
          does: 'Not available on this Typesense server.',
          unavailable
        }
      : info;
  });
}

function before025(version: string | undefined): boolean {
  const major = majorOf(version);
  return Number.isFinite(major) && major < 0.25;
}

/** The operator's name on Typesense, for messages. */
function labelOf(operator: FilterOperator): string {
  return INFO.get(operator)?.label ?? operator;
}

export interface SearchParameters {
  q?: string;
  query_by?: string;
  filter_by?: string;
  sort_by?: string;
}

export function searchOfView(
  view: GridView,
  tree: FieldTree | undefined,
  version?: string
): { parameters: SearchParameters; sortedBy: string[]; notes: string[] } {
  const filter = filterOfView(view, tree, version);
  const query = view.search ? queryOfSearch(view.search, tree) : undefined;
  // Under a query, header sorts lead and text match breaks their ties: one of the three places
  // is its, unless the score's own column is among the sorts.
  const scoreSorted = view.sort.some(k => k.column === SCORE_COLUMN);
  const { sortBy, sortedBy, notes } = sortOfView(
    view.sort,
    tree,
    query && !scoreSorted ? MAX_SORT_FIELDS - 1 : MAX_SORT_FIELDS,
    query !== undefined
  );
  return {
    parameters: {
      ...query,
      ...(filter ? { filter_by: filter } : {}),
      ...(sortBy
        ? {
            sort_by:
              query &&
              !sortedBy.includes(SCORE_COLUMN) &&
              sortedBy.length < MAX_SORT_FIELDS
                ? `${sortBy},_text_match:desc`
                : sortBy
          }
        : {})
    },
    sortedBy,
    notes: query ? [searchNote(query, sortedBy), ...notes] : notes
  };
}

interface Target {
  column: string;
  type: string;
  kind: 'integer' | 'number' | 'boolean' | 'string';
}

export function filterOfView(
  view: GridView,
  tree: FieldTree | undefined,
  version?: string
): string | undefined {
  const parts = view.filters.map((row, index) => {
    const lacking = before025(version) ? BEFORE_025[row.operator] : undefined;
    if (lacking !== undefined) {
      throw filterRefusal(
        `Typesense ${version ?? ''} cannot filter with "${labelOf(row.operator)}": ${lacking}`,
        index
      );
    }
    return rowFilter(row, index, targetOf(row, index, tree));
  });
  const raw = view.raw.trim();
  if (raw !== '') {
    parts.push(parts.length === 0 ? raw : `(${raw})`);
  }
  return parts.length === 0
    ? undefined
    : parts.join(view.join === 'all' ? ' && ' : ' || ');
}

function targetOf(
  row: FilterRow,
  index: number,
  tree: FieldTree | undefined
): Target {
  if (row.column === SCORE_COLUMN || row.column === HIGHLIGHT_COLUMN) {
    throw filterRefusal(
      `${row.column} is what a search says of each row, not a field of the documents: filter on the documents' fields (the search query keeps only the documents that match).`,
      index
    );
  }
  const unavailable = INFO.get(row.operator)?.unavailable;
  if (unavailable) {
    throw filterRefusal(
      `Typesense cannot filter with "${row.operator}": ${unavailable}`,
      index
    );
  }
  if (row.column === 'id') {
    return { column: 'id', type: 'string', kind: 'string' };
  }
  const column = resolveColumn(tree, row.column);
  if (column.kind === 'array' || column.kind === 'object') {
    throw filterRefusal(
      `${row.column} is the JSON column of an object or array: filter on its leaf columns (${row.column}.<field>).`,
      index
    );
  }
  // A field only documents hold is filtered as a string; the engine answers if the schema lacks it.
  const type = column.kind === 'leaf' ? column.node.type : 'string';
  const element = type.replace(/\[\]$/, '');
  return {
    column: row.column,
    type,
    kind: INTEGER.has(element)
      ? 'integer'
      : NUMERIC.has(element)
        ? 'number'
        : element === 'bool'
          ? 'boolean'
          : 'string'
  };
}

/** A value as the expression writes it: numbers and booleans bare, strings in backticks. */
function written(text: string, target: Target, index: number): string {
  if (text.includes('`')) {
    throw filterRefusal(
      `A filter value cannot hold a backtick (\`): Typesense has no escape for it inside a quoted value. Leave the backtick out (has word matches the other words), or write a raw filter_by.`,
      index
    );
  }
  switch (target.kind) {
    case 'integer':
    case 'number':
      return String(
        numberValue(
          text,
          target.column,
          target.type,
          target.kind === 'integer',
          index
        )
      );
    case 'boolean':
      return String(booleanValue(text, target.column, target.type, index));
    case 'string':
      return `\`${text}\``;
  }
}

function numericOnly(row: FilterRow, target: Target, index: number): void {
  if (target.kind !== 'integer' && target.kind !== 'number') {
    throw filterRefusal(
      `"${labelOf(row.operator)}" works on numeric columns only; ${target.column} is a ${target.type} column: use equals or in list.`,
      index
    );
  }
}

function stringsOnly(row: FilterRow, target: Target, index: number): void {
  if (target.kind !== 'string') {
    throw filterRefusal(
      `"${labelOf(row.operator)}" works on string columns; ${target.column} is a ${target.type} column: use equals or a range.`,
      index
    );
  }
}

function rowFilter(row: FilterRow, index: number, target: Target): string {
  const field = row.column;
  const one = () => written(singleValue(row, index), target, index);
  const list = () =>
    `[${listValue(row, index)
      .map(v => written(v, target, index))
      .join(',')}]`;
  switch (row.operator) {
    case 'equals':
      return `${field}:=${one()}`;
    case 'not equals':
      return `${field}:!=${one()}`;
    case 'greater than':
      numericOnly(row, target, index);
      return `${field}:>${one()}`;
    case 'greater or equal':
      numericOnly(row, target, index);
      return `${field}:>=${one()}`;
    case 'less than':
      numericOnly(row, target, index);
      return `${field}:<${one()}`;
    case 'less or equal':
      numericOnly(row, target, index);
      return `${field}:<=${one()}`;
    case 'between': {
      numericOnly(row, target, index);
      const [low, high] = pairValue(row, index);
      return `${field}:[${written(low, target, index)}..${written(high, target, index)}]`;
    }
    case 'in list':
      return `${field}:=${list()}`;
    case 'not in list':
      return `${field}:!=${list()}`;
    case 'contains':
      stringsOnly(row, target, index);
      return `${field}:${one()}`;
    case 'not contains':
      stringsOnly(row, target, index);
      return `${field}:!${one()}`;
    case 'starts with':
      stringsOnly(row, target, index);
      return `${field}:${one()}*`;
    default:
      // targetOf refused the rest before any value was read.
      throw filterRefusal(
        `Typesense cannot filter with "${row.operator}"; write a raw filter_by.`,
        index
      );
  }
}

/** `sort_by` in click order: `sort: true` and numeric fields only, at most three; the rest dropped with a note. */
export function sortOfView(
  keys: SortKey[],
  tree: FieldTree | undefined,
  most = MAX_SORT_FIELDS,
  /** A search query is on: its score sorts (`_text_match`). */
  searching = false
): { sortBy: string | undefined; sortedBy: string[]; notes: string[] } {
  const fields: string[] = [];
  const sortedBy: string[] = [];
  const notes: string[] = [];
  const dropped = (column: string, why: string) =>
    notes.push(
      `Not sorted by ${column}: ${why}; the rows keep their order for it.`
    );
  for (const key of keys) {
    const column = resolveColumn(tree, key.column);
    if (key.column === SCORE_COLUMN && !searching) {
      dropped(SCORE_COLUMN, 'it is the score of a search, and no search is on');
    } else if (key.column === 'id') {
      dropped('id', 'Typesense does not sort on id');
    } else if (key.column === SCORE_COLUMN && fields.length === most) {
      dropped(
        SCORE_COLUMN,
        `Typesense sorts on at most ${MAX_SORT_FIELDS} fields`
      );
    } else if (key.column === SCORE_COLUMN) {
      fields.push(`${SCORE_COLUMN}:${key.direction}`);
      sortedBy.push(SCORE_COLUMN);
    } else if (column.kind !== 'leaf' || column.node.sortable !== true) {
      dropped(
        key.column,
        'the schema does not declare it sort: true, and only those and numeric fields sort'
      );
    } else if (fields.length === most) {
      dropped(
        key.column,
        most < MAX_SORT_FIELDS
          ? `Typesense sorts on at most ${MAX_SORT_FIELDS} fields, and a search keeps one for text_match`
          : `Typesense sorts on at most ${MAX_SORT_FIELDS} fields`
      );
    } else {
      fields.push(`${key.column}:${key.direction}`);
      sortedBy.push(key.column);
    }
  }
  return {
    sortBy: fields.length ? fields.join(',') : undefined,
    sortedBy,
    notes
  };
}
