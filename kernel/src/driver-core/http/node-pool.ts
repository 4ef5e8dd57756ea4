/**
 * The nodes of one connection and which of them answer, as the official Elasticsearch
 * clients' connection pools keep them: requests go to the first node that is not dead; a node
 * that did not answer is dead for a back-off that doubles with each failure in a row (1 s, 2 s,
 * 4 s ... at most 30 s, elastic-transport's `dead_node_backoff_factor` and
 * `max_dead_node_backoff`), after which the next request tries it again first; a node that
 * answers is alive again at once.
 * https://www.elastic.co/docs/reference/elasticsearch/clients/python/connection-pool
 */

const BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

interface NodeState {
  /** `http://host:port`: the scheme is the connection's, the same for every node. */
  url: string;
  /** Failures in a row; 0 while it answers. */
  failures: number;
  /** Until when it is left out (the pool's clock). */
  deadUntil: number;
  /** Why it last did not answer, as a connection failure's reason. */
  reason: string;
}

/** A node passed over for one request: it failed just now, or was still in its back-off. */
export interface PassedNode {
  node: string;
  reason: string;
  /** Whether it was tried for this request (else it was skipped as dead). */
  tried: boolean;
}

export class NodePool {
  private readonly nodes: NodeState[];

  constructor(
    urls: readonly string[],
    private readonly now: () => number = () => performance.now()
  ) {
    if (urls.length === 0) {
      throw new RangeError('a connection has at least one node');
    }
    this.nodes = urls.map(url => ({
      url,
      failures: 0,
      deadUntil: 0,
      reason: ''
    }));
  }

  get size(): number {
    return this.nodes.length;
  }

  /** Every node's URL, in the order the connection lists them. */
  get urls(): string[] {
    return this.nodes.map(n => n.url);
  }

  /** The node tried first when all answer. */
  get first(): string {
    return (this.nodes[0] as NodeState).url;
  }

  /**
   * The order to try the nodes in for the next request: the live ones (and the dead whose
   * back-off has passed) in list order, then the dead ones, soonest back first, so a request
   * still reaches a node when all are marked dead.
   */
  order(): { url: string; dead?: string }[] {
    const now = this.now();
    const live = this.nodes.filter(n => n.deadUntil <= now);
    const dead = this.nodes
      .filter(n => n.deadUntil > now)
      .sort((a, b) => a.deadUntil - b.deadUntil);
    return [
      ...live.map(n => ({ url: n.url })),
      ...dead.map(n => ({ url: n.url, dead: n.reason }))
    ];
  }

  /** The nodes still in their back-off, which the next request skips unless all others fail. */
  skipped(): PassedNode[] {
    return this.order()
      .filter(n => n.dead !== undefined)
      .map(n => ({ node: n.url, reason: n.dead as string, tried: false }));
  }

  markDead(url: string, reason: string): void {
    const node = this.nodes.find(n => n.url === url);
    if (!node) {
      return;
    }
    node.failures += 1;
    node.reason = reason;
    node.deadUntil =
      this.now() +
      Math.min(
        MAX_BACKOFF_MS,
        BACKOFF_MS * 2 ** Math.min(node.failures - 1, 16)
      );
  }

  /** Milliseconds until a dead node is tried first again (0 when it is not dead). */
  deadFor(url: string): number {
    const node = this.nodes.find(n => n.url === url);
    return node ? Math.max(0, node.deadUntil - this.now()) : 0;
  }

  markAlive(url: string): void {
    const node = this.nodes.find(n => n.url === url);
    if (node) {
      node.failures = 0;
      node.deadUntil = 0;
      node.reason = '';
    }
  }
}

/** `127.0.0.1:9201`: a node as messages name it (the scheme is the connection's). */
export function nodeName(url: string): string {
  return url.replace(/^https?:\/\//, '');
}

/**
 * The status line of an answer from another node than the first:
 * `answered by 127.0.0.1:9201 (127.0.0.1:9200 did not answer: ECONNREFUSED)`.
 */
export function answeredByLine(node: string, passed: PassedNode[]): string {
  const why = passed.map(p =>
    p.tried
      ? `${nodeName(p.node)} did not answer: ${p.reason}`
      : `${nodeName(p.node)} skipped, it did not answer earlier: ${p.reason}`
  );
  return `answered by ${nodeName(node)}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
}
