/**
 * The engines searchbook speaks, one line each. An engine is a folder beside this file whose
 * module says everything the rest of the kernel needs to know about it; each folder loads on
 * its first use, which keeps kernel start fast.
 */
import type { EngineModule } from '../engine/engine-module';
import type { EngineName } from '../engine/driver';

export const ENGINE_MODULES: Record<EngineName, () => Promise<EngineModule>> = {
  elasticsearch: async () => (await import('./elasticsearch/engine-module')).elasticsearchModule,
  typesense: async () => (await import('./typesense/engine-module')).typesenseModule,
};
