/**
 * The engine keeps a document as the JSON it was sent (nlohmann::json), where `29.0` is a
 * double and `29` an integer: a float field written `29.0` reads back as `29.0`. JavaScript
 * numbers cannot tell the two apart, so a document carries, under a symbol (which object spread
 * copies and JSON ignores), the names of its top-level fields written as whole numbers with a
 * fraction; sortedJson writes those with their `.0`.
 */
/** A document as parsed; json.ts names the same shape JsonObject (it reads these marks, so it cannot be imported here). */
type JsonObject = Record<string, unknown>;

export const WHOLE_DOUBLES: unique symbol = Symbol('whole doubles');

type Marked = JsonObject & { [WHOLE_DOUBLES]?: ReadonlySet<string> };

/** `"name": 29.0` anywhere in the text; the names are checked against the top level by the caller. */
const WHOLE_LITERAL =
  /"((?:[^"\\]|\\.)*)"\s*:\s*-?\d+\.0+(?:[eE][+-]?\d+)?(?=\s*[,}])/g;

/** Marks the fields of `doc` (parsed from `text`) that the text wrote as whole numbers with a fraction. */
export function markWholeDoubles(doc: JsonObject, text: string): void {
  const names = new Set<string>();
  for (const m of text.matchAll(WHOLE_LITERAL)) {
    const name = JSON.parse(`"${m[1] ?? ''}"`) as string;
    const value = doc[name];
    if (typeof value === 'number' && Number.isInteger(value)) {
      names.add(name);
    }
  }
  setMarks(doc, names);
}

export function wholeDoubles(doc: JsonObject): ReadonlySet<string> {
  return (doc as Marked)[WHOLE_DOUBLES] ?? EMPTY;
}

const EMPTY: ReadonlySet<string> = new Set();

export function setMarks(doc: JsonObject, names: ReadonlySet<string>): void {
  if (names.size === 0) {
    delete (doc as Marked)[WHOLE_DOUBLES];
    return;
  }
  Object.defineProperty(doc, WHOLE_DOUBLES, {
    value: names,
    enumerable: true,
    configurable: true,
    writable: true
  });
}

/** Carries the marks of `from` over to a copy that kept some of its fields. */
export function keepMarks(from: JsonObject, to: JsonObject): JsonObject {
  const names = wholeDoubles(from);
  if (names.size > 0) {
    setMarks(to, new Set([...names].filter(n => Object.hasOwn(to, n))));
  }
  return to;
}
