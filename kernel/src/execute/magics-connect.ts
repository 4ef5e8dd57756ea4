/** `%connect`, `%connections` and `%profiles`: opening connections, from the cell or from saved profiles. */
import type { ConsoleMagic, JsonValue } from '../console/cell';
import {
  type ConnectArgs,
  ConnectArgsError,
  TypedSecretError
} from '../connections/connect-args';
import {
  CONNECT_COMMAND_USAGE,
  parseConnectCommand
} from '../connections/connect-command';
import {
  type Connection,
  openConnection
} from '../connections/open-connection';
import { nodeName } from '../driver-core/http/node-pool';
import type { ProfileServices } from '../connections/profile-services';
import type { Profile } from '../connections/profile-schema';
import { ProfileFileError } from '../connections/profile-store';
import {
  displayAddress,
  endpointOf,
  profileAddress
} from '../connections/profile-url';
import {
  deleteProfile,
  profileConnectArgs,
  saveProfile
} from '../connections/profiles';
import {
  fillSecrets,
  missingSecrets,
  SecretUnavailable
} from '../connections/secrets';
import { BROWSER_SECRET_KINDS } from '../connections/engine-options';
import { EngineError } from '../driver-core/errors';
import { engineNamed } from '../engines/engine-registry';
import { messageBundle } from '../render/bundle';
import { HIDDEN, MIN_MASKED_LENGTH, maskable } from '../render/secret-mask';
import {
  TYPED_SECRET_MIME,
  typedSecretWords,
  type TypedSecretPayload
} from '../../../contracts/mime-types';
import { CellFailure } from './cell-failure';
import type { MagicContext } from './magic-context';
import { Progress } from './progress';

export const PROFILES_USAGE = '%profiles (lists them), %profiles delete <name>';

export async function connectMagic(
  { args }: ConsoleMagic,
  ctx: MagicContext
): Promise<void> {
  const { scope, connections, sink, signal, profiles } = ctx;
  const command = await refusingTypedSecrets(sink, () =>
    usage(() =>
      parseConnectCommand(
        args,
        name => scope.env(name),
        name => scope.envAddress(name)
      )
    )
  );
  let plan: ReturnType<typeof profileConnectArgs>;
  let from: { name: string; file: string } | undefined;
  if (command.kind === 'profile') {
    const profile = await fileStep(() => profiles.store.get(command.name));
    if (!profile) {
      throw await unknownProfile(command.name, profiles);
    }
    plan = profileConnectArgs(profile);
    from = { name: profile.name, file: profiles.store.path };
  } else {
    // The ${env:NAME} each secret of the line came from, so a curl command names the same variable.
    const origins = Object.fromEntries(
      Object.entries(command.envNames).map(([arg, env]) => [arg, { env }])
    );
    plan = {
      args: Object.keys(origins).length
        ? { ...command.args, secretOrigins: origins }
        : command.args,
      needs: missingSecrets(command.args)
    };
  }

  let connection: Connection;
  let filled: ConnectArgs;
  let progress: Progress | undefined;
  /** The secrets of this connection outputs cannot mask (see maskable): the user is told. */
  const unmasked: string[] = [];
  try {
    // The prompt is Jupyter's password field: the typed secret is not echoed or kept.
    const prompt = sink.canAsk
      ? (text: string) => sink.input(text, true)
      : undefined;
    filled = await fillSecrets(
      plan.args,
      plan.needs,
      { env: name => scope.env(name), keyring: profiles.keyring, prompt },
      from
    );
    // A secret from the keyring or the prompt (one from the environment keeps its ${env:NAME} form).
    for (const secret of [filled.password, filled.key]) {
      if (secret !== undefined) {
        scope.secrets.add(secret, HIDDEN);
      }
    }
    for (const [option, secret] of [
      ['password=', filled.password],
      ['key=', filled.key]
    ] as const) {
      if (secret !== undefined && !maskable(secret)) {
        unmasked.push(option);
      }
    }
    connection = await openConnection(
      filled,
      signal,
      waitingFor =>
        (progress = new Progress(sink, { waitingFor, stoppable: true })),
      (secret, shownAs) => {
        scope.secrets.add(secret, shownAs);
        if (!maskable(secret)) {
          unmasked.push(shownAs);
        }
      }
    );
  } catch (err) {
    await progress?.fail(signal.aborted ? 'interrupted' : 'failed');
    if (err instanceof SecretUnavailable) {
      throw new CellFailure('SecretUnavailable', err.message, err.hint);
    }
    if (err instanceof EngineError) {
      throw CellFailure.fromEngine(err);
    }
    if (err instanceof ConnectArgsError) {
      throw new CellFailure('ConnectUsage', err.message);
    }
    throw err;
  }
  connections.add(connection);
  const lines = [
    `Connected to ${connection.engineLabel} ${connection.identity.version} at ${connection.answeredAt ?? connection.address} as "${connection.name}"; the following cells use it.`,
    ...(connection.nodes
      ? [
          `Nodes: ${connection.nodes.map(nodeName).join(', ')}. Requests go to the first that answers; a node that does not answer is skipped and tried again later, and an answer from another node than the first says which node gave it.`
        ]
      : []),
    ...(connection.answeredBy ? [`It was ${connection.answeredBy}.`] : []),
    ...(connection.authSummary
      ? [`Every request is signed: ${connection.authSummary}.`]
      : []),
    ...(connection.identity.notes ?? [])
  ];
  const connected = messageBundle(
    [
      ...lines,
      ...connection.identity.warnings.map(w => `Warning: ${w}`),
      ...(unmasked.length ? [unmaskedWarning(unmasked)] : [])
    ].join('\n')
  );
  await (progress ? progress.finish(connected) : sink.display(connected));
  if (command.kind === 'address' && command.save !== undefined) {
    const name = command.save;
    const saved = await fileStep(() =>
      saveProfile(
        profiles.store,
        profiles.keyring,
        name,
        filled,
        command.envNames,
        connection.address
      )
    );
    const how = `%connect ${name} opens it again.`;
    await sink.display(
      messageBundle(
        [
          `Saved profile "${name}" (${profileAddress(saved.profile)}) in ${profiles.store.path}; ${how}`,
          ...saved.notes
        ].join('\n')
      )
    );
  }
}

export async function connectionsMagic(
  _magic: ConsoleMagic,
  { connections, sink, profiles }: MagicContext
): Promise<void> {
  const active = connections.active;
  const open: Record<string, JsonValue>[] = connections.list().map(c => ({
    name: c.name,
    engine: c.engine,
    // As a URL with the user (never a password), or host:port for engines without a URL scheme.
    address: displayAddress(endpointOf(c.engine, c.ssl, c.address, c.user)),
    ssl: c.ssl,
    ...(c.nodes ? { nodes: c.nodes.map(nodeName).join(', ') } : {}),
    version: c.identity.version,
    active: c === active
  }));
  await sink.display(
    messageBundle(
      open.length
        ? 'Open connections (active: the one cells use; %use <name> picks another)'
        : 'No connection is open: connect with %connect.',
      open
    )
  );
  await showProfiles({ connections, sink, profiles });
}

export async function profilesMagic(
  { args }: ConsoleMagic,
  { connections, sink, profiles }: MagicContext
): Promise<void> {
  const [verb, name, ...rest] = args.trim().split(/\s+/).filter(Boolean);
  if (verb === undefined) {
    return showProfiles({ connections, sink, profiles });
  }
  if (verb !== 'delete' || !name || rest.length > 0) {
    throw new CellFailure(
      'ProfilesUsage',
      `%profiles ${args.trim()} is not understood.`,
      `Write ${PROFILES_USAGE}.`
    );
  }
  const deleted = await fileStep(() =>
    deleteProfile(profiles.store, profiles.keyring, name)
  );
  if (!deleted) {
    throw await unknownProfile(name, profiles);
  }
  const open = connections.list().some(c => c.name === name)
    ? ` The open connection "${name}" stays open until the kernel restarts.`
    : '';
  await sink.display(
    messageBundle(
      [
        `Deleted profile "${name}" from ${profiles.store.path}.${open}`,
        ...deleted.notes
      ].join('\n')
    )
  );
}

async function showProfiles({
  connections,
  sink,
  profiles
}: Pick<MagicContext, 'connections' | 'sink' | 'profiles'>): Promise<void> {
  const file = await fileStep(() => profiles.store.load());
  const openNames = new Set(connections.list().map(c => c.name));
  const rows: Record<string, JsonValue>[] = file.profiles.map(p => ({
    name: p.name,
    engine: p.engine,
    address: profileAddress(p),
    ssl: p.ssl,
    auth: engineNamed(p.engine).profile.auth(p),
    secret: secretSource(p),
    open: openNames.has(p.name)
  }));
  const title = rows.length
    ? `Profiles in ${profiles.store.path} (%connect <name> opens one)`
    : `No profiles in ${profiles.store.path}: add --save <name> to a %connect line to keep one.`;
  await sink.display(messageBundle(title, rows));
}

/** Where a profile's secret is, never the secret. */
function secretSource(p: Profile): string {
  const ref = engineNamed(p.engine).profile.secretInUse(p);
  if (ref === null) {
    return '';
  }
  if (ref === undefined) {
    return 'asked at connect';
  }
  return typeof ref === 'string' ? ref : 'OS keyring';
}

async function unknownProfile(
  name: string,
  profiles: ProfileServices
): Promise<CellFailure> {
  const names = (await fileStep(() => profiles.store.load())).profiles.map(
    p => p.name
  );
  const known = names.length
    ? `Profiles: ${names.join(', ')}.`
    : `There are no profiles in ${profiles.store.path} yet.`;
  return new CellFailure(
    'UnknownProfile',
    `No profile is named "${name}". ${known}`,
    CONNECT_COMMAND_USAGE
  );
}

function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ConnectArgsError && !(err instanceof TypedSecretError)) {
      throw new CellFailure('ConnectUsage', err.message);
    }
    throw err;
  }
}

/** A typed secret stays in the cell after the refusal: say so, and offer (in JupyterLab) to remove it. */
async function refusingTypedSecrets<T>(
  sink: MagicContext['sink'],
  parse: () => T
): Promise<T> {
  try {
    return parse();
  } catch (err) {
    if (!(err instanceof TypedSecretError)) {
      throw err;
    }
    const kind = BROWSER_SECRET_KINDS.find(k => k.option === err.option);
    const what = typedSecretWords(err.option, kind);
    const still = `The ${what} is still in this cell, and is saved with the notebook, until you remove it.`;
    const offer: TypedSecretPayload = {
      option: err.option,
      ...(kind ? { kind } : {})
    };
    await sink.display({
      [TYPED_SECRET_MIME]: offer,
      'text/plain': `${still} In JupyterLab: the button below, or the command "searchbook: Remove typed secrets from the cell".`
    });
    throw new CellFailure(
      'SecretInCell',
      `${err.message} ${still}`,
      err.kind?.afterRemoval ??
        'Remove it (JupyterLab: "Remove it from the cell" above), then run the cell again: searchbook asks for the secret, or reads ${env:NAME}.'
    );
  }
}

async function fileStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ProfileFileError) {
      throw new CellFailure(
        'ProfileFileError',
        err.message,
        'Fix or remove the file; %connect ... --save <name> writes a new one.'
      );
    }
    throw err;
  }
}

/** Why some secrets of a connection will show wherever an answer repeats them, and what to use instead. */
function unmaskedWarning(secrets: readonly string[]): string {
  return `Warning: the secret of ${secrets.join(', ')} is too short or too plain to be masked in outputs: shorter than ${MIN_MASKED_LENGTH} characters, or a single word or number, it is also an ordinary value of answers (a field, an index, true, a count), which masking would rewrite. An answer or error that repeats it shows it as it is. A secret of ${MIN_MASKED_LENGTH} or more characters mixing letters with digits or symbols is masked everywhere.`;
}
