/**
 * The panel's comm by name over the wire (kernel process, ZeroMQ): `searchbook.panel` answers
 * requests; a page loaded before the upgrade opens `searchbook.grid` and is told to reload the
 * page, in a message it reads as an error and in the comm's close.
 */
import {
  PANEL_PROTOCOL_VERSION,
  GridReplySchema
} from '../../contracts/panel-protocol';
import { KernelClient, okOf } from '../support/kernel-client';
import { KernelMessage } from '../support/kernel-messages';

type CommMessage =
  | KernelMessage.ICommOpenMsg
  | KernelMessage.ICommMsgMsg
  | KernelMessage.ICommCloseMsg;

/** The iopub messages about one comm, waited for until `done` holds (bounded). */
async function commMessages(
  kernel: KernelClient,
  commId: string,
  done: (messages: CommMessage[]) => boolean
): Promise<CommMessage[]> {
  for (let tries = 0; tries < 500; tries++) {
    const messages = kernel
      .iopubMessages()
      .filter(
        m =>
          KernelMessage.isCommOpenMsg(m) ||
          KernelMessage.isCommMsgMsg(m) ||
          KernelMessage.isCommCloseMsg(m)
      )
      .filter(m => m.content.comm_id === commId);
    if (done(messages)) {
      return messages;
    }
    await new Promise(r => setTimeout(r, 20));
  }
  throw new Error(
    `the kernel said nothing more about comm ${commId}: ${kernel.stderr}`
  );
}

describe('the panel comm by name', () => {
  let kernel: KernelClient;

  beforeAll(async () => {
    kernel = await KernelClient.start();
  });
  afterAll(async () => {
    await kernel.close();
  });

  test('searchbook.panel answers the panel protocol', async () => {
    await kernel.submit('shell', 'comm_open', {
      comm_id: 'panel-1',
      target_name: 'searchbook.panel',
      data: {}
    });
    await kernel.submit('shell', 'comm_msg', {
      comm_id: 'panel-1',
      data: { v: PANEL_PROTOCOL_VERSION, type: 'connections', requestId: 'r1' }
    });
    const messages = await commMessages(kernel, 'panel-1', m =>
      m.some(KernelMessage.isCommMsgMsg)
    );
    const reply = GridReplySchema.parse(
      messages.find(KernelMessage.isCommMsgMsg)?.content.data
    );
    expect(reply).toEqual({
      v: PANEL_PROTOCOL_VERSION,
      type: 'connections',
      requestId: 'r1',
      connections: []
    });
    expect(
      okOf(
        await kernel.request('shell', 'comm_info_request', {
          target_name: 'searchbook.panel'
        })
      ).comms
    ).toEqual({ 'panel-1': { target_name: 'searchbook.panel' } });
  });

  test('a page opening the former searchbook.grid is told to reload the page, and the comm is closed', async () => {
    await kernel.submit('shell', 'comm_open', {
      comm_id: 'former-1',
      target_name: 'searchbook.grid',
      data: {}
    });
    const messages = await commMessages(kernel, 'former-1', m =>
      m.some(KernelMessage.isCommCloseMsg)
    );
    expect(messages.map(m => m.header.msg_type)).toEqual([
      'comm_msg',
      'comm_close'
    ]);
    const [said, closed] = messages;
    const error = GridReplySchema.parse(said?.content.data);
    expect(error).toMatchObject({
      type: 'error',
      requestId: null,
      v: PANEL_PROTOCOL_VERSION
    });
    expect(error.type === 'error' && error.message).toMatch(
      /searchbook was upgraded after this page was loaded .*searchbook\.panel.*: reload the page\./
    );
    expect(closed?.content.data.error).toMatch(/reload the page/);
    expect(
      okOf(
        await kernel.request('shell', 'comm_info_request', {
          target_name: 'searchbook.grid'
        })
      ).comms
    ).toEqual({});
    // The kernel is unharmed: the panel's comm still answers.
    await kernel.submit('shell', 'comm_msg', {
      comm_id: 'panel-1',
      data: { v: PANEL_PROTOCOL_VERSION, type: 'connections', requestId: 'r2' }
    });
    const again = await commMessages(kernel, 'panel-1', m =>
      m.some(x => x.content.data.requestId === 'r2')
    );
    expect(again.length).toBeGreaterThan(0);
  });
});
