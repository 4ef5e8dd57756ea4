/**
 * The list of indices or collections for completion, kept a short while: completion asks on every Tab,
 * and a list a few seconds old is good enough there. A change to the names (an index created,
 * a collection dropped) clears it at once.
 */
const NAMES_TTL_MS = 30_000;

export class NameCache<T> {
  private names: T | undefined;
  private fetchedAt = 0;
  /** Bumped by clear(), so a load that started before a change does not store old names. */
  private generation = 0;

  constructor(private readonly load: (signal: AbortSignal) => Promise<T>) {}

  async get(signal: AbortSignal): Promise<T> {
    if (this.names && Date.now() - this.fetchedAt < NAMES_TTL_MS) {
      return this.names;
    }
    const generation = this.generation;
    const names = await this.load(signal);
    if (generation === this.generation) {
      this.names = names;
      this.fetchedAt = Date.now();
    }
    return names;
  }

  clear(): void {
    this.names = undefined;
    this.generation++;
  }
}
