/**
 * Per-connection cache of index mappings or collection schemas, keyed by the target as the
 * request names it (`products`, `catalog`, `prod*`). A fetch runs once per target however many
 * callers wait; it has its own time limit, so a caller that gives up (a completion's short
 * timeout, an interrupt) stops waiting without failing the fetch for the others.
 */
import type { ConsoleRequest } from '../console/cell';
import type { EngineResponse } from './capabilities/console';
import { type FieldTree, fieldTypesOf } from './field-tree';
import type { Transport } from './http/transport';
import type { SourcesAt } from './http/shared-sources';

/** What one fetch learned: the structure, and the concrete indices or collections behind the target. */
export interface Structure {
  tree: FieldTree;
  /** Concrete names behind the target (an alias's indices), so a change to one of them drops the entry. */
  members: string[];
}

/** The engine answered, but not with a structure (403 for a key limited to search, 404, another shape). */
export class StructureUnavailable extends Error {}

interface Entry {
  /** Undefined while the fetch runs or when it failed. */
  structure?: Structure;
  pending?: Promise<Structure | undefined>;
  /** When a failed fetch may be tried again. */
  retryAt?: number;
}

/** How long a fetch may take before the grid falls back to columns from the documents. */
export const STRUCTURE_TIMEOUT_MS = 5_000;
/** A failed fetch is not repeated on every search, but is tried again after this (or after a change). */
const FAILED_RETRY_MS = 30_000;

export class StructureCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly fetch: (
      target: string,
      signal: AbortSignal
    ) => Promise<Structure>
  ) {}

  /** The structure if it is already known, without asking the engine. */
  peek(target: string): Structure | undefined {
    return this.entries.get(target)?.structure;
  }

  /** The structure of `target`, fetched if not cached; undefined when it cannot be read. */
  async get(
    target: string,
    signal: AbortSignal
  ): Promise<Structure | undefined> {
    let entry = this.entries.get(target);
    if (entry?.structure) {
      return entry.structure;
    }
    if (entry?.retryAt !== undefined && Date.now() < entry.retryAt) {
      return undefined;
    }
    if (!entry?.pending) {
      const fresh: Entry = {};
      fresh.pending = this.load(target, fresh);
      this.entries.set(target, fresh);
      entry = fresh;
    }
    return untilAborted(
      entry.pending as Promise<Structure | undefined>,
      signal
    );
  }

  private async load(
    target: string,
    entry: Entry
  ): Promise<Structure | undefined> {
    try {
      const structure = await this.fetch(
        target,
        AbortSignal.timeout(STRUCTURE_TIMEOUT_MS)
      );
      // An invalidation while the fetch ran replaced the entry: keep the answer out of the cache.
      if (this.entries.get(target) === entry) {
        entry.structure = structure;
      }
      return structure;
    } catch {
      // Refused (403, 404), unreadable, or too slow: searches show document columns for a while
      // instead of paying for the same failure each time.
      if (this.entries.get(target) === entry) {
        entry.retryAt = Date.now() + FAILED_RETRY_MS;
      }
      return undefined;
    } finally {
      delete entry.pending;
    }
  }

  /** Drops every entry the engine's rule says a change made stale (given the target and its members). */
  invalidate(stale: (target: string, members: string[]) => boolean): void {
    for (const [target, entry] of this.entries) {
      if (stale(target, entry.structure?.members ?? [])) {
        this.entries.delete(target);
      }
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

function untilAborted<T>(
  promise: Promise<T | undefined>,
  signal: AbortSignal
): Promise<T | undefined> {
  if (signal.aborted) {
    return Promise.resolve(undefined);
  }
  return new Promise(resolve => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(value => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/** What a driver keeps about its engine's mappings or schemas, around each request it sends. */
export interface RequestStructure {
  /** Drops what the request may change. */
  noteRequest(request: ConsoleRequest): void;
  /** Reads what the answer's grid needs; never fails. */
  prepare(
    request: ConsoleRequest,
    response: EngineResponse,
    signal: AbortSignal
  ): Promise<void>;
}

/**
 * Sends a request, then reads the structure its grid needs, so present() stays synchronous.
 * The request is noted even when sending fails: a write may have reached the engine before
 * the connection broke.
 */
export async function sendWithStructure(
  transport: Transport,
  structure: RequestStructure,
  request: ConsoleRequest,
  signal: AbortSignal,
  shapeOnly?: SourcesAt,
  early?: (bytes: Buffer) => Promise<void>
): Promise<EngineResponse> {
  let response: EngineResponse;
  try {
    response = await transport.send(request, signal, shapeOnly, early);
  } finally {
    structure.noteRequest(request);
  }
  await structure.prepare(request, response, signal);
  return response;
}

/** A mapping or schema answer (a GET of one) also as a field / type list; nothing for any other answer. */
export function structureFields(
  request: ConsoleRequest,
  response: EngineResponse,
  read: (response: EngineResponse) => Structure
): { fields?: { field: string; type: string }[] } {
  if (request.method !== 'GET' || response.status >= 300) {
    return {};
  }
  try {
    const fields = fieldTypesOf(read(response).tree);
    return fields.length > 0 ? { fields } : {};
  } catch {
    return {};
  }
}
