import type { TargetInfo } from '@searchbook/contracts/panel-protocol';
import type { ConnectionNode } from './connection-listing';

export type { ConnectionNode } from './connection-listing';

export interface TreeCallbacks {
  open(connection: string, target: string): void;
  /** The context menu of an index or collection (delete, empty), at page coordinates. */
  targetMenu?(
    connection: string,
    target: string,
    at: { x: number; y: number; keyboard?: boolean }
  ): void;
  /** What to show under a connection after its indices or collections (keys, metrics). */
  sections?(connection: string): HTMLElement | undefined;
}

const numberFormat = new Intl.NumberFormat('en-US');

/**
 * The panel's tree: connections (level 1) and their indices or collections (level 2), as an
 * ARIA tree (`role="tree"`, `treeitem`, `aria-level`) whose items are named by their names
 * first. Up/Down move between items, Left/Right fold, Enter or a double-click opens a grid.
 * Names are set as text, never as markup.
 */
export class ConnectionsTree {
  readonly node = document.createElement('ul');
  private nodes: ConnectionNode[] = [];
  private filter = '';
  private readonly collapsed = new Set<string>();

  constructor(private readonly callbacks: TreeCallbacks) {
    this.node.className = 'searchbook-Tree';
    this.node.setAttribute('role', 'tree');
    this.node.setAttribute('aria-label', 'searchbook connections');
    this.node.addEventListener('keydown', event => this.onKey(event));
  }

  setNodes(nodes: ConnectionNode[]): void {
    this.nodes = nodes;
    this.render();
  }

  setFilter(text: string): void {
    this.filter = text.trim().toLowerCase();
    this.render();
  }

  private render(): void {
    const active = document.activeElement as HTMLElement | null;
    const focused = active?.dataset?.key;
    this.node.replaceChildren();
    for (const entry of this.nodes) {
      const { connection } = entry;
      const item = document.createElement('li');
      item.className = 'searchbook-Tree-connection';
      item.setAttribute('role', 'treeitem');
      item.setAttribute('aria-level', '1');
      const expanded = !this.collapsed.has(connection.name);
      item.setAttribute('aria-expanded', String(expanded));
      item.dataset.key = `c:${connection.name}`;
      item.dataset.connection = connection.name;
      item.tabIndex = -1;
      // Lower case as the engine names are, so a fork reads `opensearch 2.19.1`.
      const engine = (connection.product ?? connection.engine).toLowerCase();
      const label = [
        connection.name,
        `${engine} ${connection.version}`,
        connection.address,
        ...(connection.auth ? [connection.auth] : [])
      ].join(' · ');
      item.setAttribute('aria-label', label);
      const row = document.createElement('div');
      row.className = 'searchbook-Tree-row';
      row.textContent = `${expanded ? '▾' : '▸'} ${connection.name}`;
      // Signed connections say how on hover: `auth=aws-sigv4 region=... service=...`.
      if (connection.auth) {
        row.title = connection.auth;
      }
      const detail = document.createElement('span');
      detail.className = 'searchbook-Tree-detail';
      detail.textContent = ` ${engine} ${connection.version}${connection.active ? ' · active' : ''}`;
      row.append(detail);
      row.addEventListener('click', () => this.toggle(connection.name));
      item.append(row);
      if (expanded) {
        const group = document.createElement('ul');
        group.setAttribute('role', 'group');
        const shown = entry.targets.filter(
          t => this.filter === '' || t.name.toLowerCase().includes(this.filter)
        );
        for (const target of shown) {
          group.append(this.targetItem(connection.name, target));
        }
        item.append(group);
        const line = entry.loading
          ? 'Loading…'
          : (entry.note ??
            (entry.targets.length > 0 && shown.length === 0
              ? `No name contains "${this.filter}".`
              : entry.targets.length === 0
                ? 'Nothing to list.'
                : undefined));
        if (line) {
          const note = document.createElement('div');
          note.className = 'searchbook-Tree-note';
          note.textContent = line;
          item.append(note);
        }
        const sections = this.callbacks.sections?.(connection.name);
        if (sections) {
          item.append(sections);
        }
      }
      this.node.append(item);
    }
    const first = this.items()[0];
    if (first) {
      first.tabIndex = 0;
    }
    // A control inside a connection's sections keeps focus across re-renders (moving a node drops it).
    if (
      !focused &&
      active &&
      active !== document.body &&
      this.node.contains(active) &&
      document.activeElement !== active
    ) {
      active.focus();
    }
    if (focused) {
      const again = this.items().find(i => i.dataset.key === focused);
      if (again) {
        again.tabIndex = 0;
        again.focus();
      }
    }
  }

  private targetItem(connection: string, target: TargetInfo): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Tree-target';
    item.setAttribute('role', 'treeitem');
    item.setAttribute('aria-level', '2');
    item.dataset.key = `t:${connection}:${target.name}`;
    item.dataset.connection = connection;
    item.dataset.target = target.name;
    item.tabIndex = -1;
    const facts = [
      target.count === null
        ? 'count unknown'
        : `${numberFormat.format(target.count)} ${target.count === 1 ? 'document' : 'documents'}`,
      target.health,
      target.size
    ].filter(Boolean);
    item.setAttribute('aria-label', [target.name, ...facts].join(' · '));
    item.title = `Double-click or Enter: open ${target.name} in a grid`;
    const name = document.createElement('span');
    name.className = 'searchbook-Tree-name';
    name.textContent = target.name;
    // A long name is cut with an ellipsis; its whole text shows on hover.
    name.title = target.name;
    // The count stays whole in a narrow sidebar; health and size give way first.
    const [count, ...rest] = facts;
    const counted = document.createElement('span');
    counted.className = 'searchbook-Tree-detail searchbook-Tree-count';
    counted.textContent = count ?? '';
    const detail = document.createElement('span');
    detail.className = 'searchbook-Tree-detail';
    detail.textContent = rest.map(fact => `· ${fact}`).join(' ');
    if (target.health) {
      const dot = document.createElement('span');
      dot.className = `searchbook-Tree-health searchbook-mod-${target.health.replace(/[^a-z]/g, '')}`;
      dot.textContent = '●';
      item.append(dot);
    }
    item.append(name, counted, detail);
    item.addEventListener('dblclick', () =>
      this.callbacks.open(connection, target.name)
    );
    item.addEventListener('click', () => this.focusItem(item));
    item.addEventListener('contextmenu', event => {
      if (!this.callbacks.targetMenu) {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      this.focusItem(item);
      this.callbacks.targetMenu(connection, target.name, {
        x: event.clientX,
        y: event.clientY
      });
    });
    return item;
  }

  /** Puts the keyboard on the tree's current item (the one in its Tab order); false when it lists none. */
  focusCurrent(): boolean {
    const item =
      this.node.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]') ??
      this.items()[0];
    if (!item) {
      return false;
    }
    this.focusItem(item);
    return true;
  }

  /**
   * The way back to `from`, a tree item an action may remove (an index deleted): the item
   * again, else the one that was after it in its connection, the one before, the connection,
   * or the tree's current item. Read before the action, while the item is in the tree.
   */
  wayBackFrom(from: Element | null): () => void {
    const item = from?.closest<HTMLElement>('[role="treeitem"]');
    const keys = [
      item,
      item?.nextElementSibling,
      item?.previousElementSibling,
      item?.parentElement?.closest('[role="treeitem"]')
    ]
      .map(node => (node as HTMLElement | null | undefined)?.dataset.key)
      .filter((key): key is string => key !== undefined);
    return () => {
      const items = this.items();
      for (const key of keys) {
        const again = items.find(i => i.dataset.key === key);
        if (again) {
          this.focusItem(again);
          return;
        }
      }
      this.focusCurrent();
    };
  }

  private items(): HTMLElement[] {
    return [...this.node.querySelectorAll<HTMLElement>('[role="treeitem"]')];
  }

  private focusItem(item: HTMLElement): void {
    for (const other of this.items()) {
      other.tabIndex = -1;
    }
    item.tabIndex = 0;
    item.focus();
  }

  private toggle(name: string): void {
    if (this.collapsed.has(name)) {
      this.collapsed.delete(name);
    } else {
      this.collapsed.add(name);
    }
    this.render();
  }

  private onKey(event: KeyboardEvent): void {
    const item = (event.target as HTMLElement).closest<HTMLElement>(
      '[role="treeitem"]'
    );
    if (!item) {
      return;
    }
    const items = this.items();
    const index = items.indexOf(item);
    const move = (to: number) => {
      const next = items[Math.max(0, Math.min(items.length - 1, to))];
      if (next) {
        this.focusItem(next);
      }
    };
    switch (event.key) {
      case 'ArrowDown':
        move(index + 1);
        break;
      case 'ArrowUp':
        move(index - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(items.length - 1);
        break;
      case 'ArrowLeft':
      case 'ArrowRight': {
        const connection = item.dataset.connection;
        const wantOpen = event.key === 'ArrowRight';
        if (
          connection &&
          item.dataset.target === undefined &&
          this.collapsed.has(connection) === wantOpen
        ) {
          this.toggle(connection);
        }
        break;
      }
      case 'ContextMenu':
      case 'F10': {
        const { connection, target } = item.dataset;
        if (event.key === 'F10' && !event.shiftKey) {
          return;
        }
        const box = item.getBoundingClientRect();
        if (connection && target !== undefined) {
          this.callbacks.targetMenu?.(connection, target, {
            x: box.left + 16,
            y: box.bottom,
            keyboard: true
          });
        }
        break;
      }
      case 'Enter': {
        const { connection, target } = item.dataset;
        if (connection && target !== undefined) {
          this.callbacks.open(connection, target);
        } else if (connection) {
          this.toggle(connection);
        }
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  }
}
