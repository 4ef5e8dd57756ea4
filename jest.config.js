/** Tests run the TypeScript sources through swc (no type check: `npm run typecheck` does that). */
module.exports = {
  // Node's, plus one JupyterLab and one Chromium per worker, started when a browser suite first asks.
  testEnvironment: '<rootDir>/test/support/shared-lab-environment.ts',
  // The sandbox engines' package keeps its own tests.
  roots: ['<rootDir>/test', '<rootDir>/sandbox/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: {
    '^@searchbook/contracts/(.*)$': '<rootDir>/contracts/$1',
    // Its TypeScript, as tsconfig.json's `paths` maps it; the package's exports name its build.
    '^@searchbook/sandbox/(.*)$': '<rootDir>/sandbox/src/$1'
  },
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 30000,
  // The longest files first, so the workers of a full run end together.
  testSequencer: '<rootDir>/test/support/longest-first-sequencer.js',
  // Real Elasticsearch nodes start on first use, not here (test/support/real-elasticsearch/).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts'
};
