/**
 * The engines searchbook speaks, one line each. An engine is a folder beside this file: its
 * descriptor (small, loaded at start) says what `%connect`, the profiles file and completion
 * need to know, and its module (loaded on the first connection) brings the driver.
 */
import type { EngineDescriptor } from '../engine/engine-module';
import { elasticsearchEngine } from './elasticsearch/descriptor';
import { typesenseEngine } from './typesense/descriptor';

export const ENGINES: readonly [EngineDescriptor, ...EngineDescriptor[]] = [
  elasticsearchEngine,
  typesenseEngine
];

/** The names `%connect` and profiles accept, in the registry's order. */
export const ENGINE_NAMES = ENGINES.map(engine => engine.name) as [
  string,
  ...string[]
];

/** Every word `%connect` takes for an engine: the names and their aliases. */
export const ENGINE_WORDS: readonly string[] = ENGINES.flatMap(engine => [
  engine.name,
  ...(engine.aliases ?? [])
]);

/** The registered name a `%connect` word stands for (itself when it is no alias). */
export function canonicalEngineName(word: string): string {
  return ENGINES.find(engine => engine.aliases?.includes(word))?.name ?? word;
}

/** The engine of that name (as written after `%connect` or in a profile), if one is registered. */
export function findEngine(
  name: string | undefined
): EngineDescriptor | undefined {
  return ENGINES.find(engine => engine.name === name);
}

/** The engine of a name already checked against the registry (a parsed `%connect` line, profile or connection). */
export function engineNamed(name: string): EngineDescriptor {
  const engine = findEngine(name);
  if (!engine) {
    throw new Error(`No engine named "${name}" is registered`);
  }
  return engine;
}
