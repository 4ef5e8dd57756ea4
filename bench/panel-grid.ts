/**
 * The side panel's document grid in JupyterLab in Chromium, on a 1,000,000-document sandbox
 * index: from the double-click on the index in the tree to the grid's first painted rows, and
 * frame times while scrolling a loaded grid with the mouse wheel. The baseline, measured in
 * the same run, is one animation frame of the idle page. Prints medians; asserts nothing.
 *
 *   node dist/bench/panel-grid.js [--docs 1000000] [--runs 5]
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElasticsearchSandbox } from '../examples/sandbox/elasticsearch';
import { listen } from '../examples/sandbox/serve';
import { launchChromium } from '../test/e2e/support/browser';
import { startJupyterLab } from '../test/e2e/support/jupyter-lab';
import { openNotebook, runAllCells, writeNotebook } from '../test/e2e/support/notebook-page';

const docs = Number(process.argv[process.argv.indexOf('--docs') + 1]) || 1_000_000;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

interface BenchWindow {
  __replied?: number;
  __opened?: Promise<number>;
  __frames?: Promise<number[]>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const es = createElasticsearchSandbox({ version: '8.15.0', security: false, password: 'unused' });
  function* generate() {
    for (let n = 0; n < docs; n++) yield { id: `d${n}`, source: { n, label: `row ${n}`, group: n % 97 } };
  }
  es.loadIndex('big', { properties: { n: { type: 'long' }, label: { type: 'keyword' }, group: { type: 'integer' } } }, generate());
  const server = await listen(es.handler, { port: 0 });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-bench-panel-'));
  await writeNotebook(root, 'panel.ipynb', [`%connect elasticsearch ${server.url} name=es`]);
  const lab = await startJupyterLab({ root });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
    await openNotebook(page, lab.open('panel.ipynb'));
    await runAllCells(page);
    await page.locator('.jp-SideBar.jp-mod-left [data-id="searchbook-sidebar"]').click();
    const item = page.locator('[role="treeitem"][aria-level="2"][aria-label^="big · "]');
    await item.waitFor({ timeout: 60_000 });

    const frame = await page.evaluate(
      () => new Promise<number>((resolve) => requestAnimationFrame((a) => requestAnimationFrame((b) => resolve(b - a)))),
    );
    const opens: number[] = [];
    const replies: number[] = [];
    for (let run = 0; run < runs; run++) {
      await page.evaluate(() => {
        const w = window as unknown as BenchWindow;
        const item = document.querySelector('[role="treeitem"][aria-level="2"][aria-label^="big · "]');
        w.__opened = new Promise<number>((resolve) => {
          const started = performance.now();
          const message = document.querySelector('.searchbook-Sidebar-message');
          w.__replied = undefined;
          // Checked every frame: layout is no DOM mutation, so an observer could miss it.
          const check = () => {
            // The sidebar clears its "Opening …" line when the kernel's answer arrives.
            if (w.__replied === undefined && message?.textContent === '') w.__replied = performance.now() - started;
            const grid = document.querySelector('[role="grid"][aria-label="big · es"]');
            // Painted: laid out, and the frame after that has been drawn.
            if (grid && (grid as HTMLElement).offsetHeight > 0) requestAnimationFrame(() => resolve(performance.now() - started));
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
          item?.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
        });
      });
      opens.push(await page.evaluate(() => (window as unknown as BenchWindow).__opened as Promise<number>));
      replies.push(await page.evaluate(() => (window as unknown as BenchWindow).__replied ?? Number.NaN));
      if (run === 0) console.log(`status line after the first open: ${await page.locator('.searchbook-DocumentGrid-status').first().textContent()}`);
      if (run < runs - 1) await page.getByRole('tab', { name: /big · es/ }).locator('.lm-TabBar-tabCloseIcon').click();
    }

    // Frame times while the wheel scrolls through the loaded first block.
    const grid = page.getByRole('grid', { name: 'big · es' });
    const box = await grid.boundingBox();
    await page.mouse.move((box?.x ?? 0) + 200, (box?.y ?? 0) + 200);
    await page.evaluate(() => {
      const w = window as unknown as BenchWindow;
      w.__frames = new Promise<number[]>((resolve) => {
        const times: number[] = [];
        let last = performance.now();
        const tick = (now: number) => {
          times.push(now - last);
          last = now;
          if (times.length < 120) requestAnimationFrame(tick);
          else resolve(times.slice(1));
        };
        requestAnimationFrame(tick);
      });
    });
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, 120);
      await page.waitForTimeout(16);
    }
    const frames = await page.evaluate(() => (window as unknown as BenchWindow).__frames as Promise<number[]>);

    console.log(`${docs.toLocaleString('en-US')} documents; baseline: one animation frame of the idle page = ${frame.toFixed(1)} ms`);
    console.log(`double-click → first rows painted (median of ${runs}): ${median(opens).toFixed(0)} ms (${(median(opens) / frame).toFixed(1)} frames); all: ${opens.map((o) => o.toFixed(0)).join(', ')}`);
    console.log(`  of which: the kernel's answer arrived after (median) ${median(replies).toFixed(0)} ms; all: ${replies.map((o) => o.toFixed(0)).join(', ')}`);
    console.log(`scrolling frame times: median ${median(frames).toFixed(1)} ms, p95 ${percentile(frames, 0.95).toFixed(1)} ms, worst ${Math.max(...frames).toFixed(1)} ms (${(1000 / median(frames)).toFixed(0)} fps median; ratio to the idle frame ${(median(frames) / frame).toFixed(2)}×)`);
  } finally {
    await browser.close();
    await lab.close();
    await server.close();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
