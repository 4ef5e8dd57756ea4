/**
 * The Driver interface: the only engine surface the rest of the kernel sees, one member per
 * capability (each a small interface under capabilities/). Each engine's folder
 * (elasticsearch/, typesense/) implements it; nothing outside those folders knows an engine's
 * paths, headers or response shapes.
 */
import type { EngineConsole } from './capabilities/console';
import type { Catalog } from './capabilities/catalog';
import type { Documents } from './capabilities/documents';
import type { DocumentWrites } from './capabilities/writes';
import type { TargetActions } from './capabilities/target-actions';
import type { DocumentExport } from './capabilities/export';
import type { AdminSections } from './capabilities/admin';
import type { ResourceAdmin } from './capabilities/resources';

export type {
  EngineResponse,
  AggregationResult,
  ConsoleResult,
  PresentedResult,
  SearchPart,
  EngineConsole
} from './capabilities/console';
export type {
  EndpointInfo,
  TargetListing,
  FieldNameOptions,
  Catalog
} from './capabilities/catalog';
export type {
  DocumentBlock,
  DocumentReader,
  OpenedGrid,
  FilterSyntax,
  Documents
} from './capabilities/documents';
export type { EditedGrid, DocumentWrites } from './capabilities/writes';
export type { TargetActions } from './capabilities/target-actions';
export type {
  ExportRequest,
  ExportPage,
  ExportStream,
  GridDocument,
  DocumentExport
} from './capabilities/export';
export type { KeyAdmin, AdminSections } from './capabilities/admin';

export type EngineName = string; // one of the names the engine registry lists (engines/engine-registry.ts)

/** What a connection learned about its engine when it connected. */
export interface EngineIdentity {
  version: string;
  /** Things the user should know but that do not stop the connection (an unsupported major). */
  warnings: string[];
  /** How the connection talks to the engine, said under the connect line (REST compatibility asked). */
  notes?: string[];
  /** The product that answered, where the engine module tells several apart (a fork speaking its API); else the descriptor's display name serves. */
  product?: string;
}

export interface Driver {
  readonly engine: EngineName;
  /** Checks what answers at the address and that the credentials work. */
  probe(signal: AbortSignal): Promise<EngineIdentity>;
  close(): Promise<void>;
  readonly console: EngineConsole;
  readonly catalog: Catalog;
  readonly documents: Documents;
  readonly writes: DocumentWrites;
  readonly targetActions: TargetActions;
  readonly export: DocumentExport;
  /** Absent when the engine offers the side panel no sections besides its targets. */
  readonly admin?: AdminSections;
  /** Absent when the engine has no resources besides documents that the panel manages. */
  readonly resources?: ResourceAdmin;
}
