/**
 * The side panel's document grid in JupyterLab in Chromium, on a 1,000,000-document sandbox
 * index (or a real node's, `--real`; the engine's requests are logged on the way): from the double-click on the index in the tree to the grid's first painted rows, and
 * frame times while scrolling a loaded grid with the mouse wheel; then jump, sort and Clear with the
 * pinned columns shown against a window where they never show, and frame times while the wheel
 * scrolls sideways over them. Baselines, measured in the
 * same run: one animation frame of the idle page, and a bare comm round trip to the kernel
 * through the Jupyter server (the floor under the kernel's answer). The open is split by the
 * sidebar's user timing marks (request sent, answer validated, tab added), the first open
 * apart from the later ones. Prints medians; asserts nothing.
 *
 *   node dist/bench/panel-grid.js [--docs 1000000] [--runs 5] [--real 8.19] [--trace trace.json]
 *     [--profile page.cpuprofile] [--kernel-profile dir] [--open-only]
 *     [--wheel-profile wheel.cpuprofile]
 *
 * `--open-only` stops after the opens and Ctrl-End (no wheel, no pinned columns): for the
 * larger indices, where only Ctrl-End's cost by index size is wanted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type RequestListener } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen } from '@searchbook/sandbox/serve';
import type { Page } from 'playwright-core';
import { buildLaunchers } from '../test/support/real-elasticsearch/build';
import {
  REAL_FLAVOURS,
  REAL_FLAVOUR_IDS,
  isRealFlavourId
} from '../test/support/real-elasticsearch/flavours';
import {
  jsonFromNode,
  launchRealNode,
  stopRealNode
} from '../test/support/real-elasticsearch/launch';
import {
  PANEL_COMM_TARGET,
  PANEL_PROTOCOL_VERSION
} from '../contracts/panel-protocol';
import { launchChromium } from '../test/e2e/support/browser';
import { startJupyterLab } from '../test/e2e/support/jupyter-lab';
import {
  openNotebook,
  runAllCells,
  writeNotebook
} from '../test/e2e/support/notebook-page';

// --real <version>: a real Elasticsearch node (8.19, 9.5, 7.17, opensearch-2.19, ...) instead
// of the sandbox, started from the launchers the real-node tests use.
const realAt = process.argv.indexOf('--real');
const real = realAt >= 0 ? process.argv[realAt + 1] : undefined;
const docs =
  Number(process.argv[process.argv.indexOf('--docs') + 1]) ||
  (real ? 50_000 : 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const openOnly = process.argv.includes('--open-only');

interface BenchWindow {
  __opened?: Promise<number>;
  __frames?: Promise<number[]>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ??
    Number.NaN
  );
}

const PHASES = ['sent', 'replied', 'shown'] as const;
type Phase = (typeof PHASES)[number];

/** The baseline for the kernel's answer: a `connections` request on a comm of its own, which the kernel answers without touching an engine. */
async function bareCommRoundTrips(
  page: Page,
  count: number
): Promise<number[]> {
  return page.evaluate(
    async ({ target, version, count }) => {
      type Comm = {
        open(data: object): unknown;
        send(data: object): unknown;
        close(): unknown;
        onMsg: (msg: { content: { data: { requestId?: string } } }) => void;
      };
      type Lab = {
        shell: {
          widgets(area: string): Iterable<{
            sessionContext?: {
              session?: {
                kernel?: { name: string; createComm(target: string): Comm };
              };
            };
          }>;
        };
      };
      const app = (window as unknown as { jupyterapp: Lab }).jupyterapp;
      const kernel = [...app.shell.widgets('main')]
        .map(w => w.sessionContext?.session?.kernel)
        .find(k => k?.name === 'searchbook');
      if (!kernel) {
        throw new Error('no searchbook notebook kernel');
      }
      const comm = kernel.createComm(target);
      const replies = new Map<string, () => void>();
      comm.onMsg = msg => replies.get(msg.content.data.requestId ?? '')?.();
      comm.open({});
      const times: number[] = [];
      for (let i = 0; i <= count; i++) {
        const requestId = `bench-${i}`;
        const started = performance.now();
        await new Promise<void>(resolve => {
          replies.set(requestId, resolve);
          comm.send({ v: version, requestId, type: 'connections' });
        });
        // The first one opens the comm on the way.
        if (i > 0) {
          times.push(performance.now() - started);
        }
      }
      comm.close();
      return times;
    },
    { target: PANEL_COMM_TARGET, version: PANEL_PROTOCOL_VERSION, count }
  );
}

const MAPPING = {
  properties: {
    n: { type: 'long' },
    label: { type: 'keyword' },
    group: { type: 'integer' }
  }
};

function* generate(): Generator<{
  id: string;
  source: { n: number; label: string; group: number };
}> {
  for (let n = 0; n < docs; n++) {
    yield { id: `d${n}`, source: { n, label: `row ${n}`, group: n % 97 } };
  }
}

/** The sandbox's handler with the `big` index loaded. */
function sandboxEngine(): {
  handler: RequestListener;
  stop: () => Promise<void>;
} {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('big', MAPPING, generate());
  return { handler: es.handler, stop: async () => undefined };
}

/** A real node with the `big` index loaded, behind a loopback proxy (so its requests are logged too). */
async function realEngine(
  version: string
): Promise<{ handler: RequestListener; stop: () => Promise<void> }> {
  const flavour = isRealFlavourId(version) ? version : `es-${version}`;
  if (!isRealFlavourId(flavour) || REAL_FLAVOURS[flavour].security) {
    throw new Error(
      `--real takes an unsecured real node: one of ${REAL_FLAVOUR_IDS.filter(id => !REAL_FLAVOURS[id].security).join(', ')}`
    );
  }
  const build = await buildLaunchers();
  if (!build.built) {
    throw new Error(build.reason);
  }
  const home = await mkdtemp(join(tmpdir(), 'searchbook-bench-real-'));
  const node = await launchRealNode(flavour, { home, parentPid: process.pid });
  await jsonFromNode(
    node,
    'PUT',
    '/big',
    JSON.stringify({ settings: { number_of_replicas: 0 }, mappings: MAPPING })
  );
  let lines: string[] = [];
  const flush = async (): Promise<void> => {
    if (lines.length > 0) {
      await jsonFromNode(node, 'POST', '/big/_bulk', `${lines.join('\n')}\n`);
      lines = [];
    }
  };
  for (const { id, source } of generate()) {
    lines.push(JSON.stringify({ index: { _id: id } }), JSON.stringify(source));
    if (lines.length >= 20_000) {
      await flush();
    }
  }
  await flush();
  await jsonFromNode(node, 'POST', '/big/_refresh');
  // A user's cluster has served searches before: its JVM has compiled the search code. A
  // freshly started node has not, so it searches another index a while first (the grid's own
  // index stays unopened: its first open is what is measured).
  await jsonFromNode(
    node,
    'PUT',
    '/warm-up',
    JSON.stringify({ settings: { number_of_replicas: 0 }, mappings: MAPPING })
  );
  await jsonFromNode(
    node,
    'POST',
    '/warm-up/_bulk?refresh=true',
    `${Array.from(
      { length: 2000 },
      (_, n) =>
        `${JSON.stringify({ index: { _id: `w${n}` } })}\n${JSON.stringify({ n, label: `row ${n}`, group: n % 97 })}`
    ).join('\n')}\n`
  );
  for (let round = 0; round < 200; round++) {
    await jsonFromNode(
      node,
      'POST',
      '/warm-up/_search',
      JSON.stringify({
        size: 100,
        from: round % 10,
        sort: ['_doc'],
        track_total_hits: true
      })
    );
  }
  const target = new URL(node.url);
  return {
    handler: (req, res) => {
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers
        },
        answer => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        }
      );
      forward.on('error', error => res.destroy(error));
      req.pipe(forward);
    },
    stop: async () => {
      await stopRealNode(node.pid);
      await rm(home, { recursive: true, force: true });
    }
  };
}

/** What one grid action is, in the page: started by `start`, done once `changed` holds and the rows in view are loaded and painted. */
interface GridAction {
  start: string;
  changed: string;
}

/**
 * Times one action on the visible `big · es` grid, in the page: from its start to the frame after
 * the rows in view are loaded. `start` and `changed` are bodies of functions of `w` (the grid
 * tab's widget) and `g` (its DataGrid); `changed` tells the action took effect (a scroll made, a
 * sort or a filter in force), so a grid still showing the old rows is not counted as done.
 */
async function timeGridAction(page: Page, action: GridAction): Promise<number> {
  return page.evaluate(({ start, changed }) => {
    type Shell = {
      widgets(
        area: string
      ): Iterable<{ title: { label: string }; isVisible: boolean }>;
    };
    const shell = (window as unknown as { jupyterapp: { shell: Shell } })
      .jupyterapp.shell;
    const w = [...shell.widgets('main')].find(
      x => x.title.label === 'big · es' && x.isVisible
    ) as unknown as {
      dataGrid: {
        node: HTMLElement;
        scrollY: number;
        pageHeight: number;
        rowAt(region: 'body', offset: number): number;
        rowCount(region: 'body'): number;
      };
      model: { isLoaded(row: number): boolean };
    };
    const g = w.dataGrid;
    const done = new Function('w', 'g', changed) as (
      w: unknown,
      g: unknown
    ) => boolean;
    const inView = (): boolean => {
      if (g.node.dataset.view === 'loading') {
        return false;
      }
      const first = Math.max(0, g.rowAt('body', g.scrollY));
      const found = g.rowAt('body', g.scrollY + g.pageHeight - 1);
      const last = found < 0 ? g.rowCount('body') - 1 : found;
      for (let row = first; row <= last; row++) {
        if (!w.model.isLoaded(row)) {
          return false;
        }
      }
      return true;
    };
    return new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const check = (): void => {
        if (performance.now() - started > 60_000) {
          reject(
            new Error(
              `not done in 60 s: ${changed} (view ${g.node.dataset.view}, sort ${g.node.dataset.sort}, rows ${g.node.getAttribute('aria-rowcount')}, scrollY ${g.scrollY})`
            )
          );
        } else if (done(w, g) && inView()) {
          // Painted: the frame after the rows came has been drawn.
          requestAnimationFrame(() => resolve(performance.now() - started));
        } else {
          requestAnimationFrame(check);
        }
      };
      (new Function('w', 'g', start) as (w: unknown, g: unknown) => void)(w, g);
      requestAnimationFrame(check);
    });
  }, action);
}

/** Scrolls the grid sideways to its end (the pinned columns shown) or back to its start. */
async function scrollGridSideways(page: Page, toEnd: boolean): Promise<void> {
  await page.evaluate(toEnd => {
    const grid = document.querySelector('[role="grid"][aria-label="big · es"]');
    grid?.setAttribute('data-bench-sideways', toEnd ? 'end' : 'start');
  }, toEnd);
  await timeGridAction(page, {
    start: `g.scrollTo(g.node.dataset.benchSideways === 'end' ? g.maxScrollX : 0, g.scrollY);`,
    changed: `return g.node.dataset.benchSideways === 'end' ? g.scrollX === g.maxScrollX && g.scrollX > 0 && g.node.dataset.pinnedShown !== undefined : g.scrollX === 0;`
  });
}

/**
 * Jump to the middle, a sort by `n`, then a filter cleared: the ms each took to its rows painted,
 * and the engine requests the jump cost (`requests` counts those logged so far) in which sort.
 */
async function jumpSortClear(
  page: Page,
  requests: () => number
): Promise<{
  jump: number;
  back: number;
  sort: number;
  clear: number;
  jumpRequests: string;
}> {
  const column = `w.model.columns.findIndex((c) => c.name === 'n')`;
  await timeGridAction(page, {
    start: `g.scrollTo(g.scrollX, 0);`,
    changed: `return g.scrollY === 0;`
  });
  const before = requests();
  const jump = await timeGridAction(page, {
    start: `g.node.dataset.benchY = String(Math.round(g.maxScrollY / 2)); g.scrollTo(g.scrollX, g.maxScrollY / 2);`,
    changed: `return Math.abs(g.scrollY - Number(g.node.dataset.benchY)) <= 1;`
  });
  const sortedBy = await page
    .getByRole('grid', { name: 'big · es' })
    .getAttribute('data-sort');
  const jumpRequests = `${requests() - before} (${sortedBy && sortedBy !== '[]' ? `sorted ${sortedBy}` : 'index order'})`;
  // Back to the first rows, loaded already: the grids' painting alone, no engine request.
  const back = await timeGridAction(page, {
    start: `g.scrollTo(g.scrollX, 0);`,
    changed: `return g.scrollY === 0;`
  });
  const sort = await timeGridAction(page, {
    start: `g.node.dataset.benchSort = g.node.dataset.sort ?? ''; void w.viewModel.sortBy(${column});`,
    changed: `return (g.node.dataset.sort ?? '') !== g.node.dataset.benchSort;`
  });
  const bar = page.getByRole('search', { name: 'Filter documents' }).last();
  const raw = bar.getByRole('textbox', { name: 'Raw filter' });
  const rows = await page
    .getByRole('grid', { name: 'big · es' })
    .getAttribute('aria-rowcount');
  await raw.fill('group:1');
  await raw.press('Enter');
  await timeGridAction(page, {
    start: `g.node.dataset.benchRows = '${rows ?? ''}';`,
    changed: `return g.node.getAttribute('aria-rowcount') !== g.node.dataset.benchRows;`
  });
  const clear = await timeGridAction(page, {
    start: `g.node.dataset.benchRows = g.node.getAttribute('aria-rowcount') ?? ''; [...document.querySelectorAll('[role="search"][aria-label="Filter documents"] button')].filter((b) => b.textContent === 'Clear' && b.offsetParent !== null).pop()?.click();`,
    changed: `return g.node.getAttribute('aria-rowcount') !== g.node.dataset.benchRows;`
  });
  return { jump, back, sort, clear, jumpRequests };
}

/**
 * Jump, sort and Clear with the pinned columns shown (a window narrow enough that the grid
 * scrolls sideways, scrolled to its end) against a window wide enough that they never show,
 * alternated run by run; then frame times while the wheel scrolls the loaded grid sideways.
 */
async function pinnedOverlayCosts(
  page: Page,
  requests: () => number
): Promise<void> {
  const height = page.viewportSize()?.height ?? 1000;
  const shown = {
    jump: [] as number[],
    back: [] as number[],
    sort: [] as number[],
    clear: [] as number[]
  };
  const never = {
    jump: [] as number[],
    back: [] as number[],
    sort: [] as number[],
    clear: [] as number[]
  };
  const resize = async (width: number): Promise<void> => {
    await page.setViewportSize({ width, height });
    // Laid out again: Lumino resizes the grid in a frame after the window's resize.
    await page.waitForTimeout(100);
    await page.evaluate(
      () =>
        new Promise(done =>
          requestAnimationFrame(() => requestAnimationFrame(done))
        )
    );
  };
  const firstWidth = async (
    widths: number[],
    scrolls: boolean
  ): Promise<number> => {
    for (const width of widths) {
      await resize(width);
      if ((await maxScrollX(page)) > 0 === scrolls) {
        return width;
      }
    }
    throw new Error(
      `no window width in ${widths.join(', ')} px where the grid ${scrolls ? 'scrolls' : 'does not scroll'} sideways`
    );
  };
  const narrow = await firstWidth([900, 800, 700, 600, 500], true);
  const wide = {
    width: await firstWidth([1600, 2000, 2400, 3200], false),
    height
  };
  const loads: string[] = [];
  const jumpRequests: string[] = [];
  for (let run = 0; run < runs; run++) {
    for (const withPinned of run % 2 === 0 ? [true, false] : [false, true]) {
      await resize(withPinned ? narrow : wide.width);
      await scrollGridSideways(page, withPinned);
      const times = await jumpSortClear(page, requests);
      jumpRequests.push(times.jumpRequests);
      const into = withPinned ? shown : never;
      into.jump.push(times.jump);
      into.back.push(times.back);
      into.sort.push(times.sort);
      into.clear.push(times.clear);
    }
    loads.push((loadavg()[0] ?? 0).toFixed(2));
    console.log(
      `  pinned run ${run + 1}: shown ${shown.jump.at(-1)?.toFixed(0)}/${shown.sort.at(-1)?.toFixed(0)}/${shown.clear.at(-1)?.toFixed(0)} ms, never shown ${never.jump.at(-1)?.toFixed(0)}/${never.sort.at(-1)?.toFixed(0)}/${never.clear.at(-1)?.toFixed(0)} ms (jump/sort/Clear), load ${loads.at(-1)}`
    );
  }
  await resize(narrow);
  await scrollGridSideways(page, true);
  const grid = page.getByRole('grid', { name: 'big · es' });
  const box = await grid.boundingBox();
  await page.mouse.move(
    (box?.x ?? 0) + (box?.width ?? 0) / 2,
    (box?.y ?? 0) + 200
  );
  // --wheel-profile <file>: a CPU profile of the page while the wheel scrolls sideways.
  const wheelProfile = process.argv.includes('--wheel-profile')
    ? process.argv[process.argv.indexOf('--wheel-profile') + 1]
    : undefined;
  const cdp = wheelProfile
    ? await page.context().newCDPSession(page)
    : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await recordFrames(page);
  // Left and right across the point where the pinned columns show and hide.
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(i % 10 < 5 ? -60 : 60, 0);
    await page.waitForTimeout(16);
  }
  const frames = await page.evaluate(
    () => (window as unknown as BenchWindow).__frames as Promise<number[]>
  );
  if (cdp && wheelProfile) {
    const { profile } = await cdp.send('Profiler.stop');
    await writeFile(wheelProfile, JSON.stringify(profile));
  }
  await resize(1600);
  const line = (
    name: 'jump' | 'back' | 'sort' | 'clear',
    title: string
  ): string => {
    const a = median(shown[name]);
    const b = median(never[name]);
    return `  ${title}: pinned shown ${a.toFixed(0)} ms (${shown[name].map(t => t.toFixed(0)).join(', ')}); never shown ${b.toFixed(0)} ms (${never[name].map(t => t.toFixed(0)).join(', ')}); ratio ${(a / b).toFixed(2)}×`;
  };
  console.log(
    `pinned columns (a ${narrow} px window scrolled sideways vs ${wide.width} px, alternated; medians of ${runs}; load average after each run: ${loads.join(', ')}):`
  );
  console.log(line('jump', 'jump to the middle (engine reads included)'));
  console.log(
    `    engine requests per jump, shown and never shown alternated: ${jumpRequests.join(', ')}`
  );
  console.log(line('back', 'jump back to the loaded first rows'));
  console.log(line('sort', 'sort by n'));
  console.log(line('clear', 'filter Clear'));
  console.log(
    `  wheel sideways over the pinned columns, frame times: median ${median(frames).toFixed(1)} ms, p95 ${percentile(frames, 0.95).toFixed(1)} ms, worst ${Math.max(...frames).toFixed(1)} ms, over 33 ms: ${frames.filter(f => f > 33).length} of ${frames.length}`
  );
}

async function maxScrollX(page: Page): Promise<number> {
  return page.evaluate(() => {
    type Shell = {
      widgets(
        area: string
      ): Iterable<{ title: { label: string }; isVisible: boolean }>;
    };
    const shell = (window as unknown as { jupyterapp: { shell: Shell } })
      .jupyterapp.shell;
    const w = [...shell.widgets('main')].find(
      x => x.title.label === 'big · es' && x.isVisible
    ) as unknown as { dataGrid: { maxScrollX: number } } | undefined;
    return w?.dataGrid.maxScrollX ?? 0;
  });
}

async function main(): Promise<void> {
  const engine = real ? await realEngine(real) : sandboxEngine();
  // The engine's side of each open, on the wall clock the page shares: which requests the
  // kernel sent and how long each took from the click.
  const engineLog: { path: string; started: number; ended: number }[] = [];
  const server = await listen(
    (req, res) => {
      const entry = {
        path: `${req.method} ${(req.url ?? '').split('?')[0]}`,
        started: Date.now(),
        ended: Number.NaN
      };
      engineLog.push(entry);
      res.once('finish', () => (entry.ended = Date.now()));
      engine.handler(req, res);
    },
    { port: 0 }
  );
  const root = await mkdtemp(join(tmpdir(), 'searchbook-bench-panel-'));
  await writeNotebook(root, 'panel.ipynb', [
    `%connect elasticsearch ${server.url} name=es`
  ]);
  // --kernel-profile <dir>: the kernel's own CPU profile, written when it stops.
  const kernelProfile = process.argv.includes('--kernel-profile')
    ? process.argv[process.argv.indexOf('--kernel-profile') + 1]
    : undefined;
  const lab = await startJupyterLab({
    root,
    ...(kernelProfile
      ? {
          env: {
            NODE_OPTIONS: `--require ${join(__dirname, 'kernel-cpu-profile.js')}`,
            SEARCHBOOK_CPU_PROFILE_DIR: kernelProfile
          }
        }
      : {})
  });
  const browser = await launchChromium();
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1600, height: 1000 } })
    ).newPage();
    await openNotebook(page, lab.open('panel.ipynb'));
    await runAllCells(page);
    await page
      .locator('.jp-SideBar.jp-mod-left [data-id="searchbook-sidebar"]')
      .click();
    const item = page.locator(
      '[role="treeitem"][aria-level="2"][aria-label^="big · "]'
    );
    await item.waitFor({ timeout: 60_000 });

    const frame = await page.evaluate(
      () =>
        new Promise<number>(resolve =>
          requestAnimationFrame(a => requestAnimationFrame(b => resolve(b - a)))
        )
    );
    const roundTrips = await bareCommRoundTrips(page, 7);
    const opens: number[] = [];
    const ctrlEnds: number[] = [];
    const ctrlEndRequests: number[] = [];
    const phases: Record<Phase, number[]> = {
      sent: [],
      replied: [],
      shown: []
    };
    // --trace <file>: a Chromium performance trace of the last open, for chrome://tracing or DevTools.
    const tracePath = process.argv.includes('--trace')
      ? process.argv[process.argv.indexOf('--trace') + 1]
      : undefined;
    // --profile <file>: a CPU profile of the page during the first open (.cpuprofile, for DevTools).
    const profilePath = process.argv.includes('--profile')
      ? process.argv[process.argv.indexOf('--profile') + 1]
      : undefined;
    const cdp = profilePath
      ? await page.context().newCDPSession(page)
      : undefined;
    for (let run = 0; run < runs; run++) {
      const tracing = tracePath !== undefined && run === runs - 1;
      if (cdp && run === 0) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      if (tracing) {
        await browser.startTracing(page, {
          path: tracePath,
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8.execute',
            'disabled-by-default-v8.cpu_profiler',
            'toplevel'
          ]
        });
      }
      engineLog.length = 0;
      const clickedAt = await page.evaluate(() => {
        const w = window as unknown as BenchWindow;
        const item = document.querySelector(
          '[role="treeitem"][aria-level="2"][aria-label^="big · "]'
        );
        w.__opened = new Promise<number>(resolve => {
          performance.clearMarks();
          const started = performance.now();
          // Checked every frame: layout is no DOM mutation, so an observer could miss it.
          const check = () => {
            const grid = document.querySelector(
              '[role="grid"][aria-label="big · es"]'
            );
            // Painted: laid out, and the frame after that has been drawn.
            if (grid && (grid as HTMLElement).offsetHeight > 0) {
              requestAnimationFrame(() => resolve(performance.now() - started));
            } else {
              requestAnimationFrame(check);
            }
          };
          requestAnimationFrame(check);
          performance.mark('bench:clicked');
          item?.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
        });
        return Date.now();
      });
      opens.push(
        await page.evaluate(
          () => (window as unknown as BenchWindow).__opened as Promise<number>
        )
      );
      if (tracing) {
        await browser.stopTracing();
      }
      if (cdp && profilePath && run === 0) {
        const { profile } = await cdp.send('Profiler.stop');
        await writeFile(profilePath, JSON.stringify(profile));
      }
      // The sidebar's user timing marks: open request sent, answer validated, tab added (Lumino lays it out and paints next).
      const marks = await page.evaluate(() => {
        const at = (name: string) =>
          performance.getEntriesByName(`searchbook:grid-${name}`)[0]
            ?.startTime ?? Number.NaN;
        const clicked =
          performance.getEntriesByName('bench:clicked')[0]?.startTime ??
          Number.NaN;
        return {
          sent: at('open-sent') - clicked,
          replied: at('opened') - clicked,
          shown: at('shown') - clicked
        };
      });
      for (const phase of PHASES) {
        phases[phase].push(marks[phase]);
      }
      if (run === 0) {
        console.log(
          `status line after the first open: ${await page.locator('.searchbook-DocumentGrid-status').first().textContent()}`
        );
      }
      // Each open on one line, in ms after the click: the engine's requests (start → end), the
      // kernel's answer validated in the page, the tab added, the first rows painted.
      console.log(
        `${run === 0 ? 'first open' : `open ${run + 1}`.padEnd(10)}: ${engineLog
          .map(
            ({ path, started, ended }) =>
              `${path.replace(/^\w+ \/(big\/)?/, '')} ${started - clickedAt}→${ended - clickedAt}`
          )
          .join(
            ', '
          )}; answer ${marks.replied.toFixed(0)}; tab ${marks.shown.toFixed(0)}; painted ${opens[run]?.toFixed(0)}`
      );
      // Ctrl-End on the fresh grid: from the key to the last block loaded, and the engine requests it cost.
      await page.waitForFunction(
        () =>
          document
            .querySelector('[role="grid"][aria-label="big · es"]')
            ?.getAttribute('aria-busy') === 'false'
      );
      const gridBox = await page
        .getByRole('grid', { name: 'big · es' })
        .boundingBox();
      await page.mouse.click((gridBox?.x ?? 0) + 150, (gridBox?.y ?? 0) + 120);
      const loadedBefore = await page.evaluate(() =>
        Number(
          document.querySelector<HTMLElement>(
            '[role="grid"][aria-label="big · es"]'
          )?.dataset.loadedRows
        )
      );
      const logged = engineLog.length;
      const pressed = performance.now();
      await page.keyboard.press('Control+End');
      await page.waitForFunction(
        (before: number) => {
          const grid = document.querySelector<HTMLElement>(
            '[role="grid"][aria-label="big · es"]'
          );
          return (
            Number(grid?.dataset.loadedRows) > before &&
            grid?.getAttribute('aria-busy') === 'false'
          );
        },
        loadedBefore,
        { polling: 'raf', timeout: 120_000 }
      );
      ctrlEnds.push(performance.now() - pressed);
      ctrlEndRequests.push(engineLog.length - logged);
      if (run < runs - 1) {
        await page
          .getByRole('tab', { name: /big · es/ })
          .locator('.lm-TabBar-tabCloseIcon')
          .click();
      }
    }

    // Frame times while the wheel scrolls through the loaded first block (none with --open-only).
    const frames = openOnly ? [] : await wheelDownFrames(page);

    console.log(
      `${docs.toLocaleString('en-US')} documents; baseline: one animation frame of the idle page = ${frame.toFixed(1)} ms`
    );
    console.log(
      `double-click → first rows painted (first open ${opens[0]?.toFixed(0)} ms; median of ${runs}): ${median(opens).toFixed(0)} ms (${(median(opens) / frame).toFixed(1)} frames); all: ${opens.map(o => o.toFixed(0)).join(', ')}`
    );
    const sent = median(phases.sent);
    const replied = median(phases.replied);
    const shown = median(phases.shown);
    console.log(
      `  click → open request sent ${sent.toFixed(1)} ms; → kernel's answer validated ${(replied - sent).toFixed(0)} ms (a bare comm round trip through the Jupyter server: ${median(roundTrips).toFixed(0)} ms, ratio ${((replied - sent) / median(roundTrips)).toFixed(1)}×)`
    );
    console.log(
      `  → grid tab added ${(shown - replied).toFixed(0)} ms; → laid out, first rows painted and the frame drawn ${(median(opens) - shown).toFixed(0)} ms`
    );
    // The bare client's floor: the last block as one reversed search straight to the engine.
    const bare: number[] = [];
    for (let run = 0; run < Math.max(runs, 5); run++) {
      const started = performance.now();
      const answer = await fetch(`${server.url}/big/_search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          size: docs % 1000 || 1000,
          sort: [{ _doc: 'desc' }],
          track_total_hits: false
        })
      });
      await answer.text();
      bare.push(performance.now() - started);
    }
    console.log(
      `Ctrl-End → last block loaded (median of ${runs}, load average ${loadavg()
        .map(l => l.toFixed(2))
        .join(
          ' '
        )}): ${median(ctrlEnds).toFixed(0)} ms, min ${Math.min(...ctrlEnds).toFixed(0)}, max ${Math.max(...ctrlEnds).toFixed(0)}; engine requests ${ctrlEndRequests.join(', ')}; a bare client's one reversed search of the last block ${median(bare).toFixed(0)} ms (ratio ${(median(ctrlEnds) / median(bare)).toFixed(1)}×)`
    );
    if (openOnly) {
      return;
    }
    console.log(
      `scrolling frame times: median ${median(frames).toFixed(1)} ms, p95 ${percentile(frames, 0.95).toFixed(1)} ms, worst ${Math.max(...frames).toFixed(1)} ms (${(1000 / median(frames)).toFixed(0)} fps median; ratio to the idle frame ${(median(frames) / frame).toFixed(2)}×)`
    );
    await pinnedOverlayCosts(page, () => engineLog.length);
  } finally {
    await browser.close();
    await lab.close();
    await server.close();
    await engine.stop();
  }
}

void main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});

/** Frame times while the wheel scrolls down through the loaded first block. */
async function wheelDownFrames(page: Page): Promise<number[]> {
  const grid = page.getByRole('grid', { name: 'big · es' });
  const box = await grid.boundingBox();
  await page.mouse.move((box?.x ?? 0) + 200, (box?.y ?? 0) + 200);
  await recordFrames(page);
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(16);
  }
  return page.evaluate(
    () => (window as unknown as BenchWindow).__frames as Promise<number[]>
  );
}

/** Starts recording the next 120 animation frames' durations into `window.__frames`. */
async function recordFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.__frames = new Promise<number[]>(resolve => {
      const times: number[] = [];
      let last = performance.now();
      const tick = (now: number) => {
        times.push(now - last);
        last = now;
        if (times.length < 120) {
          requestAnimationFrame(tick);
        } else {
          resolve(times.slice(1));
        }
      };
      requestAnimationFrame(tick);
    });
  });
}
