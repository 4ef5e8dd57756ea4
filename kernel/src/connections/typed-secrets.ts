/**
 * Secrets typed into `%connect` lines, found and removed from a cell's text. Shared by the
 * kernel (which refuses them) and the extension's command that removes them from the cell, so
 * both agree on what a typed secret is. Pure string code: it runs in the browser too.
 */

/** `password=...` / `key=...` with a value that is not `${env:NAME}`. */
const TYPED_OPTION = /(^|\s)(password|key)=(?!\$\{env:[A-Za-z_][A-Za-z0-9_]*\}(\s|$))\S*/g;
/** `scheme://user:password@`, the password part. */
const ADDRESS_PASSWORD = /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/g;

const isConnectLine = (line: string): boolean => /^\s*%connect\s/.test(line);

/**
 * The cell without the secrets typed into its `%connect` lines: the options are dropped (the
 * kernel then asks for the secret when the cell runs) and a password leaves the address.
 */
export function withoutTypedSecrets(cell: string): string {
  return cell
    .split('\n')
    .map((line) => (isConnectLine(line) ? line.replace(TYPED_OPTION, '').replace(ADDRESS_PASSWORD, '$1@') : line))
    .join('\n');
}
