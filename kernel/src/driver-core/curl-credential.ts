/**
 * How a curl command authenticates as a connection: by the environment variables its secrets
 * were read from, so a copied command holds no secret and runs where those variables are set.
 */
import type { SecretOrigin } from './connect-options';

export interface CurlCredential {
  /** curl arguments naming environment variables (`-u "elastic:$ES_PASSWORD"`), never a secret. */
  args: string[];
  /** Said in a comment line above the command: what a placeholder variable stands for. */
  note?: string;
  /** The same credential for copied code (Copy as Python): the user in clear, each secret by its variable's name. */
  variables?: CredentialVariables;
}

/** A credential as names of environment variables, for code that reads them itself. */
export type CredentialVariables =
  | { kind: 'basic'; user: string; password?: string }
  | { kind: 'key'; key: string };

/**
 * The variable a curl command names for a secret: the one `${env:NAME}` read it from, else
 * `placeholder`, with a note saying what it stands for (a secret from the OS keyring or the
 * password prompt has no variable of its own).
 */
export function secretVariable(
  origin: SecretOrigin | undefined,
  placeholder: string,
  what: string
): { name: string; note?: string } {
  if (typeof origin === 'object') {
    return { name: origin.env };
  }
  if (origin === undefined) {
    return { name: placeholder };
  }
  const from =
    origin === 'keyring'
      ? 'the OS keyring'
      : 'the password prompt when connecting';
  return {
    name: placeholder,
    note: `$${placeholder} stands for ${what}, which this connection took from ${from}: set ${placeholder} before running this.`
  };
}

/** Text inside a double-quoted shell word, kept literal (a user name). */
export function inDoubleQuotes(text: string): string {
  return text.replace(/["$`\\]/g, c => `\\${c}`);
}
