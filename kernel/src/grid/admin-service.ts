/**
 * The side panel's administration requests, answered from the driver's admin side: what the
 * connection offers, its API keys and its metrics. A new key's value goes into the one reply
 * that carries it and nowhere else: not into errors, logs or any output.
 */
import type { Driver } from '../drivers/driver';
import type { AdminReply, AdminRequest } from './admin-protocol';

type AdminReplyBody = AdminReply extends infer R ? (R extends AdminReply ? Omit<R, 'v' | 'requestId'> : never) : never;

export async function answerAdmin(request: AdminRequest, driver: Driver, signal: AbortSignal): Promise<AdminReplyBody> {
  const { connection } = request;
  const admin = driver.admin;
  switch (request.type) {
    case 'offers':
      return { type: 'offers', connection, offers: admin.offers };
    case 'keys':
      return { type: 'keys', connection, keys: await keysOf(driver, connection).list(signal) };
    case 'addKey': {
      const { key, value } = await keysOf(driver, connection).add(request.key, signal);
      return { type: 'keyAdded', connection, key, value };
    }
    case 'deleteKey':
      await keysOf(driver, connection).remove(request.id, signal);
      return { type: 'keyDeleted', connection, id: request.id };
    case 'metrics': {
      if (!admin.metrics) throw new Error(`The connection "${connection}" offers no server metrics.`);
      return { type: 'metrics', connection, snapshot: await admin.metrics(signal) };
    }
  }
}

function keysOf(driver: Driver, connection: string): NonNullable<Driver['admin']['keys']> {
  const keys = driver.admin.keys;
  if (!keys) throw new Error(`The connection "${connection}" has no API keys to manage here (its engine manages users and keys elsewhere).`);
  return keys;
}
