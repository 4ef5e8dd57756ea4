/**
 * `hosts=a:9200,b:9200`: the nodes of one cluster, written in place of the address. Every
 * node is reached the same way (one scheme, one set of credentials), so an entry holds a host
 * and a port only, or a scheme all entries share.
 */
import { z } from 'zod';
import type { Scheme } from '../driver-core/ssl-mode';

/** A host name, IPv4 address or bracketed IPv6 address, then an optional port. */
const ENTRY =
  /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/)?([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::([^/]*))?\/?$/;

export const HOSTS_EXAMPLE = 'hosts=es1.example:9200,es2.example:9200';

const PortSchema = z.coerce.number().int().min(1).max(65535);

export interface HostEntry {
  host: string;
  /** Undefined: the engine's default port. */
  port?: number;
}

export interface ParsedHosts {
  /** The scheme the entries were written with, when they were. */
  scheme?: Scheme;
  entries: HostEntry[];
}

/**
 * Reads a `hosts=` value; throws a message saying what to write instead (the caller wraps it
 * in its own error class).
 */
export function parseHosts(value: string): ParsedHosts {
  const fix = `write the nodes as host:port separated by commas, for example ${HOSTS_EXAMPLE}`;
  const written = value.split(',');
  if (written.length === 1 && written[0] === '') {
    throw new Error(`hosts= is empty; ${fix}.`);
  }
  const schemes = new Set<string>();
  const entries = written.map((text, i) => {
    if (text.trim() === '') {
      throw new Error(
        `hosts=${value}: entry ${i + 1} is empty (two commas in a row, or a comma at an end); ${fix}.`
      );
    }
    if (/@/.test(text)) {
      throw new Error(
        `hosts=: "${text.replace(/^.*@/, '...@')}" holds a user; every node is reached with the same credentials, so write user=<name> once and the nodes as host:port.`
      );
    }
    const match = ENTRY.exec(text);
    if (!match) {
      throw new Error(`hosts=: "${text}" is not a host:port; ${fix}.`);
    }
    const [, scheme, host = '', portText] = match;
    if (scheme !== undefined) {
      const lower = scheme.toLowerCase();
      if (lower !== 'http' && lower !== 'https') {
        throw new Error(
          `hosts=: ${scheme}:// is not a scheme searchbook connects with; write http:// or https:// (or no scheme, with ssl=<mode>).`
        );
      }
      schemes.add(lower);
    }
    if (portText === undefined) {
      return { host };
    }
    const port = PortSchema.safeParse(portText);
    if (portText === '' || !port.success) {
      throw new Error(
        `hosts=: the port of "${text}" is not a number from 1 to 65535; write host:port, for example ${host}:9200.`
      );
    }
    return { host, port: port.data };
  });
  if (
    schemes.size > 1 ||
    (schemes.size === 1 && written.some(t => !/:\/\//.test(t)))
  ) {
    throw new Error(
      `hosts=${value} mixes schemes: every node of a connection is reached the same way. Write the nodes without a scheme and choose it with ssl=<mode> (ssl=disabled for http://, ssl=required for https://), for example ${HOSTS_EXAMPLE} ssl=required.`
    );
  }
  const [scheme] = [...schemes] as Scheme[];
  return { ...(scheme ? { scheme } : {}), entries };
}
