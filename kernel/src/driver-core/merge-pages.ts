/**
 * Pages of several cursors (sliced exports) as one sequence, in the order they arrive. Each
 * cursor has at most one page in flight, so memory holds one page per cursor whatever the size.
 */
export async function* mergePages<T>(
  cursors: AsyncIterator<T>[]
): AsyncGenerator<T> {
  const pending = new Map<
    number,
    Promise<{ index: number; result: IteratorResult<T> }>
  >();
  const pull = (index: number) => {
    const cursor = cursors[index] as AsyncIterator<T>;
    pending.set(
      index,
      cursor.next().then(result => ({ index, result }))
    );
  };
  cursors.forEach((_, i) => pull(i));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      yield result.value;
      pull(index);
    }
  } finally {
    // Stopped early (an error, an interrupt): the other cursors' pages in flight are dropped.
    for (const promise of pending.values()) {
      promise.catch(() => undefined);
    }
    await Promise.all(cursors.map(c => c.return?.().catch(() => undefined)));
  }
}
