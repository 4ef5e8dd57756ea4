/**
 * Profiles as connections: a profile becomes %connect arguments (its secrets still to be
 * fetched), and an opened connection becomes a profile, its secret going to the OS keyring
 * when one is available, else to the `${env:NAME}` reference the cell used, else nowhere (it
 * is asked for at connect time).
 */
import { resolve } from 'node:path';
import type { ConnectArgs, SecretEnvNames } from './connect-args';
import type { SecretArg } from '../driver-core/connect-options';
import type { SecretField, SecretRef } from '../driver-core/profile-fields';
import { engineNamed } from '../engines/engine-registry';
import { KeyringUnavailable, type SecretStore } from './keyring';
import type { Profile } from './profile-schema';
import type { ProfileStore } from './profile-store';
import { type Endpoint, endpointOf } from './profile-url';
import { missingSecrets, type SecretNeed } from './secrets';
import { schemeOf } from '../driver-core/ssl-mode';

/** The profile's connection arguments without secrets, and the secrets to fetch. */
export function profileConnectArgs(profile: Profile): {
  args: ConnectArgs;
  needs: SecretNeed[];
} {
  const own = engineNamed(profile.engine).profile.connectArgs(profile);
  const args: ConnectArgs = {
    engine: profile.engine,
    name: profile.name,
    url: `${schemeOf(profile.ssl)}://${profile.host}:${profile.port}`,
    ...(profile.hosts && profile.hosts.length > 1
      ? {
          nodes: profile.hosts.map(
            node => new URL(`${schemeOf(profile.ssl)}://${node}`).origin
          )
        }
      : {}),
    ssl: profile.ssl,
    enginePort: false,
    skip_verify: profile.skip_verify,
    ...(profile.ca !== undefined ? { ca: profile.ca } : {}),
    ...(profile.timeout !== undefined ? { timeout: profile.timeout } : {}),
    ...(profile.max_answer !== undefined
      ? { max_answer: profile.max_answer }
      : {}),
    ...own.args
  };
  const refs = own.refs;
  const needs = missingSecrets(args).map(need => ({
    ...need,
    ...(refs[need.field] ? { ref: refs[need.field] } : {})
  }));
  return { args, needs };
}

export interface SavedProfile {
  profile: Profile;
  /** One line per secret: where it is kept (never the secret). */
  notes: string[];
}

/** Keyring account of a profile's secret, under the `searchbook` service. */
export const keyringAccount = (profile: string, field: SecretField): string =>
  `${profile}/${field}`;

/**
 * Saves an opened connection as profile `name`. `args` holds the secrets the connection used;
 * `address` is where it connected (scheme, host and the port actually used).
 */
export async function saveProfile(
  store: ProfileStore,
  keyring: SecretStore,
  name: string,
  args: ConnectArgs,
  envNames: SecretEnvNames,
  address: string
): Promise<SavedProfile> {
  const endpoint: Endpoint = endpointOf(
    args.engine,
    args.ssl,
    address,
    args.user
  );
  const common = {
    name,
    host: endpoint.host,
    port: endpoint.port ?? (args.ssl === 'disabled' ? 80 : 443),
    ssl: args.ssl,
    ...(args.nodes
      ? {
          hosts: args.nodes.map(node => {
            const { host, port } = endpointOf(args.engine, args.ssl, node);
            return `${host}:${port}`;
          })
        }
      : {}),
    skip_verify: args.skip_verify,
    // The kernel's working directory is the notebook's: a relative CA path would break elsewhere.
    ...(args.ca !== undefined ? { ca: resolve(args.ca) } : {}),
    ...(args.timeout !== undefined ? { timeout: args.timeout } : {}),
    ...(args.max_answer !== undefined ? { max_answer: args.max_answer } : {})
  };
  const notes: string[] = [];
  const secrets: Partial<Record<SecretField, SecretRef>> = {};
  const engine = engineNamed(args.engine);
  const keep = async (
    field: SecretField,
    label: string,
    arg: SecretArg,
    secret: string | undefined
  ): Promise<void> => {
    if (secret === undefined) {
      return;
    }
    try {
      await keyring.set(keyringAccount(name, field), secret);
      secrets[field] = { keyring: keyringAccount(name, field) };
      notes.push(`The ${label} is in ${keyring.label}.`);
    } catch (err) {
      if (!(err instanceof KeyringUnavailable)) {
        throw err;
      }
      const envName = envNames[arg];
      if (envName) {
        secrets[field] = `\${env:${envName}}`;
        notes.push(
          `The ${label} is read from \${env:${envName}} at connect time: ${redact(err.message, secret)}.`
        );
      } else {
        notes.push(
          `The ${label} is not saved, so it will be asked for at connect time: ${redact(err.message, secret)}.`
        );
      }
    }
  };

  for (const arg of engine.secretsUsed(args)) {
    const secret = engine.secrets[arg];
    if (secret) {
      await keep(secret.field, secret.label, arg, args[arg]);
    }
  }
  const profile = engine.profile.fromConnection(common, args, secrets);

  const previous = await store.put(profile);
  notes.push(...(await forgetUnused(keyring, previous, profile)));
  return { profile, notes };
}

/** Deletes a profile and its keyring entries; returns it, or undefined when there is none. */
export async function deleteProfile(
  store: ProfileStore,
  keyring: SecretStore,
  name: string
): Promise<{ profile: Profile; notes: string[] } | undefined> {
  const profile = await store.remove(name);
  if (!profile) {
    return undefined;
  }
  return { profile, notes: await forgetUnused(keyring, profile, undefined) };
}

/** Removes the keyring entries of `before` that `after` no longer uses. */
async function forgetUnused(
  keyring: SecretStore,
  before: Profile | undefined,
  after: Profile | undefined
): Promise<string[]> {
  const used = new Set(keyringAccounts(after));
  const notes: string[] = [];
  for (const account of keyringAccounts(before)) {
    if (used.has(account)) {
      continue;
    }
    try {
      if (await keyring.delete(account)) {
        notes.push(`Removed "${account}" from ${keyring.label}.`);
      }
    } catch (err) {
      if (!(err instanceof KeyringUnavailable)) {
        throw err;
      }
      notes.push(
        `Could not remove "${account}" from ${keyring.label}: ${err.message}.`
      );
    }
  }
  return notes;
}

function keyringAccounts(profile: Profile | undefined): string[] {
  if (!profile) {
    return [];
  }
  return engineNamed(profile.engine)
    .profile.secretRefs(profile)
    .flatMap(ref => (typeof ref === 'object' ? [ref.keyring] : []));
}

/** A platform error text is not ours: make sure it cannot carry the secret into an output. */
function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('***') : text;
}
