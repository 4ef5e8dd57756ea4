import { z } from 'zod';
import {
  type ConnectArgs,
  ConnectOptionsSchema as AnyEngineOptionsSchema,
  type SecretArg
} from '../driver-core/connect-options';
import type {
  EngineDescriptor,
  EngineTypedSecret
} from '../driver-core/engine-module';
import { ENV_REFERENCE } from '../driver-core/profile-fields';
import {
  reconcileSslMode,
  type Scheme,
  schemeOf
} from '../driver-core/ssl-mode';
import {
  canonicalEngineName,
  ENGINE_NAMES,
  ENGINES,
  engineNamed,
  findEngine
} from '../engines/engine-registry';
import {
  secretKindOf,
  type TypedSecretOption,
  typedSecretsIn
} from '../../../contracts/typed-secrets';
import { SearchbookError } from '../../../contracts/errors';
import { HOSTS_EXAMPLE, parseHosts } from './connect-hosts';
import {
  engineOptionFields,
  foreignOptionsRefusal,
  optionsOf,
  TYPED_SECRET_KINDS
} from './engine-options';

export type { ConnectArgs } from '../driver-core/connect-options';

/**
 * `%connect <engine> <address> [key=value ...] [skip_verify]`, or `hosts=<host:port>,...` in
 * place of the address for the nodes of one cluster. Secrets may only be given as
 * `${env:NAME}` references, so a notebook never holds one. `%connect <profile>` and `--save`
 * are read by connect-command.ts around this. Each engine's descriptor brings its own options
 * and says which address forms apply to it.
 */
const ConnectOptionsSchema = AnyEngineOptionsSchema.extend({
  engine: z.enum(ENGINE_NAMES)
});

export const CONNECT_USAGE = [
  ...ENGINES.flatMap(engine => engine.connect.usage),
  'ssl=disabled|preferred|required|verify-ca|verify-identity, ca=<PEM file>, skip_verify (trust any certificate)',
  'timeout=<seconds> (60 by default), max_answer=<size> (256MiB by default, for example max_answer=64MB)',
  `${HOSTS_EXAMPLE} in place of the address: the nodes of one cluster, tried in turn when one does not answer`
].join('\n');

const SECRET_KEYS = new Set<string>(['password', 'key'] satisfies SecretArg[]);
/** Options that may be written alone, meaning `=true`. */
const FLAGS = new Set(['skip_verify']);
const SCHEME = /^(https?):\/\//i;
/** Any `scheme://`, to refuse the ones that are not http(s) instead of reading them as a host. */
const ANY_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** The `${env:NAME}` names the secrets were read from, for `--save`. */
export type SecretEnvNames = Partial<Record<SecretArg, string>>;

export class ConnectArgsError extends SearchbookError {
  override readonly name: string = 'ConnectArgsError';
  override readonly code: string = 'SEARCHBOOK_ERR_CONNECT_ARGS';
}

/** A password or key typed into the `%connect` line itself: it is in the cell, and the notebook, until removed. */
export class TypedSecretError extends ConnectArgsError {
  override readonly name = 'TypedSecretError';
  override readonly code = 'SEARCHBOOK_ERR_TYPED_SECRET';
  constructor(
    message: string,
    readonly option: TypedSecretOption,
    /** The engine's kind of secret, when it is one of an engine's own. */
    readonly kind?: EngineTypedSecret
  ) {
    super(message);
  }
}

export function parseConnectArgs(
  text: string,
  env: (name: string) => string | undefined
): ConnectArgs {
  return parseConnectAddress(text, env).args;
}

/**
 * parseConnectArgs, also telling which environment variables the secrets came from.
 * `addressEnv` reads an address written as `${env:NAME}`: no secret, so not masked as one.
 */
export function parseConnectAddress(
  text: string,
  env: (name: string) => string | undefined,
  addressEnv: (name: string) => string | undefined = env
): { args: ConnectArgs; envNames: SecretEnvNames } {
  const envNames: SecretEnvNames = {};
  const [engine, written0, ...more] = text.trim().split(/\s+/);
  // hosts= stands in place of the address.
  const listsHosts = written0 !== undefined && /^hosts=/i.test(written0);
  const addressVariable =
    !listsHosts && written0 ? ENV_REFERENCE.exec(written0)?.[1] : undefined;
  const address =
    addressVariable !== undefined && engine
      ? addressFromEnv(engine, addressVariable, addressEnv)
      : listsHosts
        ? undefined
        : written0;
  const options = listsHosts && written0 ? [written0, ...more] : more;
  if (!engine || (!address && !listsHosts)) {
    throw new ConnectArgsError(
      `%connect needs an engine and an address, for example:\n${CONNECT_USAGE}`
    );
  }
  // The same matcher as the history and the cell's "Remove it" button, so all agree on what was typed.
  const typed = typedSecretsIn(text, TYPED_SECRET_KINDS).find(
    s => s.option !== 'address'
  );
  const typedKind = TYPED_SECRET_KINDS.find(k => k.option === typed?.option);
  if (typedKind) {
    throw new TypedSecretError(
      `%connect takes no ${typedKind.words}: ${typedKind.where} A secret typed into a cell would be saved in the notebook.`,
      typedKind.option,
      typedKind
    );
  }
  if (typed) {
    throw typedSecretError(typed.option === 'key' ? 'key' : 'password');
  }
  const fields: Record<string, string> = {
    engine: canonicalEngineName(engine.toLowerCase())
  };
  for (const option of options) {
    const eq = option.indexOf('=');
    if (eq < 0 && FLAGS.has(option)) {
      fields[option] = 'true';
      continue;
    }
    if (eq <= 0) {
      throw new ConnectArgsError(
        `"${option.split('=')[0]}" is not an option of %connect; write options as name=value, for example:\n${CONNECT_USAGE}`
      );
    }
    const written = /^hosts$/i.test(option.slice(0, eq))
      ? 'hosts'
      : option.slice(0, eq);
    const kind = secretKindOf(written, TYPED_SECRET_KINDS);
    if (kind) {
      throw new ConnectArgsError(
        `%connect takes no ${kind.words}, not even as \${env:NAME}: ${kind.where}`
      );
    }
    // Secret options are read in any case (PASSWORD=), as the typed-secret matcher reads them.
    const key = SECRET_KEYS.has(written.toLowerCase())
      ? written.toLowerCase()
      : written;
    const value = option.slice(eq + 1);
    if (SECRET_KEYS.has(key)) {
      const { name, secret } = resolveSecret(key, value, env);
      envNames[key as keyof SecretEnvNames] = name;
      fields[key] = secret;
    } else {
      fields[key] = value;
    }
  }
  const parsed = readOptions(fields);
  const { ssl: sslOption, hosts, ...rest } = parsed.options;

  const rules = engineNamed(parsed.options.engine).connect;
  const inapplicable = parsed.foreign ?? rules.refuseOptions(parsed.options);
  if (hosts !== undefined) {
    if (address !== undefined) {
      throw new ConnectArgsError(
        `%connect: write the nodes either as the address or in hosts=, not both; for several nodes write %connect ${parsed.options.engine} ${HOSTS_EXAMPLE} [options], with user= and ssl= for all of them.`
      );
    }
    if (inapplicable) {
      throw new ConnectArgsError(inapplicable);
    }
    return { args: hostsArgs(rest, hosts, sslOption), envNames };
  }
  if (address === undefined) {
    throw new ConnectArgsError(
      `%connect needs an engine and an address, for example:\n${CONNECT_USAGE}`
    );
  }
  refuseForeignAddress(rules.refuseAddress, address);
  if (inapplicable) {
    throw new ConnectArgsError(inapplicable);
  }
  const written = SCHEME.exec(address)?.[1]?.toLowerCase() as
    Scheme | undefined;
  const ssl = reconcileSslMode(written, sslOption);
  if (!ssl) {
    const fix =
      written === 'https'
        ? 'write an http:// address for ssl=disabled, or choose an HTTPS mode'
        : 'write an https:// address (or leave the scheme out) for an HTTPS mode, or ssl=disabled';
    throw new ConnectArgsError(
      `%connect: the address says ${written}:// but ssl=${sslOption} says ${sslOption === 'disabled' ? 'plain HTTP' : 'HTTPS'}; ${fix}.`
    );
  }
  const url = urlOf(written ? address : `${schemeOf(ssl)}://${address}`);
  if (url.password && addressVariable !== undefined) {
    throw new ConnectArgsError(
      `%connect: the address in ${addressVariable} holds a password; set ${addressVariable} to the address without it and write password=\${env:NAME}.`
    );
  }
  if (url.password) {
    throw new TypedSecretError(
      `Put no password in the address; write password=\${env:NAME} so it stays out of the notebook.`,
      'address'
    );
  }
  const user =
    rest.user ?? (url.username ? decodeURIComponent(url.username) : undefined);
  url.username = '';
  const enginePort = !written && !/:\d+(\/|$)/.test(address);
  return {
    args: {
      ...rest,
      ...(user !== undefined ? { user } : {}),
      url: url.href.replace(/\/$/, ''),
      ssl,
      enginePort
    },
    envNames
  };
}

type CommonOptions = z.infer<typeof ConnectOptionsSchema>;
/** The engine's own options, by name, as its schema read them. */
type EngineOwnOptions = { readonly [engineOption: string]: unknown };
type LineOptions = CommonOptions & EngineOwnOptions;

/**
 * The line's options: the common ones by the common schema, the engine's own by its schema, and
 * the refusal of options that are another engine's (given once the address is checked).
 */
function readOptions(fields: Record<string, string>): {
  options: LineOptions;
  foreign: string | undefined;
} {
  const commonFields = Object.fromEntries(
    Object.entries(fields).filter(([name]) =>
      Object.hasOwn(ConnectOptionsSchema.shape, name)
    )
  );
  const common = ConnectOptionsSchema.safeParse(commonFields);
  if (!common.success) {
    throw new ConnectArgsError(
      `%connect: ${describeIssue(common.error.issues[0])}. For example:\n${CONNECT_USAGE}`
    );
  }
  const engine = engineNamed(common.data.engine);
  const sorted = engineOptionFields(engine, fields);
  if (sorted.unknown.length) {
    throw new ConnectArgsError(
      `%connect: ${unknownOptions(engine, sorted.unknown)}. For example:\n${CONNECT_USAGE}`
    );
  }
  const own = z.strictObject(engine.connect.options).safeParse(sorted.own);
  if (!own.success) {
    throw new ConnectArgsError(
      `%connect: ${describeIssue(own.error.issues[0])}. For example:\n${CONNECT_USAGE}`
    );
  }
  return {
    options: { ...common.data, ...own.data },
    foreign: foreignOptionsRefusal(engine, sorted.foreign)
  };
}

function unknownOptions(
  engine: EngineDescriptor,
  names: readonly string[]
): string {
  return `${names.map(k => `"${k}"`).join(', ')} is not an option of %connect (options: ${optionsOf(engine).join(', ')})`;
}

/**
 * The address `${env:NAME}` stands for (the sandbox's, which `npm start` exports). An address is
 * no secret: it is read as if written in the cell, and shown as such.
 */
function addressFromEnv(
  engineWord: string,
  name: string,
  env: (name: string) => string | undefined
): string {
  const value = env(name)?.trim();
  if (value) {
    return value;
  }
  const descriptor = findEngine(canonicalEngineName(engineWord.toLowerCase()));
  const instead = descriptor
    ? `, or write the address itself, for example %connect ${descriptor.name} http://127.0.0.1:${descriptor.defaultPort('disabled')}`
    : '';
  throw new ConnectArgsError(
    `%connect: the address is \${env:${name}}, but ${name} is not set in the kernel's environment. Set ${name} to the address before starting Jupyter (npm start sets the sandbox's addresses)${instead}.`
  );
}

/** The arguments of a line that lists its nodes in hosts=: each node gets the engine's port unless it names one. */
function hostsArgs(
  rest: Omit<CommonOptions, 'ssl' | 'hosts'> & EngineOwnOptions,
  hosts: string,
  sslOption: z.infer<typeof ConnectOptionsSchema>['ssl']
): ConnectArgs {
  let parsed: ReturnType<typeof parseHosts>;
  try {
    parsed = parseHosts(hosts);
  } catch (err) {
    throw new ConnectArgsError(`%connect: ${(err as Error).message}`);
  }
  const descriptor = engineNamed(rest.engine);
  const refused = descriptor.connect.refuseAddress({
    scheme: parsed.scheme,
    userInfo: false
  });
  if (refused) {
    throw new ConnectArgsError(refused);
  }
  const ssl = reconcileSslMode(parsed.scheme, sslOption);
  if (!ssl) {
    throw new ConnectArgsError(
      `%connect: hosts= says ${parsed.scheme}:// but ssl=${sslOption} says ${sslOption === 'disabled' ? 'plain HTTP' : 'HTTPS'}; write the nodes without a scheme and keep ssl=${sslOption}.`
    );
  }
  const nodes = parsed.entries.map(
    e =>
      new URL(
        `${schemeOf(ssl)}://${e.host}:${e.port ?? descriptor.defaultPort(ssl)}`
      ).origin
  );
  const twice = nodes.find((node, i) => nodes.indexOf(node) !== i);
  if (twice) {
    throw new ConnectArgsError(
      `%connect: hosts= lists ${twice.replace(/^https?:\/\//, '')} twice; write each node once.`
    );
  }
  return {
    ...rest,
    url: nodes[0] as string,
    ...(nodes.length > 1 ? { nodes } : {}),
    ssl,
    enginePort: false
  };
}

/** Refuses the address forms the engine does not take, then a scheme other than http(s), before reading the address. */
function refuseForeignAddress(
  refuseAddress: (form: {
    scheme: string | undefined;
    userInfo: boolean;
  }) => string | undefined,
  address: string
): void {
  const scheme = ANY_SCHEME.exec(address)?.[1]?.toLowerCase();
  const userInfo = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?[^/?#]*@/.test(address);
  const refused = refuseAddress({ scheme, userInfo });
  if (refused) {
    throw new ConnectArgsError(refused);
  }
  if (scheme && scheme !== 'http' && scheme !== 'https') {
    throw new ConnectArgsError(
      `%connect: ${scheme}:// is not a scheme searchbook connects with; write an http:// or https:// address (or a bare host with ssl=<mode>). For example:\n${CONNECT_USAGE}`
    );
  }
}

function urlOf(text: string): URL {
  const checked = z.url({ protocol: /^https?$/ }).safeParse(text);
  // A password typed into the address is not repeated in the message.
  if (!checked.success) {
    throw new ConnectArgsError(
      `%connect: "${text.replace(/(\/\/[^/:@]*):[^/@]*@/, '$1:***@')}" is not an http:// or https:// address. For example:\n${CONNECT_USAGE}`
    );
  }
  return new URL(checked.data);
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) {
    return 'invalid arguments';
  }
  return `${issue.path.join('.') || 'arguments'}: ${issue.message}`;
}

function typedSecretError(key: SecretArg): TypedSecretError {
  return new TypedSecretError(
    `Write ${key}=\${env:NAME} and set NAME in the kernel's environment: a ${key} typed into a cell would be saved in the notebook.`,
    key
  );
}

function resolveSecret(
  key: string,
  value: string,
  env: (name: string) => string | undefined
): { name: string; secret: string } {
  const match = ENV_REFERENCE.exec(value);
  if (!match?.[1]) {
    throw typedSecretError(key === 'key' ? 'key' : 'password');
  }
  const secret = env(match[1]);
  if (secret === undefined) {
    throw new ConnectArgsError(
      `The environment variable ${match[1]} is not set in the kernel's environment; export it before starting Jupyter.`
    );
  }
  return { name: match[1], secret };
}
