import type { ConsoleRequest } from '../../console/cell';
import { asObject } from '../document-columns';
import { type ConsoleResult, type Driver, type EndpointInfo, EngineError, type EngineIdentity, type EngineResponse } from '../driver';
import type { Transport } from '../transport';
import { loadEndpoints } from './endpoints';
import { elasticsearchFailure } from './failure';
import { presentElasticsearch } from './present';

export class ElasticsearchDriver implements Driver {
  readonly engine = 'elasticsearch' as const;

  constructor(private readonly transport: Transport) {}

  async probe(signal: AbortSignal): Promise<EngineIdentity> {
    const response = await this.transport.send({ method: 'GET', path: '/', query: '' }, signal);
    const failure = elasticsearchFailure(response, { secure: this.transport.secure });
    if (failure?.ename === 'Authentication failed') throw failure;
    const body = response.body.kind === 'json' ? asObject(response.body.value) : undefined;
    const version = asObject(body?.version)?.number;
    if (response.status !== 200 || typeof version !== 'string') {
      throw new EngineError('Connection failed', `Connection failed: GET / answered ${response.status} without an Elasticsearch version; is this an Elasticsearch address?`, response.status);
    }
    const warnings: string[] = [];
    const major = Number(version.split('.')[0]);
    if (major !== 7 && major !== 8) warnings.push(`Elasticsearch ${version} is not a supported version (7.x and 8.x are); requests are sent as written.`);
    if (response.headers['x-elastic-product'] !== 'Elasticsearch' && major >= 7) {
      warnings.push('The server did not send the X-Elastic-Product header: it may be a fork of Elasticsearch, which searchbook does not support.');
    }
    return { version, warnings };
  }

  send(request: ConsoleRequest, signal: AbortSignal): Promise<EngineResponse> {
    return this.transport.send(request, signal);
  }

  failure(_request: ConsoleRequest, response: EngineResponse): EngineError | undefined {
    return elasticsearchFailure(response, { secure: this.transport.secure });
  }

  present(request: ConsoleRequest, response: EngineResponse): ConsoleResult {
    return presentElasticsearch(request, response);
  }

  endpoints(): Promise<EndpointInfo[]> {
    return loadEndpoints();
  }

  async targetNames(signal: AbortSignal): Promise<string[]> {
    const response = await this.transport.send({ method: 'GET', path: '/_cat/indices', query: 'format=json&h=index' }, signal);
    if (response.body.kind !== 'json' || !Array.isArray(response.body.value)) return [];
    return response.body.value.map((row) => asObject(row)?.index).filter((n): n is string => typeof n === 'string' && !n.startsWith('.'));
  }

  async fieldNames(target: string, signal: AbortSignal): Promise<string[]> {
    const response = await this.transport.send({ method: 'GET', path: `/${encodeURIComponent(target)}/_mapping`, query: '' }, signal);
    if (response.body.kind !== 'json') return [];
    const names = new Set<string>();
    for (const index of Object.values(asObject(response.body.value) ?? {})) {
      collectFields(asObject(asObject(asObject(index)?.mappings)?.properties), '', names);
    }
    return [...names];
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

function collectFields(properties: Record<string, unknown> | undefined, prefix: string, into: Set<string>): void {
  for (const [name, definition] of Object.entries(properties ?? {})) {
    const path = prefix + name;
    into.add(path);
    const def = definition as { properties?: Record<string, unknown>; fields?: Record<string, unknown> };
    if (def.properties) collectFields(def.properties, `${path}.`, into);
    for (const sub of Object.keys(def.fields ?? {})) into.add(`${path}.${sub}`);
  }
}
