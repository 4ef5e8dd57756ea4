/**
 * The side panel's administration requests, answered from the driver's admin sections: what the
 * connection offers, its API keys and its metrics. A new key's value goes into the one reply
 * that carries it and nowhere else: not into errors, logs or any output.
 */
import {
  constants,
  createPublicKey,
  type KeyObject,
  publicEncrypt
} from 'node:crypto';
import type { Driver } from '../driver-core/driver';
import type { KeyAdmin } from '../driver-core/capabilities/admin';
import type {
  AdminReply,
  AdminRequest
} from '../../../contracts/admin-protocol';

type AdminReplyBody = AdminReply extends infer R
  ? R extends AdminReply
    ? Omit<R, 'v' | 'requestId'>
    : never
  : never;

export async function answerAdmin(
  request: AdminRequest,
  driver: Driver,
  signal: AbortSignal
): Promise<AdminReplyBody> {
  const { connection } = request;
  const admin = driver.admin;
  switch (request.type) {
    case 'offers':
      return { type: 'offers', connection, offers: admin?.offers ?? {} };
    case 'keys':
      return {
        type: 'keys',
        connection,
        keys: await keysOf(driver, connection).list(signal)
      };
    case 'addKey': {
      // Checked before the key exists, so a bad seal never costs a key whose value is lost.
      const seal =
        request.sealWith === undefined
          ? undefined
          : sealerFor(request.sealWith);
      const { key, value } = await keysOf(driver, connection).add(
        request.key,
        signal
      );
      return seal
        ? { type: 'keyAdded', connection, key, sealed: seal(value) }
        : { type: 'keyAdded', connection, key, value };
    }
    case 'scopedKey': {
      const seal =
        request.sealWith === undefined
          ? undefined
          : sealerFor(request.sealWith);
      const keys = keysOf(driver, connection);
      if (!keys.scoped) {
        throw new Error(
          `The connection "${connection}" cannot derive scoped keys (its engine has none).`
        );
      }
      const { parentPrefix, embedded, value } = await keys.scoped(
        request.scoped,
        signal
      );
      const made = {
        type: 'scopedKeyMade' as const,
        connection,
        parentPrefix,
        embedded
      };
      return seal ? { ...made, sealed: seal(value) } : { ...made, value };
    }
    case 'deleteKey':
      await keysOf(driver, connection).remove(request.id, signal);
      return { type: 'keyDeleted', connection, id: request.id };
    case 'metrics': {
      if (!admin?.metrics) {
        throw new Error(
          `The connection "${connection}" offers no server metrics.`
        );
      }
      return {
        type: 'metrics',
        connection,
        snapshot: await admin.metrics(signal)
      };
    }
  }
}

function keysOf(driver: Driver, connection: string): KeyAdmin {
  const keys = driver.admin?.keys;
  if (!keys) {
    throw new Error(
      `The connection "${connection}" has no API keys to manage here (its engine manages users and keys elsewhere).`
    );
  }
  return keys;
}

/** Seals a value for the panel that sent `spki`: only its private key, which never left the browser, opens it. */
function sealerFor(spki: string): (value: string) => string {
  let key: KeyObject;
  try {
    key = createPublicKey({
      key: Buffer.from(spki, 'base64'),
      format: 'der',
      type: 'spki'
    });
  } catch {
    throw new Error(
      'sealWith is not a public key: send an RSA-OAEP public key exported as SPKI, in base64 (Web Crypto exportKey("spki")). No key was created.'
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error(
      `sealWith is an ${key.asymmetricKeyType ?? 'unknown'} key; send an RSA-OAEP public key (SPKI, base64). No key was created.`
    );
  }
  return value =>
    publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(value, 'utf8')
    ).toString('base64');
}
