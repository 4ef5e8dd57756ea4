/**
 * Variables of a console session: `%set name = <JSON>` values (or values read from an answer
 * with a JMESPath expression), where each came from, and `${env:NAME}` lookups.
 * The parser works on a clone, so a dry run never changes the kernel's real scope.
 */
import type { JsonValue } from '../../../contracts/json';

export type EnvLookup = (name: string) => string | undefined;

/**
 * Where a scope reports each environment value it reads. The kernel's session passes its
 * SecretMask (render/secret-mask.ts), which masks them in every output; a scope nobody's outputs
 * come from (the panel's, a completeness check, a test's) records them nowhere.
 */
export interface SecretRecorder {
  add(secret: string, shown: string): void;
}

const RECORDS_NOTHING: SecretRecorder = { add: () => undefined };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True for names that `%set` accepts and `${name}` can reference. */
export function isVariableName(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Where a variable's value came from, as `%vars` says it. */
export type VariableOrigin =
  | { kind: 'literal' }
  | {
      kind: 'expression';
      /** The JMESPath expression as written. */
      expression: string;
      /** The `%name` of the answer it read; none for the last answer. */
      answer?: string;
      /** The request whose answer it read, as outputs show it (`es: GET /products/_search`). */
      from: string;
    };

const LITERAL: VariableOrigin = { kind: 'literal' };

/** The JSON a cell's `${name}` references may write in all: four variables of the most one holds. */
export const MAX_SUBSTITUTED_BYTES = 32 * 1024 * 1024;

export class VariableScope {
  private readonly values: Map<string, JsonValue>;
  private readonly origins = new Map<string, VariableOrigin>();
  /** JSON written by `${name}` references through this scope (a cell's check works on a fresh clone). */
  private substituted = 0;

  constructor(
    /** Injectable so tests never depend on (or leak) the real environment. */
    private readonly envLookup: EnvLookup = name => process.env[name],
    initial?: Iterable<readonly [string, JsonValue]>,
    /** Told every environment value read through this scope (and its clones): the session's SecretMask masks them in outputs. */
    readonly secrets: SecretRecorder = RECORDS_NOTHING
  ) {
    this.values = new Map(initial);
  }

  get(name: string): JsonValue | undefined {
    return this.values.get(name);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  set(name: string, value: JsonValue, origin: VariableOrigin = LITERAL): void {
    if (!isVariableName(name)) {
      throw new Error(`Not a variable name: ${name}`);
    }
    this.values.set(name, value);
    this.origins.set(name, origin);
  }

  /** Where the variable's value came from (a literal when set without saying). */
  origin(name: string): VariableOrigin {
    return this.origins.get(name) ?? LITERAL;
  }

  delete(name: string): boolean {
    this.origins.delete(name);
    return this.values.delete(name);
  }

  names(): string[] {
    return [...this.values.keys()].sort();
  }

  entries(): [string, JsonValue][] {
    return this.names().map(name => [name, this.values.get(name) as JsonValue]);
  }

  /** The environment variable's value; callers must never echo it in messages (outputs mask it). */
  env(name: string): string | undefined {
    const value = this.envLookup(name);
    if (value !== undefined) {
      this.secrets.add(value, `\${env:${name}}`);
    }
    return value;
  }

  /** An environment variable that holds no secret (an address): read without masking it in outputs. */
  envAddress(name: string): string | undefined {
    return this.envLookup(name);
  }

  /**
   * Counts `bytes` of JSON written by a reference; false once the references through this scope
   * would write more than MAX_SUBSTITUTED_BYTES (each one copies its value into the request).
   */
  spend(bytes: number): boolean {
    this.substituted += bytes;
    return this.substituted <= MAX_SUBSTITUTED_BYTES;
  }

  /** A copy sharing the env lookup; values are shared too, which is safe because nothing mutates them. */
  clone(): VariableScope {
    return new VariableScope(this.envLookup, this.values, this.secrets);
  }
}
