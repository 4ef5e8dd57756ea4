import { z } from 'zod';

/**
 * `%connect <engine> <address> [key=value ...]`. Secrets may only be given as `${env:NAME}`
 * references, so a notebook never holds one. (Saved profiles come with the connections work.)
 */
export const ConnectArgsSchema = z.object({
  engine: z.enum(['elasticsearch', 'typesense']),
  url: z.url({ protocol: /^https?$/ }),
  name: z.string().regex(/^[\w.-]+$/).optional(),
  auth: z.enum(['basic', 'apikey', 'none']).optional(),
  user: z.string().optional(),
  password: z.string().optional(),
  key: z.string().optional(),
  timeout: z.coerce.number().positive().optional(),
});
export type ConnectArgs = z.infer<typeof ConnectArgsSchema>;

export const CONNECT_USAGE = [
  '%connect elasticsearch http://localhost:9200 [auth=basic user=elastic password=${env:ES_PASSWORD}]',
  '%connect elasticsearch https://localhost:9200 auth=apikey key=${env:ES_API_KEY}',
  '%connect typesense http://localhost:8108 key=${env:TYPESENSE_API_KEY}',
].join('\n');

const SECRET_KEYS = new Set(['password', 'key']);
const ENV_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

export class ConnectArgsError extends Error {}

export function parseConnectArgs(text: string, env: (name: string) => string | undefined): ConnectArgs {
  const [engine, address, ...options] = text.trim().split(/\s+/);
  if (!engine || !address) throw new ConnectArgsError(`%connect needs an engine and an address, for example:\n${CONNECT_USAGE}`);
  const fields: Record<string, string> = { engine: engine.toLowerCase(), url: /^https?:\/\//i.test(address) ? address : `http://${address}` };
  for (const option of options) {
    const eq = option.indexOf('=');
    if (eq <= 0) throw new ConnectArgsError(`"${option.split('=')[0]}" is not an option of %connect; write options as name=value, for example:\n${CONNECT_USAGE}`);
    const key = option.slice(0, eq);
    const value = option.slice(eq + 1);
    fields[key] = SECRET_KEYS.has(key) ? resolveSecret(key, value, env) : value;
  }
  const url = new URL(fields.url as string);
  if (url.password) throw new ConnectArgsError(`Put no password in the address; write password=\${env:NAME} so it stays out of the notebook.`);
  if (url.username) fields.user ??= decodeURIComponent(url.username);
  const parsed = ConnectArgsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConnectArgsError(`%connect: ${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'invalid'}. For example:\n${CONNECT_USAGE}`);
  }
  return parsed.data;
}

function resolveSecret(key: string, value: string, env: (name: string) => string | undefined): string {
  const match = ENV_REFERENCE.exec(value);
  if (!match?.[1]) {
    throw new ConnectArgsError(`Write ${key}=\${env:NAME} and set NAME in the kernel's environment: a ${key} typed into a cell would be saved in the notebook.`);
  }
  const secret = env(match[1]);
  if (secret === undefined) throw new ConnectArgsError(`The environment variable ${match[1]} is not set in the kernel's environment; export it before starting Jupyter.`);
  return secret;
}
