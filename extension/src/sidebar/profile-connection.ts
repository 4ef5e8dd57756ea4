import type { Kernel } from '@jupyterlab/services';

/**
 * Opens a saved profile in a kernel, as `%connect <profile>` in a cell would (not kept in its
 * history). Resolves to the kernel's reason when it failed, or an empty string.
 */
export async function connectProfileIn(
  kernel: Kernel.IKernelConnection,
  name: string
): Promise<string> {
  let failure = '';
  const future = kernel.requestExecute({
    code: `%connect ${name}`,
    silent: false,
    store_history: false,
    allow_stdin: false
  });
  future.onIOPub = msg => {
    if (msg.header.msg_type === 'error') {
      failure = String(
        (msg.content as { evalue?: unknown }).evalue ?? 'failed'
      );
    }
  };
  await future.done;
  return failure;
}
