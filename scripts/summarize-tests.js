// Adds up jest's JSON report and pytest's JUnit XML into one closing line.
'use strict';
const { readFileSync, existsSync } = require('node:fs');

const [jestFile, junitFile] = process.argv.slice(2);
let passed = 0,
  failed = 0,
  skipped = 0;

if (existsSync(jestFile)) {
  const jest = JSON.parse(readFileSync(jestFile, 'utf8'));
  passed += jest.numPassedTests;
  failed += jest.numFailedTests + (jest.numRuntimeErrorTestSuites || 0);
  skipped += jest.numPendingTests + jest.numTodoTests;
} else {
  failed += 1;
  console.error('jest wrote no report');
}

if (existsSync(junitFile)) {
  const xml = readFileSync(junitFile, 'utf8');
  const suite = /<testsuite\b[^>]*>/.exec(xml)?.[0] ?? '';
  const attr = name =>
    Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
  const total = attr('tests'),
    pyFailed = attr('failures') + attr('errors'),
    pySkipped = attr('skipped');
  passed += total - pyFailed - pySkipped;
  failed += pyFailed;
  skipped += pySkipped;
} else {
  failed += 1;
  console.error('pytest wrote no report');
}

console.log(
  `searchbook: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`
);
process.exit(failed ? 1 : 0);
