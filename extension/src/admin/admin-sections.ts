import type { ResourceKindInfo } from '@searchbook/contracts/resource-protocol';
import type { PanelClient } from '../panel-client';
import { KeysSection } from './keys-section';
import { MetricsSection } from './metrics-section';
import { ResourceSection } from './resource-section';

/**
 * What the panel shows under a connection besides its indices or collections: the sections
 * the driver says the connection offers (API keys, server metrics). Kept across the tree's
 * re-renders so that a dashboard keeps its charts and a half-typed form its text.
 */
export class AdminSections {
  readonly node = document.createElement('div');
  private metrics: MetricsSection | undefined;
  private readonly resources: ResourceSection[] = [];
  /** True once the kernel said the connection has resources (so collection schemas too). */
  hasResources = false;
  /** The kinds kept per collection (a collection's synonyms, overrides), for its menu. */
  collectionKinds: ResourceKindInfo[] = [];

  constructor(
    readonly client: PanelClient,
    private readonly connection: string,
    /** Opens a collection's grid, for an alias's Open. */
    private readonly open?: (collection: string) => void
  ) {
    this.node.className = 'searchbook-Admin';
    // The tree's arrow keys and Enter must not steal keystrokes typed into these sections.
    this.node.addEventListener('keydown', event => event.stopPropagation());
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const { offers } = await this.client.request(
        { type: 'offers', connection: this.connection },
        'offers'
      );
      if (offers.keys) {
        this.node.append(
          new KeysSection(this.client, this.connection, offers.keys).node
        );
      }
      if (offers.metrics) {
        this.metrics = new MetricsSection(
          this.client,
          this.connection,
          offers.metrics
        );
        this.node.append(this.metrics.node);
      }
    } catch {
      // A kernel that predates these sections, or a connection just closed: nothing to add.
    }
    await this.loadResources();
  }

  /** Server-wide resources (aliases, presets, stopwords, sets), for engines that have them. */
  private async loadResources(): Promise<void> {
    try {
      const { kinds } = await this.client.request(
        { type: 'resourceKinds', connection: this.connection },
        'resourceKinds'
      );
      this.hasResources = true;
      this.collectionKinds = kinds.filter(k => k.scope === 'collection');
      for (const info of kinds.filter(k => k.scope === 'server')) {
        const itemsInfo = kinds.find(k => k.kind === info.items);
        const section = new ResourceSection(
          this.client,
          this.connection,
          info,
          {
            ...(itemsInfo ? { itemsInfo } : {}),
            ...(this.open ? { open: this.open } : {})
          }
        );
        this.resources.push(section);
        this.node.append(section.node);
      }
    } catch {
      // An engine without such resources (Elasticsearch here): no section.
    }
  }

  /** The server may have changed: the resource lists already shown are read again. */
  refresh(): void {
    for (const section of this.resources) {
      void section.refresh();
    }
  }

  dispose(): void {
    this.metrics?.dispose();
    this.node.remove();
  }
}
