/**
 * Scoped search keys are the official clients' keys: the same input gives the same key as the
 * documented algorithm computed here with node:crypto, as typesense-js and as typesense-python.
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Typesense from 'typesense';
import {
  embeddedText,
  scopedKeyFromText
} from '../../../kernel/src/engines/typesense/scoped-key';
import { REPO } from '../../support/kernel-client';

const PARENT = 'RN23GFr1s6jQ9kgSNg2O7fYcAUXU7127';
const PARAMS = { filter_by: 'company_id:124', expires_at: 1906054106 };

/** base64( base64(HMAC-SHA256(parent, json)) + parent[0..4] + json ), as the API docs describe. */
function documented(parent: string, json: string): string {
  const digest = createHmac('sha256', parent).update(json).digest('base64');
  return Buffer.from(digest + parent.slice(0, 4) + json).toString('base64');
}

describe('scoped search keys', () => {
  test('match the documented algorithm and typesense-js for the same parameters', () => {
    const ours = scopedKeyFromText(PARENT, embeddedText(PARAMS));
    expect(ours).toBe(
      documented(
        PARENT,
        '{"filter_by":"company_id:124","expires_at":1906054106}'
      )
    );
    const client = new Typesense.Client({
      nodes: [{ host: '127.0.0.1', port: 9, protocol: 'http' }],
      apiKey: 'unused'
    });
    expect(ours).toBe(client.keys().generateScopedSearchKey(PARENT, PARAMS));
    // The key carries the parent's prefix and the parameters in clear, never the parent itself.
    const raw = Buffer.from(ours, 'base64').toString('utf8');
    expect(raw.slice(44, 48)).toBe('RN23');
    expect(raw).not.toContain(PARENT);
  });

  const python = join(REPO, '.venv', 'bin', 'python');
  const hasPythonClient =
    existsSync(python) &&
    (() => {
      try {
        execFileSync(python, ['-c', 'import typesense']);
        return true;
      } catch {
        return false;
      }
    })();

  (hasPythonClient ? test : test.skip)(
    'match typesense-python for the JSON text it signs',
    () => {
      const script = [
        'import json, sys, typesense',
        'from typesense.sync.keys import Keys',
        'k = Keys.__new__(Keys)',
        `p = ${JSON.stringify(PARAMS)}`,
        `sys.stdout.write(json.dumps(p) + "\\n" + k.generate_scoped_search_key(${JSON.stringify(PARENT)}, p).decode())`
      ].join('\n');
      const [text, key] = execFileSync(python, ['-c', script], {
        encoding: 'utf8'
      }).split('\n');
      // Python's json.dumps writes ", " and ": ": the key signs that text, so ours signs it too.
      expect(text).toBe(
        '{"filter_by": "company_id:124", "expires_at": 1906054106}'
      );
      expect(scopedKeyFromText(PARENT, text ?? '')).toBe(key);
    }
  );
});
