/**
 * BM25 as Elasticsearch 7.x and 8.x score it (Lucene's BM25 with the `(k1 + 1)` factor that
 * Elasticsearch keeps, k1 = 1.2, b = 0.75), from the statistics of a one-shard index:
 *
 *   idf    = ln(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5))       (summed over a phrase's terms)
 *   weight = boost * (k1 + 1) * idf
 *   score  = weight - weight / (1 + freq / (k1 * (1 - b + b * dl / avgdl)))
 *
 * where docCount is the number of documents holding the field, avgdl its total term count
 * over docCount, and dl the document's field length as Lucene stores it: a one-byte norm
 * (SmallFloat.intToByte4) that is exact below 40 and lossy above. Fields without norms
 * (keyword, boolean) have dl = 1. Arithmetic is float32 at each step, as in Lucene.
 */
const f = Math.fround;
const K1 = f(1.2);
const B = f(0.75);

/** What a field's postings tell about it on one shard. */
export interface FieldStats {
  /** Documents with at least one term in the field. */
  docCount: number;
  /** Total term occurrences (distinct terms per document for fields without frequencies). */
  sumTotalTermFreq: number;
  docFreq(term: string): number;
}

/** A field's statistics and every term it holds (what a fuzzy or prefix query expands over). */
export interface FieldTerms extends FieldStats {
  allTerms(): Iterable<string>;
}

/** Lucene's longToInt4: 4 significant bits, the exponent above them. */
function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) {
    return i;
  }
  const shift = numBits - 4;
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const NUM_FREE_VALUES = 255 - longToInt4(0x7fffffff);

/** The field length a document's norm byte gives back (SmallFloat.intToByte4, then byte4ToInt). */
export function storedLength(length: number): number {
  if (length < NUM_FREE_VALUES) {
    return length;
  }
  return NUM_FREE_VALUES + int4ToLong(longToInt4(length - NUM_FREE_VALUES));
}

export function idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

/** The scorer of one term (or phrase) in one field: the per-length factors are computed once, as Lucene caches them. */
export class Bm25 {
  private readonly weight: number;
  private readonly avgdl: number;
  /** 1 / (k1 * (1 - b + b * dl / avgdl)) by field length, for the lengths below 256 (nearly all); NaN until computed. */
  private readonly byLength = new Float64Array(256).fill(NaN);

  /** `idfSum` is the term's idf, or the sum of a phrase's idfs. */
  constructor(idfSum: number, stats: FieldStats, boost: number) {
    this.weight = f(f(f(boost) * f(K1 + 1)) * idfSum);
    this.avgdl =
      stats.docCount > 0 ? f(stats.sumTotalTermFreq / stats.docCount) : 1;
  }

  static forTerms(
    stats: FieldStats,
    terms: readonly string[],
    boost: number
  ): Bm25 {
    let sum = 0;
    for (const t of terms) {
      sum += idf(stats.docFreq(t), stats.docCount);
    }
    return new Bm25(f(sum), stats, boost);
  }

  /** Score of a document holding the term `freq` times in a field of `length` terms (1 for fields without norms). */
  score(freq: number, length: number): number {
    let normInverse = length < 256 ? (this.byLength[length] as number) : NaN;
    if (normInverse !== normInverse) {
      normInverse = f(
        1 / f(K1 * f(f(1 - B) + f(f(B * storedLength(length)) / this.avgdl)))
      );
      if (length < 256) {
        this.byLength[length] = normInverse;
      }
    }
    return f(this.weight - f(this.weight / f(1 + f(freq * normInverse))));
  }
}
