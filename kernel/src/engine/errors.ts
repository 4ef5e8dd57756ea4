import type { JsonValue } from '../../../contracts/json';

/** A failed request, engine-neutral: what the user sees, with the engine's own reason. */
export class EngineError extends Error {
  constructor(
    /** `Authentication failed`, `Connection failed`, `Request failed`, `Interrupted`, ... */
    readonly ename: string,
    message: string,
    readonly status?: number,
    readonly body?: JsonValue,
  ) {
    super(message);
    this.name = ename;
  }
}
