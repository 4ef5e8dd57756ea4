import { z } from 'zod';
import { ownValue, setField } from '@searchbook/contracts/own-fields';
import {
  PendingChanges,
  type PendingState,
  PendingStateSchema
} from './pending-changes';
import { exactJson, parseExactJson } from '@searchbook/contracts/exact-json';

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
  return `searchbook:pending:v1:${exactJson([connection, target])}`;
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

/** Stored text this panel cannot read whole (damaged, or written by another version): kept aside under this key before the set is written again. */
function asideKey(key: string): string {
  return key.replace('searchbook:pending:', 'searchbook:pending-unread:');
}

const EditedEntry = PendingStateSchema.shape.edited.element;
const AddedEntry = PendingStateSchema.shape.added.element;
const LooseState = z.object({
  next: z.number().int().nonnegative().catch(1),
  edited: z.array(z.unknown()).catch([]),
  added: z.array(z.unknown()).catch([])
});

/** The stored set; where it cannot be read whole, the changes it holds that can be, and `whole: false`. */
function parseState(text: string | null): {
  state: PendingState;
  whole: boolean;
} {
  if (!text) {
    return { state: EMPTY, whole: true };
  }
  let json: unknown;
  try {
    json = parseExactJson(text);
  } catch {
    return { state: EMPTY, whole: false };
  }
  const parsed = PendingStateSchema.safeParse(json);
  if (parsed.success) {
    return { state: parsed.data, whole: true };
  }
  const loose = LooseState.safeParse(json);
  if (!loose.success) {
    return { state: EMPTY, whole: false };
  }
  const readable = <T>(
    entries: readonly unknown[],
    schema: z.ZodType<T>
  ): T[] =>
    entries.flatMap(entry => {
      const one = schema.safeParse(entry);
      return one.success ? [one.data] : [];
    });
  return {
    state: {
      v: 1,
      next: loose.data.next,
      edited: readable(loose.data.edited, EditedEntry),
      added: readable(loose.data.added, AddedEntry)
    },
    whole: false
  };
}

/** A copy sharing nothing: the pending set edits its entries in place, and `base` must not follow. */
function copy(state: PendingState): PendingState {
  return parseExactJson(exactJson(state)) as PendingState;
}

function isEmpty(state: PendingState): boolean {
  return state.edited.length === 0 && state.added.length === 0;
}

type Keyed = { key: string };

/**
 * Per change: a change this page made since `base` (edited, added or removed) goes over `stored`;
 * any other is as stored. This page's new entries go `first` (a new row leads the grid) or
 * `last` (edited rows stay in the order they were changed, as the list of problems shows them).
 */
function mergeList<T extends Keyed>(
  base: readonly T[],
  ours: readonly T[],
  stored: readonly T[],
  fresh: 'first' | 'last'
): T[] {
  const baseBy = new Map(base.map(e => [e.key, exactJson(e)]));
  const oursBy = new Map(ours.map(e => [e.key, e]));
  const mine = (key: string) =>
    baseBy.get(key) !==
    (oursBy.has(key) ? exactJson(oursBy.get(key)) : undefined);
  const added = ours.filter(
    entry => !baseBy.has(entry.key) && !stored.some(s => s.key === entry.key)
  );
  const out: T[] = fresh === 'first' ? [...added] : [];
  for (const entry of stored) {
    if (!mine(entry.key)) {
      out.push(entry);
    } else if (oursBy.has(entry.key)) {
      out.push(
        exactJson(entry) === baseBy.get(entry.key)
          ? (oursBy.get(entry.key) as T)
          : mergeEntry(
              base.find(e => e.key === entry.key),
              oursBy.get(entry.key) as T,
              entry
            )
      );
    }
    // Removed here (saved or dropped) but changed by another page since: theirs stays.
    else if (exactJson(entry) !== baseBy.get(entry.key)) {
      out.push(entry);
    }
  }
  for (const entry of ours) {
    if (
      baseBy.has(entry.key) &&
      mine(entry.key) &&
      !out.some(e => e.key === entry.key)
    ) {
      out.push(entry);
    }
  }
  return fresh === 'first' ? out : [...out, ...added];
}

const same = (a: unknown, b: unknown) => exactJson(a) === exactJson(b);

/**
 * One row changed on this page and on another since this page last read it (two pages typing
 * into it before either heard of the other): each field, and each property of the change, is
 * this page's where this page changed it, and otherwise the other page's.
 */
function mergeEntry<T extends Keyed>(
  base: T | undefined,
  ours: T,
  stored: T
): T {
  const of = (entry: T | undefined, name: string) =>
    (entry as Record<string, unknown> | undefined)?.[name];
  const out: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(ours), ...Object.keys(stored)])) {
    const [b, o, s] = [of(base, name), of(ours, name), of(stored, name)];
    const value =
      name === 'fields' || name === 'expected'
        ? mergeRecord(b, o, s)
        : same(o, b)
          ? s
          : o;
    if (value !== undefined) {
      out[name] = value;
    }
  }
  return out as T;
}

function mergeRecord(
  base: unknown,
  ours: unknown,
  stored: unknown
): Record<string, unknown> | undefined {
  if (ours === undefined && stored === undefined) {
    return undefined;
  }
  const [b, o, s] = [base, ours, stored].map(
    r => (r ?? {}) as Record<string, unknown>
  ) as [
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>
  ];
  const out: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(o), ...Object.keys(s)])) {
    const [was, mine, theirs] = [b, o, s].map(r => ownValue(r, name));
    const value = same(mine, was) ? theirs : mine;
    if (value !== undefined) {
      setField(out, name, value);
    }
  }
  return out;
}

export function mergePending(
  base: PendingState,
  ours: PendingState,
  stored: PendingState
): PendingState {
  return {
    v: 1,
    next: Math.max(ours.next, stored.next),
    edited: mergeList(base.edited, ours.edited, stored.edited, 'last'),
    added: mergeList(base.added, ours.added, stored.added, 'first')
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
    private readonly target: string
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
    const { state: stored, safe } = this.readSafely();
    const merged = mergePending(this.base, ours, stored);
    try {
      if (!safe) {
        throw new Error(
          'the stored text could not be read whole, nor kept aside'
        );
      }
      if (isEmpty(merged)) {
        window.localStorage.removeItem(this.key);
      } else if (
        exactJson(merged) !== exactJson(stored) ||
        readText(this.key) === null
      ) {
        window.localStorage.setItem(this.key, exactJson(merged));
      }
      this.base = copy(merged);
      this.notStored = false;
    } catch (err) {
      // Storage full or off: the set stored is still the one read, so this page's changes stay its own and the next store writes them again.
      this.base = stored;
      this.notStored = true;
      console.warn(
        'searchbook: pending changes could not be stored in the browser',
        err
      );
    }
    if (exactJson(merged) === exactJson(ours)) {
      return false;
    }
    pending.replace(copy(merged));
    return true;
  }

  /**
   * Takes what other pages write to the set into `pending` as it comes; `changed` repaints, told
   * whether a change shown here left the set (another page saved or dropped it).
   */
  watch(pending: PendingChanges, changed: (removed: boolean) => void): void {
    this.unwatch();
    this.listener = event => {
      if (event.key !== this.key && event.key !== null) {
        return;
      }
      if (
        event.storageArea !== null &&
        event.storageArea !== window.localStorage
      ) {
        return;
      }
      if (event.key === null) {
        // Another page cleared the whole storage, not this set's changes: they are written again.
        this.base = EMPTY;
        if (!isEmpty(pending.state())) {
          this.store(pending);
        }
        return;
      }
      const before = pending.state();
      const stored = this.read();
      // What this page holds and could not store (storage full) stays, and is written with its next change.
      const now = mergePending(this.base, before, stored);
      this.base = stored;
      pending.replace(copy(now));
      const left = (
        list: readonly { key: string }[],
        kept: readonly { key: string }[]
      ) => list.some(e => !kept.some(n => n.key === e.key));
      changed(left(before.edited, now.edited) || left(before.added, now.added));
    };
    window.addEventListener('storage', this.listener);
  }

  unwatch(): void {
    if (this.listener) {
      window.removeEventListener('storage', this.listener);
    }
    this.listener = undefined;
  }

  /** Where stored text this page could not read whole was kept aside, for the grid to say so. */
  keptAside: string | undefined;

  private read(): PendingState {
    return this.readSafely().state;
  }

  /** The stored set; `safe`: writing over it loses nothing (what could not be read is kept aside). */
  private readSafely(): { state: PendingState; safe: boolean } {
    const text = readText(this.key);
    const { state, whole } = parseState(text);
    return { state, safe: whole || text === null || this.keepAside(text) };
  }

  /** Nothing stored is thrown away: text this panel cannot read is copied aside before the set is written over it. */
  private keepAside(text: string): boolean {
    const aside = asideKey(this.key);
    try {
      const kept = readText(aside);
      if (kept !== text) {
        window.localStorage.setItem(
          kept === null ? aside : `${aside}:${Date.now()}`,
          text
        );
      }
    } catch (err) {
      console.warn(
        `searchbook: stored pending changes of ${this.target} on ${this.connection} could not all be read, nor kept aside`,
        err
      );
      return false;
    }
    this.keptAside = aside;
    console.warn(
      `searchbook: stored pending changes of ${this.target} on ${this.connection} could not all be read; the stored text is kept under ${aside}`
    );
    return true;
  }
}
