/**
 * The differential suite: every corpus request replayed against the sandbox and a real
 * Elasticsearch node of the same version, answers compared after normalise.ts. It fails on
 * any difference the allowlist does not name, and prints the share of identical answers.
 */
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { allowed, ALLOWLIST, reasonOf } from './allowlist';
import { differences, type Difference } from './compare';
import { readCorpus, type CorpusEntry } from './corpus';
import { corpusIndices } from './data';
import { realNode, type RealNode, type RealNodeOrWhy } from './real-node';
import type { ReleaseLine } from '../support/real-node-differences';
import {
  dropCorpusDefaults,
  dropIndices,
  holdCorpusDefaults,
  replay,
  setUpIndices
} from './replay';

const corpus = readCorpus();
// Indices the corpus writes; all named diff_*, apart from the indices the other suites keep on the same real nodes.
const SCRATCH = [
  'diff_scratch',
  'diff_made_by_write',
  'diff_mapped',
  'diff_ranged',
  'diff_indé',
  'diff_grid',
  'diff_fields'
];

async function startSandbox(version: string): Promise<ListeningServer> {
  const sandbox = createElasticsearchSandbox({
    version,
    security: false,
    password: 'unused'
  });
  return listen(sandbox.handler, { port: 0 });
}

it('the corpus: at least 150 requests, allowlist of at most 10 reasoned entries naming real entries', () => {
  expect(corpus.length).toBeGreaterThanOrEqual(150);
  expect(ALLOWLIST.length).toBeLessThanOrEqual(10);
  const ids = new Set(corpus.map(e => e.id));
  for (const a of ALLOWLIST) {
    expect(reasonOf(a).length).toBeGreaterThan(20);
    for (const e of a.entries) {
      expect(ids.has(e) ? e : `unknown entry ${e}`).toBe(e);
    }
  }
});

it('the sandbox answers every corpus request, none with a 500', async () => {
  const sandbox = await startSandbox('8.19.0');
  try {
    await setUpIndices(sandbox.url, corpusIndices());
    const vars: Record<string, unknown> = {};
    const crashed: string[] = [];
    for (const entry of corpus) {
      const answer = await replay(sandbox.url, entry, vars);
      if (answer.status === 500) {
        crashed.push(
          `${entry.id}: ${JSON.stringify(answer.body).slice(0, 300)}`
        );
      }
    }
    expect(crashed).toEqual([]);
  } finally {
    await sandbox.close();
  }
}, 120_000);

interface Outcome {
  entry: CorpusEntry;
  diffs: Difference[];
}

async function compareAgainst(real: RealNode): Promise<Outcome[]> {
  const sandbox = await startSandbox(real.sandboxVersion);
  const specs = corpusIndices();
  const created = [...SCRATCH, ...specs.map(s => s.name)];
  try {
    await dropIndices(real.url, SCRATCH);
    await holdCorpusDefaults(real.url);
    await setUpIndices(real.url, specs);
    await setUpIndices(sandbox.url, specs);
    const outcomes: Outcome[] = [];
    const mineVars: Record<string, unknown> = {};
    const theirVars: Record<string, unknown> = {};
    for (const entry of corpus) {
      if (entry.versions && !entry.versions.includes(majorOf(real.line))) {
        continue;
      }
      const [mine, theirs] = [
        await replay(sandbox.url, entry, mineVars),
        await replay(real.url, entry, theirVars)
      ];
      const diffs = differences(mine.status, theirs.status, 'status');
      differences(mine.body, theirs.body, '$', diffs);
      outcomes.push({ entry, diffs });
    }
    return outcomes;
  } finally {
    // The node is the other suites' too: leave it as found.
    await dropIndices(real.url, created);
    await dropCorpusDefaults(real.url);
    await sandbox.close();
  }
}

/** The Elasticsearch major a `# versions:` line names; OpenSearch takes only entries for every version. */
function majorOf(line: ReleaseLine): number {
  return line === 'opensearch' ? Number.NaN : Number(line.slice(3));
}

function report(
  real: RealNode,
  outcomes: Outcome[]
): { share: string; failing: string[] } {
  const identical = outcomes.filter(o => o.diffs.length === 0).length;
  const pct = ((100 * identical) / Math.max(outcomes.length, 1)).toFixed(1);
  const product = real.line === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
  const held =
    real.sandboxVersion === real.version
      ? ''
      : ` (the sandbox as ${real.sandboxVersion})`;
  const share = `differential corpus, ${product} ${real.version}${held}: ${identical} of ${outcomes.length} answers identical (${pct}%)`;
  const failing: string[] = [];
  const lines: string[] = [share];
  for (const o of outcomes) {
    if (o.diffs.length === 0) {
      continue;
    }
    const allowance = allowed(o.entry.id, real.line);
    const text = `${allowance ? 'allowed' : 'DIFFERS'}  ${o.entry.id}  (${o.entry.method} ${o.entry.path})\n${o.diffs.map(d => `    ${d.path}: sandbox ${d.sandbox} | real ${d.real}`).join('\n')}`;
    lines.push(text);
    if (!allowance) {
      failing.push(text);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  return { share, failing };
}

describe.each(['es-7', 'es-8', 'es-9', 'opensearch'] as const)(
  'against a real node of the %s line',
  line => {
    let real: RealNodeOrWhy;
    beforeAll(async () => {
      real = await realNode(line);
    }, 900_000);

    it('answers every corpus request as the sandbox does, or as the allowlist says it differs', async () => {
      if ('skipped' in real) {
        process.stdout.write(
          `differential corpus: no real ${line} node (${real.skipped}); this tier is skipped\n`
        );
        return;
      }
      const { failing } = report(real.node, await compareAgainst(real.node));
      expect(failing).toEqual([]);
    }, 600_000);
  }
);
