/**
 * The sandbox engines with security on, as the suites of copied requests (curl, Python) meet
 * them: Elasticsearch 8.15.0 holding 20 products behind the test password, Typesense 29.0
 * behind its key, and an Elasticsearch API key created for the suite.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { SECRETS } from './secrets';

export async function securedSandboxWithKey(
  keyName: string
): Promise<{ sandbox: RunningSandbox; apiKey: string }> {
  const sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 20
  });
  try {
    const created = await fetch(`${sandbox.esUrl}/_security/api_key`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`elastic:${SECRETS.ES_PASSWORD}`).toString('base64')}`,
        'content-type': 'application/json'
      },
      body: JSON.stringify({ name: keyName })
    });
    const apiKey = ((await created.json()) as { encoded: string }).encoded;
    return { sandbox, apiKey };
  } catch (err) {
    await sandbox.close();
    throw err;
  }
}

/** The variables the suites' `%connect` lines read: the password, the API key and the Typesense key. */
export const credentialVariables = (
  apiKey: string
): Record<string, string> => ({
  REAL_ES_PASSWORD: SECRETS.ES_PASSWORD,
  OPS_ES_KEY: apiKey,
  MY_TS_KEY: SECRETS.TS_API_KEY
});
