/**
 * The Typesense differential: every request of corpus/ replayed against the sandbox's stand-in
 * and the run's real Typesense server (test/support/real-typesense), the stand-in playing the
 * nearest version it imitates; answers compared after normalisation. It prints how many
 * answers are identical and fails on any difference the allowlist does not classify.
 */
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { listen } from '@searchbook/sandbox/serve';
import { realTypesense } from '../../support/real-typesense/run-server';
import { REAL_START_TIMEOUT_MS } from '../../support/elasticsearch-targets';
import { differences, type Difference } from '../compare';
import { readCorpus, type CorpusEntry } from '../corpus';
import { classify, kindOf, reasonOf, TYPESENSE_ALLOWLIST } from './allowlist';
import { corpusCollections } from './data';
import { corpusKeys, replay, setUpCollections } from './replay';
import { join } from 'node:path';
import { standInVersionFor } from '../../support/real-typesense-differences';

const corpus = readCorpus(join(__dirname, 'corpus'));

interface Outcome {
  entry: CorpusEntry;
  diffs: Difference[];
}

it('the corpus: at least 150 requests, every allowance reasoned and naming real entries', () => {
  expect(corpus.length).toBeGreaterThanOrEqual(150);
  const ids = new Set(corpus.map(e => e.id));
  for (const a of TYPESENSE_ALLOWLIST) {
    expect(reasonOf(a).length).toBeGreaterThan(20);
    for (const e of a.entries === '*' ? [] : a.entries) {
      expect(ids.has(e) ? e : `unknown entry ${e}`).toBe(e);
    }
  }
});

it(
  'answers every corpus request as the stand-in does, or as the allowlist classifies the difference',
  async () => {
    const outcome = await realTypesense();
    if ('skipped' in outcome) {
      process.stdout.write(
        `Typesense differential corpus: ${outcome.skipped}; this tier is skipped\n`
      );
      return;
    }
    const real = outcome.server;
    const standIn = standInVersionFor(real.version);
    const sandbox = await listen(
      createTypesenseSandbox({ version: standIn, apiKey: real.apiKey }).handler,
      { port: 0 }
    );
    try {
      const specs = corpusCollections();
      await setUpCollections(real.url, real.apiKey, specs);
      await setUpCollections(sandbox.url, real.apiKey, specs);
      const keys = corpusKeys(real.apiKey);
      const outcomes: Outcome[] = [];
      const mineVars: Record<string, unknown> = {};
      const theirVars: Record<string, unknown> = {};
      for (const entry of corpus) {
        const mine = await replay(sandbox.url, keys, entry, mineVars);
        const theirs = await replay(real.url, keys, entry, theirVars);
        const diffs = differences(mine.status, theirs.status, 'status');
        differences(mine.body, theirs.body, '$', diffs);
        outcomes.push({ entry, diffs });
      }
      const identical = outcomes.filter(o => o.diffs.length === 0).length;
      // Alike but for how the real server's version answers unlike 26+.
      const asVersion = outcomes.filter(o =>
        o.diffs.every(d => {
          const a = classify(o.entry.id, d);
          return a !== undefined && 'difference' in a;
        })
      ).length;
      const lines = [
        `Typesense differential corpus, real Typesense ${real.version} (the stand-in as ${standIn}): ${identical} of ${outcomes.length} answers identical (${((100 * identical) / outcomes.length).toFixed(1)}%); ${asVersion} of ${outcomes.length} identical but for how ${real.version} answers unlike 26+`
      ];
      const failing: string[] = [];
      for (const o of outcomes.filter(o => o.diffs.length > 0)) {
        const unclassified = o.diffs.filter(d => !classify(o.entry.id, d));
        const kinds = [
          ...new Set(
            o.diffs.map(d => {
              const a = classify(o.entry.id, d);
              return a ? kindOf(a) : 'UNCLASSIFIED';
            })
          )
        ].join(', ');
        const text = `${unclassified.length > 0 ? 'DIFFERS' : 'classified'} (${kinds})  ${o.entry.id}  (${o.entry.method} ${o.entry.path})\n${o.diffs.map(d => `    ${d.path}: stand-in ${d.sandbox} | real ${d.real}`).join('\n')}`;
        lines.push(text);
        if (unclassified.length > 0) {
          failing.push(text);
        }
      }
      process.stdout.write(lines.join('\n') + '\n');
      expect(failing).toEqual([]);
    } finally {
      await sandbox.close();
    }
  },
  REAL_START_TIMEOUT_MS
);
