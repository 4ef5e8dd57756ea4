const { relative } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;
const FILE_SECONDS = require('./file-seconds.json');

/**
 * Starts the longest test files first, so the workers end together instead of one running a
 * long file alone at the end. A file's length is what jest's cache says it took last time
 * here, else file-seconds.json (a clean clone's full run: it has no cache), else it is one
 * of the short files and goes after those by size. A stale figure only costs balance.
 */
class LongestFirstSequencer extends TestSequencer {
  sort(tests) {
    const seconds = new Map(tests.map(test => [test, this.seconds(test)]));
    const size = test => test.context.hasteFS.getSize(test.path) ?? 0;
    return [...tests].sort(
      (a, b) =>
        (seconds.get(b) ?? -1) - (seconds.get(a) ?? -1) || size(b) - size(a)
    );
  }

  seconds(test) {
    const cached = this.time(test);
    if (cached !== undefined) {
      return cached / 1000;
    }
    return FILE_SECONDS[relative(test.context.config.rootDir, test.path)];
  }
}

module.exports = LongestFirstSequencer;
