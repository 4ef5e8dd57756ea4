import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and verifies the four JSON frames of a message. The digest covers the frames'
 * exact bytes, so callers pass what was (or will be) on the wire, never a re-serialisation.
 */
export class Signer {
  private readonly algorithm: string | undefined;

  constructor(
    private readonly key: string,
    scheme: string
  ) {
    if (!key) {
      return;
    }
    const match = /^hmac-(.+)$/.exec(scheme);
    if (!match?.[1]) {
      throw new Error(
        `Unsupported signature scheme "${scheme}"; use hmac-sha256.`
      );
    }
    this.algorithm = match[1];
  }

  sign(frames: readonly Buffer[]): string {
    if (!this.algorithm) {
      return '';
    }
    const hmac = createHmac(this.algorithm, this.key);
    for (const frame of frames) {
      hmac.update(frame);
    }
    return hmac.digest('hex');
  }

  /** Constant-time comparison, so a forger learns nothing from how long a refusal takes. */
  verify(signature: Buffer, frames: readonly Buffer[]): boolean {
    if (!this.algorithm) {
      return true;
    }
    const expected = Buffer.from(this.sign(frames), 'ascii');
    return (
      signature.length === expected.length &&
      timingSafeEqual(signature, expected)
    );
  }
}
