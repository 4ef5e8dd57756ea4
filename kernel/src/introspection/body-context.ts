/**
 * Where the cursor sits inside a JSON body being typed: in a key or a value, in or out of a
 * string, and which key owns the spot. A lenient walk: unfinished JSON is the normal case here.
 */
import { isCommentAt, skipBlanks } from '../console/block-scan';

export interface BodyContext {
  /** The cursor is inside a string; `tokenStart` is the offset after its opening quote. */
  inString: boolean;
  tokenStart: number;
  /** The spot is an object key (typed or about to be typed). */
  isKey: boolean;
  /** For a key: the key that owns the object. For a value: the key the value belongs to. */
  owner?: string;
  /** Values seen so far of `"collection"` keys (Typesense multi_search bodies name their target). */
  lastCollection?: string;
}

interface Frame {
  type: 'object' | 'array';
  owner?: string;
  key?: string;
  expectKey: boolean;
}

function ownerOf(frame: Frame | undefined): string | undefined {
  if (!frame) {
    return undefined;
  }
  return frame.type === 'object' ? frame.key : frame.owner;
}

/** Returns undefined where no completion makes sense (inside a triple-quoted string, say). */
export function bodyContextAt(
  text: string,
  start: number,
  cursor: number
): BodyContext | undefined {
  const stack: Frame[] = [];
  let lastCollection: string | undefined;
  let i = start;
  let lineStart = true;
  while (i < cursor) {
    if (lineStart) {
      lineStart = false;
      const first = skipBlanks(text, i);
      if (first < cursor && isCommentAt(text, first)) {
        const eol = text.indexOf('\n', first);
        if (eol === -1 || eol >= cursor) {
          return undefined;
        }
        i = eol;
        continue;
      }
    }
    const ch = text[i];
    if (ch === '"') {
      if (text.startsWith('""', i + 1)) {
        const close = text.indexOf('"""', i + 3);
        if (close === -1 || close + 3 > cursor) {
          return undefined;
        }
        i = close + 3;
        continue;
      }
      let j = i + 1;
      while (j < cursor && text[j] !== '"' && text[j] !== '\n') {
        j += text[j] === '\\' ? 2 : 1;
      }
      const top = stack[stack.length - 1];
      if (j >= cursor) {
        const isKey = top?.type === 'object' && top.expectKey;
        const owner = isKey ? top?.owner : ownerOf(top);
        return {
          inString: true,
          tokenStart: i + 1,
          isKey,
          owner,
          lastCollection
        };
      }
      const value = text.slice(i + 1, j);
      if (top?.type === 'object' && top.expectKey) {
        top.key = value;
      } else if (top?.type === 'object' && top.key === 'collection') {
        lastCollection = value;
      }
      i = j + 1;
      continue;
    }
    const top = stack[stack.length - 1];
    switch (ch) {
      case '{':
        stack.push({ type: 'object', owner: ownerOf(top), expectKey: true });
        break;
      case '[':
        stack.push({ type: 'array', owner: ownerOf(top), expectKey: false });
        break;
      case '}':
      case ']':
        stack.pop();
        break;
      case ':':
        if (top?.type === 'object') {
          top.expectKey = false;
        }
        break;
      case ',':
        if (top?.type === 'object') {
          top.expectKey = true;
          top.key = undefined;
        }
        break;
      case '\n':
        lineStart = true;
        break;
      default:
        break;
    }
    i++;
  }
  const top = stack[stack.length - 1];
  const isKey = top?.type === 'object' && top.expectKey;
  return {
    inString: false,
    tokenStart: cursor,
    isKey,
    owner: isKey ? top?.owner : ownerOf(top),
    lastCollection
  };
}
