// Checks the import rules of docs/architecture.md (written in .dependency-cruiser.cjs): no
// cycle, no import running up the layers, the extension reaching outside itself only through
// '@searchbook/contracts/...', the sandbox package and the product never importing each other.
// Exits 1 and lists each offending import when one is found.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, format } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/**
 * The alias the extension imports contracts by, read from extension/tsconfig.json's `paths` so
 * that tsc, webpack, jest and this check map the same name to the same folder.
 */
function aliasesOfTsconfig(file) {
  const ts = require('typescript');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) {
    throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  }
  const alias = {};
  for (const [name, targets] of Object.entries(
    config.compilerOptions?.paths ?? {}
  )) {
    alias[name.replace(/\/\*$/, '')] = path.resolve(
      path.dirname(file),
      targets[0].replace(/\/\*$/, '')
    );
  }
  return alias;
}

/** A folder or file as docs/architecture.md writes it, as the regular expression the config uses. */
function pattern(written) {
  const escaped = written.replace(/\./g, '\\.').replace(/<name>|\*/g, '[^/]+');
  return written.endsWith('/') ? `^${escaped}` : `^${escaped}$`;
}

/**
 * The layer rows of docs/architecture.md's table, bottom first, each as its patterns (the
 * extension's row aside: its rule is a rule of its own).
 */
function layersOfDoc() {
  const doc = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  // Only the table of the "Layers" section: the page's other tables map other things.
  const layers =
    doc.split(/^## /m).find(section => section.startsWith('Layers')) ?? '';
  const rows = layers.split('\n').filter(line => line.startsWith('| `'));
  return rows
    .map(row =>
      [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map(match =>
        pattern(match[1])
      )
    )
    .filter(paths => !paths.includes('^extension/src/'));
}

/** The same rows as the config's upward rules name them: each rule's `from`, and the top row. */
function layersOfConfig(forbidden) {
  const upward = forbidden.filter(rule => rule.name.startsWith('layers: '));
  return [
    ...upward.map(rule => rule.from.path),
    upward
      .at(-1)
      .to.path.filter(p => !upward.some(rule => rule.from.path.includes(p)))
  ];
}

const { options, ...ruleSet } = require('../.dependency-cruiser.cjs');
const written = JSON.stringify(layersOfDoc().map(paths => [...paths].sort()));
const configured = JSON.stringify(
  layersOfConfig(ruleSet.forbidden).map(paths => [...paths].sort())
);
if (written !== configured) {
  process.stdout.write(
    `The layers of docs/architecture.md and .dependency-cruiser.cjs differ: change both together.\n  docs:   ${written}\n  config: ${configured}\n`
  );
  process.exit(1);
}

const { enhancedResolveOptions, ...cruiseOptions } = options;
const result = await cruise(
  ['contracts', 'kernel/src', 'extension/src', 'sandbox/src'],
  { ...cruiseOptions, validate: true, ruleSet },
  {
    ...enhancedResolveOptions,
    alias: aliasesOfTsconfig(path.join(root, 'extension', 'tsconfig.json'))
  }
);
const report = await format(result.output, { outputType: 'err' });
process.stdout.write(report.output);
process.exitCode = report.exitCode === 0 ? 0 : 1;
