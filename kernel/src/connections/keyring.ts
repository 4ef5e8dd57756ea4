/**
 * Where saved secrets live: the OS keyring (macOS Keychain, Windows Credential Manager, the
 * Secret Service on Linux) through @napi-rs/keyring. Behind a small interface so the rest of
 * the kernel never depends on a platform store being present, and tests can supply their own.
 */
import type * as Keyring from '@napi-rs/keyring';

/** A keyring of secrets under the `searchbook` service, addressed by account name. */
export interface SecretStore {
  /** For messages: where the secret went. */
  readonly label: string;
  /** The secret, or undefined when the entry does not exist. Rejects with KeyringUnavailable. */
  get(account: string): Promise<string | undefined>;
  /** Rejects with KeyringUnavailable when no keyring can be used. */
  set(account: string, secret: string): Promise<void>;
  /** True when an entry was deleted. Rejects with KeyringUnavailable. */
  delete(account: string): Promise<boolean>;
}

/** No keyring can be used here; the message says why (it never holds a secret). */
export class KeyringUnavailable extends Error {}

export const KEYRING_SERVICE = 'searchbook';

type KeyringModule = typeof Keyring;

/**
 * The platform's keyring. On Linux the Secret Service is required: the library would otherwise
 * fall back to the kernel's keyutils store, which lives in memory, is tied to the login session
 * and loses every secret at reboot, so a saved profile would stop working without warning.
 * Without a Secret Service the profile keeps an `${env:NAME}` reference or asks at connect time.
 */
export class PlatformKeyring implements SecretStore {
  readonly label = 'the OS keyring';
  private module: Promise<KeyringModule> | undefined;

  async get(account: string): Promise<string | undefined> {
    const entry = await this.entry(account);
    return this.guard(async () => (await entry.getPassword()) ?? undefined);
  }

  async set(account: string, secret: string): Promise<void> {
    const entry = await this.entry(account);
    await this.guard(() => entry.setPassword(secret));
  }

  async delete(account: string): Promise<boolean> {
    const entry = await this.entry(account);
    return this.guard(() => entry.deleteCredential());
  }

  private async entry(
    account: string
  ): Promise<InstanceType<KeyringModule['AsyncEntry']>> {
    // Loaded on first use: the native module is not needed to start the kernel.
    const keyring = await (this.module ??= import('@napi-rs/keyring'));
    return this.guard(
      async () =>
        new keyring.AsyncEntry(KEYRING_SERVICE, account, {
          linux: { store: 'secret-service' }
        })
    );
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (err) {
      throw new KeyringUnavailable(
        `no OS keyring is available (${firstLine((err as Error).message)})`
      );
    }
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 200);
}
