/**
 * No panel form writes over a change it never saw (kernel process, ZeroMQ, the Typesense 30
 * stand-in over HTTP). Two tabs, each its own `searchbook.panel` comm, open edit forms on a set
 * and on the items inside it, in any interleaving, and send what a user would type from what
 * the form showed. Each form carries what it started from: the kernel reads the entry just
 * before sending and answers a conflict, sending nothing, when the server holds something else.
 * After every step the server holds every change that was confirmed, and a conflict is
 * answered only when the entry really changed since the form read it. An alias's form keeps the
 * same rule: pointed elsewhere meanwhile, it is neither repointed nor deleted by that form.
 */
import fc from 'fast-check';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { SECRETS } from '../drivers/helpers';
import type { KernelClient } from '../support/kernel-client';
import { PanelCommClient, kernelWithPanelComm } from './panel-comm-client';

jest.setTimeout(240_000);

let kernel: KernelClient;
let tabs: PanelCommClient[];
let server: ListeningServer;

async function http(
  method: string,
  path: string,
  body?: unknown
): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'x-typesense-api-key': SECRETS.TS_API_KEY,
      'content-type': 'application/json'
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  });
  return { status: r.status, json: await r.json() };
}

/** How one kind of set names its items' content, and how a user edits one. */
interface SetKind {
  sets: 'synonymSets' | 'curationSets';
  items: 'synonymSetItems' | 'curationSetItems';
  path: string;
  /** An item's content as compared: what the user's edits change. */
  content(item: Record<string, unknown>): unknown;
  /** The item a user writes from what the form showed (undefined: a new item), adding `word`. */
  edited(
    id: string,
    shown: Record<string, unknown> | undefined,
    word: string
  ): Record<string, unknown>;
}

const SYNONYMS: SetKind = {
  sets: 'synonymSets',
  items: 'synonymSetItems',
  path: '/synonym_sets',
  content: item => item.synonyms,
  edited: (id, shown, word) => ({
    synonyms: [...((shown?.synonyms as string[] | undefined) ?? [id]), word]
  })
};

type Include = { id: string; position: number };
const CURATION: SetKind = {
  sets: 'curationSets',
  items: 'curationSetItems',
  path: '/curation_sets',
  content: item => item.includes,
  edited: (id, shown, word) => {
    const includes = (shown?.includes as Include[] | undefined) ?? [];
    return {
      rule: { query: id, match: 'exact' },
      includes: [...includes, { id: word, position: includes.length + 1 }]
    };
  }
};

const SET = 'clothing';
const IDS = ['sn', 'mug', 'hat'] as const;

/** The set as compared: item id to content, in id order. */
type Held = Record<string, unknown>;

function held(kind: SetKind, items: unknown): Held {
  const list = (items ?? []) as Record<string, unknown>[];
  return Object.fromEntries(
    list
      .map(i => [String(i.id), kind.content(i)] as const)
      .sort(([a], [b]) => a.localeCompare(b))
  );
}

async function onServer(kind: SetKind): Promise<Held> {
  const { json } = await http('GET', `${kind.path}/${SET}`);
  return held(kind, (json as { items?: unknown }).items);
}

/** One tab's open form: what it showed (its basis) and the change it will send. */
interface Form {
  kind: 'item' | 'set';
  id: string;
  op: 'put' | 'delete';
  basis: { value: unknown } | null;
  body?: Record<string, unknown>;
  /** What the form showed, as compared, for the model. */
  shown: Held | unknown;
}

type Step =
  | { tab: number; act: 'open'; what: 'item' | 'set'; id: string; del: boolean }
  | { tab: number; act: 'send' };

const steps = fc.array(
  fc.oneof(
    fc.record({
      tab: fc.integer({ min: 0, max: 1 }),
      act: fc.constant('open' as const),
      what: fc.constantFrom('item' as const, 'set' as const),
      id: fc.constantFrom(...IDS),
      del: fc.boolean()
    }),
    fc.record({
      tab: fc.integer({ min: 0, max: 1 }),
      act: fc.constant('send' as const)
    })
  ),
  { minLength: 2, maxLength: 14 }
);

let words = 0;

async function listed(tab: PanelCommClient, kind: string, parent?: string) {
  return (
    await tab.expect(
      {
        type: 'resourceList',
        connection: 'ts',
        target: { kind, ...(parent ? { parent } : {}) }
      },
      'resourceList'
    )
  ).entries;
}

/** Opens a form as the panel does: reads the entry as the server holds it now. */
async function open(
  kind: SetKind,
  tab: PanelCommClient,
  step: Extract<Step, { act: 'open' }>
): Promise<Form | undefined> {
  const word = `w${++words}`;
  if (step.what === 'set') {
    const entry = (await listed(tab, kind.sets)).find(e => e.name === SET);
    const value = entry?.value as { items?: Record<string, unknown>[] };
    const items = (value.items ?? []).filter(i => i.id !== step.id);
    const shown = value.items?.find(i => i.id === step.id);
    const { id: _, ...rest } = shown ?? {};
    // The user edits the set's JSON: one item changed (or added), or dropped.
    const body = {
      ...value,
      items: step.del
        ? items
        : [
            ...items,
            {
              id: step.id,
              ...kind.edited(step.id, shown ? rest : undefined, word)
            }
          ]
    };
    return {
      kind: 'set',
      id: SET,
      op: 'put',
      basis: { value: entry?.value },
      body,
      shown: held(kind, value.items)
    };
  }
  const entry = (await listed(tab, kind.items, SET)).find(
    e => e.name === step.id
  );
  if (step.del && !entry) {
    return undefined;
  }
  const shown = entry?.value as Record<string, unknown> | undefined;
  return {
    kind: 'item',
    id: step.id,
    op: step.del ? 'delete' : 'put',
    basis: entry ? { value: entry.value } : null,
    ...(step.del ? {} : { body: kind.edited(step.id, shown, word) }),
    shown: shown ? kind.content(shown) : undefined
  };
}

/** JSON equality whatever the key order (and whichever realm parsed it: fetch's answers are not jest's objects). */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([x], [y]) => x.localeCompare(y))
              .map(([k, x]) => [k, canonical(x)])
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** What the model holds of the form's entry: the whole set, or one item's content. */
const viewOf = (model: Held, form: Form): unknown =>
  form.kind === 'set' ? model : model[form.id];

function applied(kind: SetKind, model: Held, form: Form): Held {
  if (form.kind === 'set') {
    return held(kind, form.body?.items);
  }
  const next = { ...model };
  if (form.op === 'delete') {
    delete next[form.id];
  } else {
    next[form.id] = kind.content(form.body ?? {});
  }
  return Object.fromEntries(
    Object.entries(next).sort(([a], [b]) => a.localeCompare(b))
  );
}

beforeAll(async () => {
  const ts = createTypesenseSandbox({
    version: '30.0',
    apiKey: SECRETS.TS_API_KEY
  });
  server = await listen(ts.handler, { port: 0 });
  let first: PanelCommClient;
  ({ kernel, comm: first } = await kernelWithPanelComm(
    [`%connect typesense ${server.url} key=\${env:TS_API_KEY} name=ts`],
    SECRETS
  ));
  tabs = [first, await PanelCommClient.open(kernel)];
}, 60_000);

afterAll(async () => {
  await kernel?.close();
  await server?.close();
});

const START: Record<string, Record<string, unknown>[]> = {
  synonymSets: [
    { id: 'sn', synonyms: ['sneakers', 'trainers'] },
    { id: 'mug', synonyms: ['mug', 'cup'] }
  ],
  curationSets: [
    {
      id: 'sn',
      rule: { query: 'sn', match: 'exact' },
      includes: [{ id: '1', position: 1 }]
    },
    {
      id: 'mug',
      rule: { query: 'mug', match: 'exact' },
      includes: [{ id: '2', position: 1 }]
    }
  ]
};

test.each([
  ['synonym', SYNONYMS],
  ['curation', CURATION]
])(
  '%s sets: any interleaving of item and set edits from two tabs keeps every confirmed change, or answers a conflict and sends nothing',
  async (_, kind) => {
    await fc.assert(
      fc.asyncProperty(steps, async plan => {
        const start = await http('PUT', `${kind.path}/${SET}`, {
          items: START[kind.sets]
        });
        expect(start.status).toBe(200);
        let model = await onServer(kind);
        const forms: (Form | undefined)[] = [undefined, undefined];
        for (const step of plan) {
          const tab = tabs[step.tab] as PanelCommClient;
          if (step.act === 'open') {
            forms[step.tab] = await open(kind, tab, step);
            continue;
          }
          const form = forms[step.tab];
          if (!form) {
            continue;
          }
          forms[step.tab] = undefined;
          const target =
            form.kind === 'set'
              ? { kind: kind.sets }
              : { kind: kind.items, parent: SET };
          const reply = await tab.call({
            type: 'resourceApply',
            connection: 'ts',
            change: {
              target,
              op: form.op,
              name: form.id,
              basis: form.basis,
              ...(form.body ? { body: form.body } : {})
            }
          });
          const unchanged = sameJson(viewOf(model, form), form.shown);
          if (reply.type === 'resourceApplied') {
            // Confirmed: it was made from what the server held, so it overwrote nothing unseen.
            expect(unchanged).toBe(true);
            model = applied(kind, model, form);
          } else {
            expect(reply).toMatchObject({
              type: 'resourceConflict',
              name: form.id
            });
            // A conflict only when the entry really changed since the form read it.
            expect(unchanged).toBe(false);
          }
          expect(await onServer(kind)).toEqual(model);
        }
      }),
      { numRuns: 40 }
    );
  }
);

test('a form that started from nothing refuses when the entry was added meanwhile, naming what the server holds', async () => {
  await http('PUT', `/synonym_sets/${SET}`, { items: [] });
  const change = {
    target: { kind: 'synonymSetItems', parent: SET },
    op: 'put',
    name: 'boots',
    body: { synonyms: ['boots', 'wellies'] },
    basis: null
  };
  await http('PUT', `/synonym_sets/${SET}/items/boots`, {
    synonyms: ['boots', 'galoshes']
  });
  const reply = await tabs[0]?.expect(
    { type: 'resourceApply', connection: 'ts', change },
    'resourceConflict'
  );
  expect(reply?.current).toMatchObject({
    name: 'boots',
    value: { synonyms: ['boots', 'galoshes'] }
  });
  expect(await onServer(SYNONYMS)).toEqual({ boots: ['boots', 'galoshes'] });
});

test('an alias pointed elsewhere since its form read it is neither repointed nor deleted by that form', async () => {
  for (const name of ['shop_v1', 'shop_v2', 'shop_v3']) {
    await http('POST', '/collections', {
      name,
      fields: [{ name: 'title', type: 'string' }]
    });
  }
  await http('PUT', '/aliases/shop', { collection_name: 'shop_v1' });
  const [first, second] = tabs as [PanelCommClient, PanelCommClient];
  // Both tabs open the alias's form from what the server holds.
  const read = async (tab: PanelCommClient) =>
    (await listed(tab, 'aliases')).find(e => e.name === 'shop');
  const seenFirst = await read(first);
  const seenSecond = await read(second);
  expect(seenFirst?.usedBy).toEqual(['shop_v1']);
  const put = (collection: string, basis: unknown) => ({
    target: { kind: 'aliases' },
    op: 'put',
    name: 'shop',
    body: { collection_name: collection },
    basis: { value: basis }
  });
  await second.expect(
    {
      type: 'resourceApply',
      connection: 'ts',
      change: put('shop_v2', seenSecond?.value)
    },
    'resourceApplied'
  );
  const repoint = await first.expect(
    {
      type: 'resourceApply',
      connection: 'ts',
      change: put('shop_v3', seenFirst?.value)
    },
    'resourceConflict'
  );
  expect(repoint.current).toMatchObject({ name: 'shop', usedBy: ['shop_v2'] });
  const removal = await first.expect(
    {
      type: 'resourceApply',
      connection: 'ts',
      change: {
        target: { kind: 'aliases' },
        op: 'delete',
        name: 'shop',
        basis: { value: seenFirst?.value }
      }
    },
    'resourceConflict'
  );
  expect(removal.current).toMatchObject({ name: 'shop', usedBy: ['shop_v2'] });
  await expect(http('GET', '/aliases/shop')).resolves.toMatchObject({
    status: 200,
    json: { name: 'shop', collection_name: 'shop_v2' }
  });
});
