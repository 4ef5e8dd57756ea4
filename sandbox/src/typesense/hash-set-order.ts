/**
 * The order the engine reads a set of strings back in: its sets are sparsepp hash sets keyed by
 * libstdc++'s `std::hash<std::string>` (64-bit `_Hash_bytes`, seed 0xc70f6907), walked bucket by
 * bucket. The table starts at 128 buckets, probes quadratically and doubles past half full;
 * clients compare read-back stopwords with that order.
 */
const MASK = (1n << 64n) - 1n;
const MUL = (0xc6a4a793n << 32n) + 0x5bd1e995n;
const SEED = 0xc70f6907n;
const STARTING_BUCKETS = 128;

const shiftMix = (v: bigint): bigint => v ^ (v >> 47n);

function hashBytes(text: string): bigint {
  const bytes = Buffer.from(text, 'utf8');
  const aligned = bytes.length & ~7;
  let hash = (SEED ^ ((BigInt(bytes.length) * MUL) & MASK)) & MASK;
  for (let p = 0; p < aligned; p += 8) {
    const data =
      (shiftMix((bytes.readBigUInt64LE(p) * MUL) & MASK) * MUL) & MASK;
    hash = ((hash ^ data) * MUL) & MASK;
  }
  const rest = bytes.length & 7;
  if (rest !== 0) {
    let data = 0n;
    for (let n = rest - 1; n >= 0; n--) {
      data = ((data << 8n) + BigInt(bytes[aligned + n] ?? 0)) & MASK;
    }
    hash = ((hash ^ data) * MUL) & MASK;
  }
  hash = (shiftMix(hash) * MUL) & MASK;
  return shiftMix(hash);
}

function place(table: (string | null)[], word: string, hash: bigint): void {
  const mask = table.length - 1;
  let bucket = Number(hash & BigInt(mask));
  for (let probes = 1; table[bucket] !== null; probes++) {
    bucket = (bucket + probes) & mask;
  }
  table[bucket] = word;
}

/** `words` (distinct) in the order the engine's hash set iterates them. */
export function hashSetOrder(words: readonly string[]): string[] {
  let table: (string | null)[] = new Array<string | null>(
    STARTING_BUCKETS
  ).fill(null);
  let size = 0;
  const hashes = new Map<string, bigint>();
  for (const word of words) {
    if (hashes.has(word)) {
      continue;
    }
    const hash = hashBytes(word);
    hashes.set(word, hash);
    if (size + 1 > table.length / 2) {
      const grown = new Array<string | null>(table.length * 2).fill(null);
      for (const w of table) {
        if (w !== null) {
          place(grown, w, hashes.get(w) ?? 0n);
        }
      }
      table = grown;
    }
    place(table, word, hash);
    size++;
  }
  return table.filter((w): w is string => w !== null);
}
