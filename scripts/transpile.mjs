// Turns the TypeScript sources into the JavaScript that runs: the kernel, tests and benchmarks
// into dist/ (CommonJS, for Node) and the extension into lib/ (ES modules, for JupyterLab's
// bundler). swc strips the types file by file, in a second or two where tsc took a minute;
// type checking is tsc's job and stays in `npm test` and `npm run typecheck`. Each file is
// transpiled on its own, which `isolatedModules` in the tsconfigs guarantees is safe.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Node 20 runs ES2022 as written, class fields with their standard semantics as tsc emits
// them for this target.
const forNode = {
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript' },
    transform: { useDefineForClassFields: true }
  }
};

// What each output holds mirrors the tsconfig that type-checks it (tsconfig.json and
// tsconfig.browser.json for dist/ and sandbox/dist/, extension/tsconfig.json for lib/). Files
// land under outDir at their path below `base` (the repository root unless named).
const outputs = [
  {
    outDir: 'dist',
    sources: ['contracts', 'kernel/src', 'test', 'bench', 'packaging'],
    skip: ['test/extension', 'contracts/check'],
    options: forNode
  },
  // The sandbox engines' package, built into its own folder: its bin and its exports
  // (sandbox/package.json) name sandbox/dist/, and the product's build holds none of it.
  {
    outDir: 'sandbox/dist',
    base: 'sandbox/src',
    sources: ['sandbox/src'],
    skip: [],
    options: forNode
  },
  {
    outDir: 'lib',
    sources: ['extension/src', 'contracts'],
    skip: ['contracts/check'],
    // tsc emits ES2021 class fields as assignments in the constructor; Lumino widgets rely on
    // that order (a field declared again in a subclass must not reset what the base set).
    options: {
      module: { type: 'es6' },
      jsc: {
        target: 'es2021',
        parser: { syntax: 'typescript' },
        transform: { useDefineForClassFields: false }
      }
    }
  }
];

async function typescriptFiles(dir, skip) {
  const found = [];
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(
    () => []
  );
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (skip.some(s => path === s || path.startsWith(`${s}/`))) {
      continue;
    }
    if (entry.isDirectory()) {
      found.push(...(await typescriptFiles(path, skip)));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

async function transpile(file, output) {
  const target = join(
    root,
    output.outDir,
    relative(output.base ?? '', file).replace(/\.ts$/, '.js')
  );
  const { code, map } = await transformFile(join(root, file), {
    ...output.options,
    swcrc: false,
    configFile: false,
    sourceMaps: true,
    sourceFileName: relative(dirname(target), join(root, file)),
    filename: file
  });
  await mkdir(dirname(target), { recursive: true });
  const mapName = `${target.split('/').pop()}.map`;
  await writeFile(target, `${code}\n//# sourceMappingURL=${mapName}\n`);
  if (map) {
    await writeFile(`${target}.map`, map);
  }
}

const started = Date.now();
let count = 0;
for (const output of outputs) {
  const files = (
    await Promise.all(output.sources.map(d => typescriptFiles(d, output.skip)))
  ).flat();
  // A few dozen at a time: swc works on its own threads, and this keeps open files bounded.
  for (let i = 0; i < files.length; i += 64) {
    await Promise.all(files.slice(i, i + 64).map(f => transpile(f, output)));
  }
  count += files.length;
}
process.stderr.write(
  `transpiled ${count} files in ${((Date.now() - started) / 1000).toFixed(1)} s\n`
);
