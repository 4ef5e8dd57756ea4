import { Widget } from '@lumino/widgets';
import type { ResourceKindInfo } from '@searchbook/contracts/resource-protocol';
import type { PanelClient } from '../panel-client';
import { ResourceSection } from './resource-section';

/** "Synonyms and overrides (curation)": the per-collection kinds named as one. */
export function collectionResourcesLabel(kinds: ResourceKindInfo[]): string {
  const [first, ...rest] = kinds.map(k => k.title);
  return [first ?? '', ...rest.map(t => t.toLowerCase())].join(' and ');
}

let tabCount = 0;

/**
 * A collection's own resources (up to Typesense 29: its synonyms and overrides) in a main-area
 * tab, one section per kind, each listing, adding, editing and deleting entries with the
 * request shown before it is sent. A tab rather than a dialog, since each change opens its own.
 */
export class CollectionResources extends Widget {
  private readonly sections: ResourceSection[] = [];

  constructor(
    readonly client: PanelClient,
    readonly connection: string,
    readonly collection: string,
    kinds: ResourceKindInfo[]
  ) {
    super();
    // Unique: two kernels may each have a connection of this name.
    this.id = `searchbook-resources-${++tabCount}`;
    this.addClass('searchbook-CollectionResources');
    const label = collectionResourcesLabel(kinds);
    this.title.label = `${collection} · ${label.toLowerCase()}`;
    this.title.caption = `${label} of ${collection} on ${connection}`;
    this.title.closable = true;
    const heading = document.createElement('h2');
    heading.textContent = `${label} of ${collection}`;
    this.node.append(heading);
    for (const info of kinds) {
      const section = new ResourceSection(client, connection, info, {
        parent: collection,
        title: `${info.title} of ${collection}`,
        startOpen: true
      });
      this.sections.push(section);
      this.node.append(section.node);
    }
  }

  /** The server may have changed: each list is read again. */
  refresh(): void {
    for (const section of this.sections) {
      void section.refresh();
    }
  }
}

/** A collection menu's item for what the collection keeps of its own besides documents. */
export interface TargetResources {
  label: string;
  /** Why the server keeps none per collection; the item is disabled. */
  unavailable?: string;
  show(): void;
}

/** The open tabs of collections' own resources: a collection's is shown again, not twice. */
export class CollectionResourceTabs {
  private readonly tabs = new Set<CollectionResources>();

  constructor(private readonly showMain: (widget: Widget) => void) {}

  /** The server may have changed: the open tabs read their lists again. */
  refresh(): void {
    for (const tab of this.tabs) {
      if (!tab.isDisposed) {
        tab.refresh();
      }
    }
  }

  /** The collection menu's item, or undefined for engines that keep nothing per collection. */
  menuItem(
    client: PanelClient,
    connection: string,
    collection: string,
    kinds: ResourceKindInfo[]
  ): TargetResources | undefined {
    if (kinds.length === 0) {
      return undefined;
    }
    const available = kinds.filter(k => k.available);
    return {
      label: collectionResourcesLabel(kinds),
      ...(available.length === 0
        ? { unavailable: kinds[0]?.unavailableReason ?? 'Not on this server.' }
        : {}),
      show: () => {
        let tab = [...this.tabs].find(
          t =>
            !t.isDisposed &&
            t.client === client &&
            t.connection === connection &&
            t.collection === collection
        );
        if (!tab) {
          const fresh = new CollectionResources(
            client,
            connection,
            collection,
            available
          );
          this.tabs.add(fresh);
          fresh.disposed.connect(() => this.tabs.delete(fresh));
          tab = fresh;
        }
        this.showMain(tab);
      }
    };
  }
}
