import type { ConsoleRequest, JsonValue } from '../../kernel/src/console/cell';
import { parseConnectArgs } from '../../kernel/src/connections/connect-args';
import {
  type Connection,
  openConnection
} from '../../kernel/src/connections/open-connection';
import { Refusal } from '../../kernel/src/console/refusal';
import { EngineError } from '../../kernel/src/driver-core/errors';
import { SECRETS } from '../support/secrets';

export { expectNoSecret, SECRETS } from '../support/secrets';

export const secretEnv = (
  extra: Record<string, string> = {}
): ((name: string) => string | undefined) => {
  const env: Record<string, string> = { ...SECRETS, ...extra };
  return name => env[name];
};

/** Parses a %connect line and opens it, as the `%connect` magic does. */
export function connect(
  line: string,
  extraEnv: Record<string, string> = {}
): Promise<Connection> {
  return openConnection(
    parseConnectArgs(line, secretEnv(extraEnv)),
    new AbortController().signal
  );
}

/** The EngineError a %connect line fails with (fails the test if it connects). */
export async function connectError(
  line: string,
  extraEnv: Record<string, string> = {}
): Promise<EngineError> {
  let connection: Connection | undefined;
  try {
    connection = await connect(line, extraEnv);
  } catch (err) {
    if (err instanceof EngineError) {
      return err;
    }
    throw err;
  }
  await connection.driver.close();
  throw new Error(`expected "${line}" to fail, but it connected`);
}

export function request(
  method: ConsoleRequest['method'],
  path: string,
  query = '',
  body?: unknown
): ConsoleRequest {
  return {
    kind: 'request',
    method,
    path,
    query,
    line: 1,
    ...(body === undefined
      ? {}
      : { body: { kind: 'json', value: body as JsonValue } })
  };
}

/** Sends through the driver and returns the error its failure mapping gives. */
export async function failureOf(
  connection: Connection,
  req: ConsoleRequest
): Promise<EngineError | undefined> {
  const response = await connection.driver.console.send(
    req,
    new AbortController().signal
  );
  return connection.driver.console.failure(req, response);
}

/** The refusal of a filter bar's view that `build` throws (fails the test if it builds, or throws anything else). */
export function filterRefusal(build: () => unknown): Refusal {
  try {
    build();
  } catch (err) {
    if (
      err instanceof Refusal &&
      err.code === 'SEARCHBOOK_ERR_FILTER_REFUSED'
    ) {
      return err;
    }
    throw err;
  }
  throw new Error('not refused');
}
