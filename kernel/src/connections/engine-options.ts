/**
 * The `%connect` options and secret kinds of every registered engine, gathered from their
 * descriptors: which engine an option belongs to, and the credentials no line may hold.
 */
import { ConnectOptionsSchema } from '../driver-core/connect-options';
import type {
  EngineDescriptor,
  EngineTypedSecret
} from '../driver-core/engine-module';
import { ENGINES } from '../engines/engine-registry';
import type { TypedSecretKind } from '../../../contracts/typed-secrets';
import { withArticle } from './console-wording';

/** The options every engine takes (the engine's name aside). */
export const COMMON_OPTIONS: readonly string[] = Object.keys(
  ConnectOptionsSchema.shape
).filter(name => name !== 'engine');

/** Every engine's own kinds of typed secret. */
export const TYPED_SECRET_KINDS: readonly EngineTypedSecret[] = ENGINES.flatMap(
  engine => engine.typedSecrets ?? []
);

/** The kinds as the browser reads them: the matcher's names and the words, without the kernel's advice. */
export const BROWSER_SECRET_KINDS: readonly TypedSecretKind[] =
  TYPED_SECRET_KINDS.map(({ option, names, words, removeTitle }) => ({
    option,
    names,
    words,
    removeTitle
  }));

/** A `%connect` line's options other than the common ones, sorted by whose they are. */
export interface EngineOptionFields {
  /** The engine's own, as written. */
  own: Record<string, string>;
  /** Options of other engines only: the refusal names whose they are. */
  foreign: string[];
  /** Options no registered engine takes. */
  unknown: string[];
}

export function engineOptionFields(
  engine: EngineDescriptor,
  fields: Readonly<Record<string, string>>
): EngineOptionFields {
  const sorted: EngineOptionFields = { own: {}, foreign: [], unknown: [] };
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'engine' || COMMON_OPTIONS.includes(name)) {
      continue;
    }
    if (Object.hasOwn(engine.connect.options, name)) {
      sorted.own[name] = value;
    } else if (ownersOf(name).length) {
      sorted.foreign.push(name);
    } else {
      sorted.unknown.push(name);
    }
  }
  return sorted;
}

/** The options `%connect` to this engine takes, for the list an unknown option's refusal shows. */
export function optionsOf(engine: EngineDescriptor): string[] {
  return [...COMMON_OPTIONS, ...Object.keys(engine.connect.options)];
}

/**
 * One refusal for options another engine takes and this one does not:
 * `compat= is an Elasticsearch option, not a Typesense one; leave it out.`
 */
export function foreignOptionsRefusal(
  engine: EngineDescriptor,
  names: readonly string[]
): string | undefined {
  if (!names.length) {
    return undefined;
  }
  const byOwner = new Map<string, string[]>();
  for (const name of names) {
    const owners = ownersOf(name)
      .map(owner => owner.displayName)
      .join(' and ');
    byOwner.set(owners, [...(byOwner.get(owners) ?? []), name]);
  }
  const sentences = [...byOwner].map(([owners, options]) =>
    options.length === 1
      ? `${options[0]}= is ${withArticle(owners)} option, not ${withArticle(engine.displayName)} one; leave it out`
      : `${options.map(o => `${o}=`).join(', ')} are ${owners} options, not ${engine.displayName} ones; leave them out`
  );
  return `%connect: ${sentences.join('; ')}.`;
}

function ownersOf(option: string): EngineDescriptor[] {
  return ENGINES.filter(engine =>
    Object.hasOwn(engine.connect.options, option)
  );
}
