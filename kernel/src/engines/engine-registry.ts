/**
 * The engines searchbook speaks, two lines each (its import and its place in the list). An
 * engine is a folder beside this file: its descriptor (small, loaded at start) says what
 * `%connect`, the profiles file and completion need to know, including its own `%connect`
 * options and secret kinds, and its module (loaded on the first connection) brings the driver.
 */
import { engineRegistry } from '../driver-core/engine-registry-builder';
import { elasticsearchEngine } from './elasticsearch/descriptor';
import { typesenseEngine } from './typesense/descriptor';

export const {
  ENGINES,
  ENGINE_NAMES,
  ENGINE_WORDS,
  canonicalEngineName,
  findEngine,
  engineNamed
} = engineRegistry([elasticsearchEngine, typesenseEngine]);
