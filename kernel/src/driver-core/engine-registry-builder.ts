/**
 * What the kernel derives from its list of engines: the names `%connect` and profiles accept,
 * the words that stand for them, and the look-ups by name. engines/engine-registry.ts applies it to the
 * product's engines; a list of other engines gets the same (the tests register one of theirs).
 */
import type { EngineDescriptor } from './engine-module';

export interface EngineRegistry {
  readonly ENGINES: readonly [EngineDescriptor, ...EngineDescriptor[]];
  /** The names `%connect` and profiles accept, in the registry's order. */
  readonly ENGINE_NAMES: [string, ...string[]];
  /** Every word `%connect` takes for an engine: the names and their aliases. */
  readonly ENGINE_WORDS: readonly string[];
  /** The registered name a `%connect` word stands for (itself when it is no alias). */
  canonicalEngineName(word: string): string;
  /** The engine of that name (as written after `%connect` or in a profile), if one is registered. */
  findEngine(name: string | undefined): EngineDescriptor | undefined;
  /** The engine of a name already checked against the registry (a parsed `%connect` line, profile or connection). */
  engineNamed(name: string): EngineDescriptor;
}

export function engineRegistry(
  engines: readonly [EngineDescriptor, ...EngineDescriptor[]]
): EngineRegistry {
  const findEngine = (name: string | undefined) =>
    engines.find(engine => engine.name === name);
  return {
    ENGINES: engines,
    ENGINE_NAMES: engines.map(engine => engine.name) as [string, ...string[]],
    ENGINE_WORDS: engines.flatMap(engine => [
      engine.name,
      ...(engine.aliases ?? [])
    ]),
    canonicalEngineName: word =>
      engines.find(engine => engine.aliases?.includes(word))?.name ?? word,
    findEngine,
    engineNamed(name) {
      const engine = findEngine(name);
      if (!engine) {
        throw new Error(`No engine named "${name}" is registered`);
      }
      return engine;
    }
  };
}
