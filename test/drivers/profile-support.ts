/** An in-memory keyring and an in-process cell runner for the profile tests. */
import { VariableScope } from '../../kernel/src/console/variables';
import {
  KeyringUnavailable,
  type SecretStore
} from '../../kernel/src/connections/keyring';
import {
  ProfileStore,
  profilesPath
} from '../../kernel/src/connections/profile-store';
import { ConnectionRegistry } from '../../kernel/src/connections/connection-registry';
import { CellFailure } from '../../kernel/src/execute/cell-failure';
import { CellRunner } from '../../kernel/src/execute/cell-runner';
import type { MimeBundle } from '../../kernel/src/render/bundle';
import { DEFAULT_LIMITS } from '../../kernel/src/render/output-limits';
import { scratchDir } from '../support/scratch-dir';

/** The SecretStore interface over a Map: proves what the kernel stores, loads and deletes. */
export class MemoryKeyring implements SecretStore {
  readonly label = 'the test keyring';
  readonly entries = new Map<string, string>();
  readonly calls: string[] = [];
  /** Set to make every call fail as a missing platform store does. */
  unavailable = false;

  async get(account: string): Promise<string | undefined> {
    this.check(`get ${account}`);
    return this.entries.get(account);
  }

  async set(account: string, secret: string): Promise<void> {
    this.check(`set ${account}`);
    this.entries.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    this.check(`delete ${account}`);
    return this.entries.delete(account);
  }

  private check(call: string): void {
    this.calls.push(call);
    if (this.unavailable) {
      throw new KeyringUnavailable(
        'no OS keyring is available (test: switched off)'
      );
    }
  }
}

/** A profiles file in a fresh temporary Jupyter config directory. */
export function tempProfileStore(): ProfileStore {
  return new ProfileStore(
    profilesPath({
      JUPYTER_CONFIG_DIR: scratchDir('searchbook-config-')
    })
  );
}

export interface CellResult {
  status: 'ok' | 'error';
  /** Every output and the error, as text, for assertions and the secret scan. */
  text: string;
  plain: string[];
  failure?: CellFailure;
}

/** A kernel's cell runner without the wire: the same magics, drivers and sockets to the engines. */
export class InProcessKernel {
  readonly connections = new ConnectionRegistry();
  readonly outputs: string[] = [];
  readonly prompts: string[] = [];
  private readonly runner: CellRunner;

  constructor(
    env: Record<string, string>,
    readonly store: ProfileStore,
    readonly keyring: SecretStore,
    private readonly answer?: (prompt: string) => string
  ) {
    this.runner = new CellRunner(
      new VariableScope(name => env[name]),
      this.connections,
      DEFAULT_LIMITS,
      { store, keyring }
    );
  }

  async run(code: string): Promise<CellResult> {
    const bundles: MimeBundle[] = [];
    const sink = {
      display: async (bundle: MimeBundle) => void bundles.push(bundle),
      update: async (_id: string, bundle: MimeBundle) =>
        void bundles.push(bundle),
      input: async (prompt: string) => {
        this.prompts.push(prompt);
        if (!this.answer) {
          throw new Error('no input expected');
        }
        return this.answer(prompt);
      },
      canAsk: this.answer !== undefined
    };
    let failure: CellFailure | undefined;
    try {
      await this.runner.run(code, sink);
    } catch (err) {
      if (!(err instanceof CellFailure)) {
        throw err;
      }
      failure = err;
    }
    const text = JSON.stringify([
      bundles,
      failure && {
        ename: failure.ename,
        evalue: failure.evalue,
        hint: failure.hint
      }
    ]);
    this.outputs.push(text);
    const plain = bundles.map(b => String(b['text/plain'] ?? ''));
    return {
      status: failure ? 'error' : 'ok',
      text,
      plain,
      ...(failure ? { failure } : {})
    };
  }

  close(): Promise<void> {
    return this.connections.closeAll();
  }
}
