import { AnswerStore } from '../console/answers';
import type { ConsoleRequest, ParseResult, Refusal } from '../console/cell';
import { parseCellEvaluating } from '../console/parse-evaluating';
import type { VariableScope } from '../console/variables';
import {
  defaultProfileServices,
  type ProfileServices
} from '../connections/profile-services';
import { CONSOLE_WORDING } from '../connections/console-wording';
import type { ConnectionRegistry } from '../connections/connection-registry';
import { type EngineResponse } from '../driver-core/driver';
import { EngineError } from '../driver-core/errors';
import { ENGINES } from '../engines/engine-registry';
import {
  type Answer,
  messageBundle,
  readsShapeOnly,
  toBundles
} from '../render/bundle';
import { wholeResponse, wholeValue } from '../driver-core/http/answer-body';
import { answerDone } from '../driver-core/http/memory-return';
import { type OutputLimits, limitsFromEnv } from '../render/output-limits';
import { CellFailure, INTERRUPTED, INTERRUPTED_CODE } from './cell-failure';
import { runMagic } from './magics';
import type { OutputSink } from './output-sink';
import { Progress } from './progress';
import { exactJson } from '../../../contracts/exact-json';

const NO_CONNECTION_HINT = [
  'Connect first, for example:',
  '%connect <profile>   (%connections lists the saved ones)',
  ...ENGINES.map(engine => engine.connect.example)
].join('\n');

/**
 * Runs cells: the whole cell is parsed (a dry run that also checks every variable) before
 * anything is sent, then its items run in order and the cell stops at the first failure.
 */
export class CellRunner {
  private current:
    { controller: AbortController; startedAt: number } | undefined;
  /** The last answer and the named ones, for `%set name = <expression>`. */
  readonly answers = new AnswerStore();

  private limits: OutputLimits;

  constructor(
    private readonly scope: VariableScope,
    private readonly connections: ConnectionRegistry,
    /** The limits without the panel's setting: `SEARCHBOOK_MAX_ROWS` or the defaults. */
    private readonly startLimits: OutputLimits = limitsFromEnv(),
    private readonly profiles: ProfileServices = defaultProfileServices()
  ) {
    this.limits = startLimits;
  }

  /**
   * searchbook's "Rows kept in notebook outputs" setting, for the cells run from now on; null
   * returns to the kernel's own cap. Answers the cap in force.
   */
  keepOutputRows(rows: number | null): number {
    this.limits =
      rows === null
        ? this.startLimits
        : { ...this.startLimits, gridRows: rows };
    return this.limits.gridRows;
  }

  /**
   * Aborts the cell in flight, if it was already running at `arrivedAt` (performance.now());
   * its HTTP request is cancelled at once. False when there was nothing to stop.
   */
  interrupt(arrivedAt = performance.now()): boolean {
    if (!this.current || this.current.startedAt > arrivedAt) {
      return false;
    }
    this.current.controller.abort();
    return true;
  }

  async run(code: string, sink: OutputSink): Promise<void> {
    const startedAt = performance.now();
    const controller = new AbortController();
    const current = { controller, startedAt };
    // Checking the cell can take a while (its %set expressions run first): an interrupt stops it too.
    this.current = current;
    try {
      await this.runParsed(
        await parseCellEvaluating(
          code,
          this.scope,
          CONSOLE_WORDING,
          this.answers,
          controller.signal
        ).catch((err: unknown) => {
          throw controller.signal.aborted ? INTERRUPTED() : err;
        }),
        sink,
        controller
      );
    } finally {
      if (this.current === current) {
        this.current = undefined;
      }
    }
  }

  private async runParsed(
    parsed: ParseResult,
    sink: OutputSink,
    controller: AbortController
  ): Promise<void> {
    const driver = this.connections.active?.driver;
    // SQL is answered with the connection's own engine's way of asking the same.
    if (!parsed.ok) {
      throw refusalFailure(
        parsed.refusal,
        parsed.refusal.code === 'SEARCHBOOK_ERR_SQL_REFUSED' && driver
          ? driver.console.sqlAdvice
          : parsed.refusal.hint
      );
    }
    // A cell that keeps its connection is checked whole against it, so a refusal sends nothing at all.
    if (driver && parsed.items.every(item => item.kind === 'request')) {
      for (const item of parsed.items) {
        const refusal =
          item.kind === 'request' ? driver.console.refusal(item) : undefined;
        if (refusal) {
          throw refusalFailure(refusal);
        }
      }
    }
    try {
      for (const item of parsed.items) {
        if (controller.signal.aborted) {
          throw INTERRUPTED();
        }
        if (item.kind === 'magic') {
          await runMagic(item, {
            scope: this.scope,
            connections: this.connections,
            sink,
            signal: controller.signal,
            profiles: this.profiles,
            answers: this.answers
          });
        } else {
          await this.send(item, sink, controller.signal);
        }
      }
      if (controller.signal.aborted) {
        throw INTERRUPTED();
      }
    } catch (err) {
      // A magic that says itself what the interrupt stopped (an export: how far it got) keeps its words.
      if (controller.signal.aborted) {
        throw err instanceof CellFailure && err.code === INTERRUPTED_CODE
          ? err
          : INTERRUPTED();
      }
      if (err instanceof EngineError) {
        throw CellFailure.fromEngine(err);
      }
      throw err;
    }
  }

  private async send(
    request: ConsoleRequest,
    sink: OutputSink,
    signal: AbortSignal
  ): Promise<void> {
    const connection = this.connections.active;
    if (!connection) {
      throw new CellFailure(
        'NoConnection',
        `No connection is open, so ${request.method} ${request.path} was not sent.`,
        NO_CONNECTION_HINT
      );
    }
    const { driver } = connection;
    const refusal = driver.console.refusal(request);
    if (refusal) {
      throw refusalFailure(refusal);
    }
    const path =
      request.shown ??
      (request.query ? `${request.path}?${request.query}` : request.path);
    const progress = new Progress(sink, {
      waitingFor: `${connection.name}: ${request.method} ${path}`,
      stoppable: true
    });
    let response: EngineResponse;
    let answer: ReturnType<typeof answerOf>;
    try {
      // The Python magics take a search answer as its bytes: its documents are read for their
      // shape, and those a shown grid holds one by one.
      response = await driver.console.send(request, signal, {
        shapeOnly: Boolean(sink.answerAsBuffer),
        ...(sink.answerBytes ? { early: sink.answerBytes } : {})
      });
      const partialFailures = driver.console.partialFailures(request, response);
      const info = {
        connection: connection.name,
        engine: driver.engine,
        method: request.method,
        path,
        status: response.status,
        elapsedMs: response.elapsedMs,
        ...(partialFailures.length > 0 ? { partialFailures } : {})
      };
      const limits = {
        ...this.limits,
        ...(sink.valueOnly ? { valueOnly: true } : {}),
        ...(sink.answerAsBuffer ? { answerAsBuffer: true } : {})
      };
      answer = answerOf(response);
      let presented = driver.console.present(request, response);
      if (answer?.shapeOnly && !readsShapeOnly(presented, answer, limits)) {
        response = wholeResponse(response);
        answer = answerOf(response);
        presented = driver.console.present(request, response);
      }
      const [first, ...more] = toBundles(presented, info, answer, limits);
      if (first) {
        await progress.finish(first);
      }
      for (const bundle of more) {
        await sink.display(bundle);
      }
      // Under the answer, so a body that is not what it says it is never passes as an ordinary one.
      if (response.notice) {
        await sink.display(messageBundle(response.notice));
      }
      if (response.answeredBy) {
        await sink.display(messageBundle(response.answeredBy));
      }
    } catch (err) {
      // Whatever failed (the request, or showing its answer), the waiting line stops and says so.
      await progress.fail(signal.aborted ? 'interrupted' : 'failed');
      throw err;
    } finally {
      progress.stop();
      answerDone();
    }
    const failure = driver.console.failure(request, response);
    if (failure) {
      throw CellFailure.fromEngine(failure);
    }
    // Only an answer that succeeded becomes the last one: an error's JSON is no data to read.
    if (answer) {
      const { bytes } = answer;
      this.answers.record(
        `${connection.name}: ${request.method} ${path}`,
        answer.shapeOnly ? () => wholeValue(bytes) : answer.value,
        bytes.length
      );
    }
  }
}

/** The answer as the notebook may keep it: JSON as the engine sent it, JSONL lines as one array. */
export function answerOf(response: EngineResponse): Answer | undefined {
  const body = response.body;
  if (body.kind === 'json') {
    return {
      bytes: body.bytes ?? Buffer.from(exactJson(body.value), 'utf8'),
      value: body.value,
      ...(body.elisions ? { elisions: body.elisions } : {}),
      ...(body.shapeOnly ? { shapeOnly: true } : {}),
      ...(body.shapeOnly && body.bytes && body.documentRanges
        ? { document: documentReader(body.bytes, body.documentRanges) }
        : {})
    };
  }
  if (body.kind === 'jsonl') {
    return {
      bytes: Buffer.from(exactJson(body.values), 'utf8'),
      value: body.values
    };
  }
  return undefined;
}

/** Each document of an answer read for its shape, read alone from its own bytes when asked. */
function documentReader(
  bytes: Buffer,
  ranges: readonly number[]
): NonNullable<Answer['document']> {
  return {
    count: ranges.length / 2,
    at: i =>
      wholeValue(bytes.subarray(ranges[2 * i] ?? 0, ranges[2 * i + 1] ?? 0))
  };
}

function refusalFailure(refusal: Refusal, hint = refusal.hint): CellFailure {
  // The refusal's message already names its line and column.
  return new CellFailure(
    refusal.ename,
    `${refusal.message.replace(/\.?$/, '.')} Nothing was sent.`,
    hint,
    refusal.code
  );
}
