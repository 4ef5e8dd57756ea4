import { ELASTICSEARCH_SQL_ADVICE } from './sql-advice';
import type { ConsoleRequest, Refusal } from '../../console/cell';
import { asObject } from '../../driver-core/document-columns';
import type { Driver, EngineIdentity } from '../../driver-core/driver';
import type {
  ConsoleReading,
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
import {
  documentWrites,
  wholeDocument,
  wholeValue
} from '../../driver-core/edit-runner';
import {
  ConnectionFailedError,
  type EngineError
} from '../../driver-core/errors';
import { targetSegment } from '../../driver-core/grid-request';
import { sendWithStructure } from '../../driver-core/structure-cache';
import type { SourcesAt } from '../../driver-core/http/shared-sources';
import { curlOfRequest, isEmptyView } from '../../driver-core/grid-view';
import type { Transport } from '../../driver-core/http/transport';
import { loadEndpoints } from './endpoints';
import { openSearchEndpoints } from './opensearch-endpoints';
import { servedEndpoints } from './served-endpoints';
import {
  compatibilityMediaTypes,
  compatibilityNote,
  refuseCompatibility
} from './compatibility';
import { openElasticsearchExport } from './export';
import { ElasticsearchEdits } from './edits';
import { elasticsearchFailure } from './failure';
import { listIndices } from './index-listing';
import { curlTarget, searchRequest } from './grid-cell';
import { pythonClient } from './python-client';
import type { PythonClient } from '../../driver-core/python-code';
import { OPERATORS, searchOfView } from './grid-query';
import { openPointInTimeReader } from './point-in-time-reader';
import { presentElasticsearch } from './present';
import { ClusterOverview, OVERVIEW_TITLE } from './cluster-overview';
import { ElasticsearchStructure } from './structure';
import { ElasticsearchVersion } from './version';
import { leftOutVectorsNotice } from './vector-notice';
import { storageNotes } from './index-storage';
import { removedInNine } from './removed-in-nine';
import {
  isServerless,
  probeServerless,
  SERVERLESS_FLAVOUR
} from './serverless';
import { elasticsearchPartialFailures } from './partial-failures';
import type { PartialFailure } from '../../../../contracts/mime-types';
import {
  ELASTICSEARCH_FLAVOUR,
  type Flavour,
  flavourOf,
  unsupportedVersion
} from './flavour';

export class ElasticsearchDriver implements Driver {
  readonly engine = 'elasticsearch' as const;

  readonly console: EngineConsole;
  readonly catalog: Catalog;
  readonly documents: Documents;
  readonly writes: DocumentWrites;
  readonly targetActions: TargetActions;
  readonly export: DocumentExport;
  readonly admin: AdminSections;
  /** Elasticsearch until `GET /` says otherwise. */
  private flavour: Flavour = ELASTICSEARCH_FLAVOUR;

  /** Learnt by probe(), before anything else is sent. */
  private readonly version = new ElasticsearchVersion();

  /**
   * @param compatibleWith The major version every request asks to be served as
   * (`compat=` of %connect), checked against the node's version on connect.
   */
  constructor(
    private readonly transport: Transport,
    private readonly compatibleWith?: number
  ) {
    const version = this.version;
    const structure = new ElasticsearchStructure(transport);
    const flavour = () => this.flavour;
    this.console = new ElasticsearchConsole(
      transport,
      structure,
      flavour,
      version,
      compatibleWith
    );
    this.catalog = {
      endpoints: async () =>
        this.flavour.product === 'OpenSearch'
          ? openSearchEndpoints(await loadEndpoints())
          : servedEndpoints(await loadEndpoints(), {
              version: this.flavour.version || undefined,
              ...(compatibleWith !== undefined ? { compatibleWith } : {})
            }),
      listTargets: (signal, options) =>
        options?.recent
          ? structure.recentTargets(signal)
          : listIndices(transport, signal, { counts: true }),
      fieldNames: (target, signal, options) =>
        structure.fieldNames(target, signal, options)
    };
    const edits = new ElasticsearchEdits(
      transport,
      (index, signal) => structure.tree(index, signal),
      ({ method, path, query }) =>
        structure.noteRequest({
          kind: 'request',
          method,
          path,
          query,
          line: 1
        }),
      version,
      () => this.flavour.product,
      (index, signal) => structure.indexStorage(index, signal)
    );
    this.documents = {
      open: async (target, blockSize, view, signal, firstRows) => {
        const tree = structure.tree(targetSegment(target), signal);
        // A view is translated before the point in time opens, so a refused filter sends nothing;
        // the whole target in engine order needs no mapping first, and reads it meanwhile.
        const { query, sort, sortedBy, notes, rankedBy } = searchOfView(
          view,
          isEmptyView(view) ? undefined : await tree,
          flavour()
        );
        const opened = await openPointInTimeReader(
          {
            transport,
            target,
            blockSize,
            tree,
            query,
            sort,
            ...(rankedBy ? { rankedBy } : {}),
            flavour: flavour(),
            rowSource: version.searchSource()
          },
          signal,
          firstRows
        );
        // An index replaced outside this kernel is known again as soon as a grid opens on it.
        structure.rememberStorage(opened.storage);
        const { keys, versions } = opened.first;
        // Rows read without a sequence number (asked for) are written without a condition.
        const unversioned = (keys ?? [])
          .filter((_, at) => versions?.[at] === null)
          .map(key => key.index);
        const stored = storageNotes(
          target,
          opened.storage,
          unversioned,
          await structure.syntheticByMapping(targetSegment(target), signal),
          flavour().product
        );
        return {
          reader: opened.reader,
          first: opened.first,
          notes: [...opened.notes, ...notes, ...stored],
          sortedBy,
          request: searchRequest(
            transport,
            target,
            blockSize,
            query,
            sort,
            version.searchSource()
          )
        };
      },
      wholeValue: (row, column, signal) =>
        wholeValue((r, s) => edits.currentRow(r, s), row, column, signal),
      wholeDocument: (row, signal) =>
        wholeDocument((r, s) => edits.wholeDocument(r, s), row, signal),
      filters: {
        matchCase: true,
        operators: OPERATORS,
        rawHint: 'query string, e.g. name:Widget AND price:>10'
      }
    };
    this.writes = documentWrites(edits.writes);
    this.targetActions = edits;
    this.export = {
      open: (request, signal) =>
        openElasticsearchExport(
          transport,
          request,
          target => structure.tree(target, signal),
          signal,
          this.flavour,
          version,
          target => structure.syntheticByMapping(target, signal)
        )
    };
    const overview = new ClusterOverview(transport);
    this.admin = {
      offers: { metrics: { title: OVERVIEW_TITLE, refreshMs: 2000 } },
      metrics: signal => overview.read(signal)
    };
  }

  async probe(signal: AbortSignal): Promise<EngineIdentity> {
    if (isServerless(this.transport)) {
      this.flavour = SERVERLESS_FLAVOUR;
      return probeServerless(this.transport, signal);
    }
    const response = await this.transport.send(
      { method: 'GET', path: '/', query: '' },
      signal
    );
    const failure = elasticsearchFailure(response, this.flavour.product);
    if (failure?.code === 'SEARCHBOOK_ERR_AUTHENTICATION_FAILED') {
      throw failure;
    }
    const body =
      response.body.kind === 'json' ? asObject(response.body.value) : undefined;
    const versionObject = asObject(body?.version);
    const version = versionObject?.number;
    if (response.status !== 200 || typeof version !== 'string') {
      throw new ConnectionFailedError(
        `Connection failed: GET / answered ${response.status} without an Elasticsearch version; is this an Elasticsearch address?`,
        response.status
      );
    }
    this.flavour = flavourOf({
      number: version,
      distribution: versionObject?.distribution
    });
    // Asked before any other request, so a node is never sent a compatibility it refuses.
    const refused = refuseCompatibility(this.flavour, this.compatibleWith);
    if (refused) {
      throw new ConnectionFailedError(refused, response.status);
    }
    const mediaTypes = compatibilityMediaTypes(
      this.flavour,
      this.compatibleWith
    );
    if (mediaTypes) {
      this.transport.useMediaTypes(mediaTypes);
    }
    const warnings: string[] = [];
    if (this.flavour.product === 'Elasticsearch') {
      this.version.learn(version);
    }
    const unsupported = unsupportedVersion(this.flavour);
    if (unsupported) {
      warnings.push(unsupported);
    }
    const major = Number(version.split('.')[0]);
    if (
      this.flavour.product === 'Elasticsearch' &&
      response.headers['x-elastic-product'] !== 'Elasticsearch' &&
      major >= 7
    ) {
      warnings.push(
        'The server did not send the X-Elastic-Product header: it may be a fork of Elasticsearch, which searchbook does not support.'
      );
    }
    const notes = mediaTypes
      ? [compatibilityNote(this.flavour, this.compatibleWith)]
      : [];
    return {
      version,
      warnings,
      product: this.flavour.product,
      ...(notes.length > 0 ? { notes } : {})
    };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** Where a search answer's documents keep their fields (the hits layout of present.ts). */
const HITS_SOURCES: SourcesAt = { at: ['hits', 'hits'], source: '_source' };

/** A search (`/_search`, `/index/_search`): the requests whose answers' bytes may go ahead early. */
const SEARCH_PATH = /(?:^|\/)_search\/?$/;

/** Cells sent as written; mappings read around them so answers show in mapping order. */
class ElasticsearchConsole implements EngineConsole {
  readonly sqlAdvice = ELASTICSEARCH_SQL_ADVICE;

  constructor(
    private readonly transport: Transport,
    private readonly structure: ElasticsearchStructure,
    private readonly flavour: () => Flavour,
    private readonly version: ElasticsearchVersion,
    private readonly compatibleWith: number | undefined
  ) {}

  /**
   * Query strings are read as URLs do (flags such as `?pretty` have no value); on 9.x, what
   * 9.x removed is refused, unless requests ask for 8.x compatibility, which still serves it.
   */
  refusal(request: ConsoleRequest): Refusal | undefined {
    return this.version.isNineOrLater() && this.compatibleWith !== 8
      ? removedInNine(request)
      : undefined;
  }

  async send(
    request: ConsoleRequest,
    signal: AbortSignal,
    reading: ConsoleReading = {}
  ): Promise<EngineResponse> {
    const response = await sendWithStructure(
      this.transport,
      this.structure,
      request,
      signal,
      reading.shapeOnly ? HITS_SOURCES : undefined,
      reading.shapeOnly && SEARCH_PATH.test(request.path)
        ? reading.early
        : undefined
    );
    const vectors = this.vectorsNotice(request, response);
    if (!vectors) {
      return response;
    }
    return {
      ...response,
      notice: response.notice ? `${response.notice}\n${vectors}` : vectors
    };
  }

  /** Said under a search's hits when the mapping has vector fields the engine left out of them. */
  private vectorsNotice(
    request: ConsoleRequest,
    response: EngineResponse
  ): string | undefined {
    return this.version.leavesOutVectors()
      ? leftOutVectorsNotice(
          response,
          this.structure.treeFor(request, response)
        )
      : undefined;
  }

  curl(request: ConsoleRequest): string {
    return curlOfRequest(request, curlTarget(this.transport));
  }

  python(): PythonClient {
    return pythonClient(this.transport, this.flavour());
  }

  failure(
    _request: ConsoleRequest,
    response: EngineResponse
  ): EngineError | undefined {
    return elasticsearchFailure(response, this.flavour().product);
  }

  partialFailures(
    _request: ConsoleRequest,
    response: EngineResponse
  ): PartialFailure[] {
    return elasticsearchPartialFailures(response);
  }

  present(request: ConsoleRequest, response: EngineResponse): PresentedResult {
    return presentElasticsearch(request, response, {
      treeFor: (search, answer) => this.structure.treeFor(search, answer),
      partNotice: (search, answer) => this.vectorsNotice(search, answer)
    });
  }
}
