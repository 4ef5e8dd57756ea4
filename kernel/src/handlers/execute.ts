import { CellFailure } from '../execute/cell-failure';
import type { CellRunner } from '../execute/cell-runner';
import type { Handler } from '../protocol/kernel-server';
import { ANSWER_BYTES_MIME } from '../../../contracts/mime-types';
import { MessageBuffer } from '../protocol/message-buffer';
import { ExecuteMetadata, ExecuteRequest } from '../protocol/requests';
import { withLargeAnswersCompressed } from '../render/compressed-answers';
import { withinOutputDepth } from '../render/output-depth';
import type { SecretMask } from '../render/secret-mask';
import type { SessionHistory } from './history';

export interface ExecutionState {
  count: number;
  /** Cells run with store_history, for history_request. */
  history: SessionHistory;
  /** Secrets the cells put into requests: no output of a cell shows them. */
  secrets: SecretMask;
}

/**
 * execute_request: execute_input, the outputs as display_data, then the reply. A failure
 * is an `error` output and an error reply, and with stop_on_error the cells queued behind
 * it are aborted.
 */
/** Only `%set` lines come with a request's metadata: anything else would run unseen. */
const SET_LINE = /^%set[ \t]/;

/** A request's `%set` lines (its metadata's), each run as a silent cell of its own, in order; the first refused stops the request. */
async function runSetLines(runner: CellRunner, lines: string[]): Promise<void> {
  const unseen = {
    display: () => Promise.resolve(),
    update: () => Promise.resolve(),
    input: () =>
      Promise.reject(new CellFailure('SetUsage', 'A %set line asks nothing.')),
    canAsk: false
  };
  for (const line of lines) {
    if (!SET_LINE.test(line) || line.includes('\n')) {
      throw new CellFailure(
        'SetUsage',
        `The execute metadata's setFirst takes one %set line each, not ${JSON.stringify(line.slice(0, 80))}: nothing was run.`
      );
    }
    await runner.run(line, unseen);
  }
}

export function executeHandler(
  runner: CellRunner,
  state: ExecutionState,
  takeQueued: () => Promise<() => Promise<void>>
): Handler<'execute_request'> {
  return async ctx => {
    const request = ExecuteRequest.parse(ctx.message.content);
    const { valueOnly, answerAsBuffer, answerEarly, setFirst } =
      ExecuteMetadata.parse(ctx.message.metadata).searchbook;
    const counts = !request.silent && request.store_history;
    if (counts) {
      state.count += 1;
      state.history.add(state.count, request.code);
    }
    const executionCount = state.count;
    // Awaited only before the reply: the iopub sender keeps it ahead of the outputs, and the
    // cell's request need not wait for it.
    const inputSent = request.silent
      ? Promise.resolve()
      : ctx.publish('execute_input', {
          code: request.code,
          execution_count: executionCount
        });
    inputSent.catch(() => undefined);
    // Every output of the cell, its error and its reply go through this one mask.
    const shown = <T>(output: T): T => state.secrets.output(output);
    // What a notebook keeps must stay readable by Python's notebook tools; large answers are
    // compressed once their secrets are masked.
    const kept = (bundle: Record<string, unknown>) =>
      withLargeAnswersCompressed(shown(withinOutputDepth(bundle)));
    const sink = {
      display: (bundle: Record<string, unknown>, displayId?: string) =>
        request.silent
          ? Promise.resolve()
          : ctx.publish('display_data', {
              data: kept(bundle),
              metadata: {},
              transient: displayId ? { display_id: displayId } : {}
            }),
      update: (displayId: string, bundle: Record<string, unknown>) =>
        request.silent
          ? Promise.resolve()
          : ctx.publish('update_display_data', {
              data: kept(bundle),
              metadata: {},
              transient: { display_id: displayId }
            }),
      input: (prompt: string, password: boolean) => ctx.input(prompt, password),
      canAsk: request.allow_stdin,
      valueOnly,
      answerAsBuffer,
      // Masked as the answer's output will be, so the two carry the same bytes.
      ...(answerEarly && answerAsBuffer && !request.silent
        ? {
            answerBytes: (bytes: Buffer) =>
              ctx.publish('display_data', {
                data: kept({
                  [ANSWER_BYTES_MIME]: {
                    answerBuffer: new MessageBuffer(bytes)
                  }
                }),
                metadata: {},
                transient: {}
              })
          }
        : {})
    };
    try {
      await runSetLines(runner, setFirst);
      await runner.run(request.code, sink);
      await inputSent;
      await ctx.reply({
        status: 'ok',
        execution_count: executionCount,
        user_expressions: {},
        payload: []
      });
    } catch (err) {
      const failure =
        err instanceof CellFailure
          ? err
          : new CellFailure(
              'InternalError',
              `searchbook failed: ${(err as Error).message}`
            );
      const error = shown({
        ename: failure.ename,
        evalue: failure.evalue,
        traceback: failure.traceback()
      });
      await inputSent;
      const abortQueued = request.stop_on_error
        ? await takeQueued()
        : undefined;
      if (!request.silent) {
        await ctx.publish('error', error);
      }
      await ctx.reply({
        status: 'error',
        execution_count: executionCount,
        ...error
      });
      await abortQueued?.();
    }
  };
}
