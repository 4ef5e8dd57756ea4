// Run by `npm version <new version>` (package.json's "version" script): the Unreleased section of
// CHANGELOG.md becomes the new version's, dated today, under a fresh empty Unreleased. package.json
// stays the one place the version is written; the changelog takes it from there.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.env.SEARCHBOOK_CHANGELOG ?? join(root, 'CHANGELOG.md');
const version =
  process.env.npm_package_version ??
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const today = new Date().toISOString().slice(0, 10);

const text = readFileSync(file, 'utf8');
if (text.includes(`## [${version}]`)) {
  console.error(`CHANGELOG.md already has a section for ${version}`);
  process.exit(1);
}
const unreleased = '## [Unreleased]\n';
if (!text.includes(unreleased)) {
  console.error('CHANGELOG.md has no "## [Unreleased]" section to release');
  process.exit(1);
}
writeFileSync(
  file,
  text.replace(unreleased, `${unreleased}\n## [${version}] - ${today}\n`)
);
console.log(`CHANGELOG.md: Unreleased is now ${version} (${today})`);
