import type { ConsoleMagic, JsonValue } from '../console/cell';
import { messageBundle } from '../render/bundle';
import { CellFailure } from './cell-failure';
import type { MagicContext } from './magic-context';
import { exportMagic } from './magic-export';
import {
  connectionsMagic,
  connectMagic,
  profilesMagic
} from './magics-connect';

type MagicRunner = (magic: ConsoleMagic, ctx: MagicContext) => Promise<void>;

const RUNNERS: Record<string, MagicRunner> = {
  set: async (magic, { scope }) => {
    // The parser validated and substituted the value during the cell's dry run.
    if (!magic.set) {
      throw new CellFailure(
        'SetUsage',
        'Write %set name = <JSON value>, for example %set size = 10.'
      );
    }
    scope.set(magic.set.name, magic.set.value);
  },
  vars: async (_magic, { scope, sink }) => {
    const rows: Record<string, JsonValue>[] = scope
      .entries()
      .map(([name, value]) => ({ name, value: JSON.stringify(value) }));
    await sink.display(
      messageBundle(
        rows.length
          ? 'Variables'
          : 'No variables yet: set one with %set name = <JSON value>.',
        rows
      )
    );
  },
  connect: connectMagic,
  connections: connectionsMagic,
  profiles: profilesMagic,
  export: exportMagic,
  use: async ({ args }, { connections, sink }) => {
    const name = args.trim();
    if (!name) {
      throw new CellFailure(
        'UseUsage',
        'Name the connection to use: %use <name>. %connections lists them.'
      );
    }
    try {
      const connection = connections.use(name);
      await sink.display(
        messageBundle(`Using "${connection.name}" (${connection.address}).`)
      );
    } catch (err) {
      throw new CellFailure('UnknownConnection', (err as Error).message);
    }
  }
};

export async function runMagic(
  magic: ConsoleMagic,
  ctx: MagicContext
): Promise<void> {
  const runner = RUNNERS[magic.name];
  if (!runner) {
    throw new CellFailure(
      'UnknownMagic',
      `%${magic.name} is not a searchbook magic.`,
      `Magics: ${Object.keys(RUNNERS)
        .map(n => `%${n}`)
        .join(', ')}.`
    );
  }
  await runner(magic, ctx);
}
