/**
 * A request's failure in the user's words: the timeout, the answer cap, oversized headers, a
 * connection cut mid-answer, or a node not reached, each as the EngineError a cell shows,
 * naming the connection and what to change.
 */
import { maxHeaderSize } from 'node:http';
import { errors as undiciErrors } from 'undici';
import { sizePast } from '../../console/size-past';
import { formatBytes, MAX_ANSWER_CAP_BYTES } from '../request-bounds';
import {
  AnswerTimeoutError,
  AnswerTooLargeError,
  ConnectionFailedError,
  EngineError,
  InterruptedError,
  UnreadableAnswerError
} from '../errors';
import {
  AnswerCutError,
  CapPassedError,
  DeadlinePassedError
} from './buffered-response';
import {
  connectionFailureMessage,
  connectionFailureReason
} from './connection-failure';
import type { TransportOptions } from './transport-options';

export class AnswerErrors {
  constructor(
    private readonly options: Pick<
      TransportOptions,
      'label' | 'largeAnswerAdvice' | 'untrustedCertificateAdvice'
    >
  ) {}

  private tooLarge(err: CapPassedError): EngineError {
    const cap = formatBytes(err.maxBytes);
    const reached =
      err.stage === 'announced'
        ? `its Content-Length announced ${sizePast(err.reached, err.maxBytes, formatBytes)}, so it was not read`
        : err.stage === 'decoded'
          ? 'it grew past that once decompressed, so it was dropped'
          : `the request was aborted at ${formatBytes(err.reached)} read and what was read let go`;
    const advice = this.options.largeAnswerAdvice ?? 'Ask for a smaller answer';
    return new AnswerTooLargeError(
      `The answer of ${this.options.label} is larger than the ${cap} one answer may hold in memory (max_answer of this connection): ${reached}. ${advice}; or raise the cap with max_answer=<size> on %connect (at most ${formatBytes(MAX_ANSWER_CAP_BYTES).replace(' ', '')}).`
    );
  }

  /** A failure to answer as the EngineError the cell shows. */
  map(
    err: unknown,
    signal: AbortSignal,
    timeoutMs: number,
    baseUrl: string,
    /** false: the message names the connection already (one line per node). */
    namesConnection = true
  ): EngineError {
    if (signal.aborted) {
      return new InterruptedError(
        'The request was interrupted; nothing more will be read from it.'
      );
    }
    const cut = err instanceof AnswerCutError ? err : undefined;
    if (cut) {
      err = cut.failure;
    }
    if (err instanceof EngineError) {
      return err;
    }
    if (
      err instanceof DeadlinePassedError ||
      err instanceof undiciErrors.HeadersTimeoutError ||
      err instanceof undiciErrors.BodyTimeoutError
    ) {
      return new AnswerTimeoutError(
        `${this.options.label} did not send its whole answer within ${timeoutMs / 1000} s (timeout=${timeoutMs / 1000} of this connection), so the request was aborted. Wait longer with timeout=<seconds> on %connect, or ask for less.`
      );
    }
    if (err instanceof CapPassedError) {
      return this.tooLarge(err);
    }
    const { label } = this.options;
    // The engine was reached and answered; only its headers were more than the client reads.
    if (err instanceof undiciErrors.HeadersOverflowError) {
      return new UnreadableAnswerError(
        `The answer of ${label} could not be read: its headers are larger than the ${formatBytes(maxHeaderSize)} searchbook reads of them (${connectionFailureReason(err)}), so nothing of it is shown. The engine or a proxy in between sends oversized headers (a long Set-Cookie or Warning header, for example): its configuration or log says which.`
      );
    }
    if (cut) {
      const read =
        cut.received === undefined
          ? ''
          : ` after ${formatBytes(cut.received)} of it`;
      return new ConnectionFailedError(
        `Connection failed: ${baseUrl} (connection ${label}) answered ${cut.status} and then closed the connection before the whole answer came${read} (${connectionFailureReason(err)}), so none of it is shown. Run the cell again; if it happens again, the engine or a proxy in between cuts answers off: its log says why.`
      );
    }
    const untrustedCertificateAdvice =
      this.options.untrustedCertificateAdvice ??
      'Add skip_verify to trust it anyway, or ca=<PEM file> with the CA that signed it.';
    return new ConnectionFailedError(
      connectionFailureMessage(err, {
        ...(namesConnection ? { label } : {}),
        baseUrl,
        untrustedCertificateAdvice
      })
    );
  }
}
