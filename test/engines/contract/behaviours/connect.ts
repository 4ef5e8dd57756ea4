/** Connect: `%connect` answers with the engine's identity, and the panel lists the connection. */
import type { TargetContext } from '../targets';
import { KernelMessage } from '../../../support/kernel-messages';

export function connectContract(context: () => TargetContext): void {
  it("%connect answers with the engine's name, version and address", async () => {
    const { fixture, target, kernel, http } = context();
    const { reply, iopub } = await kernel.execute(
      `%connect ${fixture.engine} ${http.url} ${fixture.connectOptions} name=again`
    );
    expect(reply.content.status).toBe('ok');
    const shown = iopub
      .filter(KernelMessage.isDisplayDataMsg)
      .map(m => String(m.content.data['text/plain']));
    expect(shown).toEqual([
      `Connected to ${fixture.product} ${target.version} at ${http.url} as "again"; the following cells use it.`
    ]);
    await kernel.execute(`%use ${context().connection}`);
  });

  it('the panel lists the connection with its engine and version', async () => {
    const { fixture, target, comm, connection, proxy } = context();
    const { connections } = await comm.expect(
      { type: 'connections' },
      'connections'
    );
    expect(connections).toContainEqual(
      expect.objectContaining({
        name: connection,
        engine: fixture.engine,
        address: proxy.url,
        version: target.version
      })
    );
  });
}
