import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a test file's scratch folders are listed, for its test environment to remove. */
export const SCRATCH_DIRS = '__searchbookScratchDirs';

/**
 * A fresh folder under the temporary directory, removed when the test file ends, passed or
 * failed, after its every afterAll (test/support/shared-lab-environment.ts removes it).
 */
export function scratchDir(prefix: string): string {
  const listed = (globalThis as Record<string, unknown>)[SCRATCH_DIRS];
  if (!Array.isArray(listed)) {
    throw new Error(
      'scratchDir needs the test environment jest.config.js names'
    );
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  listed.push(dir);
  return dir;
}
