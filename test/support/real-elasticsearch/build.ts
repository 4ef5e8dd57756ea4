import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './flavours';

export type BuildOutcome = { built: true } | { built: false; reason: string };

/**
 * Runs scripts/setup-real-elasticsearch.sh (Maven install when missing, `mvn package` when a
 * pom or launcher source changed). Exit 3 means no Java: the caller skips the real tier.
 */
export function buildLaunchers(): Promise<BuildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'bash',
      [join(REPO_ROOT, 'scripts', 'setup-real-elasticsearch.sh')],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', code => {
      if (code === 0) {
        resolve({ built: true });
      } else if (code === 3) {
        resolve({ built: false, reason: output.trim() });
      } else {
        reject(
          new Error(
            `building the real Elasticsearch launchers failed (exit ${code}):\n${output}`
          )
        );
      }
    });
  });
}
