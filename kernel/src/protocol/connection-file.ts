import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** The JSON file Jupyter writes for a kernel: where its five sockets bind and how to sign. */
export const ConnectionFileSchema = z.object({
  transport: z.enum(['tcp', 'ipc']).default('tcp'),
  ip: z.string().min(1),
  shell_port: z.number().int().nonnegative(),
  control_port: z.number().int().nonnegative(),
  stdin_port: z.number().int().nonnegative(),
  iopub_port: z.number().int().nonnegative(),
  hb_port: z.number().int().nonnegative(),
  key: z.string().default(''),
  signature_scheme: z.string().default('hmac-sha256'),
  kernel_name: z.string().optional()
});
export type ConnectionInfo = z.infer<typeof ConnectionFileSchema>;

export type Channel = 'shell' | 'control' | 'stdin' | 'iopub' | 'hb';

export async function readConnectionFile(
  path: string
): Promise<ConnectionInfo> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(
      `Cannot read the connection file ${path}: ${(err as Error).message}`
    );
  }
  const parsed = ConnectionFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `The connection file ${path} is not valid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`
    );
  }
  return parsed.data;
}

export function endpoint(info: ConnectionInfo, channel: Channel): string {
  const port = info[`${channel}_port`];
  // ipc endpoints are files named <ip>-<port>, as jupyter_client names them.
  return info.transport === 'ipc'
    ? `ipc://${info.ip}-${port}`
    : `tcp://${info.ip.includes(':') ? `[${info.ip}]` : info.ip}:${port}`;
}
