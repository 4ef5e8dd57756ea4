/**
 * typesense-go's own integration suite, taken from the Go module proxy, against the sandbox:
 * everything passes but what the sandbox does not imitate (analytics, stemming dictionaries)
 * and what needs an LLM. `npm run check:typesense-clients` runs the same with a full report,
 * and the Python and JavaScript suites from checkouts.
 */
import { GO_SUITES, runGoSuite } from './go-suite';
import { splitFailures } from './suite-result';

describe.each(GO_SUITES)(
  'typesense-go $version against the Typesense $typesense sandbox',
  suite => {
    test('every test passes but analytics, stemming and LLM-backed models', async () => {
      const run = await runGoSuite(suite);
      expect(run.error).toBeUndefined();
      const { unexpected } = splitFailures(run);
      expect(
        unexpected.map(name => ({ name, said: run.details[name] }))
      ).toEqual([]);
      // The suite really ran: its collection, document, search, key and synonym tests.
      expect(run.passed.length).toBeGreaterThan(50);
    }, 600_000);
  }
);
