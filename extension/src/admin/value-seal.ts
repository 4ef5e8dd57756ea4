/**
 * A one-request RSA-OAEP key pair, so a new API key's value crosses the kernel's message
 * channels sealed: every client of the kernel sees comm messages, only this panel holds the
 * private key. Web Crypto needs a secure context (HTTPS or localhost); without it the value
 * comes back in clear, over the same comm.
 */
export interface ValueSeal {
  /** SPKI DER in base64, for the request's `sealWith`. */
  publicKey: string;
  open(sealed: string): Promise<string>;
}

export async function createValueSeal(): Promise<ValueSeal | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    return undefined;
  }
  const pair = await subtle.generateKey(
    {
      name: 'RSA-OAEP',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256'
    },
    false,
    ['encrypt', 'decrypt']
  );
  const spki = new Uint8Array(await subtle.exportKey('spki', pair.publicKey));
  return {
    publicKey: btoa(String.fromCharCode(...spki)),
    open: async sealed => {
      const bytes = Uint8Array.from(atob(sealed), c => c.charCodeAt(0));
      return new TextDecoder().decode(
        await subtle.decrypt({ name: 'RSA-OAEP' }, pair.privateKey, bytes)
      );
    }
  };
}
