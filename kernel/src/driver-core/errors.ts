/**
 * Failed requests, engine-neutral: one class per kind, each with a stable `code`. `ename` is
 * the title the error output shows (the text users have always seen, sentences and words
 * alike); it is for showing only: callers tell kinds apart by `code` or instanceof.
 */
import type { JsonValue } from '../../../contracts/json';
import { SearchbookError } from '../../../contracts/errors';

export type EngineErrorCode =
  | 'SEARCHBOOK_ERR_AUTHENTICATION_FAILED'
  | 'SEARCHBOOK_ERR_CONNECTION_FAILED'
  | 'SEARCHBOOK_ERR_REQUEST_FAILED'
  | 'SEARCHBOOK_ERR_INTERRUPTED'
  | 'SEARCHBOOK_ERR_TIMEOUT'
  | 'SEARCHBOOK_ERR_ANSWER_TOO_LARGE'
  | 'SEARCHBOOK_ERR_UNREADABLE_ANSWER'
  | 'SEARCHBOOK_ERR_REDIRECTED'
  | 'SEARCHBOOK_ERR_INVALID_EXPORT'
  | 'SEARCHBOOK_ERR_CREDENTIALS_UNAVAILABLE';

/** A failed request: what the user sees, with the engine's own reason. */
export abstract class EngineError extends SearchbookError {
  abstract override readonly code: EngineErrorCode;
  /** The error output's `ename`, as users see it (`Authentication failed`, `RequestFailed`). Never compare it. */
  abstract readonly ename: string;

  constructor(
    message: string,
    /** The HTTP status of the answer that failed, when there was one. */
    readonly status?: number,
    readonly body?: JsonValue
  ) {
    super(message);
  }
}

/** The engine refused the credentials, or they lack the privilege asked for. */
export class AuthenticationFailedError extends EngineError {
  override readonly name = 'AuthenticationFailedError';
  readonly code = 'SEARCHBOOK_ERR_AUTHENTICATION_FAILED';
  readonly ename = 'Authentication failed';
}

/** No answer came: the address, the port, TLS, or a connection broken while answering. */
export class ConnectionFailedError extends EngineError {
  override readonly name = 'ConnectionFailedError';
  readonly code = 'SEARCHBOOK_ERR_CONNECTION_FAILED';
  readonly ename = 'Connection failed';
}

/** The engine answered with a failure of the request itself (its status and reason). */
export class RequestFailedError extends EngineError {
  override readonly name = 'RequestFailedError';
  readonly code = 'SEARCHBOOK_ERR_REQUEST_FAILED';
  readonly ename = 'RequestFailed';
}

/** The user interrupted the request; nothing more is read from it. */
export class InterruptedError extends EngineError {
  override readonly name = 'InterruptedError';
  readonly code = 'SEARCHBOOK_ERR_INTERRUPTED';
  readonly ename = 'Interrupted';
}

/** The whole answer did not come within the connection's timeout. */
export class AnswerTimeoutError extends EngineError {
  override readonly name = 'AnswerTimeoutError';
  readonly code = 'SEARCHBOOK_ERR_TIMEOUT';
  readonly ename = 'Timeout';
}

/** The answer passed the connection's max_answer. */
export class AnswerTooLargeError extends EngineError {
  override readonly name = 'AnswerTooLargeError';
  readonly code = 'SEARCHBOOK_ERR_ANSWER_TOO_LARGE';
  readonly ename = 'Answer too large';
}

/** The answer came in a form searchbook cannot read (an unknown or broken Content-Encoding). */
export class UnreadableAnswerError extends EngineError {
  override readonly name = 'UnreadableAnswerError';
  readonly code = 'SEARCHBOOK_ERR_UNREADABLE_ANSWER';
  readonly ename = 'Unreadable answer';
}

/** The engine answered with a redirect, which searchbook does not follow. */
export class RedirectedError extends EngineError {
  override readonly name = 'RedirectedError';
  readonly code = 'SEARCHBOOK_ERR_REDIRECTED';
  readonly ename = 'Redirected';
}

/** An export the engine cannot run as asked; nothing was sent. */
export class InvalidExportError extends EngineError {
  override readonly name = 'InvalidExportError';
  readonly code = 'SEARCHBOOK_ERR_INVALID_EXPORT';
  readonly ename = 'InvalidExport';
}

/** The credentials or settings an auth method reads outside the notebook are not there; nothing was sent. */
export class CredentialsUnavailableError extends EngineError {
  override readonly name = 'CredentialsUnavailableError';
  readonly code = 'SEARCHBOOK_ERR_CREDENTIALS_UNAVAILABLE';
  readonly ename = 'Credentials unavailable';
}
