/**
 * The grid's search preview on Typesense, as its dashboards preview a search: the view's query
 * as `q` over `query_by` (the collection's indexed string fields unless the view names others),
 * rows ranked by text match, and two read-only columns from each hit: its `text_match` score
 * and its highlighted snippets. Highlights come marked up by the engine (`<mark>` around each
 * matched token, https://typesense.org/docs/latest/api/search.html#results-parameters); they
 * are taken apart here into plain text parts, so a document's own text is never read as markup.
 */
import { z } from 'zod';
import type { JsonValue } from '../../console/cell';
import type { Column } from '../../../../contracts/columns';
import type {
  GridSearch,
  MarkedText,
  RowHighlights,
  SearchPreview
} from '../../../../contracts/search-preview';
import { valueAt } from '../../../../contracts/answer-rows';
import { ownValue } from '../../../../contracts/own-fields';
import { asObject } from '../../driver-core/document-columns';
import type { FieldTree } from '../../driver-core/field-tree';
import {
  documentGrid,
  type GridDocument
} from '../../driver-core/grid-columns';
import { LEADING } from './present';
import { ExactNumber } from '../../../../contracts/exact-json';

export const SCORE_COLUMN = '_text_match';
export const HIGHLIGHT_COLUMN = '_highlight';
/** Typesense's default highlight tags: the preview sends none of its own, so the copied search is the one a user writes. */
const START = '<mark>';
const END = '</mark>';
const TAGS = /<mark>|<\/mark>/g;
/** The longest marked value told apart from tag text its document holds. */
const MAX_ALIGNED = 2000;

const PREVIEW_COLUMNS: Column[] = [
  {
    name: SCORE_COLUMN,
    type: 'int64',
    readOnly: true,
    json: false,
    origin: 'meta'
  },
  {
    name: HIGHLIGHT_COLUMN,
    type: 'string',
    readOnly: true,
    json: false,
    origin: 'meta'
  }
];

/** The fields a search reads when the view names none: every indexed string field, nested ones by their dotted names. */
export function defaultQueryBy(tree: FieldTree | undefined): string[] {
  const names: string[] = [];
  const walk = (fields: FieldTree, prefix: string) => {
    for (const [name, node] of fields) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (node.kind === 'leaf') {
        if (node.searchable) {
          names.push(path);
        }
      } else {
        walk(node.children, path);
      }
    }
  };
  walk(tree ?? new Map(), '');
  return names;
}

export function previewOffer(tree: FieldTree | undefined): SearchPreview {
  return {
    queryBy: defaultQueryBy(tree),
    scoreColumn: SCORE_COLUMN,
    highlightColumn: HIGHLIGHT_COLUMN,
    hint: 'Search (q): rows ranked by text_match over the query_by fields; filters still apply'
  };
}

/** `q` and `query_by` of the view's search. */
export function queryOfSearch(
  search: GridSearch,
  tree: FieldTree | undefined
): { q: string; query_by: string } {
  const named = search.queryBy
    .split(',')
    .map(f => f.trim())
    .filter(f => f !== '');
  const fields = named.length > 0 ? named : defaultQueryBy(tree);
  if (fields.length === 0) {
    throw new Error(
      'Nothing to search: this collection declares no indexed string field (or its schema could not be read). Name the fields to search in query_by, comma-separated, such as title,author.'
    );
  }
  return { q: search.q, query_by: fields.join(',') };
}

/** What the notes above the rows say of a search. */
export function searchNote(
  query: { q: string; query_by: string },
  sortedBy: string[]
): string {
  const order =
    sortedBy.length > 0
      ? `by ${sortedBy.join(', ')}, then by text_match`
      : 'by text_match';
  return `Search preview: q=${query.q} over query_by=${query.query_by}; the rows are the documents that match (Typesense's found), ranked ${order}.`;
}

const Highlight = z
  .object({
    field: z.string(),
    snippet: z.string().optional(),
    snippets: z.array(z.string()).optional(),
    indices: z.array(z.number().int()).optional()
  })
  .loose();
const PreviewHit = z
  .object({
    document: z.unknown(),
    // A score past 2^53 (most are) is read with every digit, as an ExactNumber.
    text_match: z.union([z.number(), z.instanceof(ExactNumber)]).optional(),
    text_match_info: z.object({ score: z.string() }).loose().optional(),
    highlights: z.array(Highlight).optional(),
    /** Placed by a curation rule (override) rather than ranked by its match. */
    curated: z.boolean().optional()
  })
  .loose();

/** Leads the highlight column of a hit a curation rule placed: its rank is the rule's, not its score's. */
const CURATED: MarkedText = [
  { text: 'curated (placed by a curation rule)', marked: false }
];

/** A marked snippet taken apart at its tags; adjacent parts of one kind joined, empty ones dropped. */
export function markedParts(marked: string): MarkedText {
  const parts: MarkedText = [];
  let on = false;
  let at = 0;
  const push = (text: string) => {
    const last = parts[parts.length - 1];
    if (text === '') {
      return;
    }
    if (last && last.marked === on) {
      last.text += text;
    } else {
      parts.push({ text, marked: on });
    }
  };
  for (const tag of marked.matchAll(TAGS)) {
    push(marked.slice(at, tag.index));
    on = tag[0] === START;
    at = tag.index + tag[0].length;
  }
  push(marked.slice(at));
  return parts;
}

const plain = (parts: MarkedText) => parts.map(p => p.text).join('');

/**
 * The marked text of `original`, its tags told apart from text the document itself holds
 * (`<mark>` typed in a document): the parts, once joined, must be `original` or a piece of it.
 * A document holding the tag text is aligned character by character against the whole value;
 * a snippet of such a value that cannot be aligned is left unmarked (undefined).
 */
export function partsOf(
  marked: string,
  original: string
): MarkedText | undefined {
  const parts = markedParts(marked);
  // Where the document holds no tag text, every tag is the engine's.
  if (
    !original.includes(START) &&
    !original.includes(END) &&
    original.includes(plain(parts))
  ) {
    return parts;
  }
  // Tried character by character, one call deep each: longer values stay unmarked.
  return marked.length <= MAX_ALIGNED ? aligned(marked, original) : undefined;
}

/**
 * The tags of `marked` told apart from the same text in `original` by trying both readings
 * where they overlap (`<b><mark>bold</mark></b>`); each place is tried once per reading, so the
 * search is bounded by the two lengths (and the stack by MAX_ALIGNED).
 */
function aligned(marked: string, original: string): MarkedText | undefined {
  const failed = new Set<string>();
  const walk = (i: number, j: number, on: boolean): MarkedText | undefined => {
    if (i === marked.length) {
      return j === original.length ? [] : undefined;
    }
    const key = `${i}:${j}:${on ? 1 : 0}`;
    if (failed.has(key)) {
      return undefined;
    }
    for (const tag of [START, END]) {
      if (marked.startsWith(tag, i)) {
        const rest = walk(i + tag.length, j, tag === START);
        if (rest) {
          return rest;
        }
      }
    }
    if (j < original.length && marked[i] === original[j]) {
      const rest = walk(i + 1, j + 1, on);
      if (rest) {
        const first = rest[0];
        // Built from the end, so parts grow at their front.
        if (first && first.marked === on) {
          first.text = (marked[i] as string) + first.text;
        } else {
          rest.unshift({ text: marked[i] as string, marked: on });
        }
        return rest;
      }
    }
    failed.add(key);
    return undefined;
  };
  return walk(0, 0, false);
}

interface HitCells {
  /** The cells of the document's own columns whose whole value the engine marked. */
  cells: RowHighlights;
  /** The highlight column: each matched field's snippets, after its name. */
  summary: MarkedText;
}

function hitCells(hit: z.infer<typeof PreviewHit>): HitCells {
  const cells: RowHighlights = [];
  const summary: MarkedText = [];
  const document = asObject((hit.document ?? null) as JsonValue);
  for (const highlight of hit.highlights ?? []) {
    // A flat field may hold dots in its name; a nested one is found by its path.
    const value = document
      ? ((ownValue(document, highlight.field) as JsonValue | undefined) ??
        valueAt(document, highlight.field.split('.')))
      : undefined;
    const snippets: MarkedText[] = [];
    if (typeof value === 'string' && highlight.snippet !== undefined) {
      const parts = partsOf(highlight.snippet, value);
      if (parts) {
        snippets.push(parts);
        if (plain(parts) === value) {
          cells.push({ column: highlight.field, parts });
        }
      }
    } else if (Array.isArray(value) && highlight.snippets) {
      highlight.snippets.forEach((snippet, k) => {
        const element = value[highlight.indices?.[k] ?? -1];
        const parts =
          typeof element === 'string' ? partsOf(snippet, element) : undefined;
        if (parts) {
          snippets.push(parts);
        }
      });
    }
    if (snippets.length === 0 || !snippets.some(s => s.some(p => p.marked))) {
      continue;
    }
    if (summary.length > 0) {
      summary.push({ text: ' · ', marked: false });
    }
    summary.push({ text: `${highlight.field}: `, marked: false });
    snippets.forEach((parts, k) => {
      if (k > 0) {
        summary.push({ text: ' | ', marked: false });
      }
      summary.push(...parts);
    });
  }
  return { cells, summary };
}

/** The score as the engine wrote it: `text_match_info.score` holds every digit, `text_match` past 2^53 does not. */
function scoreOf(hit: z.infer<typeof PreviewHit>): JsonValue {
  return hit.text_match_info?.score ?? hit.text_match ?? null;
}

/** The grid of a page of search hits: `id`, the score and highlight columns, then the documents' fields; each row's highlighted cells. */
export function previewGrid(
  hits: unknown[],
  tree: FieldTree | undefined
): {
  columns: Column[];
  rows: Record<string, JsonValue>[];
  highlights: RowHighlights[];
} {
  const highlights: RowHighlights[] = [];
  const documents = hits.map((raw): GridDocument => {
    const hit = PreviewHit.parse(raw);
    const source = (hit.document ?? null) as JsonValue;
    const { cells, summary: matched } = hitCells(hit);
    const summary: MarkedText = hit.curated
      ? [
          ...CURATED,
          ...(matched.length > 0
            ? [{ text: ' · ', marked: false }, ...matched]
            : [])
        ]
      : matched;
    highlights.push(
      summary.length > 0
        ? [...cells, { column: HIGHLIGHT_COLUMN, parts: summary }]
        : cells
    );
    const id = asObject(source)?.id;
    return {
      meta: {
        ...(id === undefined ? {} : { id }),
        [SCORE_COLUMN]: scoreOf(hit),
        [HIGHLIGHT_COLUMN]: plain(summary)
      },
      source
    };
  });
  const grid = documentGrid({
    tree,
    leading: [...LEADING, ...PREVIEW_COLUMNS],
    documents
  });
  return { columns: grid.columns, rows: grid.rows, highlights };
}
