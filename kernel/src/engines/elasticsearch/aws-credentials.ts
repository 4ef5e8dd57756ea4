/**
 * The AWS credentials and region of an `auth=aws-sigv4` connection, read only where the AWS
 * tools keep them: the standard environment variables, else the shared files' profile
 * (https://docs.aws.amazon.com/sdkref/latest/guide/file-format.html), never the notebook. A
 * profile named explicitly (aws_profile= or AWS_PROFILE) wins over the environment's keys, as
 * it does for the AWS SDKs.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadSharedConfigFiles } from '@smithy/core/config';
import { CredentialsUnavailableError } from '../../driver-core/errors';
import { AWS_CREDENTIALS_WHERE, DEFAULT_AWS_SERVICE } from './aws-auth';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsSigning {
  region: string;
  service: string;
  credentials: AwsCredentials;
  /** Where the credentials were found, for the connection's summary: never a secret. */
  source: string;
  /** Whether they came from the environment variables (else from a profile of the shared files). */
  fromEnvironment: boolean;
}

type Env = Record<string, string | undefined>;

const ENVIRONMENT = 'the environment (AWS_ACCESS_KEY_ID)';

/** Profile keys that get credentials by running or asking something, which searchbook does not do. */
const INDIRECT_KEYS = [
  'role_arn',
  'sso_session',
  'sso_start_url',
  'credential_process',
  'web_identity_token_file'
];

export async function awsSigning(
  options: { region?: string; service?: string; aws_profile?: string },
  env: Env = process.env
): Promise<AwsSigning> {
  const set = (name: string) => {
    const value = env[name];
    return value !== undefined && value !== '' ? value : undefined;
  };
  const home = set('HOME') ?? homedir();
  const files = {
    credentials:
      set('AWS_SHARED_CREDENTIALS_FILE') ?? join(home, '.aws', 'credentials'),
    config: set('AWS_CONFIG_FILE') ?? join(home, '.aws', 'config')
  };
  const named = options.aws_profile ?? set('AWS_PROFILE');
  const profileName = named ?? 'default';
  const loaded = await loadSharedConfigFiles({
    filepath: files.credentials,
    configFilepath: files.config,
    ignoreCache: true
  });
  const fromConfig = loaded.configFile[profileName];
  const fromCredentials = loaded.credentialsFile[profileName];
  // The credentials file's keys win over the config file's, as in the AWS SDKs.
  const profile: Record<string, string | undefined> | undefined =
    fromConfig || fromCredentials
      ? { ...fromConfig, ...fromCredentials }
      : undefined;
  const how =
    options.aws_profile !== undefined ? 'aws_profile=' : 'AWS_PROFILE';

  let credentials: AwsCredentials;
  let source: string;
  const envKey = set('AWS_ACCESS_KEY_ID');
  const envSecret = set('AWS_SECRET_ACCESS_KEY');
  if (named === undefined && (envKey || envSecret)) {
    if (!envKey || !envSecret) {
      throw unavailable(
        `${envKey ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'} is not set in the kernel's environment though ${envKey ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'} is: set both (and AWS_SESSION_TOKEN for temporary credentials) before starting Jupyter.`
      );
    }
    const token = set('AWS_SESSION_TOKEN');
    credentials = {
      accessKeyId: envKey,
      secretAccessKey: envSecret,
      ...(token ? { sessionToken: token } : {})
    };
    source = ENVIRONMENT;
  } else {
    if (named !== undefined && !profile) {
      throw unavailable(
        `the AWS profile "${profileName}" (${how}) is in neither ${files.credentials} nor ${files.config}; add it there or name a profile they hold.`
      );
    }
    const key = profile?.aws_access_key_id;
    const secret = profile?.aws_secret_access_key;
    if (!key || !secret) {
      const indirect = INDIRECT_KEYS.find(k => profile?.[k] !== undefined);
      throw unavailable(
        indirect
          ? `the AWS profile "${profileName}" gets its credentials through ${indirect}, which searchbook does not run; export them to the kernel's environment first (aws configure export-credentials --profile ${profileName} --format env), or use a profile with aws_access_key_id and aws_secret_access_key.`
          : profile
            ? `the AWS profile "${profileName}" has no ${key ? 'aws_secret_access_key' : 'aws_access_key_id'}; put both keys in its section of ${files.credentials}.`
            : `no AWS credentials were found: set ${AWS_CREDENTIALS_WHERE}. ${files.credentials} has no [${profileName}] profile.`
      );
    }
    const token = profile?.aws_session_token;
    credentials = {
      accessKeyId: key,
      secretAccessKey: secret,
      ...(token ? { sessionToken: token } : {})
    };
    source = `the profile "${profileName}" of ${fromCredentials?.aws_access_key_id ? files.credentials : files.config}`;
  }

  const region =
    options.region ??
    set('AWS_REGION') ??
    set('AWS_DEFAULT_REGION') ??
    profile?.region;
  if (!region) {
    throw unavailable(
      `auth=aws-sigv4 needs the region the domain is in: write region=<region> on the %connect line (for example region=eu-west-1), set AWS_REGION in the kernel's environment, or set region in the "${profileName}" profile of ${files.config}.`
    );
  }
  return {
    region,
    service: options.service ?? DEFAULT_AWS_SERVICE,
    credentials,
    source,
    fromEnvironment: source === ENVIRONMENT
  };
}

function unavailable(what: string): CredentialsUnavailableError {
  const sentence = what.charAt(0).toUpperCase() + what.slice(1);
  return new CredentialsUnavailableError(`${sentence} Nothing was sent.`);
}
