/**
 * How long a hits grid takes to appear: from the moment the output's message reaches
 * JupyterLab in Chromium to the first painted pixels of its grid, for 1,000 and 10,000 rows.
 * The baseline, measured in the same run, is the same pipeline with a 10-row answer, so the
 * ratios show what the rows themselves cost. Prints medians; asserts nothing.
 *
 *   npm run bench:render [-- --runs 5]
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@searchbook/sandbox/sandbox';
import { launchChromium } from '../test/e2e/support/browser';
import { startJupyterLab } from '../test/e2e/support/jupyter-lab';
import {
  openNotebook,
  runAllCells,
  writeNotebook
} from '../test/e2e/support/notebook-page';

interface BenchWindow {
  jupyterapp: {
    commands: { execute(id: string): Promise<unknown> };
    shell: {
      currentWidget: {
        sessionContext: {
          session: {
            kernel: {
              iopubMessage: {
                connect(
                  fn: (
                    sender: unknown,
                    msg: {
                      header: { msg_type: string };
                      content: { data?: Record<string, unknown> };
                    }
                  ) => void
                ): void;
              };
            };
          };
        };
        content: { activeCellIndex: number };
      };
    };
  };
  __arrival?: number;
  __painted?: number;
}

const SIZES = [10, 1_000, 10_000];
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: 'bench-es',
    tsApiKey: 'bench-ts',
    security: true
  });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-bench-'));
  await writeNotebook(root, 'render.ipynb', [
    `%connect elasticsearch ${sandbox.esUrl} auth=basic user=elastic password=\${env:ES_PASSWORD} name=bench`,
    ...SIZES.map(
      size =>
        `GET /products/_search\n{"size": ${size}, "query": {"match_all": {}}}`
    )
  ]);
  const lab = await startJupyterLab({
    root,
    env: {
      ES_PASSWORD: 'bench-es',
      SEARCHBOOK_MAX_ROWS: String(Math.max(...SIZES))
    }
  });
  const browser = await launchChromium();
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1600, height: 1000 } })
    ).newPage();
    await openNotebook(page, lab.open('render.ipynb'));
    await runAllCells(page);
    await page.evaluate(() => {
      const w = window as unknown as BenchWindow;
      w.jupyterapp.shell.currentWidget.sessionContext.session.kernel.iopubMessage.connect(
        (_, msg) => {
          if (
            msg.header.msg_type === 'display_data' &&
            msg.content.data?.['application/vnd.searchbook.hits+json']
          ) {
            w.__arrival = performance.now();
            w.__painted = undefined;
            // Watch for the new grid's canvas to hold painted pixels, frame by frame.
            const started = performance.now();
            const look = (): void => {
              const cell = document.querySelectorAll(
                '.jp-Notebook .jp-CodeCell'
              )[w.jupyterapp.shell.currentWidget.content.activeCellIndex];
              const canvas = cell?.querySelector<HTMLCanvasElement>(
                '.searchbook-Grid canvas'
              );
              const pixel = canvas
                ?.getContext('2d')
                ?.getImageData(2, 2, 1, 1).data;
              if (pixel && pixel[3] === 255) {
                w.__painted = performance.now();
              } else if (performance.now() - started < 30_000) {
                requestAnimationFrame(look);
              }
            };
            requestAnimationFrame(look);
          }
        }
      );
    });
    const results = new Map<number, number[]>();
    for (let run = 0; run < runs; run++) {
      for (const [index, size] of SIZES.entries()) {
        const cellIndex = index + 1;
        await page.evaluate(i => {
          const w = window as unknown as BenchWindow;
          w.jupyterapp.shell.currentWidget.content.activeCellIndex = i;
          w.__arrival = undefined;
          w.__painted = undefined;
          void w.jupyterapp.commands.execute('notebook:run-cell');
        }, cellIndex);
        await page.waitForFunction(
          () => (window as unknown as BenchWindow).__painted !== undefined,
          undefined,
          { timeout: 60_000, polling: 50 }
        );
        const elapsed = await page.evaluate(() => {
          const w = window as unknown as BenchWindow;
          return (w.__painted ?? Number.NaN) - (w.__arrival ?? Number.NaN);
        });
        results.set(size, [...(results.get(size) ?? []), elapsed]);
      }
    }
    const rowCounts = await page.evaluate(() =>
      [
        ...document.querySelectorAll(
          '.jp-Notebook .jp-CodeCell .searchbook-Grid'
        )
      ].map(grid => grid.getAttribute('aria-rowcount'))
    );
    const baseline = median(results.get(SIZES[0] ?? 10) ?? []);
    console.log(
      `render-grid: output arrival -> painted grid in Chromium (median of ${runs} runs; grids hold ${rowCounts.join(', ')} rows)`
    );
    for (const size of SIZES) {
      const ms = median(results.get(size) ?? []);
      const all = (results.get(size) ?? []).map(v => v.toFixed(0)).join(', ');
      console.log(
        `  ${String(size).padStart(6)} rows: ${ms.toFixed(1).padStart(7)} ms  (x${(ms / baseline).toFixed(2)} of the ${SIZES[0]}-row baseline; runs: ${all})`
      );
    }
  } finally {
    await browser.close();
    await lab.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
