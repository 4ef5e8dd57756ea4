import { SeqPostings } from '../../src/typesense/seq-postings';

describe('Typesense sandbox: sequence postings', () => {
  test('stay sorted and exact through appends, out-of-order adds and many parked removals', () => {
    const postings = new SeqPostings(5, 2);
    const expected = new Set<number>([2, 5]);
    let s = 11;
    const next = (): number => (s = (s * 1103515245 + 12345) % 2147483648);
    for (let step = 0; step < 20_000; step++) {
      const seq = next() % 5000;
      if (expected.has(seq)) {
        postings.remove(seq);
        expected.delete(seq);
      } else {
        postings.add(seq);
        expected.add(seq);
      }
      if (step % 997 === 0) {
        expect([...postings.sorted()]).toEqual(
          [...expected].sort((a, b) => a - b)
        );
      }
      expect(postings.size).toBe(expected.size);
    }
    for (let seq = 6000; seq < 9000; seq++) {
      postings.add(seq);
    }
    for (let seq = 6000; seq < 9000; seq += 2) {
      postings.remove(seq);
    }
    for (let seq = 6001; seq < 9000; seq += 2) {
      expected.add(seq);
    }
    expect([...postings.sorted()]).toEqual([...expected].sort((a, b) => a - b));
  });
});
