import type { ConsoleMagic, JsonValue } from '../console/cell';
import type { VariableScope } from '../console/variables';
import { ConnectArgsError, parseConnectArgs } from '../connections/connect-args';
import { openConnection } from '../connections/open-connection';
import type { ConnectionRegistry } from '../connections/registry';
import { EngineError } from '../drivers/driver';
import { messageBundle } from '../render/bundle';
import { CellFailure } from './cell-failure';
import type { OutputSink } from './output-sink';

export interface MagicContext {
  scope: VariableScope;
  connections: ConnectionRegistry;
  sink: OutputSink;
  signal: AbortSignal;
}

type MagicRunner = (magic: ConsoleMagic, ctx: MagicContext) => Promise<void>;

const RUNNERS: Record<string, MagicRunner> = {
  set: async (magic, { scope }) => {
    // The parser validated and substituted the value during the cell's dry run.
    if (!magic.set) throw new CellFailure('SetUsage', 'Write %set name = <JSON value>, for example %set size = 10.');
    scope.set(magic.set.name, magic.set.value);
  },
  vars: async (_magic, { scope, sink }) => {
    const rows: Record<string, JsonValue>[] = scope.entries().map(([name, value]) => ({ name, value: JSON.stringify(value) }));
    await sink.display(messageBundle(rows.length ? 'Variables' : 'No variables yet: set one with %set name = <JSON value>.', rows));
  },
  connect: async ({ args }, { scope, connections, sink, signal }) => {
    let connectArgs;
    try {
      connectArgs = parseConnectArgs(args, (name) => scope.env(name));
    } catch (err) {
      if (err instanceof ConnectArgsError) throw new CellFailure('ConnectUsage', err.message);
      throw err;
    }
    try {
      const connection = await openConnection(connectArgs, signal);
      connections.add(connection);
      const lines = [`Connected to ${connection.engineLabel} ${connection.identity.version} at ${connection.address} as "${connection.name}"; the following cells use it.`];
      await sink.display(messageBundle([...lines, ...connection.identity.warnings.map((w) => `Warning: ${w}`)].join('\n')));
    } catch (err) {
      if (err instanceof EngineError) throw new CellFailure(err.ename, err.message);
      if (err instanceof ConnectArgsError) throw new CellFailure('ConnectUsage', err.message);
      throw err;
    }
  },
  connections: async (_magic, { connections, sink }) => {
    const active = connections.active;
    const rows: Record<string, JsonValue>[] = connections.list().map((c) => ({
      name: c.name,
      engine: c.engine,
      address: c.address,
      version: c.identity.version,
      active: c === active,
    }));
    await sink.display(messageBundle(rows.length ? 'Connections' : 'No connection is open: connect with %connect.', rows));
  },
  use: async ({ args }, { connections, sink }) => {
    const name = args.trim();
    if (!name) throw new CellFailure('UseUsage', 'Name the connection to use: %use <name>. %connections lists them.');
    try {
      const connection = connections.use(name);
      await sink.display(messageBundle(`Using "${connection.name}" (${connection.address}).`));
    } catch (err) {
      throw new CellFailure('UnknownConnection', (err as Error).message);
    }
  },
};

export async function runMagic(magic: ConsoleMagic, ctx: MagicContext): Promise<void> {
  const runner = RUNNERS[magic.name];
  if (!runner) throw new CellFailure('UnknownMagic', `%${magic.name} is not a searchbook magic.`, `Magics: ${Object.keys(RUNNERS).map((n) => `%${n}`).join(', ')}.`);
  await runner(magic, ctx);
}
