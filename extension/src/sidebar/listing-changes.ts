/**
 * Whether a cell may change what the sidebar lists (connections, indices or collections and
 * their counts, saved profiles). Magics may (`%connect`, `%use`, `--save`), and so may any
 * request whose method is not safe in HTTP's sense (GET and HEAD only read: RFC 9110, 9.2.1).
 * Searches, the cells run most, then cost the engines no listing. Lines are read the way the
 * kernel reads them: leading blanks ignored, methods in any case; comment lines never match.
 */
const MAGIC = /^%/;
const WRITING_METHOD = /^(?:POST|PUT|PATCH|DELETE)(?=\s|$)/i;

export function mayChangeListing(code: string): boolean {
  return code.split(/\r?\n/).some(raw => {
    const line = raw.trimStart();
    return MAGIC.test(line) || WRITING_METHOD.test(line);
  });
}
