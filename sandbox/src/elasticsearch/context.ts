import type { SecurityOptions } from './auth';
import type { Exchange } from './exchange';
import type { ClusterState } from './state';
import type { EsVersion } from './version';

/** What every handler gets besides the exchange. */
export interface Context {
  state: ClusterState;
  version: EsVersion;
  security: SecurityOptions;
  clusterName: string;
  nodeName: string;
}

export type Handler = (ex: Exchange, ctx: Context) => void | Promise<void>;
