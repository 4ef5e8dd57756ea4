/**
 * What "Open an index or collection…" offers and how it reads what was chosen or typed:
 * `name · connection`, a bare name when one connection is open, and a message saying what to
 * write otherwise.
 */
import {
  chosenTarget,
  targetChoices
} from '../../extension/src/commands/target-choice';
import type { ConnectionNode } from '../../extension/src/sidebar/connections-tree';

function node(name: string, targets: string[]): ConnectionNode {
  return {
    connection: { name } as ConnectionNode['connection'],
    targets: targets.map(t => ({ name: t }) as ConnectionNode['targets'][0]),
    loading: false
  };
}

describe('opening an index or collection by name', () => {
  it('offers every listed name with its connection, dot names left out as in the tree', () => {
    expect(
      targetChoices([
        node('es', ['books', '.security', 'films']),
        node('ts', ['books'])
      ])
    ).toEqual(['books · es', 'films · es', 'books · ts']);
  });

  it('reads a chosen `name · connection`, and a name with a dot in it', () => {
    expect(chosenTarget('books · ts', ['es', 'ts'])).toEqual({
      connection: 'ts',
      target: 'books'
    });
    expect(chosenTarget('logs-2024.01 · es', ['es'])).toEqual({
      connection: 'es',
      target: 'logs-2024.01'
    });
  });

  it('a bare name opens on the only connection; with several it says what to write', () => {
    expect(chosenTarget('b*', ['es'])).toEqual({
      connection: 'es',
      target: 'b*'
    });
    const several = chosenTarget('b*', ['es', 'ts']);
    expect(several).toEqual({
      error:
        'Several connections are open: write "b* · connection", with one of es, ts.'
    });
  });

  it('an unknown connection or an empty name is refused, saying what to write', () => {
    expect(chosenTarget('books · nope', ['es'])).toEqual({
      error: 'No connection named nope: write one of es after " · ".'
    });
    expect(chosenTarget(' · es', ['es'])).toEqual({
      error: 'Type the name of an index or collection.'
    });
    expect(chosenTarget('books', [])).toEqual({
      error:
        'No connection is open in the kernel the panel follows: run a %connect cell first.'
    });
  });
});
