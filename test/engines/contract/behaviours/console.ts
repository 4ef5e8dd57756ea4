/** Console answers: a search is a hits grid bundle with text fallbacks; an error answer gives the engine's reason. */
import { HITS_MIME, HitsPayloadSchema } from '../../../../contracts/mime-types';
import { SHOP, SHOP_FIELDS } from '../engines';
import type { TargetContext } from '../targets';
import { errorOf } from '../../../support/kernel-client';
import { KernelMessage } from '../../../support/kernel-messages';

export function consoleContract(context: () => TargetContext): void {
  it('a search answers with a hits grid: its columns, every document counted, and text fallbacks', async () => {
    const { fixture, kernel, shop, connection } = context();
    const { reply, iopub } = await kernel.execute(fixture.searchCell(shop));
    expect(reply.content.status).toBe('ok');
    const bundles = iopub
      .filter(KernelMessage.isDisplayDataMsg)
      .map(m => m.content.data);
    expect(bundles).toHaveLength(1);
    const bundle = bundles[0] ?? {};
    const payload = HitsPayloadSchema.parse(bundle[HITS_MIME]);
    expect(payload.info).toMatchObject({
      connection,
      engine: fixture.engine,
      status: 200
    });
    expect(payload.total).toEqual({ value: SHOP.length, relation: 'eq' });
    const columns = payload.columns.map(c => c.name);
    expect(columns[0]).toBe(fixture.idColumn);
    expect(columns).toEqual(expect.arrayContaining([...SHOP_FIELDS]));
    expect(payload.omittedRows).toBe(0);
    // Every document once, in the text a notebook viewer without the extension shows.
    const plain = String(bundle['text/plain']);
    for (const doc of SHOP) {
      expect(plain).toContain(doc.fields.title);
    }
    expect(String(bundle['text/html'])).toContain(SHOP[0]?.fields.title);
  });

  it("an error answer fails the cell with the engine's reason and shows the answer", async () => {
    const { fixture, kernel } = context();
    const { cell, reason } = fixture.missingTarget('contract_no_such_target');
    const { reply, iopub } = await kernel.execute(cell);
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'RequestFailed'
    });
    expect(errorOf(reply).evalue).toMatch(reason);
    const shown = iopub
      .filter(KernelMessage.isDisplayDataMsg)
      .map(m => String(m.content.data['text/plain']));
    expect(shown).toEqual([expect.stringMatching(/→ 404 in \d+ ms/)]);
  });
}
