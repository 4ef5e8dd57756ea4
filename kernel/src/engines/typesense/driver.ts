import { TYPESENSE_SQL_ADVICE } from './sql-advice';
import type { ConsoleRequest, Refusal } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';
import type { Driver, EngineIdentity } from '../../driver-core/driver';
import type {
  EngineConsole,
  EngineResponse,
  PresentedResult
} from '../../driver-core/capabilities/console';
import type { Catalog } from '../../driver-core/capabilities/catalog';
import type { Documents } from '../../driver-core/capabilities/documents';
import type { DocumentWrites } from '../../driver-core/capabilities/writes';
import type { TargetActions } from '../../driver-core/capabilities/target-actions';
import type { DocumentExport } from '../../driver-core/capabilities/export';
import type { AdminSections } from '../../driver-core/capabilities/admin';
import type { ResourceAdmin } from '../../driver-core/capabilities/resources';
import { typesenseResources } from './resources';
import {
  documentWrites,
  wholeDocument,
  wholeValue
} from '../../driver-core/edit-runner';
import {
  AuthenticationFailedError,
  ConnectionFailedError,
  type EngineError
} from '../../driver-core/errors';
import { sendWithStructure } from '../../driver-core/structure-cache';
import { curlOfRequest, isEmptyView } from '../../driver-core/grid-view';
import type { Transport } from '../../driver-core/http/transport';
import { loadEndpoints } from './endpoints';
import { CANNOT_LIST_NOTE, listCollections } from './collection-listing';
import { KEY_HEADER } from './connection-settings';
import { openCollectionReader } from './collection-reader';
import {
  majorOf,
  OLDEST_TESTED,
  OLDEST_TESTED_MAJOR,
  pagesOnly
} from './versions';
import { curlTarget, searchRequest } from './grid-cell';
import { pythonClient } from './python-client';
import type { PythonClient } from '../../driver-core/python-code';
import { operatorsFor, searchOfView } from './grid-filter';
import { previewOffer } from './search-preview';
import { openTypesenseExport } from './export';
import { TypesenseEdits } from './edits';
import { typesenseFailure } from './failure';
import { presentTypesense } from './present';
import { DASHBOARD_TITLE, typesenseDashboard } from './server-dashboard';
import {
  IMMUTABLE_NOTE,
  KEY_CHOICES,
  SCOPED_KEYS,
  typesenseKeys
} from './key-admin';
import { queryStringRefusal } from './query-check';
import { TypesenseStructure } from './structure';
import { typesensePartialFailures } from './partial-failures';
import type { PartialFailure } from '../../../../contracts/mime-types';

export class TypesenseDriver implements Driver {
  readonly engine = 'typesense' as const;

  /** The server's version as the probe read it; undefined when the key may not read it. */
  private version: string | undefined;
  readonly console: EngineConsole;
  readonly catalog: Catalog;
  readonly documents: Documents;
  readonly writes: DocumentWrites;
  readonly targetActions: TargetActions;
  readonly export: DocumentExport;
  readonly admin: AdminSections;
  readonly resources: ResourceAdmin;

  constructor(private readonly transport: Transport) {
    const structure = new TypesenseStructure(transport);
    this.console = new TypesenseConsole(transport, structure);
    this.catalog = {
      endpoints: () => loadEndpoints(),
      listTargets: (signal, options) =>
        options?.recent
          ? structure.recentTargets(signal)
          : listCollections(transport, signal),
      fieldNames: (target, signal, options) =>
        structure.fieldNames(target, signal, options)
    };
    const edits = new TypesenseEdits(
      transport,
      (collection, signal) => structure.tree(collection, signal),
      ({ method, path, query }) =>
        structure.noteRequest({
          kind: 'request',
          method,
          path,
          query,
          line: 1
        }),
      () => this.version
    );
    const currentVersion = (): string | undefined => this.version;
    this.documents = {
      open: async (collection, blockSize, view, signal, firstRows) => {
        const tree = structure.tree(collection, signal);
        // A view is translated before any search, so a refused filter sends nothing; the whole
        // collection in engine order needs no schema first, and reads it meanwhile.
        const { parameters, sortedBy, notes } = searchOfView(
          view,
          isEmptyView(view) && !view.search ? undefined : await tree,
          this.version
        );
        const byPages = pagesOnly(this.version);
        const opened = await openCollectionReader(
          { transport, collection, blockSize, tree, parameters, byPages },
          signal,
          firstRows
        );
        return {
          ...opened,
          notes,
          sortedBy,
          request: searchRequest(transport, collection, parameters, byPages),
          searchPreview: previewOffer(await tree)
        };
      },
      wholeValue: (row, column, signal) =>
        wholeValue((r, s) => edits.currentRow(r, s), row, column, signal),
      wholeDocument: (row, signal) =>
        wholeDocument((r, s) => edits.wholeDocument(r, s), row, signal),
      filters: {
        matchCase: false,
        // Read when a grid opens, after %connect read the version.
        get operators() {
          return operatorsFor(currentVersion());
        },
        rawHint: 'filter_by, e.g. price:>10 && tag:=[a]'
      },
      searches: true
    };
    this.writes = documentWrites(edits.writes);
    this.targetActions = edits;
    this.export = {
      open: (request, signal) =>
        openTypesenseExport(
          transport,
          request,
          target => structure.tree(target, signal),
          signal,
          this.version
        )
    };
    this.admin = {
      offers: {
        keys: {
          title: 'Keys',
          immutableNote: IMMUTABLE_NOTE,
          actionChoices: KEY_CHOICES,
          scoped: SCOPED_KEYS
        },
        metrics: { title: DASHBOARD_TITLE, refreshMs: 2000 }
      },
      keys: typesenseKeys(transport),
      metrics: signal => typesenseDashboard(transport, signal)
    };
    this.resources = typesenseResources(transport, () => this.version);
  }

  async probe(signal: AbortSignal): Promise<EngineIdentity> {
    const debug = await this.transport.send(
      { method: 'GET', path: '/debug', query: '' },
      signal
    );
    const version =
      debug.body.kind === 'json'
        ? asObject(debug.body.value)?.version
        : undefined;
    if (debug.status === 401) {
      return this.probeScopedKey(debug, signal);
    }
    if (typeof version !== 'string') {
      throw new ConnectionFailedError(
        `Connection failed: GET /debug answered ${debug.status} without a Typesense version; is this a Typesense address?`,
        debug.status
      );
    }
    this.version = version;
    // 0.24 and 0.25 answer as 26+ does in all searchbook reads, but for paging (see pagesOnly) and the stopwords they lack.
    const major = majorOf(version);
    const warnings =
      Number.isFinite(major) && major < OLDEST_TESTED_MAJOR
        ? [
            `Typesense ${version} is older than ${OLDEST_TESTED}, the oldest version searchbook was tried with: what it shows may be incomplete. Upgrade the server to ${OLDEST_TESTED} or later (26 or later for every feature).`
          ]
        : [];
    // A key without collections:list still opens the connection (it may search collections it is given by name); the side panel says why it lists nothing.
    const collections = await this.transport.send(
      { method: 'GET', path: '/collections', query: '' },
      signal
    );
    if (collections.status === 401) {
      warnings.push(CANNOT_LIST_NOTE);
    }
    return { version, warnings };
  }

  /**
   * Typesense answers 401 alike to a wrong key and to a key scoped to searches
   * ([authentication](https://typesense.org/docs/latest/api/authentication.html)), so a key that may not read /debug is not refused: /health (which needs no key) shows
   * that Typesense answers, and the connection opens with a warning. Only a missing key is refused.
   */
  private async probeScopedKey(
    debug: EngineResponse,
    signal: AbortSignal
  ): Promise<EngineIdentity> {
    const refused =
      typesenseFailure(debug) ??
      new AuthenticationFailedError(
        'Forbidden - a valid API key header must be sent.',
        401
      );
    if (!this.transport.copy.sendsHeader(KEY_HEADER)) {
      throw refused;
    }
    const health = await this.transport.send(
      { method: 'GET', path: '/health', query: '' },
      signal
    );
    const ok =
      health.body.kind === 'json' ? asObject(health.body.value)?.ok : undefined;
    if (typeof ok !== 'boolean') {
      throw refused;
    }
    return {
      // Shown as "Connected to Typesense (version not readable with this key) at ...".
      version: '(version not readable with this key)',
      warnings: [
        'Typesense refused this key GET /debug (401): it is either wrong or scoped to some actions (a search-only key). The connection is open; if the key is wrong, every request will answer 401 Forbidden.',
        CANNOT_LIST_NOTE
      ]
    };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** Cells sent as written, once their query string is one Typesense reads as meant; schemas read around them. */
class TypesenseConsole implements EngineConsole {
  readonly sqlAdvice = TYPESENSE_SQL_ADVICE;

  constructor(
    private readonly transport: Transport,
    private readonly structure: TypesenseStructure
  ) {}

  refusal(request: ConsoleRequest): Refusal | undefined {
    return queryStringRefusal(request);
  }

  send(request: ConsoleRequest, signal: AbortSignal): Promise<EngineResponse> {
    return sendWithStructure(this.transport, this.structure, request, signal);
  }

  curl(request: ConsoleRequest): string {
    return curlOfRequest(request, curlTarget(this.transport));
  }

  python(): PythonClient {
    return pythonClient(this.transport);
  }

  failure(
    _request: ConsoleRequest,
    response: EngineResponse
  ): EngineError | undefined {
    return typesenseFailure(response);
  }

  partialFailures(
    request: ConsoleRequest,
    response: EngineResponse
  ): PartialFailure[] {
    return typesensePartialFailures(request, response);
  }

  present(request: ConsoleRequest, response: EngineResponse): PresentedResult {
    return presentTypesense(request, response, search =>
      this.structure.treeFor(search)
    );
  }
}
