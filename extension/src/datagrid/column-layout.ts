import { z } from 'zod';
import type { Column } from '@searchbook/contracts/columns';
import { fieldsRecord } from '@searchbook/contracts/own-fields';

/**
 * How the user laid out a grid's columns, by column name: hidden ones, the order they dragged
 * them into, the pinned ones (kept at the left), and the widths they set. Names, never
 * positions: columns come from the mapping and from the documents read, so positions move.
 */
export const ColumnLayoutSchema = z.object({
  hidden: z.array(z.string()),
  order: z.array(z.string()),
  pinned: z.array(z.string()),
  // By field name, `__proto__` included (z.record would leave that one out).
  widths: fieldsRecord(
    z.number().positive().finite(),
    'column widths are positive numbers by column name'
  )
});
export type ColumnLayout = z.infer<typeof ColumnLayoutSchema>;

/** Nothing laid out yet: the document identifier pinned, so a row stays recognisable while scrolling sideways. */
export function defaultColumnLayout(columns: readonly Column[]): ColumnLayout {
  return {
    hidden: [],
    order: [],
    pinned: columns.filter(c => c.primaryKey).map(c => c.name),
    widths: {}
  };
}

/**
 * The columns shown, left to right: pinned ones first, then the others, each group in the
 * user's order (columns the order does not name yet keep the engine's order, after those it
 * names), less the hidden ones. One column always stays shown.
 */
export function arrangeColumns(
  columns: readonly Column[],
  layout: ColumnLayout
): { shown: Column[]; pinnedCount: number } {
  const rank = new Map(layout.order.map((name, i) => [name, i]));
  const ordered = columns
    .map((column, engineAt) => ({ column, engineAt }))
    .sort(
      (a, b) =>
        (rank.get(a.column.name) ?? layout.order.length + a.engineAt) -
        (rank.get(b.column.name) ?? layout.order.length + b.engineAt)
    )
    .map(e => e.column);
  const hidden = new Set(layout.hidden);
  let visible = ordered.filter(c => !hidden.has(c.name));
  if (visible.length === 0 && ordered.length > 0) {
    visible = ordered.slice(0, 1);
  }
  const pinned = new Set(layout.pinned);
  const first = visible.filter(c => pinned.has(c.name));
  return {
    shown: [...first, ...visible.filter(c => !pinned.has(c.name))],
    pinnedCount: first.length
  };
}

/** The layout with one column shown or hidden; the last shown column cannot be hidden. */
export function withHidden(
  layout: ColumnLayout,
  columns: readonly Column[],
  name: string,
  hide: boolean
): ColumnLayout {
  const hidden = layout.hidden.filter(n => n !== name);
  if (hide) {
    const others = columns.filter(
      c => c.name !== name && !hidden.includes(c.name)
    );
    if (others.length === 0) {
      return layout;
    }
    hidden.push(name);
  }
  return { ...layout, hidden };
}

export function withPinned(
  layout: ColumnLayout,
  name: string,
  pin: boolean
): ColumnLayout {
  const pinned = layout.pinned.filter(n => n !== name);
  return { ...layout, pinned: pin ? [...pinned, name] : pinned };
}

/**
 * The layout after a header was dragged from one shown place to another: the whole order is
 * written down by name, so it survives columns appearing later.
 */
export function withMoved(
  layout: ColumnLayout,
  columns: readonly Column[],
  from: string,
  to: string
): ColumnLayout {
  const names = arrangeColumns(columns, { ...layout, hidden: [] }).shown.map(
    c => c.name
  );
  const at = names.indexOf(from);
  const target = names.indexOf(to);
  if (at < 0 || target < 0 || at === target) {
    return layout;
  }
  names.splice(at, 1);
  names.splice(target, 0, from);
  // Moving a column across the pinned ones' edge pins or unpins it, as it then stands.
  const pinned = new Set(layout.pinned);
  const toPinned = pinned.has(to);
  const fromPinned = pinned.has(from);
  const pinnedNow =
    toPinned === fromPinned
      ? layout.pinned
      : toPinned
        ? [...layout.pinned, from]
        : layout.pinned.filter(n => n !== from);
  return { ...layout, order: names, pinned: pinnedNow };
}

function storageKey(connection: string, target: string): string {
  return `searchbook:columns:v1:${JSON.stringify([connection, target])}`;
}

/**
 * A grid's column layout kept in the browser's localStorage per connection and index or
 * collection: reopening the target (in this page or after a reload) lays its columns out again.
 */
export class ColumnLayoutStore {
  constructor(
    private readonly connection: string,
    private readonly target: string
  ) {}

  /** The stored layout, or undefined when none is stored (or it cannot be read: it is then laid out afresh). */
  load(): ColumnLayout | undefined {
    try {
      const text = window.localStorage.getItem(
        storageKey(this.connection, this.target)
      );
      if (!text) {
        return undefined;
      }
      const parsed = ColumnLayoutSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  save(layout: ColumnLayout): void {
    try {
      window.localStorage.setItem(
        storageKey(this.connection, this.target),
        JSON.stringify(layout)
      );
    } catch {
      // Storage off (a private window's policy): the layout lives as long as the tab.
    }
  }
}
