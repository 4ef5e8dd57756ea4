/** Export: `%export` writes a whole target next to the notebook as JSONL and CSV, exactly as stored. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../../../support/parse-csv';
import { SHOP, SHOP_FIELDS } from '../engines';
import type { TargetContext } from '../targets';
import { errorOf } from '../../../support/kernel-client';
import { KernelMessage } from '../../../support/kernel-messages';

export function exportContract(context: () => TargetContext): void {
  const exportTo = async (
    file: string,
    options = '',
    body = '',
    documents = SHOP.length
  ) => {
    const { kernel, shop, cwd } = context();
    const { reply, iopub } = await kernel.execute(
      `%export ${shop} ${file}${options}${body ? `\n${body}` : ''}`
    );
    expect(reply.content).toMatchObject({ status: 'ok' });
    const updates = iopub
      .filter(KernelMessage.isUpdateDisplayDataMsg)
      .map(m => String(m.content.data['text/plain']));
    expect(updates.at(-1)).toMatch(
      new RegExp(`^Exported ${documents} documents of ${shop} \\(`)
    );
    return readFileSync(join(cwd, file), 'utf8');
  };
  const jsonlLines = (text: string) => text.split('\n').filter(l => l !== '');

  it('JSONL holds every document once, line for line as the engine stores it', async () => {
    const { fixture, http, shop } = context();
    const text = await exportTo('shop.jsonl');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').slice(0, -1);
    expect([...lines].sort()).toEqual(
      (await fixture.exportedLines(http, shop, SHOP)).sort()
    );
    expect(lines).toHaveLength(SHOP.length);
  });

  it('JSON is one array of the same documents', async () => {
    const { fixture, http, shop } = context();
    const values = JSON.parse(
      await exportTo('shop.json', ' format=json')
    ) as unknown[];
    expect(values.map(v => JSON.stringify(v)).sort()).toEqual(
      (await fixture.exportedLines(http, shop, SHOP)).sort()
    );
  });

  it('a query and fields= narrow the export: the matching documents, only the fields named, asked of the engine so', async () => {
    const { fixture, proxy } = context();
    const want = SHOP.filter(d => d.fields.price >= 20);
    proxy.seen.length = 0;
    const docs = jsonlLines(
      await exportTo(
        'dear.jsonl',
        ' fields=title,price',
        fixture.exportQuery,
        want.length
      )
    ).map(l => fixture.exportedDocument(l));
    expect(fixture.sentFields(proxy.seen)).toEqual(
      fixture.fieldsAsked(['title', 'price'])
    );
    expect(docs.map(d => d.id).sort()).toEqual(want.map(d => d.id).sort());
    for (const doc of docs) {
      expect(doc.fields).toEqual({
        title: SHOP.find(d => d.id === doc.id)?.fields.title,
        price: SHOP.find(d => d.id === doc.id)?.fields.price
      });
    }
    const [header, ...records] = parseCsv(
      await exportTo(
        'dear.csv',
        ' format=csv fields=title,price',
        fixture.exportQuery,
        want.length
      )
    );
    expect(header).toEqual(fixture.csvHeaderOf(['title', 'price']));
    expect(records.map(r => r[0]).sort()).toEqual(want.map(d => d.id).sort());
  });

  it('what the export cannot take is refused before anything is sent, saying what to write', async () => {
    const { fixture, kernel, shop, cwd, proxy } = context();
    for (const refused of fixture.refusedExports) {
      const sent = proxy.seen.length;
      const { reply } = await kernel.execute(
        `%export ${shop} never.jsonl${refused.options}${refused.body ? `\n${refused.body}` : ''}`
      );
      expect(reply.content.status).toBe('error');
      expect(
        [errorOf(reply).evalue, ...errorOf(reply).traceback].join('\n')
      ).toMatch(refused.message);
      expect(proxy.seen).toHaveLength(sent);
      expect(existsSync(join(cwd, 'never.jsonl'))).toBe(false);
    }
  });

  it('CSV has the id and field columns under a header line, one record per document', async () => {
    const { fixture } = context();
    const [header, ...records] = parseCsv(
      await exportTo('shop.csv', ' format=csv')
    );
    expect(header).toEqual(fixture.csvHeader);
    expect(records).toHaveLength(SHOP.length);
    const col = (name: string) => (header ?? []).indexOf(name);
    const byId = new Map(records.map(r => [r[col(fixture.idColumn)], r]));
    for (const doc of SHOP) {
      const record = byId.get(doc.id);
      expect(SHOP_FIELDS.map(f => record?.[col(f)])).toEqual(
        SHOP_FIELDS.map(f => String(doc.fields[f]))
      );
    }
  });
}
