/**
 * The README and the guide in docs/ as a reader meets them: a short README with its pictures
 * first, every topic the former long README covered still found in the guide, prose lines a
 * reader can follow, links and pictures that lead somewhere, and a changelog in Keep a
 * Changelog's form whose version comes from package.json alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { REPO } from '../support/kernel-client';
import {
  guideFiles,
  headings,
  links,
  proseLines,
  read,
  shortName,
  slug
} from './markdown';
import { scratchDir } from '../support/scratch-dir';

/**
 * The headings of the README before it became a short introduction (frozen here): each topic
 * moved into a page of the guide, and must stay findable there by its name.
 */
const FORMER_README_HEADINGS = [
  'searchbook',
  'Writing cells',
  'Answers',
  'Large, slow, odd and hostile answers',
  'In JupyterLab',
  'The searchbook side panel',
  'Keyboard, commands and settings',
  'Columns',
  "Filtering, sorting and the grid's request as a cell",
  'Editing',
  'Editing: what Save sends',
  'Keys, server dashboard and cluster overview',
  'Exporting an index or collection',
  'Python notebooks',
  'Connecting to a real cluster',
  'What differs among engines and versions',
  'Saved connections (profiles)',
  'The sandbox engines',
  'How close the Elasticsearch stand-in is',
  'A real Elasticsearch node for your own experiments',
  'Installing into your own Jupyter',
  'From a clone, without pip',
  'Development'
];

const README = join(REPO, 'README.md');
const DOCS = join(REPO, 'docs');
const MOST_PROSE_CHARS = 120;
/** A picture in the repository stays this small (a palette PNG of a screen is far less). */
const MOST_PICTURE_BYTES = 300_000;

const docsPages = () => guideFiles().filter(f => f.startsWith(DOCS));

describe('the README', () => {
  const text = read(README);
  const lines = text.split('\n');

  it('is at most 200 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(200);
  });

  it('shows at least two pictures before its first section, each a PNG in the repository', () => {
    const top = lines.slice(
      0,
      lines.findIndex(l => l.startsWith('## '))
    );
    const pictures = top.flatMap(l =>
      [...l.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map(m => m[1] as string)
    );
    expect(pictures.length).toBeGreaterThanOrEqual(2);
    for (const picture of pictures) {
      expect(picture).toMatch(/^docs\/images\/.+\.png$/);
      expect(existsSync(join(REPO, picture))).toBe(true);
    }
  });

  it('gives the pip command under the distribution name, and the two clone commands CI and newcomers run', () => {
    expect(text).toContain('pip install jupyterlab-searchbook');
    expect(text).toMatch(/^npm start\b/m);
    expect(text).toMatch(/^npm test\b/m);
    expect(read(join(REPO, '.ci', 'run'))).toMatch(/^npm test$/m);
  });
});

describe('the guide', () => {
  it.each(FORMER_README_HEADINGS)(
    'has a heading for the former README topic "%s"',
    topic => {
      const all = docsPages().flatMap(page => headings(read(page)));
      expect(all.some(h => h.toLowerCase().includes(topic.toLowerCase()))).toBe(
        true
      );
    }
  );

  it('has no prose line over 120 characters outside tables and code (a link target counts as one character)', () => {
    const long = guideFiles().flatMap(file =>
      proseLines(read(file))
        .filter(l => !l.text.trimStart().startsWith('|'))
        .map(l => ({ ...l, shown: l.text.replace(/\]\([^)\s]+\)/g, ']()') }))
        .filter(l => l.shown.length > MOST_PROSE_CHARS)
        .map(l => `${shortName(file)}:${l.line} (${l.shown.length})`)
    );
    expect(long).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of guideFiles()) {
      for (const { line, target } of links(read(file))) {
        if (/^[a-z]+:/i.test(target)) {
          continue;
        }
        const [path, anchor] = target.split('#') as [
          string,
          string | undefined
        ];
        const to = path === '' ? file : resolve(dirname(file), decodeURI(path));
        const where = `${shortName(file)}:${line} → ${target}`;
        if (!existsSync(to)) {
          broken.push(`${where} (no such file)`);
        } else if (anchor !== undefined) {
          if (
            !to.endsWith('.md') ||
            !headings(read(to)).map(slug).includes(anchor)
          ) {
            broken.push(`${where} (no such heading)`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('reaches every page from its index, and shows every picture in docs/images somewhere', () => {
    const index = read(join(DOCS, 'index.md'));
    for (const page of docsPages()) {
      const name = page.slice(DOCS.length + 1).replace(/\.md$/, '');
      if (name !== 'index') {
        expect(index).toMatch(new RegExp(`^${name}$`, 'm'));
      }
    }
    const shown = guideFiles().flatMap(f => links(read(f)).map(l => l.target));
    for (const picture of readdirSync(join(DOCS, 'images'))) {
      expect(shown.some(target => target.endsWith(`images/${picture}`))).toBe(
        true
      );
      expect(statSync(join(DOCS, 'images', picture)).size).toBeLessThanOrEqual(
        MOST_PICTURE_BYTES
      );
    }
  });
});

describe('the changelog', () => {
  const text = read(join(REPO, 'CHANGELOG.md'));
  const version = (
    JSON.parse(read(join(REPO, 'package.json'))) as { version: string }
  ).version;

  it('keeps Keep a Changelog’s form: Unreleased first, versions dated, changes under the six kinds', () => {
    const sections = headings(text);
    expect(sections[0]).toBe('Changelog');
    expect(sections[1]).toBe('[Unreleased]');
    for (const heading of sections.slice(2)) {
      expect(heading).toMatch(
        /^(\[\d+\.\d+\.\d+(-[\w.]+)?\] - \d{4}-\d{2}-\d{2}|Added|Changed|Deprecated|Removed|Fixed|Security)$/
      );
    }
  });

  it('names no version newer than package.json’s, the one place the version is written', () => {
    const released = [...text.matchAll(/^## \[(\d+)\.(\d+)\.(\d+)/gm)].map(m =>
      [1, 2, 3].map(i => Number(m[i]))
    );
    const current = version.split('.').map(Number);
    for (const v of released) {
      const newer = v.findIndex((part, i) => part !== current[i]);
      expect(
        newer === -1 || (v[newer] as number) < (current[newer] as number)
      ).toBe(true);
    }
  });

  it('npm version turns Unreleased into the new version’s section, dated, under a fresh Unreleased', () => {
    const copy = join(scratchDir('searchbook-changelog-'), 'CHANGELOG.md');
    writeFileSync(copy, text);
    execFileSync(
      process.execPath,
      [join(REPO, 'scripts', 'changelog-release.mjs')],
      {
        env: {
          ...process.env,
          SEARCHBOOK_CHANGELOG: copy,
          npm_package_version: '99.1.0'
        },
        stdio: 'pipe'
      }
    );
    const released = read(copy);
    const today = new Date().toISOString().slice(0, 10);
    expect(released).toContain(
      `## [Unreleased]\n\n## [99.1.0] - ${today}\n\n### Added`
    );
    expect(() =>
      execFileSync(
        process.execPath,
        [join(REPO, 'scripts', 'changelog-release.mjs')],
        {
          env: {
            ...process.env,
            SEARCHBOOK_CHANGELOG: copy,
            npm_package_version: '99.1.0'
          },
          stdio: 'pipe'
        }
      )
    ).toThrow();
  });
});
