import { PendingChanges, type PendingState, PendingStateSchema } from './pending-changes';

/**
 * Pending changes kept in the browser's localStorage per connection and index or collection,
 * outside the kernel: a kernel restart or a page reload keeps what the user typed, and the
 * grid shows it again when it reopens. Only Discard, or a save that stored it, removes it.
 *
 * Every page of the same origin (browser tabs and windows on the same JupyterLab) shares one
 * pending set per connection and target: a page writes only the changes it made since it last
 * read the set, each over what is stored now, so one page's save or discard never removes a
 * change another page made meanwhile; and each page takes the others' writes as they come (the
 * `storage` event).
 */
function storageKey(connection: string, target: string): string {
  return `searchbook:pending:v1:${JSON.stringify([connection, target])}`;
}

const EMPTY: PendingState = { v: 1, next: 1, edited: [], added: [] };

function readText(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage off (a private window's policy): pending changes live as long as the tab.
    return null;
  }
}

function parseState(text: string | null, what: string): PendingState {
  if (!text) return EMPTY;
  try {
    const parsed = PendingStateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Unreadable: fall through.
  }
  console.warn(`searchbook: stored pending changes of ${what} could not be read and were ignored`);
  return EMPTY;
}

/** A copy sharing nothing: the pending set edits its entries in place, and `base` must not follow. */
function copy(state: PendingState): PendingState {
  return JSON.parse(JSON.stringify(state)) as PendingState;
}

function isEmpty(state: PendingState): boolean {
  return state.edited.length === 0 && state.added.length === 0;
}

type Keyed = { key: string };

/** Per change: a change this page made since `base` (edited, added or removed) goes over `stored`; any other is as stored. */
function mergeList<T extends Keyed>(base: readonly T[], ours: readonly T[], stored: readonly T[]): T[] {
  const baseBy = new Map(base.map((e) => [e.key, JSON.stringify(e)]));
  const oursBy = new Map(ours.map((e) => [e.key, e]));
  const mine = (key: string) => baseBy.get(key) !== (oursBy.has(key) ? JSON.stringify(oursBy.get(key)) : undefined);
  const out: T[] = [];
  // This page's new entries lead, as a new row leads the grid.
  for (const entry of ours) if (!baseBy.has(entry.key) && !stored.some((s) => s.key === entry.key)) out.push(entry);
  for (const entry of stored) {
    if (!mine(entry.key)) out.push(entry);
    else if (oursBy.has(entry.key)) out.push(oursBy.get(entry.key) as T);
    // Removed here (saved or dropped) but changed by another page since: theirs stays.
    else if (JSON.stringify(entry) !== baseBy.get(entry.key)) out.push(entry);
  }
  for (const entry of ours) if (baseBy.has(entry.key) && mine(entry.key) && !out.includes(entry)) out.push(entry);
  return out;
}

export function mergePending(base: PendingState, ours: PendingState, stored: PendingState): PendingState {
  return {
    v: 1,
    next: Math.max(ours.next, stored.next),
    edited: mergeList(base.edited, ours.edited, stored.edited),
    added: mergeList(base.added, ours.added, stored.added),
  };
}

/** One grid's end of the shared pending set of its connection and target. */
export class PendingSync {
  private readonly key: string;
  /** The set as this page last read or wrote it: what tells this page's own changes from the others'. */
  private base: PendingState = EMPTY;
  private listener: ((event: StorageEvent) => void) | undefined;
  /** The browser refused the last write (storage full or off): a reload would lose what is not stored. */
  notStored = false;

  constructor(
    private readonly connection: string,
    private readonly target: string,
  ) {
    this.key = storageKey(connection, target);
  }

  /** The stored set, as this page's pending changes. */
  load(): PendingChanges {
    this.base = this.read();
    return new PendingChanges(copy(this.base));
  }

  /**
   * Writes this page's changes since it last read or wrote the set, each over what is stored now.
   * True when the set stored held others' changes too: `pending` now holds them, to be shown.
   */
  store(pending: PendingChanges): boolean {
    const ours = pending.state();
    const stored = this.read();
    const merged = mergePending(this.base, ours, stored);
    try {
      if (isEmpty(merged)) window.localStorage.removeItem(this.key);
      else if (JSON.stringify(merged) !== JSON.stringify(stored) || readText(this.key) === null) window.localStorage.setItem(this.key, JSON.stringify(merged));
      this.base = copy(merged);
      this.notStored = false;
    } catch (err) {
      // Storage full or off: the set stored is still the one read, so this page's changes stay its own and the next store writes them again.
      this.base = stored;
      this.notStored = true;
      console.warn('searchbook: pending changes could not be stored in the browser', err);
    }
    if (JSON.stringify(merged) === JSON.stringify(ours)) return false;
    pending.replace(copy(merged));
    return true;
  }

  /**
   * Takes what other pages write to the set into `pending` as it comes; `changed` repaints, told
   * whether a change shown here left the set (another page saved or dropped it).
   */
  watch(pending: PendingChanges, changed: (removed: boolean) => void): void {
    this.unwatch();
    this.listener = (event) => {
      if (event.key !== this.key && event.key !== null) return;
      if (event.storageArea !== null && event.storageArea !== window.localStorage) return;
      const before = pending.state();
      this.base = this.read();
      pending.replace(copy(this.base));
      const left = (list: readonly { key: string }[], now: readonly { key: string }[]) => list.some((e) => !now.some((n) => n.key === e.key));
      changed(left(before.edited, this.base.edited) || left(before.added, this.base.added));
    };
    window.addEventListener('storage', this.listener);
  }

  unwatch(): void {
    if (this.listener) window.removeEventListener('storage', this.listener);
    this.listener = undefined;
  }

  private read(): PendingState {
    return parseState(readText(this.key), `${this.target} on ${this.connection}`);
  }
}
