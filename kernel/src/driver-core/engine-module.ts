import type { z } from 'zod';
import type { TypedSecretKind } from '../../../contracts/typed-secrets';
import type {
  ConnectArgs,
  ConnectOptions,
  EngineOptionShape,
  SecretArg
} from './connect-options';
import type { CurlCredential } from './curl-credential';
import type { Driver } from './driver';
import type { Transport } from './http/transport';
import type { RequestSigner, TlsVerification } from './http/transport-options';
import type {
  ProfileCommon,
  SecretField,
  SecretRef,
  StoredProfile
} from './profile-fields';
import type { SslMode } from './ssl-mode';

/** What an engine makes of `%connect` options once it is loaded: its auth headers and TLS checks. */
export interface EngineConnectionSettings {
  /** Credential headers; their values are secrets. */
  headers: Record<string, string>;
  /** What HTTPS checks under the connection's SSL mode, before `skip_verify` is applied; undefined for plain HTTP. */
  verification: TlsVerification | undefined;
  /** Signs every request, for an auth that signs each one instead of sending a fixed header. */
  signer?: RequestSigner;
  /** How the connection authenticates, for `%connect`'s answer and the panel (`auth=... region=...`): never a secret. */
  authSummary?: string;
  /** How a copied curl command authenticates, by environment variable; none for a signing auth, which curl does itself. */
  curl?: CurlCredential;
  /** Secrets the engine read itself (not from the `%connect` line), each with what outputs show in its place. */
  secrets?: readonly { value: string; shownAs: string }[];
}

/** One engine's folder as the kernel loads it (lazily, on the first `%connect` to it). */
export interface EngineModule {
  /** The sentence that fixes a certificate from an unknown CA under this engine's SSL modes. */
  readonly untrustedCertificateAdvice: string;
  /** How to page or narrow an answer that passed the connection's cap (`max_answer=`), in this engine's words. */
  readonly largeAnswerAdvice: string;
  /** May read credentials from where the auth method keeps them (files, the environment); fails before anything is sent. */
  connectionSettings(
    args: ConnectArgs
  ): EngineConnectionSettings | Promise<EngineConnectionSettings>;
  createDriver(transport: Transport, args: ConnectArgs): Driver;
}

/** How a `%connect` line to this engine is written and checked, before anything is loaded or sent. */
export interface EngineConnectRules {
  /** The shortest `%connect` line to it, for hints. */
  readonly example: string;
  /** Its lines of the `%connect` usage text, with the options it takes. */
  readonly usage: readonly string[];
  /** How its address is written in usage texts: `<url>`, `<host>[:port]`. */
  readonly addressForm: string;
  /** Connections shown as URLs with their user (`https://elastic@host:9200`), else as `host:port`. */
  readonly shownAsUrl: boolean;
  /** The sentence for an address written without the engine before it (`shown` is the address, password hidden). */
  nameTheEngine(shown: string): string;
  /** The whole refusal of an address form this engine does not take, or undefined when it may. */
  refuseAddress(form: {
    scheme: string | undefined;
    userInfo: boolean;
  }): string | undefined;
  /**
   * The options this engine adds to the common ones (`compat=`, `region=`): their names and
   * schemas. Another engine's `%connect` line that writes one is refused, naming this engine.
   */
  readonly options: EngineOptionShape;
  /** The whole refusal of options (common ones, or its own together) that do not apply as written, or undefined. */
  refuseOptions(options: ConnectOptions): string | undefined;
  /** The whole refusal of saving this connection as a profile as written, or undefined. */
  refuseSave(args: ConnectArgs): string | undefined;
}

/** A secret `%connect` option: the profile field that says where it is, and its words in messages. */
export interface EngineSecret {
  readonly field: SecretField;
  /** `password`, `API key`: in notes on where it was saved. */
  readonly label: string;
  /** `the password of elastic`, `the Typesense API key`: in prompts and messages. */
  describe(args: ConnectArgs): string;
}

/**
 * A credential of this engine's that a `%connect` line never holds, not even as `${env:NAME}`:
 * the engine reads it where its own tools keep it.
 */
export interface EngineTypedSecret extends TypedSecretKind {
  /** Where the engine reads it instead, as a sentence: in the refusal. */
  readonly where: string;
  /** What to do once it is removed from the cell: the failed cell's hint. */
  readonly afterRemoval: string;
}

/** The engine's saved profiles: its schema and what engine-neutral code reads of them. */
export interface EngineProfileRules {
  /** The profile's schema, with `engine` as the literal name; its error texts are the profiles file's. */
  readonly schema: z.ZodType<StoredProfile> & z.core.$ZodTypeDiscriminable;
  /** Advice for fields the schema does not know (`username` where the engine has no users), or undefined. */
  unknownFieldAdvice(keys: readonly string[]): string | undefined;
  /** The `%connect` options a profile adds to the common ones (before its secrets are fetched), and where its secrets are. */
  connectArgs(profile: StoredProfile): {
    args: Partial<ConnectArgs>;
    refs: Partial<Record<SecretField, SecretRef>>;
  };
  /** The profile an opened connection is saved as; `secrets` holds where its secrets were kept. */
  fromConnection(
    common: ProfileCommon,
    args: ConnectArgs,
    secrets: Partial<Record<SecretField, SecretRef>>
  ): StoredProfile;
  /** The auth method, for the profile list (`basic`, `apikey`, `none`). */
  auth(profile: StoredProfile): string;
  /** Where the secret the profile's auth uses is; null: it uses none; undefined: asked at connect time. */
  secretInUse(profile: StoredProfile): SecretRef | null | undefined;
  /** Every secret reference the profile holds, used or not. */
  secretRefs(profile: StoredProfile): SecretRef[];
  /** The user shown in the profile's address, if the engine has users. */
  user(profile: StoredProfile): string | undefined;
}

/** What completion asks of the engine. */
export interface EngineCompletion {
  /** The target a request path names (`products` of `/products/_search`), or undefined. Segments are the path's, without slashes. */
  targetOfPath(segments: readonly string[]): string | undefined;
  /** `%export` options this engine adds to `format=`, `fields=` and `overwrite` (`slices=`). */
  readonly exportOptions: readonly string[];
}

/** How the console's help and refusals speak of this engine; they name every registered engine. */
export interface EngineConsoleWords {
  /** How an address is written, for `%connect`'s help, when it needs saying: `a URL such as ...`. */
  readonly addressHint?: string;
  /** What narrows an `%export`, as its help says it: `an Elasticsearch query`. */
  readonly exportBody: string;
  /** What `slices=N` does, if the engine takes it: in `%export`'s help (`reads ... in N parallel cursors`) and in its refusal. */
  readonly slices?: { readonly help: string; readonly note: string };
  /** The endpoints whose body is one JSON value a line, as a refusal names them: `_bulk`, `Typesense documents/import`. */
  readonly ndjsonEndpoints: readonly string[];
}

/**
 * What the kernel must know of an engine before its code loads: enough to read `%connect`, the
 * profiles file and complete cells. Small and loaded at start; `load()` brings the rest.
 */
export interface EngineDescriptor {
  /** As written after `%connect` and in profiles' `engine`. */
  readonly name: string;
  /**
   * Other words `%connect` takes for this engine: products that speak its API and that users
   * name by their own name. The connection, its profile and completion use `name`.
   */
  readonly aliases?: readonly string[];
  /** For messages: the engine's own spelling. */
  readonly displayName: string;
  /** What its targets are called: `index`, `collection`. */
  readonly targetNoun: string;
  /** Start of a connection's default name, e.g. `es` in `es-localhost-9200`. */
  readonly namePrefix: string;
  /** The engine's own documentation, for the kernel's help menu. */
  readonly docs: { readonly text: string; readonly url: string };
  /** Port used when the address was a bare host without one. */
  defaultPort(ssl: SslMode): number;
  readonly connect: EngineConnectRules;
  /** The secret options this engine takes, by `%connect` option. */
  readonly secrets: Partial<Record<SecretArg, EngineSecret>>;
  /** Kinds of credential of its own that `%connect` refuses on the line (and the cell's cleaning removes). */
  readonly typedSecrets?: readonly EngineTypedSecret[];
  /** The secret options the connection's auth uses (given or still to be fetched). */
  secretsUsed(args: ConnectArgs): SecretArg[];
  readonly profile: EngineProfileRules;
  readonly completion: EngineCompletion;
  readonly console: EngineConsoleWords;
  load(): Promise<EngineModule>;
}
