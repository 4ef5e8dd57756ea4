/**
 * Splits a cell into its items (request with body extent, magic, stray body text) without
 * judging them, so parsing, is-complete and completion agree on where each item starts and ends.
 */
import {
  isCommentAt,
  scanBlock,
  skipBlanks,
  type BlockScan
} from './block-scan';

interface SegmentBase {
  /** 1-based line of the item's first line. */
  line: number;
  /** Offset of the item's first non-blank character. */
  at: number;
  lineEnd: number;
  /** Offset where the next item may start. */
  end: number;
}

export interface RequestSegment extends SegmentBase {
  kind: 'request';
  bodyStart: number;
  body: BlockScan;
}

export interface MagicSegment extends SegmentBase {
  kind: 'magic';
  /** `%set`: the scan of the value after `=` (possibly over several lines). */
  value?: { start: number; scan: BlockScan };
  /** `%export`: the optional body on the following lines, scanned like a request's. */
  body?: { start: number; scan: BlockScan };
}

/** Body-like text with no request line before it. */
export interface StraySegment extends SegmentBase {
  kind: 'stray';
}

export type Segment = RequestSegment | MagicSegment | StraySegment;

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let at = text.indexOf('\n', from);
  while (at !== -1 && at < to) {
    count++;
    at = text.indexOf('\n', at + 1);
  }
  return count;
}

function lineEndOf(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end;
}

export function splitCell(text: string): Segment[] {
  const segments: Segment[] = [];
  let pos = 0;
  let line = 1;
  while (pos < text.length) {
    const first = skipBlanks(text, pos);
    const lineEnd = lineEndOf(text, first);
    const code = text.charCodeAt(first);
    if (first >= text.length || code === 10 || isCommentAt(text, first)) {
      pos = lineEnd + 1;
      line++;
      continue;
    }
    let end: number;
    if (code === 37) {
      const segment: MagicSegment = {
        kind: 'magic',
        line,
        at: first,
        lineEnd,
        end: lineEnd
      };
      const head = /^%set\b[ \t]*[^\s=]*[ \t]*=[ \t]*/i.exec(
        text.slice(first, lineEnd)
      );
      if (head) {
        const start = first + head[0].length;
        const scan = scanBlock(text, start, false, true);
        segment.value = { start, scan };
        segment.end = scan.end;
      } else if (/^%export\b/i.test(text.slice(first, lineEnd))) {
        const start = Math.min(lineEnd + 1, text.length);
        const scan = scanBlock(text, start, true);
        segment.body = { start, scan };
        segment.end = scan.end;
      }
      end = segment.end;
      segments.push(segment);
    } else if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
      const bodyStart = Math.min(lineEnd + 1, text.length);
      const body = scanBlock(text, bodyStart, true);
      end = body.end;
      segments.push({
        kind: 'request',
        line,
        at: first,
        lineEnd,
        end,
        bodyStart,
        body
      });
    } else {
      const scan = scanBlock(text, first, false);
      end = scan.end;
      segments.push({ kind: 'stray', line, at: first, lineEnd, end });
    }
    line += countNewlines(text, first, end);
    if (end < text.length && text.charCodeAt(end - 1) !== 10) {
      // The block stopped mid-line only at the text end; otherwise it stops at a line start.
      end = lineEndOf(text, end) + 1;
      line++;
    }
    pos = end;
  }
  return segments;
}
