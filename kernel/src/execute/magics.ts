import { AnswerUnavailable } from '../console/answers';
import type { ConsoleMagic } from '../console/cell';
import { messageBundle } from '../render/bundle';
import { limitsFromEnv } from '../render/output-limits';
import { CellFailure } from './cell-failure';
import type { MagicContext } from './magic-context';
import { exportMagic } from './magic-export';
import { varsBundle } from './magic-vars';
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
    scope.set(magic.set.name, magic.set.value, magic.set.origin);
  },
  vars: async (_magic, { scope, sink }) => {
    await sink.display(
      varsBundle(scope, limitsFromEnv().rowsAsValues === true)
    );
  },
  name: async ({ args }, { answers, sink }) => {
    const name = args.trim();
    try {
      const answer = answers.name(name);
      await sink.display(
        messageBundle(
          `Named the answer of ${answer.from} ${name}: read it in a later cell with %set <variable> = ${name}: <JMESPath expression>.`
        )
      );
    } catch (err) {
      if (err instanceof AnswerUnavailable) {
        throw new CellFailure('NoAnswer', err.message, err.hint);
      }
      throw err;
    }
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
