import { ES_TEST_PASSWORD } from './real-elasticsearch/flavours';

/** Known secrets: every test asserts that no message it sees contains one of them. */
export const SECRETS = {
  ES_PASSWORD: ES_TEST_PASSWORD,
  TS_API_KEY: 'ts-admin-secret-71c2',
  WRONG: 'wrong-secret-0d1e'
} as const;

export function expectNoSecret(text: string, more: string[] = []): void {
  for (const secret of [...Object.values(SECRETS), ...more]) {
    expect(text).not.toContain(secret);
  }
  // Nor the Basic header a password would travel in.
  expect(text).not.toContain(
    Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')
  );
}
