import {
  REAL_TYPESENSE_DIFFERENCES,
  type RealTypesenseDifference
} from '../../support/real-typesense-differences';
import type { Difference } from '../compare';

/**
 * The Typesense differential's allowlist: the ONLY place where a stand-in answer may differ from
 * the real server's, each difference classified by the entries and answer paths it covers.
 * `difference`: the real 0.24 answers unlike 26+, which the stand-in plays (named in
 * test/support/real-typesense-differences.ts with its reason). `standIn`: a shortcoming of the
 * stand-in that is accepted rather than fixed, with why. Every other difference is a stand-in
 * defect to fix. Allowed differences still count as not identical in the printed share.
 */
export type TypesenseAllowance = {
  /** Corpus entries it covers; '*' for every entry. */
  entries: string[] | '*';
  /** Answer paths it covers (after `[n]` became `[]`); all when absent. */
  paths?: RegExp[];
  /** Only where the real answer has nothing at that path. */
  absentFromReal?: true;
} & ({ difference: RealTypesenseDifference } | { standIn: string });

const TEXT_SCORE =
  /^\$\.(results\[\]\.)?(grouped_hits\[\]\.)?hits\[\]\.text_match(_info\.(best_field_score|best_field_weight|score))?$/;

export const TYPESENSE_ALLOWLIST: TypesenseAllowance[] = [
  {
    entries: '*',
    paths: [
      /^\$(\.results\[\])?(\.grouped_hits\[\])?\.hits\[\]\.text_match(_info)?$/
    ],
    absentFromReal: true,
    difference: 'wildcard-hits-unscored'
  },
  {
    entries: '*',
    paths: [TEXT_SCORE],
    standIn:
      "text_match scores: the stand-in packs a field score that counts matched tokens (2 exact, 1 prefix) with the field's place in query_by as weight; the engine scores token proximity, typos and query_by_weights in other bits. Ranking by match quality agrees (the corpus's orders match) but the numbers do not."
  },
  {
    entries: ['01-search: words of different rarity'],
    paths: [/^\$\.hits\[\]\.document\.sku$/],
    standIn:
      'Documents whose text_match ties in the stand-in (it does not weigh token proximity) and not in the engine come back in another order: a consequence of the scores above.'
  },
  {
    entries: ['01-search: facet stats of a number'],
    paths: [/^\$\.facet_counts\[\]\.counts\[\]\.(value|highlighted)$/],
    standIn:
      'Facet values of equal count: the engine lists ties in the order of its hash table of values, which the stand-in does not reproduce for numbers (it keeps the order values were first met).'
  },
  {
    entries: [
      '03-collections: the nested schema learned',
      '03-collections: drop the nested collection'
    ],
    paths: [/^\$\.fields\[\]\.(name|type|sort)$/],
    standIn:
      "The order in which an object's leaves join the schema: the stand-in adds them in name order (meta.pages, meta.publisher); 0.24.1 added meta.publisher first, in an order of its own flattening that the stand-in does not reproduce and that 26+ has not been checked for."
  },
  {
    entries: [
      '02-documents: import, a line that is not JSON',
      '05-errors: a document body that is not JSON'
    ],
    paths: [/^\$(\[\])?\.(error|message)$/],
    standIn:
      "The JSON parser's complaint after \"Bad JSON: \" is nlohmann::json's in the engine and V8's in the stand-in; both say where the JSON broke."
  },
  {
    entries: '*',
    paths: [
      /^\$(\.results\[\])?\.request_params\.first_q$/,
      /^\$(\.results\[\])?\.facet_counts\[\]\.sampled$/,
      /\.text_match_info\.(num_tokens_dropped|typo_prefix_score)$/,
      /^\$\.grouped_hits\[\]\.found$/,
      /^\$\.found_docs$/,
      /^\$\.fields\[\]\.stem$/,
      /^\$\.autodelete$/
    ],
    difference: 'fewer-answer-fields'
  },
  {
    entries: ['01-search: offset and limit'],
    difference: 'pages-only'
  },
  {
    entries: ['02-documents: patch a document'],
    difference: 'document-patch-created'
  },
  {
    entries: [
      '02-documents: emplace of part of a new document',
      '02-documents: the scratch documents',
      '02-documents: export',
      '02-documents: export excluding a field',
      '02-documents: what is left'
    ],
    difference: 'emplace-creates-partial'
  },
  {
    entries: ['03-collections: the synonyms'],
    difference: 'synonyms-by-id'
  },
  {
    entries: [
      '03-collections: a stopwords set',
      '03-collections: the stopwords sets'
    ],
    difference: 'no-stopwords'
  },
  {
    entries: [
      '03-collections: add a field',
      '03-collections: alter with something other than fields'
    ],
    difference: 'alter-answer'
  },
  {
    entries: [
      '02-documents: an unknown action',
      '02-documents: import with an unknown action',
      '03-collections: a collection without fields'
    ],
    paths: [/^\$\.message$/],
    difference: 'older-texts'
  },
  {
    entries: [
      '01-search: one common word',
      '01-search: words of different rarity'
    ],
    paths: [/^\$\.hits\[\]\.(highlight\.description|highlights\.length)$/],
    difference: 'highlights-of-included-fields'
  }
];

/** The allowance that classifies this difference of this entry, or undefined (a defect). */
export function classify(
  entry: string,
  d: Difference
): TypesenseAllowance | undefined {
  const path = d.path.replace(/\[\d+\]/g, '[]');
  return TYPESENSE_ALLOWLIST.find(
    a =>
      (a.entries === '*' || a.entries.includes(entry)) &&
      (!a.paths || a.paths.some(p => p.test(path))) &&
      (!a.absentFromReal || d.real === '(absent)')
  );
}

/** How an allowance classifies: a version difference or an accepted stand-in shortcoming. */
export function kindOf(a: TypesenseAllowance): string {
  return 'difference' in a
    ? `0.24 unlike 26+: ${a.difference}`
    : 'stand-in shortcoming';
}

export function reasonOf(a: TypesenseAllowance): string {
  return 'difference' in a
    ? REAL_TYPESENSE_DIFFERENCES[a.difference].reason
    : a.standIn;
}
