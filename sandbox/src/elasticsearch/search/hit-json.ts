/**
 * A search page's hits as the answer prints them. A plain hit (no `fields`, highlight or
 * collapse) is written straight to text around its stored source's own text: building ten
 * thousand hit objects and stringifying the page around them was most of the time the
 * stand-in took to answer an export's page. The objects are built only when a pretty or
 * filter_path answer reads the hits as values; both forms print the same JSON.
 */
import { shownSequence } from '../index-modes';
import type { Json, JsonObject } from '../json-value';
import type { Shard } from '../index-data';
import type { JsonSink } from '../json-sink';
import { KnownJson, stringifyJson } from '../long-json';
import type { StoredDoc } from '../stored-doc';
import { makeSourceFilter } from '../source-filter';
import type { DocView } from './values';
import {
  collapseValue,
  docvalueFields,
  fieldsOption,
  highlightHit
} from './hit-extras';
import type { DocIds } from './lucene-doc-ids';
import type { SearchRequest } from './request';
import type { BoundSort, SortValue } from './sort';

export interface HitShard extends Shard {
  sort: BoundSort[];
  /** Global ordinal of the shard's first document. */
  base: number;
}

export interface PageHit {
  shard: HitShard;
  pos: number;
  score: number;
  sort?: SortValue[];
}

export interface HitPrinting {
  req: SearchRequest;
  major: number;
  /** Whether hits show their score (else `_score` is null). */
  scoresShown: boolean;
  /** Positions in the sort of `_doc` / `_shard_doc`, shown as Lucene document ids. */
  docKeys: number[];
  idsOf: (shard: HitShard) => DocIds;
}

/** Scores are Java floats in ES; print them with float precision, not as doubles. */
export function asFloat(n: number | null): number | null {
  return n === null ? null : Number(Math.fround(n).toPrecision(8));
}

export function printedHits(hits: PageHit[], p: HitPrinting): KnownJson {
  const project = p.req.source.enabled ? makeSourceFilter(p.req.source) : null;
  const plain =
    !p.req.fields &&
    !p.req.docvalueFields &&
    !p.req.collapse &&
    !p.req.highlight;
  const write = (sink: JsonSink): void => {
    sink.add('[');
    for (let i = 0; i < hits.length; i++) {
      const h = hits[i] as PageHit;
      if (i > 0) {
        sink.add(',');
      }
      if (plain) {
        writeHit(h, p, project, sink);
      } else {
        sink.add(stringifyJson(hitObject(h, p, project)));
      }
    }
    sink.add(']');
  };
  return KnownJson.written(write, () =>
    hits.map(h => hitObject(h, p, project))
  );
}

type Projection = ReturnType<typeof makeSourceFilter>;

/** A hit without `fields` or highlight: the keys hitObject sets, in its order. */
function writeHit(
  h: PageHit,
  p: HitPrinting,
  project: Projection,
  sink: JsonSink
): void {
  const doc = h.shard.docs[h.pos] as StoredDoc;
  const { req } = p;
  sink.add(`{"_index":${JSON.stringify(h.shard.index.name)}`);
  if (p.major === 7) {
    sink.add(',"_type":"_doc"');
  }
  if (!req.noStoredFields) {
    sink.add(`,"_id":${JSON.stringify(doc.id)}`);
  }
  if (req.version) {
    sink.add(`,"_version":${JSON.stringify(doc.version)}`);
  }
  if (req.seqNoPrimaryTerm) {
    const { _seq_no, _primary_term } = shownSequence(h.shard.index, doc.seqNo);
    sink.add(
      `,"_seq_no":${JSON.stringify(_seq_no)},"_primary_term":${JSON.stringify(_primary_term)}`
    );
  }
  sink.add(
    `,"_score":${p.scoresShown ? JSON.stringify(asFloat(h.score)) : 'null'}`
  );
  if (req.source.enabled) {
    sink.add(',"_source":');
    sink.add(project ? stringifyJson(project(doc.source)) : doc.printed.json);
  }
  if (h.sort) {
    sink.add(`,"sort":${sortText(h, p)}`);
  }
  sink.add('}');
}

/** Finite numbers print alike in JSON and in a template; anything else goes through stringifyJson. */
function sortText(h: PageHit, p: HitPrinting): string {
  let text = '[';
  for (let k = 0; k < (h.sort as SortValue[]).length; k++) {
    const v = shownSortValue(h, p, k);
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      return stringifyJson(shownSort(h, p));
    }
    text += k === 0 ? `${v}` : `,${v}`;
  }
  return `${text}]`;
}

function hitObject(
  h: PageHit,
  p: HitPrinting,
  project: Projection
): JsonObject {
  const { req } = p;
  const doc = h.shard.docs[h.pos] as StoredDoc;
  const out: JsonObject = { _index: h.shard.index.name };
  if (p.major === 7) {
    out['_type'] = '_doc';
  }
  if (!req.noStoredFields) {
    out['_id'] = doc.id;
  }
  if (req.version) {
    out['_version'] = doc.version;
  }
  if (req.seqNoPrimaryTerm) {
    Object.assign(out, shownSequence(h.shard.index, doc.seqNo));
  }
  out['_score'] = p.scoresShown ? asFloat(h.score) : null;
  // Unfiltered sources go out as the text written the first time they were shown.
  if (req.source.enabled) {
    out['_source'] = project
      ? project(doc.source)
      : (doc.printed as unknown as Json);
  }
  const view: DocView = { source: doc.source, id: doc.id, seq: doc.seqNo };
  const fields: JsonObject = {
    ...(req.fields ? fieldsOption(req.fields, h.shard.index, view) : {}),
    ...(req.docvalueFields
      ? docvalueFields(req.docvalueFields, h.shard.index, view)
      : {}),
    ...(req.collapse ? collapseValue(req.collapse, h.shard.index, view) : {})
  };
  if (Object.keys(fields).length > 0) {
    out['fields'] = fields;
  }
  const highlight = req.highlight
    ? highlightHit(req.highlight, req.query, h.shard.index, view)
    : undefined;
  if (highlight) {
    out['highlight'] = highlight;
  }
  if (h.sort) {
    out['sort'] = shownSort(h, p);
  }
  return out;
}

/** A hit's sort values as printed: a missing value as ES shows it, `_doc` as a Lucene id. */
function shownSort(h: PageHit, p: HitPrinting): Json[] {
  return (h.sort as SortValue[]).map((_, k) => shownSortValue(h, p, k));
}

function shownSortValue(h: PageHit, p: HitPrinting, k: number): Json {
  const v = (h.sort as SortValue[])[k] as SortValue;
  if (v === null) {
    return h.shard.sort[k]?.missingShown ?? null;
  }
  return p.docKeys.includes(k) && typeof v === 'number'
    ? h.shard.base + p.idsOf(h.shard).idOf(v - h.shard.base)
    : v;
}
