/**
 * Socket and TLS failures as `Connection failed: ...` messages that say what to
 * change in `%connect`. Only the error's code and Node's own message are used: neither ever
 * holds a request header, so no credential can leak through here.
 */
export interface FailedConnection {
  /** The connection's name; left out where the message already names it (one line per node). */
  label?: string;
  baseUrl: string;
  /** The sentence that fixes a certificate from an unknown CA, which depends on the engine's modes. */
  untrustedCertificateAdvice: string;
}

const UNKNOWN_CA = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  // The CA file given has the issuer's name but is not the CA that signed the certificate.
  'CERT_SIGNATURE_FAILURE'
]);

/** The failure's code and Node's own message, as every message here quotes them. */
export function connectionFailureReason(err: unknown): string {
  return (
    [errorCode(err), errorMessage(err)].filter(Boolean).join(': ') ||
    'unknown error'
  );
}

export function connectionFailureMessage(
  err: unknown,
  at: FailedConnection
): string {
  const code = errorCode(err);
  const reason = connectionFailureReason(err);
  // The address is where to look; the connection's name only says which %connect line it was.
  const where = at.label
    ? `${at.baseUrl} (connection ${at.label})`
    : at.baseUrl;
  const secure = at.baseUrl.startsWith('https:');
  if (code && UNKNOWN_CA.has(code)) {
    return `Connection failed: the certificate of ${where} is not signed by a trusted CA (${reason}). ${at.untrustedCertificateAdvice}`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `Connection failed: the certificate of ${where} does not name this host (${reason}). Connect by a host name the certificate lists, or use ssl=verify-ca, which checks the CA but not the name.`;
  }
  if (code?.startsWith('CERT_') || code?.startsWith('ERR_TLS_')) {
    return `Connection failed: the certificate of ${where} was refused (${reason}).`;
  }
  if (
    secure &&
    (code === 'EPROTO' ||
      /wrong version number|packet length too long/i.test(reason))
  ) {
    return `Connection failed: ${where} does not answer HTTPS (${reason}). For a plain-HTTP server write an http:// address (ssl=disabled).`;
  }
  if (
    !secure &&
    (code === 'UND_ERR_SOCKET' ||
      code === 'ECONNRESET' ||
      code === 'HPE_INVALID_CONSTANT')
  ) {
    return `Connection failed: ${where} closed the connection or did not answer HTTP (${reason}). If the server speaks only HTTPS, write an https:// address or ssl=required.`;
  }
  if (code === 'ECONNREFUSED') {
    return `Connection failed: nothing accepts connections at ${where} (${reason}). Check the host and port, and that the engine is running.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `Connection failed: the host of ${where} was not found (${reason}).`;
  }
  return `Connection failed: ${where} could not be reached (${reason}).`;
}

function errorCode(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    // undici's own wrapper codes say less than the socket's when there is a cause.
    if (
      typeof code === 'string' &&
      !(code === 'UND_ERR_CONNECT' && (e as { cause?: unknown }).cause)
    ) {
      return code;
    }
  }
  return undefined;
}

function errorMessage(err: unknown): string {
  const cause = (err as { cause?: { message?: unknown } }).cause;
  const message =
    typeof cause?.message === 'string' && cause.message
      ? cause.message
      : (err as { message?: unknown }).message;
  if (typeof message !== 'string') {
    return '';
  }
  // OpenSSL writes `<hex>:error:<hex>:SSL routines:<function>:<reason>:<source file>:<line>:`.
  const openssl = /error:[0-9A-F]+:[^:]*routines:[^:]*:([^:]+)/.exec(message);
  return (openssl?.[1] ?? message.split('\n')[0] ?? '').trim();
}
