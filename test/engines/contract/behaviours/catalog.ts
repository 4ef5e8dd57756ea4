/** Catalog: completion lists targets and their fields; the panel lists the targets with their counts. */
import { SHOP } from '../engines';
import type { TargetContext } from '../targets';
import { okOf } from '../../../support/kernel-client';

export function catalogContract(context: () => TargetContext): void {
  const complete = async (code: string): Promise<string[]> => {
    const reply = await context().kernel.request('shell', 'complete_request', {
      code,
      cursor_pos: [...code].length
    });
    expect(reply.content.status).toBe('ok');
    return okOf(reply).matches as string[];
  };

  it('Tab in the path completes the target names', async () => {
    const { fixture, shop } = context();
    const { code, match } = fixture.targetCompletion(shop.slice(0, -2), shop);
    expect(await complete(code)).toEqual([match]);
  });

  it("Tab inside a body completes the target's field names", async () => {
    const { fixture, shop } = context();
    expect(await complete(fixture.fieldCompletion(shop, 'ra'))).toEqual([
      'rank'
    ]);
    expect(await complete(fixture.fieldCompletion(shop, 'pr'))).toEqual([
      'price'
    ]);
  });

  it('the panel lists the targets with their document counts', async () => {
    const { comm, connection, shop } = context();
    const { targets } = await comm.expect(
      { type: 'targets', connection },
      'targets'
    );
    expect(targets).toContainEqual(
      expect.objectContaining({ name: shop, count: SHOP.length })
    );
  });
}
