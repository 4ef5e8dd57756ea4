import type { ConsoleRequest, Refusal } from '../../console/cell';
import { asObject } from '../document-columns';
import { type Driver, type EndpointInfo, EngineError, type EngineIdentity, type EngineResponse, type PresentedResult } from '../driver';
import { sendWithStructure } from '../structure-cache';
import type { Transport } from '../transport';
import { loadEndpoints } from './endpoints';
import { typesenseFailure } from './failure';
import { presentTypesense } from './present';
import { queryStringRefusal } from './query-check';
import { TypesenseStructure } from './structure';

export class TypesenseDriver implements Driver {
  readonly engine = 'typesense' as const;

  private readonly structure: TypesenseStructure;

  constructor(private readonly transport: Transport) {
    this.structure = new TypesenseStructure(transport);
  }

  async probe(signal: AbortSignal): Promise<EngineIdentity> {
    const debug = await this.transport.send({ method: 'GET', path: '/debug', query: '' }, signal);
    const version = debug.body.kind === 'json' ? asObject(debug.body.value)?.version : undefined;
    if (debug.status === 401) throw typesenseFailure(debug) ?? new EngineError('Authentication failed', 'Forbidden - a valid API key header must be sent.', 401);
    if (typeof version !== 'string') {
      throw new EngineError('Connection failed', `Connection failed: GET /debug answered ${debug.status} without a Typesense version; is this a Typesense address?`, debug.status);
    }
    // /health answers without a key, so the key is proven on a listing.
    const collections = await this.transport.send({ method: 'GET', path: '/collections', query: '' }, signal);
    const refused = typesenseFailure(collections);
    if (refused?.ename === 'Authentication failed') throw refused;
    const major = Number.parseFloat(version.replace(/^v/, ''));
    const warnings = Number.isFinite(major) && major < 26 ? [`Typesense ${version} is older than 26.0, the oldest version searchbook supports.`] : [];
    return { version, warnings };
  }

  refusal(request: ConsoleRequest): Refusal | undefined {
    return queryStringRefusal(request);
  }

  send(request: ConsoleRequest, signal: AbortSignal): Promise<EngineResponse> {
    return sendWithStructure(this.transport, this.structure, request, signal);
  }

  failure(_request: ConsoleRequest, response: EngineResponse): EngineError | undefined {
    return typesenseFailure(response);
  }

  present(request: ConsoleRequest, response: EngineResponse): PresentedResult {
    return presentTypesense(request, response, (search) => this.structure.treeFor(search));
  }

  endpoints(): Promise<EndpointInfo[]> {
    return loadEndpoints();
  }

  targetNames(signal: AbortSignal): Promise<string[]> {
    return this.structure.targetNames(signal);
  }

  fieldNames(target: string, signal: AbortSignal): Promise<string[]> {
    return this.structure.fieldNames(target, signal);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
