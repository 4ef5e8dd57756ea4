/**
 * The per-field indexes of one Elasticsearch index, kept up to date at refresh time (like
 * Lucene, which makes writes searchable on refresh): a token index per top-level text
 * field, a doc-values column per top-level numeric, date and boolean field. And, per
 * refreshed snapshot, the view that searches of that snapshot read them through.
 *
 * Field indexes only grow: a refresh appends the documents written since the previous one.
 * Replaced and deleted documents leave dead entries that each snapshot skips; once the dead
 * outnumber the live, the next refresh starts over from the live documents.
 */
import type { StoredDoc } from '../stored-doc';
import { isNumericType, type Mapping, type ResolvedField } from '../mapping';
import { NumericColumn } from './numeric-column';
import { TextFieldIndex } from './text-field-index';
import type { DocView } from './values';
import type { FieldTerms } from './bm25';

interface FieldEntry {
  index: TextFieldIndex | NumericColumn;
  /** Refresh generation whose snapshot it was built from: older snapshots hold documents it lacks. */
  since: number;
}

function isIndexedText(f: ResolvedField): boolean {
  return (
    f.nestedPath === undefined &&
    (f.type === 'text' ||
      f.type === 'match_only_text' ||
      f.type === 'search_as_you_type')
  );
}

function isColumnar(f: ResolvedField): boolean {
  return (
    f.nestedPath === undefined &&
    (isNumericType(f.type) ||
      f.type === 'date' ||
      f.type === 'date_nanos' ||
      f.type === 'boolean')
  );
}

export class FieldIndexes {
  private fields = new Map<string, FieldEntry>();
  private generation = 0;
  /** Highest sequence number already in the field indexes. */
  private indexedThrough = -1;
  /** Documents added since the last start-over, dead ones included. */
  private indexedDocs = 0;
  private readonly views = new WeakMap<StoredDoc[], IndexedView>();

  /** Called with each new searchable view, which is sorted by sequence number. */
  refreshed(view: StoredDoc[], mapping: Mapping): void {
    this.generation++;
    if (this.indexedDocs > 2 * view.length + 10_000) {
      // Older snapshots keep the old map; they stop growing, which they never needed.
      this.fields = new Map();
      this.indexedThrough = -1;
      this.indexedDocs = 0;
    }
    let firstNew = view.length;
    while (
      firstNew > 0 &&
      (view[firstNew - 1] as StoredDoc).seqNo > this.indexedThrough
    ) {
      firstNew--;
    }
    for (const [name, entry] of this.fields) {
      if (mapping.resolve(name) === null) {
        this.fields.delete(name);
      } else {
        for (let i = firstNew; i < view.length; i++) {
          entry.index.add(
            (view[i] as StoredDoc).seqNo,
            (view[i] as StoredDoc).source
          );
        }
      }
    }
    for (const field of mapping.leafFields()) {
      if (
        (!isIndexedText(field) && !isColumnar(field)) ||
        this.fields.has(field.name)
      ) {
        continue;
      }
      const index = isIndexedText(field)
        ? new TextFieldIndex(field)
        : new NumericColumn(field);
      for (const doc of view) {
        index.add(doc.seqNo, doc.source);
      }
      this.fields.set(field.name, { index, since: this.generation });
    }
    this.indexedDocs += view.length - firstNew;
    if (view.length > 0) {
      this.indexedThrough = Math.max(
        this.indexedThrough,
        (view[view.length - 1] as StoredDoc).seqNo
      );
    }
    this.views.set(view, new IndexedView(view, this.generation, this.fields));
  }

  /** The indexed view of a snapshot this index produced, if it is one. */
  viewOf(docs: StoredDoc[]): IndexedView | undefined {
    return this.views.get(docs);
  }
}

/** One refreshed snapshot as the scorers see it: its documents and the field indexes that cover them. */
export class IndexedView {
  private positions: Int32Array | null = null;
  private seqsByPosition: Int32Array | null = null;
  private readonly stats = new Map<string, SnapshotStats>();

  constructor(
    readonly docs: StoredDoc[],
    private readonly generation: number,
    private readonly fields: Map<string, FieldEntry>
  ) {}

  /** The token index of a text field if it holds every document of this snapshot. */
  field(f: ResolvedField): TextFieldIndex | undefined {
    const index = isIndexedText(f) ? this.covering(f) : undefined;
    return index instanceof TextFieldIndex ? index : undefined;
  }

  /** The doc-values column of a numeric, date or boolean field if it holds every document of this snapshot. */
  column(f: ResolvedField): NumericColumn | undefined {
    const index = isColumnar(f) ? this.covering(f) : undefined;
    return index instanceof NumericColumn ? index : undefined;
  }

  /**
   * BM25 statistics of a text field over this snapshot's documents only (the token index also
   * holds replaced and deleted ones), so that they equal the ones counted from _source.
   */
  textStats(f: ResolvedField): FieldTerms | undefined {
    const fx = this.field(f);
    if (!fx) {
      return undefined;
    }
    let stats = this.stats.get(f.name);
    if (!stats) {
      this.stats.set(f.name, (stats = new SnapshotStats(fx, this)));
    }
    return stats;
  }

  private covering(
    f: ResolvedField
  ): TextFieldIndex | NumericColumn | undefined {
    const entry = this.fields.get(f.name);
    return entry && entry.since <= this.generation ? entry.index : undefined;
  }

  /** Position in `docs` of the document with this sequence number, or -1 when the snapshot lacks it. */
  positionOf(seq: number): number {
    const positions = this.positions ?? this.buildPositions();
    if (positions.length > 0 || this.docs.length === 0) {
      return seq < positions.length ? (positions[seq] as number) : -1;
    }
    // Sparse sequence numbers (many updates): bisect the snapshot, which is in sequence order.
    let lo = 0;
    let hi = this.docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = (this.docs[mid] as StoredDoc).seqNo;
      if (s === seq) {
        return mid;
      }
      if (s < seq) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return -1;
  }

  /** Sequence number of each document by position: read in order, it spares chasing a million document objects. */
  seqs(): Int32Array {
    if (!this.seqsByPosition) {
      this.seqsByPosition = Int32Array.from(this.docs, d => d.seqNo);
    }
    return this.seqsByPosition;
  }

  viewAt(pos: number): DocView {
    const doc = this.docs[pos] as StoredDoc;
    return { source: doc.source, id: doc.id, seq: doc.seqNo };
  }

  /** A table by sequence number, unless it would be far larger than the snapshot (then empty: bisect). */
  private buildPositions(): Int32Array {
    const last = this.docs[this.docs.length - 1];
    const size = last ? last.seqNo + 1 : 0;
    if (size > 4 * this.docs.length + 1024) {
      return (this.positions = new Int32Array(0));
    }
    const positions = new Int32Array(size).fill(-1);
    this.docs.forEach((d, i) => (positions[d.seqNo] = i));
    this.positions = positions;
    return positions;
  }
}

class SnapshotStats implements FieldTerms {
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  private readonly freq = new Map<string, number>();

  constructor(
    private readonly fx: TextFieldIndex,
    private readonly view: IndexedView
  ) {
    let docCount = 0;
    let sum = 0;
    const seqs = view.seqs();
    for (let i = 0; i < seqs.length; i++) {
      const length = fx.length(seqs[i] as number);
      if (length > 0) {
        docCount++;
      }
      sum += length;
    }
    this.docCount = docCount;
    this.sumTotalTermFreq = sum;
  }

  docFreq(term: string): number {
    let n = this.freq.get(term);
    if (n === undefined) {
      let count = 0;
      this.fx.forEach(term, seq => {
        if (this.view.positionOf(seq) >= 0) {
          count++;
        }
      });
      this.freq.set(term, (n = count));
    }
    return n;
  }

  /** Terms of the dictionary with at least one document in this snapshot. */
  allTerms(): Iterable<string> {
    return [...this.fx.allTerms()].filter(t => this.docFreq(t) > 0);
  }
}
