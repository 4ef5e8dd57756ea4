/**
 * What a `%connect` line asks for: a saved profile (`%connect <profile>`), or an engine and
 * an address with options (`%connect elasticsearch <url> ...`), optionally saved as a profile
 * with `--save <name>`.
 */
import {
  type ConnectArgs,
  ConnectArgsError,
  CONNECT_USAGE,
  parseConnectAddress,
  type SecretEnvNames
} from './connect-args';
import { PROFILE_NAME } from '../driver-core/profile-fields';
import { ENGINE_WORDS, ENGINES, engineNamed } from '../engines/engine-registry';

export type ConnectCommand =
  | { kind: 'profile'; name: string }
  | {
      kind: 'address';
      args: ConnectArgs;
      envNames: SecretEnvNames;
      save?: string;
    };

const NAMES = new Set(ENGINE_WORDS);
const [FIRST_ENGINE] = ENGINES;

export const CONNECT_COMMAND_USAGE = `%connect <profile>\n${CONNECT_USAGE}\nAdd --save <name> to keep the connection as a profile.`;

export function parseConnectCommand(
  text: string,
  env: (name: string) => string | undefined,
  /** Reads an address written as `${env:NAME}` (no secret). */
  addressEnv: (name: string) => string | undefined = env
): ConnectCommand {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const save = takeSave(tokens);
  const [first] = tokens;
  if (!first) {
    throw new ConnectArgsError(
      `%connect needs a profile name, or an engine and an address, for example:\n${CONNECT_COMMAND_USAGE}`
    );
  }
  if (tokens.length === 1 && !NAMES.has(first.toLowerCase())) {
    if (/[:/@]/.test(first)) {
      const shown = first.replace(/(\/\/[^/:@]*):[^/@]*@/, '$1:***@');
      throw new ConnectArgsError(
        `%connect: name the engine before the address: ${ENGINES.map(engine => engine.connect.nameTheEngine(shown)).join('. ')}.`
      );
    }
    if (save !== undefined) {
      throw new ConnectArgsError(
        `%connect: --save keeps a connection written as an engine and an address (%connect ${FIRST_ENGINE.name} ${FIRST_ENGINE.connect.addressForm} ... --save ${save}); "${first}" names a profile, which is saved already.`
      );
    }
    if (!PROFILE_NAME.test(first)) {
      throw new ConnectArgsError(
        `%connect: "${first}" is not a profile name (letters, digits, _, . and -). For example:\n${CONNECT_COMMAND_USAGE}`
      );
    }
    return { kind: 'profile', name: first };
  }
  const { args, envNames } = parseConnectAddress(
    tokens.join(' '),
    env,
    addressEnv
  );
  const unsaved =
    save !== undefined
      ? engineNamed(args.engine).connect.refuseSave(args)
      : undefined;
  if (unsaved) {
    throw new ConnectArgsError(unsaved);
  }
  // A saved connection is known by its profile's name unless name= says otherwise.
  if (save !== undefined && args.name === undefined) {
    args.name = save;
  }
  return {
    kind: 'address',
    args,
    envNames,
    ...(save !== undefined ? { save } : {})
  };
}

/** Removes `--save <name>` (or `--save=<name>`) from the tokens; refuses other `--` flags. */
function takeSave(tokens: string[]): string | undefined {
  let save: string | undefined;
  for (let i = 0; i < tokens.length;) {
    const token = tokens[i] as string;
    if (!token.startsWith('--')) {
      i += 1;
      continue;
    }
    const inline = /^--save=(.*)$/.exec(token);
    if (token !== '--save' && !inline) {
      throw new ConnectArgsError(
        `%connect: "${token.split('=')[0]}" is not a flag of %connect; the only one is --save <profile name>.`
      );
    }
    const name = inline ? inline[1] : tokens[i + 1];
    if (!name || name.startsWith('--') || !PROFILE_NAME.test(name)) {
      throw new ConnectArgsError(
        '%connect: --save needs a profile name made of letters, digits, _, . and -, for example --save local-es.'
      );
    }
    if (save !== undefined) {
      throw new ConnectArgsError('%connect: write --save once.');
    }
    save = name;
    tokens.splice(i, inline ? 1 : 2);
  }
  return save;
}
