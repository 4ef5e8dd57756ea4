/**
 * What an export says while it runs and when it ends, as text/plain and escaped text/html, so
 * the progress reads the same in JupyterLab, in nbconvert and on GitHub.
 */
import { basename, dirname, join } from 'node:path';
import type { MimeBundle } from '../render/bundle';
import { escapeHtmlText } from '../render/text-table';
import type {
  ExportProgress,
  ExportStopped,
  ExportSummary
} from './export-file';

const count = (n: number) => n.toLocaleString('en-US');

function size(bytes: number): string {
  const unit =
    bytes >= 1 << 30
      ? ['GB', 1 << 30]
      : bytes >= 1 << 20
        ? ['MB', 1 << 20]
        : bytes >= 1 << 10
          ? ['KB', 1 << 10]
          : undefined;
  return unit
    ? `${count(bytes)} bytes, ${(bytes / (unit[1] as number)).toFixed(1)} ${unit[0]}`
    : `${count(bytes)} bytes`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function rate(p: ExportProgress): number {
  return p.elapsedMs > 0 ? Math.round((p.documents * 1000) / p.elapsedMs) : 0;
}

function ofTotal(p: ExportProgress): string {
  return p.total === undefined
    ? count(p.documents)
    : `${count(p.documents)} of ${count(p.total)}`;
}

export function progressText(
  target: string,
  file: string,
  p: ExportProgress
): string {
  const docsPerSecond = rate(p);
  const percent = p.total
    ? ` (${Math.min(100, Math.floor((p.documents * 100) / p.total))}%)`
    : '';
  const left =
    p.total !== undefined && docsPerSecond > 0
      ? `, about ${Math.max(0, Math.ceil((p.total - p.documents) / docsPerSecond))} s left`
      : '';
  return `Exporting ${target} to ${file}: ${ofTotal(p)} documents${percent}, ${count(docsPerSecond)} docs/s${left}`;
}

export function summaryText(
  target: string,
  file: string,
  s: ExportSummary
): string {
  const leftOut =
    s.leftOutColumns.length > 0
      ? ` Fields first seen after the CSV header was written are not in it: ${s.leftOutColumns.slice(0, 20).join(', ')}${s.leftOutColumns.length > 20 ? ', ...' : ''}; name them with fields= to keep them.`
      : '';
  const notes = s.notes.map(note => ` ${note}`).join('');
  return `Exported ${count(s.documents)} documents of ${target} (${size(s.bytes)}) to ${file} in ${seconds(s.elapsedMs)} (${count(rate(s))} docs/s).${leftOut}${notes}`;
}

export function stoppedText(
  target: string,
  file: string,
  e: ExportStopped
): string {
  const why =
    e.stop === 'interrupted'
      ? 'was interrupted'
      : e.stop === 'write'
        ? `could not write the file (${e.reason})`
        : `stopped on an engine error (${e.reason})`;
  // The temporary file is named as the file was written (relative names stay relative).
  const partial = join(dirname(file), basename(e.partial));
  // A write step that keeps the file failed after the last page (the rename, or a name that is no longer a regular file): it is all there.
  const held =
    e.stop === 'write'
      ? 'the complete export is'
      : 'the documents read so far are';
  const kept = e.kept ? `${held} in ${partial}` : `${partial} was removed`;
  return `The export of ${target} ${why} after ${ofTotal(e.progress)} documents (${size(e.progress.bytes)}) in ${seconds(e.progress.elapsedMs)}: ${file} was not written; ${kept}.`;
}

export function progressBundle(
  text: string,
  p: ExportProgress | undefined
): MimeBundle {
  const bar = p?.total
    ? `<progress max="${p.total}" value="${Math.min(p.documents, p.total)}"></progress> `
    : '';
  return {
    'text/plain': text,
    'text/html': `<div class="searchbook-export">${bar}<span>${escapeHtmlText(text)}</span></div>`
  };
}
