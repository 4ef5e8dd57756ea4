/** Export: `%export` writes a whole target next to the notebook as JSONL and CSV, exactly as stored. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../../../export/export-helpers';
import { SHOP, SHOP_FIELDS } from '../engines';
import type { TargetContext } from '../targets';

export function exportContract(context: () => TargetContext): void {
  const exportTo = async (file: string, options = '') => {
    const { kernel, shop, cwd } = context();
    const { reply, iopub } = await kernel.execute(`%export ${shop} ${file}${options}`);
    expect(reply.content).toMatchObject({ status: 'ok' });
    const updates = iopub.filter((m) => m.header.msg_type === 'update_display_data').map((m) => String((m.content.data as Record<string, unknown>)['text/plain']));
    expect(updates.at(-1)).toMatch(new RegExp(`^Exported ${SHOP.length} documents of ${shop} \\(`));
    return readFileSync(join(cwd, file), 'utf8');
  };

  it('JSONL holds every document once, line for line as the engine stores it', async () => {
    const { fixture, http, shop } = context();
    const text = await exportTo('shop.jsonl');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').slice(0, -1);
    expect([...lines].sort()).toEqual((await fixture.exportedLines(http, shop, SHOP)).sort());
    expect(lines).toHaveLength(SHOP.length);
  });

  it('CSV has the id and field columns under a header line, one record per document', async () => {
    const { fixture } = context();
    const [header, ...records] = parseCsv(await exportTo('shop.csv', ' format=csv'));
    expect(header).toEqual(fixture.csvHeader);
    expect(records).toHaveLength(SHOP.length);
    const col = (name: string) => (header ?? []).indexOf(name);
    const byId = new Map(records.map((r) => [r[col(fixture.idColumn)], r]));
    for (const doc of SHOP) {
      const record = byId.get(doc.id);
      expect(SHOP_FIELDS.map((f) => record?.[col(f)])).toEqual(SHOP_FIELDS.map((f) => String(doc.fields[f])));
    }
  });
}
