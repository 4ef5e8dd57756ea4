/**
 * The cells this kernel ran, for history_request (JupyterLab's console history: up/down in the
 * prompt, and its search). Secrets typed into `%connect` lines are removed before a cell is kept.
 */
import { withoutTypedSecrets } from '../../../contracts/typed-secrets';
import { TYPED_SECRET_KINDS } from '../connections/engine-options';
import type { Handler } from '../protocol/kernel-server';
import { type HistoryQuery, HistoryRequest } from '../protocol/requests';

/** This kernel's only session; 0 in a request means "the current session", as in IPython. */
export const SESSION_NUMBER = 1;

type Entry = [session: number, line: number, input: string];

/** Jupyter's history patterns are globs (`*` any text, `?` one character), matched on the whole cell. */
function globRegExp(pattern: string): RegExp {
  const body = [...pattern]
    .map(ch =>
      ch === '*'
        ? '[\\s\\S]*'
        : ch === '?'
          ? '[\\s\\S]'
          : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    )
    .join('');
  return new RegExp(`^${body}$`);
}

export class SessionHistory {
  private readonly entries: Entry[] = [];

  add(line: number, code: string): void {
    this.entries.push([
      SESSION_NUMBER,
      line,
      withoutTypedSecrets(code, TYPED_SECRET_KINDS)
    ]);
  }

  query(q: HistoryQuery): Entry[] {
    const last = (list: Entry[]) =>
      q.n === undefined ? list : q.n === 0 ? [] : list.slice(-q.n);
    if (q.hist_access_type === 'tail') {
      return last(this.entries);
    }
    if (q.hist_access_type === 'range') {
      if (q.session !== 0 && q.session !== SESSION_NUMBER) {
        return [];
      }
      return this.entries.filter(
        ([, line]) => line >= q.start && (q.stop === undefined || line < q.stop)
      );
    }
    const pattern = globRegExp(q.pattern);
    let found = this.entries.filter(([, , input]) => pattern.test(input));
    if (q.unique) {
      found = found.filter(
        (entry, i) => !found.slice(i + 1).some(later => later[2] === entry[2])
      );
    }
    return last(found);
  }
}

export function historyHandler(
  history: SessionHistory
): Handler<'history_request'> {
  return async ctx => {
    const query = HistoryRequest.parse(ctx.message.content);
    const found = history.query(query);
    // With output=true each input pairs with its output; searchbook keeps no text output, so that half is null.
    await ctx.reply({
      status: 'ok',
      history: query.output
        ? found.map(([s, l, input]) => [s, l, [input, null]])
        : found
    });
  };
}
