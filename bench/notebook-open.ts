/**
 * How a notebook of 50 answers of 1,000 hits each opens in JupyterLab in Chromium, saved by
 * searchbook, against the same answers saved by ipykernel as pandas DataFrames and as
 * IPython.display.JSON, each measured past a notebook of the same 50 cells without outputs, in
 * the same run. Per notebook: time from navigation until its first outputs are drawn and the
 * page answers at once again (median of the runs), page heap after a collection, long tasks,
 * frames per second scrolling top to bottom; and searchbook's heap per answer against the
 * answer's own JSON bytes (uncompressed), beside the bytes the notebook saves of it (compressed). Prints figures; asserts nothing.
 *
 *   npm run bench:notebook-open [-- --runs 3 --answers 50 --hits 1000 --only searchbook --traced 1]
 *
 * `--only searchbook`: the empty and searchbook notebooks alone (no Python kernel), for
 * comparing searchbook's own figures between builds quickly; `--only searchbook,dataframe`
 * leaves out the JSON notebook alone (the slowest to open), for the ratio in less time.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { startSandbox } from '@searchbook/sandbox/sandbox';
import { ANSWER_FORMAT, swappedAnswerText } from '../contracts/answer-format';
import { HITS_MIME, HitsPayloadSchema } from '../contracts/mime-types';
import { launchChromium } from '../test/e2e/support/browser';
import { takeHeapSnapshot } from '../test/e2e/support/heap-snapshot';
import {
  type RunningLab,
  startJupyterLab
} from '../test/e2e/support/jupyter-lab';
import {
  type NotebookKernel,
  openNotebook,
  runAllCells,
  runCommand,
  writeNotebook
} from '../test/e2e/support/notebook-page';
import { countForcedStyles } from './forced-styles';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const runs = arg('runs', 3);
const answers = arg('answers', 50);
const hits = arg('hits', 1_000);
/** `--traced N`: traced opens of the searchbook notebook counting the style recalculations its script forces. */
const traced = arg('traced', 1);
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : undefined;
/** `--against DATA_DIR`: a second JupyterLab with another build's labextension, opened in turn with this one. */
const against = process.argv.includes('--against')
  ? process.argv[process.argv.indexOf('--against') + 1]
  : undefined;
/**
 * `--profile FILE`: CPU profiles of the first open and scroll of the searchbook, empty and
 * DataFrame notebooks, per build (FILE.<build>[.empty|.dataframe][.open].cpuprofile).
 */
const profile = process.argv.includes('--profile')
  ? process.argv[process.argv.indexOf('--profile') + 1]
  : undefined;
/** `--snapshot FILE`: a heap snapshot of the page after the first searchbook open (FILE.heapsnapshot). */
const snapshot = process.argv.includes('--snapshot')
  ? process.argv[process.argv.indexOf('--snapshot') + 1]
  : undefined;
const PASSWORD = 'bench-es';

const PYTHON: NotebookKernel = {
  name: 'python3',
  display_name: 'Python 3',
  language: 'python'
};

interface Opened {
  ms: number;
  /** CPU time of the page's main thread from its start until quiet: what load on other cores does not inflate. */
  cpuMs: number;
  heapMb: number;
  longTasks: number[];
}

interface Scrolled {
  fps: number;
  /** Main-thread CPU time per frame while scrolling: under 16.7 ms, an idle core keeps 60 fps. */
  cpuMsPerFrame?: number;
  /** The page's process CPU time (main thread, compositor, raster) per frame. */
  processMsPerFrame?: number;
  frames?: number;
  worstFrameMs: number;
  /** Page heap after a collection once scrolled to the bottom: what the grids passed still hold. */
  heapMb?: number;
}

interface Measured {
  opens: Opened[];
  /** One per open: each run scrolls once, after its open is measured. */
  scrolls: Scrolled[];
  fileMb: number;
}

declare global {
  interface Window {
    __longTasks?: number[];
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const search = JSON.stringify({
  size: hits,
  query: { match_all: {} }
});

/** Runs a notebook in JupyterLab and saves it, as a user would before sharing it. */
async function runAndSave(page: Page, lab: RunningLab, name: string) {
  await openNotebook(page, lab.open(name));
  await runAllCells(page);
  await runCommand(page, 'docmanager:save');
  await page.waitForFunction(
    () => !document.querySelector('.jp-mod-dirty'),
    undefined,
    { timeout: 120_000 }
  );
}

/** Until the page is quiet (three frames in a row each come within 50 ms of being asked for): when, on its clock. */
async function untilQuiet(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let calm = 0;
    while (calm < 3) {
      const asked = performance.now();
      await new Promise<void>(done =>
        requestAnimationFrame(() => setTimeout(done, 0))
      );
      calm = performance.now() - asked < 50 ? calm + 1 : 0;
    }
    return performance.now();
  });
}

/** From navigation until the first outputs are on screen and the page is quiet again. */
async function openOnce(
  browser: Browser,
  lab: RunningLab,
  name: string,
  profileTo?: string
) {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 }
  });
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver(list => {
      for (const entry of list.getEntries()) {
        window.__longTasks?.push(entry.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // Durations in thread time: CPU spent, not time waited for a core on a loaded machine.
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  if (profileTo) {
    await startProfile(browser, page, cdp, profileTo, OPEN_TRACE);
  }
  await page.goto(lab.open(name));
  await page.waitForSelector('.jp-NotebookPanel .jp-Notebook .jp-Cell', {
    timeout: 300_000
  });
  const withOutputs = !name.startsWith('empty');
  if (withOutputs) {
    await page.waitForSelector(
      '.jp-Notebook .jp-CodeCell .jp-OutputArea-output',
      { timeout: 300_000 }
    );
  }
  const ms = await untilQuiet(page);
  const cpuMs = (await cpuTimes(cdp)).thread;
  if (profileTo) {
    await stopProfile(browser, cdp, profileTo);
  }
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const longTasks = await page.evaluate(() => window.__longTasks ?? []);
  return {
    opened: { ms, cpuMs, heapMb: heap.usedSize / 2 ** 20, longTasks },
    page,
    cdp,
    close: () => context.close()
  };
}

const OPEN_TRACE = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline'
];
/** Scrolling: the compositor's and raster's work too. */
const SCROLL_TRACE = [...OPEN_TRACE, 'blink', 'cc', 'gpu', 'viz'];

/** Starts a CPU profile of the page and a trace beside it (FILE.trace.json). */
async function startProfile(
  browser: Browser,
  page: Page,
  cdp: CDPSession,
  profileTo: string,
  categories: string[]
): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await browser.startTracing(page, {
    path: profileTo.replace(/\.cpuprofile$/, '.trace.json'),
    categories
  });
}

/** Ends what startProfile began and writes the CPU profile to `profileTo`. */
async function stopProfile(
  browser: Browser,
  cdp: CDPSession,
  profileTo: string
): Promise<void> {
  await browser.stopTracing();
  const { profile } = await cdp.send('Profiler.stop');
  await writeFile(profileTo, JSON.stringify(profile));
}

/** The page's main thread and process CPU time so far, in ms. */
async function cpuTimes(
  cdp: CDPSession
): Promise<{ thread: number; process: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const of = (name: string) =>
    (metrics.find(m => m.name === name)?.value ?? Number.NaN) * 1000;
  return { thread: of('ThreadTime'), process: of('ProcessTime') };
}

/** Scrolls the notebook top to bottom a half screen a frame, as a fast wheel would. */
async function scrollThrough(page: Page): Promise<Scrolled> {
  return page.evaluate(async () => {
    const scroller =
      document.querySelector<HTMLElement>(
        '.jp-NotebookPanel .jp-WindowedPanel-outer'
      ) ??
      document.querySelector<HTMLElement>('.jp-NotebookPanel .jp-Notebook');
    if (!scroller) {
      return { fps: Number.NaN, worstFrameMs: Number.NaN };
    }
    scroller.scrollTop = 0;
    const frames: number[] = [];
    await new Promise<void>(done => {
      const step = (time: number): void => {
        frames.push(time);
        const bottom = scroller.scrollHeight - scroller.clientHeight;
        if (scroller.scrollTop >= bottom - 1) {
          done();
          return;
        }
        scroller.scrollTop = Math.min(
          bottom,
          scroller.scrollTop + scroller.clientHeight / 2
        );
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    const gaps = frames.slice(1).map((time, i) => time - (frames[i] ?? time));
    const elapsed = (frames.at(-1) ?? 0) - (frames[0] ?? 0);
    return {
      fps: (gaps.length * 1000) / Math.max(elapsed, 1),
      worstFrameMs: Math.max(0, ...gaps),
      frames: gaps.length
    };
  });
}

async function measureOnce(
  browser: Browser,
  lab: RunningLab,
  name: string,
  profileTo?: string,
  snapshotTo?: string
): Promise<{ opened: Opened; scrolled: Scrolled }> {
  const { opened, page, cdp, close } = await openOnce(
    browser,
    lab,
    name,
    profileTo?.replace(/\.cpuprofile$/, '.open.cpuprofile')
  );
  if (snapshotTo) {
    await writeFile(snapshotTo, await takeHeapSnapshot(cdp));
  }
  if (profileTo) {
    await startProfile(browser, page, cdp, profileTo, SCROLL_TRACE);
  }
  const before = await cpuTimes(cdp);
  const scroll = await scrollThrough(page);
  const after = await cpuTimes(cdp);
  const frames = scroll.frames ?? 1;
  const spent = {
    cpuMsPerFrame: (after.thread - before.thread) / frames,
    processMsPerFrame: (after.process - before.process) / frames
  };
  if (profileTo) {
    await stopProfile(browser, cdp, profileTo);
  }
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  await close();
  return {
    opened,
    scrolled: { ...scroll, ...spent, heapMb: heap.usedSize / 2 ** 20 }
  };
}

/**
 * One more open of a notebook, traced: the style recalculations searchbook's own script forces
 * while its outputs are drawn (a theme read per grid would show as one per output).
 */
async function forcedStylesOnOpen(
  browser: Browser,
  lab: RunningLab,
  name: string,
  tracePath: string
) {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 }
  });
  try {
    const page = await context.newPage();
    let grids = 0;
    const forced = await countForcedStyles(
      browser,
      page,
      tracePath,
      '/lab/extensions/searchbook/',
      async () => {
        await page.goto(lab.open(name));
        await page.waitForSelector(
          '.jp-Notebook .jp-CodeCell .jp-OutputArea-output',
          { timeout: 300_000 }
        );
        await untilQuiet(page);
        grids = await page.evaluate(
          () => document.querySelectorAll('.searchbook-GridView').length
        );
      }
    );
    return { ...forced, grids };
  } finally {
    await context.close();
  }
}

/**
 * Bytes of each searchbook answer's payload: `json`, with the answer as its own JSON text (as
 * the notebook kept every answer before large ones were compressed), and `saved`, as the
 * notebook keeps it now (compressed past 64 KiB).
 */
async function answerBytes(
  path: string
): Promise<{ json: number; saved: number }[]> {
  const notebook = JSON.parse(await readFile(path, 'utf8')) as {
    cells: { outputs?: { data?: Record<string, unknown> }[] }[];
  };
  return notebook.cells.flatMap(cell =>
    (cell.outputs ?? []).flatMap(output => {
      const payload = output.data?.[HITS_MIME];
      if (payload === undefined) {
        return [];
      }
      const read = HitsPayloadSchema.parse(payload);
      const plain = {
        ...read,
        answer: swappedAnswerText(read),
        answerFormat: ANSWER_FORMAT
      };
      return [
        {
          json: JSON.stringify(plain).length,
          saved: JSON.stringify(payload).length
        }
      ];
    })
  );
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: PASSWORD,
    tsApiKey: 'bench-ts',
    security: true,
    products: hits
  });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-bench-open-'));
  // The same answer for the Python notebooks, as the engine gave it.
  const response = await fetch(`${sandbox.esUrl}/products/_search`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`elastic:${PASSWORD}`).toString('base64')}`
    },
    body: search
  });
  await writeFile(join(root, 'answer.json'), await response.text());
  const cells = Array.from(
    { length: answers },
    () => `GET /products/_search\n${search}`
  );
  const connect = `%connect elasticsearch ${sandbox.esUrl} auth=basic user=elastic password=\${env:ES_PASSWORD} name=bench`;
  await writeNotebook(root, 'searchbook.ipynb', [connect, ...cells]);
  await writeNotebook(root, 'empty.ipynb', [connect, ...cells]);
  const load = "import json\nanswer = json.load(open('answer.json'))";
  await writeNotebook(
    root,
    'dataframe.ipynb',
    [
      `${load}\nimport pandas as pd`,
      ...Array.from(
        { length: answers },
        () =>
          "pd.DataFrame([{'_id': h['_id'], **h['_source']} for h in answer['hits']['hits']])"
      )
    ],
    PYTHON
  );
  await writeNotebook(
    root,
    'json.ipynb',
    [
      `${load}\nfrom IPython.display import JSON`,
      ...Array.from({ length: answers }, () => 'JSON(answer)')
    ],
    PYTHON
  );
  const lab = await startJupyterLab({
    root,
    env: { ES_PASSWORD: PASSWORD, SEARCHBOOK_MAX_ROWS: String(hits) }
  });
  const other = against
    ? await startJupyterLab({
        root,
        dataDir: against,
        env: { ES_PASSWORD: PASSWORD, SEARCHBOOK_MAX_ROWS: String(hits) }
      })
    : undefined;
  const browser = await launchChromium();
  try {
    const writer = await (await browser.newContext()).newPage();
    const written = ['searchbook', 'dataframe', 'json'].filter(
      name => only === undefined || only.split(',').includes(name)
    );
    for (const name of written.map(n => `${n}.ipynb`)) {
      await runAndSave(writer, lab, name);
    }
    await writer.context().close();
    const notebooks = ['empty', ...written];
    const labs: [string, RunningLab][] = [['', lab]];
    if (other) {
      labs.push(['against:', other]);
    }
    const names = labs.flatMap(([tag]) => notebooks.map(n => `${tag}${n}`));
    const results = new Map<string, Measured>(
      names.map(name => [name, { opens: [], scrolls: [], fileMb: 0 }])
    );
    // Run by run, each build and notebook in turn: a load that changes over the minutes of a
    // run falls on all of them alike.
    for (let run = 0; run < runs; run++) {
      for (const name of notebooks) {
        for (const [tag, at] of labs) {
          const { opened, scrolled } = await measureOnce(
            browser,
            at,
            `${name}.ipynb`,
            profile && run === 0 && name !== 'json'
              ? `${profile}.${tag ? 'against' : 'this'}${name === 'searchbook' ? '' : `.${name}`}.cpuprofile`
              : undefined,
            snapshot && run === 0 && name === 'searchbook'
              ? `${snapshot}.${tag ? 'against' : 'this'}.heapsnapshot`
              : undefined
          );
          const m = results.get(`${tag}${name}`);
          m?.opens.push(opened);
          m?.scrolls.push(scrolled);
        }
      }
    }
    for (const [tag] of labs) {
      for (const name of notebooks) {
        const m = results.get(`${tag}${name}`);
        if (m) {
          m.fileMb =
            (await readFile(join(root, `${name}.ipynb`))).length / 2 ** 20;
        }
      }
    }
    const open = (name: string) =>
      median((results.get(name)?.opens ?? []).map(o => o.ms));
    const cpu = (name: string) =>
      median((results.get(name)?.opens ?? []).map(o => o.cpuMs));
    const heap = (name: string) =>
      median((results.get(name)?.opens ?? []).map(o => o.heapMb));
    const past = (name: string) =>
      open(name) -
      open(name.startsWith('against:') ? 'against:empty' : 'empty');
    console.log(
      `notebook-open: ${answers} answers of ${hits} hits, median of ${runs} opens in Chromium; load average ${loadavg()
        .map(l => l.toFixed(1))
        .join(' ')}`
    );
    for (const name of names) {
      const m = results.get(name);
      if (!m) {
        continue;
      }
      const longest = Math.max(0, ...m.opens.flatMap(o => o.longTasks));
      const over200 = m.opens[0]?.longTasks.filter(t => t > 200).length ?? 0;
      console.log(
        `  ${name.padEnd(18)} ${m.fileMb.toFixed(1).padStart(5)} MB file  open ${open(name).toFixed(0).padStart(6)} ms (runs ${m.opens.map(o => o.ms.toFixed(0)).join(', ')})` +
          `  past empty ${past(name).toFixed(0).padStart(6)} ms  heap ${heap(name).toFixed(1).padStart(6)} MB` +
          `  long tasks (first open) ${m.opens[0]?.longTasks.length ?? 0}, ${over200} over 200 ms, longest ${longest.toFixed(0)} ms` +
          `  CPU to open ${cpu(name).toFixed(0)} ms, past empty ${(cpu(name) - cpu(name.startsWith('against:') ? 'against:empty' : 'empty')).toFixed(0)} ms (runs ${m.opens.map(o => o.cpuMs.toFixed(0)).join(', ')})` +
          `  scroll CPU a frame ${median(m.scrolls.map(s => s.cpuMsPerFrame ?? Number.NaN)).toFixed(1)} ms main thread, ${median(m.scrolls.map(s => s.processMsPerFrame ?? Number.NaN)).toFixed(1)} ms page process (runs ${m.scrolls.map(s => (s.cpuMsPerFrame ?? Number.NaN).toFixed(1)).join(', ')})` +
          `  scroll ${median(m.scrolls.map(s => s.fps)).toFixed(0)} fps (runs ${m.scrolls.map(s => s.fps.toFixed(0)).join(', ')}; worst frame ${Math.max(...m.scrolls.map(s => s.worstFrameMs)).toFixed(0)} ms, heap after ${median(m.scrolls.map(s => s.heapMb ?? Number.NaN)).toFixed(1)} MB)`
      );
    }
    if (results.has('dataframe')) {
      const ratio = past('searchbook') / past('dataframe');
      console.log(
        `  searchbook/DataFrame time past empty: x${ratio.toFixed(2)} (goal <= 1.5)`
      );
      if (other) {
        const theirs = past('against:searchbook') / past('against:dataframe');
        console.log(
          `  the other build's searchbook/DataFrame time past empty: x${theirs.toFixed(2)}`
        );
      }
    }
    console.log(
      `  searchbook page heap: ${heap('searchbook').toFixed(1)} MB (goal <= 100 MB)`
    );
    for (const [tag, at] of labs) {
      for (let open = 0; open < traced; open++) {
        const forced = await forcedStylesOnOpen(
          browser,
          at,
          'searchbook.ipynb',
          join(root, 'forced-styles.trace.json')
        );
        console.log(
          `  ${tag}style recalculations forced by script while opening searchbook (${forced.grids} grids built): ${forced.own} by searchbook's code (${forced.ownMs.toFixed(1)} ms), ${forced.all} in all` +
            ` (goal: one per theme, not one per grid)${[...forced.ownBy].map(([by, n]) => `; ${n}x ${by}`).join('')}`
        );
      }
    }
    const bytes = await answerBytes(join(root, 'searchbook.ipynb'));
    const perAnswer =
      ((heap('searchbook') - heap('empty')) * 2 ** 20) / bytes.length;
    const mean = (of: (b: { json: number; saved: number }) => number) =>
      bytes.reduce((sum, b) => sum + of(b), 0) / bytes.length;
    const meanBytes = mean(b => b.json);
    console.log(
      `  searchbook heap per answer ${(perAnswer / 1024).toFixed(0)} KB vs its ${(meanBytes / 1024).toFixed(0)} KB of JSON (the answer uncompressed): x${(perAnswer / meanBytes).toFixed(2)} (goal <= 1.5);` +
        ` saved in the notebook (compressed): ${(mean(b => b.saved) / 1024).toFixed(0)} KB a payload`
    );
  } finally {
    await browser.close();
    await lab.close();
    await other?.close();
    await sandbox.close();
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
