/**
 * Where `auth=aws-sigv4` finds its credentials and region: the AWS environment variables, else
 * the shared files' profile, as the AWS tools read them; each thing missing is named with where
 * to put it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { awsSigning } from '../../../kernel/src/engines/elasticsearch/aws-credentials';
import { CredentialsUnavailableError } from '../../../kernel/src/driver-core/errors';
import { scratchDir } from '../../export/export-helpers';

function home(files: { credentials?: string; config?: string }): string {
  const dir = scratchDir();
  mkdirSync(join(dir, '.aws'));
  if (files.credentials !== undefined) {
    writeFileSync(join(dir, '.aws', 'credentials'), files.credentials);
  }
  if (files.config !== undefined) {
    writeFileSync(join(dir, '.aws', 'config'), files.config);
  }
  return dir;
}

it('takes the environment’s keys and token, the region from AWS_DEFAULT_REGION, service es by default', async () => {
  const signing = await awsSigning(
    {},
    {
      HOME: home({}),
      AWS_ACCESS_KEY_ID: 'AKIAENVIRONMENT00001',
      AWS_SECRET_ACCESS_KEY: 'env-secret',
      AWS_SESSION_TOKEN: 'env-token',
      AWS_DEFAULT_REGION: 'ap-southeast-2'
    }
  );
  expect(signing).toEqual({
    region: 'ap-southeast-2',
    service: 'es',
    credentials: {
      accessKeyId: 'AKIAENVIRONMENT00001',
      secretAccessKey: 'env-secret',
      sessionToken: 'env-token'
    },
    source: 'the environment (AWS_ACCESS_KEY_ID)',
    fromEnvironment: true
  });
});

it('a profile named by AWS_PROFILE wins over the environment’s keys; its credentials file beats its config file', async () => {
  const dir = home({
    credentials:
      '[work]\naws_access_key_id = AKIAFROMCREDENTIALS1\naws_secret_access_key = file-secret\n',
    config:
      '[profile work]\naws_access_key_id = AKIAFROMCONFIGFILE01\nregion = eu-central-1\n'
  });
  const signing = await awsSigning(
    { service: 'aoss' },
    {
      HOME: dir,
      AWS_PROFILE: 'work',
      AWS_ACCESS_KEY_ID: 'AKIAENVIRONMENT00001',
      AWS_SECRET_ACCESS_KEY: 'env-secret'
    }
  );
  expect(signing.credentials).toEqual({
    accessKeyId: 'AKIAFROMCREDENTIALS1',
    secretAccessKey: 'file-secret'
  });
  expect(signing.region).toBe('eu-central-1');
  expect(signing.service).toBe('aoss');
});

it.each([
  [
    'half the environment’s keys',
    {},
    { AWS_ACCESS_KEY_ID: 'AKIAENVIRONMENT00001' },
    {},
    /AWS_SECRET_ACCESS_KEY is not set in the kernel's environment though AWS_ACCESS_KEY_ID is/
  ],
  [
    'a profile that assumes a role',
    {},
    { AWS_PROFILE: 'admin' },
    { config: '[profile admin]\nrole_arn = arn:aws:iam::1:role/x\n' },
    /gets its credentials through role_arn.*aws configure export-credentials --profile admin/
  ],
  [
    'a profile that is nowhere',
    { aws_profile: 'nope' },
    {},
    { credentials: '[default]\naws_access_key_id = A\n' },
    /"nope" \(aws_profile=\) is in neither/
  ],
  [
    'nothing at all',
    {},
    {},
    {},
    /^No AWS credentials were found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/
  ]
])(
  '%s: refused, saying what to set',
  async (_what, options, env, files, message) => {
    const failed = awsSigning(options, { HOME: home(files), ...env });
    await expect(failed).rejects.toBeInstanceOf(CredentialsUnavailableError);
    await expect(failed).rejects.toThrow(message);
    await expect(failed).rejects.toThrow(/Nothing was sent\.$/);
  }
);
