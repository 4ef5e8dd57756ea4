import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO } from '../support/kernel-client';

/** The Markdown a reader meets: the README, the changelog and every page of the guide in docs/. */
export function guideFiles(): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('_')) {
        walk(path);
      } else if (entry.name.endsWith('.md')) {
        pages.push(path);
      }
    }
  };
  walk(join(REPO, 'docs'));
  return [join(REPO, 'README.md'), join(REPO, 'CHANGELOG.md'), ...pages.sort()];
}

export const shortName = (path: string): string => relative(REPO, path);

export const read = (path: string): string =>
  readFileSync(path, 'utf8').replace(/\r\n/g, '\n');

export interface FencedBlock {
  /** The info string after the opening fence (`searchbook`, `text`, ...). */
  info: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced code blocks of a page, in order. */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const open = /^(`{3,})(.*)$/.exec(lines[n] ?? '');
    if (!open) {
      continue;
    }
    const fence = open[1] as string;
    const body: string[] = [];
    let end = n + 1;
    while (end < lines.length && !(lines[end] ?? '').startsWith(fence)) {
      body.push(lines[end] as string);
      end++;
    }
    blocks.push({
      info: (open[2] ?? '').trim(),
      body: body.join('\n'),
      line: n + 1
    });
    n = end;
  }
  return blocks;
}

/** Each line outside fenced code, with its 1-based number. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, n) => {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || line.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) {
      out.push({ line: n + 1, text: line });
    }
  });
  return out;
}

/** The headings of a page (outside code), without their `#` marks. */
export const headings = (text: string): string[] =>
  proseLines(text)
    .map(l => /^#{1,6} (.*)$/.exec(l.text)?.[1])
    .filter((h): h is string => h !== undefined);

/** The anchor GitHub (and MyST's heading anchors) give a heading. */
export const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');

/** Links and images `[text](target)` in prose, with their line. */
export function links(text: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    // Inline code holds no links.
    const plain = prose.replace(/`[^`]*`/g, '');
    for (const m of plain.matchAll(/\]\(([^)\s]+)\)/g)) {
      found.push({ line, target: m[1] as string });
    }
  }
  return found;
}
