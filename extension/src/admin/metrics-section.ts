import type {
  Metric,
  MetricsSnapshot
} from '@searchbook/contracts/admin-protocol';
import type { PanelClient } from '../panel-client';
import { formatMetric } from './metric-format';
import { Sparkline } from './sparkline';
import { searchbookSettings } from '../settings/searchbook-settings';

/** How far back the small charts reach. */
const HISTORY_MS = 5 * 60_000;

/**
 * A connection's server figures (Typesense server dashboard, Elasticsearch cluster overview),
 * read every `refreshMs` while the section is open and on screen: a folded section, a hidden
 * sidebar or a background browser tab sends nothing. Each figure keeps a small chart of the
 * last minutes. It shows what the driver sends and never asks which engine it talks to.
 */
export class MetricsSection {
  readonly node = document.createElement('details');
  private readonly body = document.createElement('div');
  private readonly status = document.createElement('div');
  private readonly history = new Map<string, (number | null)[]>();
  private readonly rows = new Map<
    string,
    { value: HTMLElement; chart: Sparkline | undefined }
  >();
  private layout = '';
  private readonly capacity: number;
  private timer: number | undefined;
  private polling = false;
  private disposed = false;

  constructor(
    private readonly client: PanelClient,
    private readonly connection: string,
    private readonly offer: { title: string; refreshMs: number }
  ) {
    this.capacity = Math.max(2, Math.round(HISTORY_MS / offer.refreshMs));
    this.node.className = 'searchbook-Admin-section searchbook-Metrics';
    const summary = document.createElement('summary');
    summary.textContent = offer.title;
    this.status.className = 'searchbook-Admin-status';
    this.status.setAttribute('role', 'status');
    this.body.setAttribute('role', 'region');
    this.body.setAttribute('aria-label', `${offer.title} of ${connection}`);
    this.node.append(summary, this.status, this.body);
    this.node.addEventListener('toggle', () => {
      if (this.node.open) {
        void this.tick();
      }
    });
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    window.clearTimeout(this.timer);
  }

  /** Open, in the page, not inside a hidden (display: none) sidebar, and the tab in front. */
  private get onScreen(): boolean {
    return (
      this.node.open &&
      this.node.isConnected &&
      document.visibilityState === 'visible' &&
      this.node.getClientRects().length > 0
    );
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    if (!this.disposed) {
      // The settings' interval (by default the engine's own, 2 s).
      this.timer = window.setTimeout(
        () => void this.tick(),
        searchbookSettings.current.dashboardRefreshSeconds * 1000
      );
    }
  }

  private async tick(): Promise<void> {
    if (this.disposed || this.polling) {
      return;
    }
    window.clearTimeout(this.timer);
    if (this.onScreen && !this.client.isClosed) {
      this.polling = true;
      try {
        const { snapshot } = await this.client.request(
          { type: 'metrics', connection: this.connection },
          'metrics'
        );
        this.show(snapshot);
      } catch (err) {
        this.status.textContent = (err as Error).message;
        this.status.classList.add('searchbook-mod-error');
      } finally {
        this.polling = false;
      }
    }
    this.schedule();
  }

  private show(snapshot: MetricsSnapshot): void {
    this.status.classList.remove('searchbook-mod-error');
    const requests = snapshot.requests
      .map(
        r => `${r.method} ${r.path} ${r.status} ${Math.round(r.elapsedMs)} ms`
      )
      .join(', ');
    this.status.textContent = `Updated ${new Date(snapshot.at).toLocaleTimeString()} · ${requests}`;
    const layout = JSON.stringify([
      snapshot.groups.map(g => [g.id, g.title, g.metrics.map(m => m.id)]),
      snapshot.notOffered
    ]);
    // Same figures as last time: update them in place, so focus and reading position stay.
    if (layout !== this.layout) {
      this.build(snapshot, layout);
    }
    for (const metric of snapshot.groups.flatMap(g => g.metrics)) {
      this.update(metric);
    }
  }

  private build(snapshot: MetricsSnapshot, layout: string): void {
    this.layout = layout;
    this.rows.clear();
    const sections = snapshot.groups.map(group => {
      const section = document.createElement('section');
      section.className = 'searchbook-Metrics-group';
      section.setAttribute('aria-label', group.title);
      const title = document.createElement('h4');
      title.textContent = group.title;
      const list = document.createElement('ul');
      list.append(...group.metrics.map(metric => this.item(metric)));
      section.append(title, list);
      return section;
    });
    const absent = snapshot.notOffered.map(panel => {
      const line = document.createElement('p');
      line.className = 'searchbook-Metrics-absent';
      const label = document.createElement('strong');
      label.textContent = `${panel.label}: `;
      line.append(label, panel.reason);
      return line;
    });
    this.body.replaceChildren(...sections, ...absent);
  }

  private item(metric: Metric): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Metric';
    item.dataset.metric = metric.id;
    const label = document.createElement('span');
    label.className = 'searchbook-Metric-label';
    label.textContent = metric.label;
    const value = document.createElement('span');
    value.className = 'searchbook-Metric-value';
    item.append(label, value);
    const chart =
      metric.unit === 'text' ? undefined : new Sparkline(metric.label);
    if (chart) {
      item.append(chart.node);
    }
    this.rows.set(metric.id, { value, chart });
    return item;
  }

  private update(metric: Metric): void {
    const row = this.rows.get(metric.id);
    if (!row) {
      return;
    }
    row.value.textContent = formatMetric(metric);
    row.value.className = 'searchbook-Metric-value';
    if (metric.value === null && metric.unit !== 'text') {
      row.value.classList.add('searchbook-mod-missing');
    }
    if (metric.tone) {
      row.value.classList.add(`searchbook-mod-${metric.tone}`);
    }
    if (!row.chart) {
      return;
    }
    const values = this.history.get(metric.id) ?? [];
    values.push(metric.value);
    if (values.length > this.capacity) {
      values.splice(0, values.length - this.capacity);
    }
    this.history.set(metric.id, values);
    row.chart.draw(values, this.capacity, metric.total);
  }
}
