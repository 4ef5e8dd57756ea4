/**
 * Secrets typed into `%connect` lines: one matcher, used by the kernel (which refuses them),
 * by the history it keeps, and by the extension's command that removes them from the cell, so
 * all three agree on what a typed secret is. Browser-safe: it runs in the browser too.
 *
 * `password=` and `key=` are every engine's; an engine may declare kinds of its own
 * (credentials it reads only outside the notebook), which the kernel hands to the browser.
 */
import { z } from 'zod';

/** A kind of credential an engine never takes on a `%connect` line, whatever its value. */
export const TypedSecretKindSchema = z.object({
  /** Its name in payloads and errors: `aws-credential`. */
  option: z.string().regex(/^[a-z][a-z0-9-]*$/),
  /** The option names that carry it, as a regular expression of the whole name, read in any case. */
  names: z.string(),
  /** How messages name it: `AWS credential`. */
  words: z.string(),
  /** What removing it from the cell does, for the remove button's title. */
  removeTitle: z.string()
});
export type TypedSecretKind = z.infer<typeof TypedSecretKindSchema>;

/** The field of the kernel's kernel_info reply that lists the engines' kinds. */
export const KERNEL_INFO_SECRET_KINDS = 'searchbook_typed_secrets';
export const KernelInfoSecretKindsSchema = z.object({
  [KERNEL_INFO_SECRET_KINDS]: z.array(TypedSecretKindSchema).default([])
});

/** `password`, `key`, a password in the address, or an engine's own kind (its `option`). */
export type TypedSecretOption = 'password' | 'key' | 'address' | (string & {});

/** One typed secret: where it is in the text given (`start` to `end`), and which option holds it. */
export interface TypedSecret {
  option: TypedSecretOption;
  start: number;
  end: number;
}

/** The only value a secret option may have. */
const ENV_ONLY = /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/;
/** `password=...` / `key=...` and the kinds' names, the option name in any case (the kernel reads it so). */
function optionPattern(kinds: readonly TypedSecretKind[]): RegExp {
  const names = ['password', 'key', ...kinds.map(kind => `(?:${kind.names})`)];
  return new RegExp(`^(${names.join('|')})(=.*)?$`, 'is');
}

/** The kind an option name belongs to: `password`, `key` or an engine's kind. */
function kindOf(name: string, kinds: readonly TypedSecretKind[]): string {
  const lower = name.toLowerCase();
  if (lower === 'password' || lower === 'key') {
    return lower;
  }
  return secretKindOf(name, kinds)?.option ?? lower;
}

/** Whether an option name is one of the kinds' (refused whatever its value). */
export function secretKindOf<Kind extends TypedSecretKind>(
  name: string,
  kinds: readonly Kind[]
): Kind | undefined {
  return kinds.find(kind => new RegExp(`^(?:${kind.names})$`, 'i').test(name));
}
/** `scheme://user:password@`: the `:password` part. */
const ADDRESS_PASSWORD = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/:@]*)(:[^\s/@]*)@/;
/** Options written alone (connect-args.ts FLAGS): never the value of an option left empty. */
const FLAG = /^skip_verify$/i;
/** A `%connect` line; magic names are case-insensitive. */
const CONNECT_LINE = /^(\s*%connect)(?=\s|$)/i;

/**
 * The secrets typed into `%connect`'s arguments (the text after `%connect`), split as the
 * kernel splits them (on any whitespace). `key= secret`, `key =secret` and `key = secret`
 * count as a key too: the word after an empty option is the value the user meant.
 */
export function typedSecretsIn(
  args: string,
  kinds: readonly TypedSecretKind[] = []
): TypedSecret[] {
  const OPTION = optionPattern(kinds);
  const tokens = [...args.matchAll(/\S+/g)].map(m => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length
  }));
  const found: TypedSecret[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as (typeof tokens)[number];
    const option = OPTION.exec(token.text);
    if (option) {
      let value = option[2]?.slice(1);
      let end = token.end;
      const next = () => tokens[i + 1];
      if (value === undefined) {
        // `key` alone: an option only when `=` follows (`key =x`, `key = x`).
        if (!next()?.text.startsWith('=')) {
          continue;
        }
        i += 1;
        value = (tokens[i] as (typeof tokens)[number]).text.slice(1);
        end = (tokens[i] as (typeof tokens)[number]).end;
      }
      const following = next();
      if (
        value === '' &&
        following &&
        !following.text.includes('=') &&
        !following.text.startsWith('--') &&
        !FLAG.test(following.text)
      ) {
        i += 1;
        value = following.text;
        end = following.end;
      }
      if (!ENV_ONLY.test(value)) {
        found.push({
          option: kindOf(option[1] as string, kinds),
          start: token.start,
          end
        });
      }
      continue;
    }
    const address = ADDRESS_PASSWORD.exec(token.text);
    if (address) {
      const at = token.start + (address[1] as string).length;
      found.push({
        option: 'address',
        start: at,
        end: at + (address[2] as string).length
      });
    }
  }
  return found;
}

/** The secrets typed into one line of a cell, with offsets in that line; none unless it is a `%connect` line. */
export function typedSecretsInLine(
  line: string,
  kinds: readonly TypedSecretKind[] = []
): TypedSecret[] {
  const head = CONNECT_LINE.exec(line)?.[1];
  if (head === undefined) {
    return [];
  }
  return typedSecretsIn(line.slice(head.length), kinds).map(s => ({
    ...s,
    start: s.start + head.length,
    end: s.end + head.length
  }));
}

/**
 * The cell without the secrets typed into its `%connect` lines: the options are dropped with
 * the space before them (the kernel then asks for the secret when the cell runs), and a
 * password leaves the address.
 */
export function withoutTypedSecrets(
  cell: string,
  kinds: readonly TypedSecretKind[] = []
): string {
  return cell
    .split('\n')
    .map(line => {
      let cleaned = line;
      for (const secret of typedSecretsInLine(line, kinds).reverse()) {
        let start = secret.start;
        if (secret.option !== 'address') {
          while (start > 0 && /\s/.test(cleaned.charAt(start - 1))) {
            start -= 1;
          }
        }
        cleaned = cleaned.slice(0, start) + cleaned.slice(secret.end);
      }
      return cleaned;
    })
    .join('\n');
}
