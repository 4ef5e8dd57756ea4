/**
 * Certificates for the sandboxes' HTTPS mode: a throwaway CA and a server certificate it
 * signs, valid for 127.0.0.1, ::1 and localhost. Clients can either skip verification or
 * trust the CA file ("verify-ca" / "verify-identity" modes).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface SandboxCertificates {
  /** PEM of the CA certificate that signed `cert`. */
  ca: string;
  /** Server certificate PEM. */
  cert: string;
  /** Server private key PEM. */
  key: string;
}

/** subjectAltName entries: DNS names and IP addresses the server certificate is valid for. */
export interface CertificateNames {
  dns: string[];
  ips: string[];
}

const LOOPBACK_NAMES: CertificateNames = {
  dns: ['localhost'],
  ips: ['127.0.0.1', '::1']
};

/** `names` lets tests make a certificate that does not name the host they connect to. */
export async function generateCertificates(
  names: CertificateNames = LOOPBACK_NAMES
): Promise<SandboxCertificates> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const ca = await generate(
    [{ name: 'commonName', value: 'searchbook sandbox CA' }],
    {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        {
          name: 'keyUsage',
          keyCertSign: true,
          cRLSign: true,
          digitalSignature: true,
          critical: true
        }
      ]
    }
  );
  const server = await generate(
    [
      { name: 'commonName', value: names.dns[0] ?? names.ips[0] ?? 'localhost' }
    ],
    {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        {
          name: 'keyUsage',
          digitalSignature: true,
          keyEncipherment: true,
          critical: true
        },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            ...names.dns.map(value => ({ type: 2 as const, value })),
            ...names.ips.map(ip => ({ type: 7 as const, ip }))
          ]
        }
      ]
    }
  );
  return { ca: ca.cert, cert: server.cert, key: server.private };
}

/** Writes the CA PEM (creating the directory) and returns the file's absolute path. */
export async function writeCaFile(
  certs: Pick<SandboxCertificates, 'ca'>,
  file: string
): Promise<string> {
  const target = path.resolve(file);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, certs.ca, { mode: 0o644 });
  return target;
}
