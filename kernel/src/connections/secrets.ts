/**
 * The secrets a connection needs and where they come from, in order: the profile's OS keyring
 * entry or `${env:NAME}` reference (or the `${env:NAME}` written in the cell), then Jupyter's
 * password prompt when the frontend allows input. A prompted secret is used for this
 * connection only. No message here ever holds a secret.
 */
import type {
  ConnectArgs,
  SecretArg,
  SecretOrigin
} from '../driver-core/connect-options';
import {
  ENV_REFERENCE,
  type SecretField,
  type SecretRef
} from '../driver-core/profile-fields';
import { engineNamed } from '../engines/engine-registry';
import { KeyringUnavailable, type SecretStore } from './keyring';
import { connectionUrl } from './profile-url';

export interface SecretNeed {
  /** The profile field. */
  field: SecretField;
  /** The ConnectArgs field it fills. */
  arg: SecretArg;
  /** Where the profile says it is; undefined: nowhere, ask. */
  ref?: SecretRef;
}

export interface SecretSources {
  env(name: string): string | undefined;
  keyring: SecretStore;
  /** Jupyter's password prompt; undefined when the request does not allow input (allow_stdin false). */
  prompt: ((text: string) => Promise<string>) | undefined;
}

/** The secret cannot be had; `hint` says how to provide it. */
export class SecretUnavailable extends Error {
  constructor(
    message: string,
    readonly hint: string
  ) {
    super(message);
  }
}

/** The secrets the connection's auth method needs that the arguments do not hold yet. */
export function missingSecrets(args: ConnectArgs): SecretNeed[] {
  const engine = engineNamed(args.engine);
  return engine
    .secretsUsed(args)
    .filter(arg => args[arg] === undefined)
    .flatMap(arg => {
      const secret = engine.secrets[arg];
      return secret ? [{ field: secret.field, arg }] : [];
    });
}

/** Fills each needed secret from its reference, else from the prompt; returns the filled arguments, saying where each came from. */
export async function fillSecrets(
  args: ConnectArgs,
  needs: SecretNeed[],
  sources: SecretSources,
  profile?: { name: string; file: string }
): Promise<ConnectArgs> {
  const filled = { ...args };
  const origins = { ...args.secretOrigins };
  for (const need of needs) {
    const { secret, origin } = await obtain(args, need, sources, profile);
    filled[need.arg] = secret;
    origins[need.arg] = origin;
  }
  return Object.keys(origins).length
    ? { ...filled, secretOrigins: origins }
    : filled;
}

async function obtain(
  args: ConnectArgs,
  need: SecretNeed,
  sources: SecretSources,
  profile: { name: string; file: string } | undefined
): Promise<{ secret: string; origin: SecretOrigin }> {
  const what = describeSecret(args, need);
  let reason: string;
  const env =
    typeof need.ref === 'string'
      ? ENV_REFERENCE.exec(need.ref)?.[1]
      : undefined;
  if (need.ref && typeof need.ref === 'object') {
    const account = need.ref.keyring;
    try {
      const secret = await sources.keyring.get(account);
      if (secret !== undefined) {
        return { secret, origin: 'keyring' };
      }
      reason = `${sources.keyring.label} has no entry "${account}"`;
    } catch (err) {
      if (!(err instanceof KeyringUnavailable)) {
        throw err;
      }
      reason = err.message;
    }
  } else if (env) {
    const secret = sources.env(env);
    if (secret !== undefined) {
      return { secret, origin: { env } };
    }
    reason = `the environment variable ${env} is not set in the kernel's environment`;
  } else {
    reason = profile
      ? `profile "${profile.name}" does not say where it is`
      : 'none was given';
  }
  if (sources.prompt) {
    const typed = await sources.prompt(
      `${capitalize(what)} for ${connectionUrl(args)}${profile ? ` (profile "${profile.name}")` : ''}: `
    );
    if (typed === '') {
      throw new SecretUnavailable(
        `Nothing was typed for ${what}, so nothing was sent: run the cell again and type it at the prompt.`,
        howToProvide(need, profile)
      );
    }
    return { secret: typed, origin: 'prompt' };
  }
  throw new SecretUnavailable(
    `${capitalize(what)} is needed to connect, but ${reason}; this frontend cannot be asked for it (it does not allow input), so nothing was sent.`,
    howToProvide(need, profile)
  );
}

function describeSecret(args: ConnectArgs, need: SecretNeed): string {
  return (
    engineNamed(args.engine).secrets[need.arg]?.describe(args) ??
    `the ${need.field}`
  );
}

function howToProvide(
  need: SecretNeed,
  profile: { name: string; file: string } | undefined
): string {
  const option = need.arg === 'password' ? 'password' : 'key';
  const lines = ['Provide it in one of these ways:'];
  if (profile) {
    lines.push(
      `- write "${need.field}": "\${env:NAME}" in profile "${profile.name}" in ${profile.file}, and set NAME in the environment that starts Jupyter;`
    );
  } else {
    lines.push(
      `- write ${option}=\${env:NAME} in the %connect line, and set NAME in the environment that starts Jupyter;`
    );
  }
  lines.push(
    '- or run the cell in a frontend that asks for it (JupyterLab, Jupyter Notebook; nbclient and nbconvert do not).'
  );
  return lines.join('\n');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
