/**
 * Failover between the nodes of one connection: a request goes to the node the pool offers,
 * and on to the next only when the node gave no answer and the request cannot have been
 * carried out there (or is safe to repeat); the official clients' connection pools do the same.
 */
import { errors as undiciErrors } from 'undici';
import { connectionFailureReason } from './connection-failure';
import {
  AnswerTimeoutError,
  ConnectionFailedError,
  type EngineError
} from '../errors';
import type { AnswerErrors } from './answer-errors';
import { AnswerCutError, DeadlinePassedError } from './buffered-response';
import {
  answeredByLine,
  nodeName,
  type NodePool,
  type PassedNode
} from './node-pool';

/**
 * Methods that mean the same however often they are sent (RFC 9110, 9.2.1 safe methods):
 * only these are sent again after a connection closed before any answer came. A PUT or
 * DELETE may have been carried out by a server that then closed without answering, and a
 * `_bulk` of `create` actions sent twice would report its own documents as conflicts.
 */
export const RESENDABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Socket failures that come before any byte of the request is written: the node was not
 * reached, so any request may go to another node.
 */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL'
]);

/** A node that gave no answer: whether the request may go to the next node, and why. */
export interface Unanswered {
  reason: string;
  /**
   * Why the request does not go on to the next node: it may have been carried out (written
   * before the connection failed, and not safe to repeat), or its deadline is spent (the
   * node held it until `timeout=` passed). Undefined: it goes on.
   */
  stays?: 'may-have-arrived' | 'deadline-spent';
}

/**
 * A node's failure to give a whole answer, as opposed to its answer or a failure of ours: it
 * was not reached, closed the connection before or while answering, or held the request
 * (no answer, or one trickling) until the deadline. Each marks the node dead for its
 * back-off, as the official clients' connection pools do on a connection error or timeout.
 */
export function unanswered(
  err: unknown,
  method: string
): Unanswered | undefined {
  const code = socketCode(err);
  const reason = connectionFailureReason(err);
  const resendable = RESENDABLE.has(method);
  if (code !== undefined && NOT_REACHED.has(code)) {
    return { reason };
  }
  if (isTimeout(err)) {
    return {
      reason: 'it did not send a whole answer in time',
      stays: 'deadline-spent'
    };
  }
  if (err instanceof AnswerCutError) {
    // The answer was cut off: the request arrived, so only a safe one goes on.
    return {
      reason: `it closed the connection in the middle of its answer (${connectionFailureReason(err.failure)})`,
      ...(resendable ? {} : { stays: 'may-have-arrived' as const })
    };
  }
  if (closedUnanswered(err)) {
    return resendable ? { reason } : { reason, stays: 'may-have-arrived' };
  }
  return undefined;
}

/** The answer did not come whole in time: our deadline, or undici's own timeouts. */
function isTimeout(err: unknown): boolean {
  const failure = err instanceof AnswerCutError ? err.failure : err;
  return (
    failure instanceof DeadlinePassedError ||
    failure instanceof undiciErrors.HeadersTimeoutError ||
    failure instanceof undiciErrors.BodyTimeoutError
  );
}

/** A socket closed or reset before any answer: what a keep-alive connection closed while idle gives. */
export function closedUnanswered(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    err instanceof undiciErrors.SocketError ||
    code === 'ECONNRESET' ||
    code === 'EPIPE'
  );
}

/** The code of a socket failure, looked for down its causes (undici wraps some). */
function socketCode(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_REACHED.has(code)) {
      return code;
    }
  }
  return undefined;
}

/** Sends each request to some node of the pool, and says why none answered when none did. */
export class Failover {
  constructor(
    private readonly pool: NodePool,
    private readonly errors: AnswerErrors,
    private readonly label: string,
    private readonly timeoutMs: number
  ) {}

  /**
   * Sends to the first node the pool offers, and to the next one when a node does not
   * answer and the request cannot have reached it (or is safe to repeat): a live node's
   * answer, 4xx and 5xx included, is the answer. The answer says which node gave it when that
   * is not the first one listed.
   */
  async toSomeNode<T>(
    method: string,
    signal: AbortSignal,
    send: (node: string) => Promise<T>
  ): Promise<{ response: T; node: string; answeredBy?: string }> {
    const timeoutMs = this.timeoutMs;
    const order = this.pool.order();
    const failed: { node: string; err: unknown; reason: string }[] = [];
    for (const { url: node } of order) {
      try {
        const response = await send(node);
        this.pool.markAlive(node);
        if (node === this.pool.first) {
          return { response, node };
        }
        const passed: PassedNode[] = [
          ...failed.map(f => ({ node: f.node, reason: f.reason, tried: true })),
          ...this.pool.skipped().filter(s => s.node !== node)
        ];
        return { response, node, answeredBy: answeredByLine(node, passed) };
      } catch (err) {
        const gave = signal.aborted ? undefined : unanswered(err, method);
        if (!gave) {
          throw this.errors.map(err, signal, timeoutMs, node);
        }
        this.pool.markDead(node, gave.reason);
        failed.push({ node, err, reason: gave.reason });
        if (this.pool.size === 1) {
          throw this.errors.map(err, signal, timeoutMs, node);
        }
        if (gave.stays) {
          throw this.stayedError(err, signal, node, method, gave.stays);
        }
      }
    }
    throw this.noNodeAnswered(failed, signal, timeoutMs);
  }

  /** Why a request that failed on `node` was not sent to another, and where the next one goes. */
  private stayedError(
    err: unknown,
    signal: AbortSignal,
    node: string,
    method: string,
    stays: NonNullable<Unanswered['stays']>
  ): EngineError {
    const timeoutMs = this.timeoutMs;
    const next = nodeName(this.pool.order()[0]?.url ?? node);
    const mapped = this.errors.map(err, signal, timeoutMs, node);
    if (stays === 'deadline-spent') {
      const back = Math.round(this.pool.deadFor(node) / 1000);
      return new AnswerTimeoutError(
        `${mapped.message} Node ${nodeName(node)} is left out for the next ${back} s: run the cell again to send it to ${next}.`
      );
    }
    return new ConnectionFailedError(
      `${mapped.message} ${method} was not sent to another node, since ${nodeName(node)} may have carried it out before the connection failed; run it again to send it to ${next}.`
    );
  }

  private noNodeAnswered(
    failed: { node: string; err: unknown }[],
    signal: AbortSignal,
    timeoutMs: number
  ): EngineError {
    const lines = failed.map(
      f =>
        `- ${nodeName(f.node)}: ${this.errors.map(f.err, signal, timeoutMs, f.node, false).message.replace(/^Connection failed: /, '')}`
    );
    return new ConnectionFailedError(
      `Connection failed: no node of connection ${this.label} answered:\n${lines.join('\n')}`
    );
  }
}
