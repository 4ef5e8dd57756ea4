/**
 * Loaded into a kernel with `NODE_OPTIONS=--require <this file>` (node's --cpu-prof is not
 * allowed there): profiles the process from its start and writes a .cpuprofile into
 * SEARCHBOOK_CPU_PROFILE_DIR when it exits, for `bench/cpu-profile-summary.ts` or DevTools.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SEARCHBOOK_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  // An in-thread inspector session answers synchronously, so the profile is written before
  // the process is gone.
  process.once('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) {
        writeFileSync(
          join(dir, `kernel-${process.pid}.cpuprofile`),
          JSON.stringify(result.profile)
        );
      }
    });
  });
}
