import { PendingChanges, PendingStateSchema } from './pending-changes';

/**
 * Pending changes kept in the browser's localStorage per connection and index or collection,
 * outside the kernel: a kernel restart or a page reload keeps what the user typed, and the
 * grid shows it again when it reopens. Only Discard, or a save that stored it, removes it.
 */
function storageKey(connection: string, target: string): string {
  return `searchbook:pending:v1:${JSON.stringify([connection, target])}`;
}

export function loadPending(connection: string, target: string): PendingChanges {
  let text: string | null = null;
  try {
    text = window.localStorage.getItem(storageKey(connection, target));
  } catch {
    // Storage off (a private window's policy): pending changes live as long as the tab.
  }
  if (!text) return new PendingChanges();
  try {
    const parsed = PendingStateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return new PendingChanges(parsed.data);
  } catch {
    // Unreadable: fall through.
  }
  console.warn(`searchbook: stored pending changes of ${target} on ${connection} could not be read and were ignored`);
  return new PendingChanges();
}

export function storePending(connection: string, target: string, pending: PendingChanges): void {
  try {
    if (pending.count === 0 && pending.newRows.length === 0) window.localStorage.removeItem(storageKey(connection, target));
    else window.localStorage.setItem(storageKey(connection, target), JSON.stringify(pending.state()));
  } catch (err) {
    console.warn('searchbook: pending changes could not be stored in the browser', err);
  }
}
