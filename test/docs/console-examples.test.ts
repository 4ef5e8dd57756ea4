/**
 * Every console example of the README and the guide (a fenced block marked `searchbook`) run as
 * a reader would run it: each page's blocks in order, as the cells of one new notebook, through
 * the real kernel over ZeroMQ against the sandbox `npm start` starts, with the environment it
 * sets. None may end in an error; the README's example must print the output the README shows.
 */
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  KernelClient,
  REPO,
  type IopubMessage
} from '../support/kernel-client';
import { plainText } from '../support/shown-text';
import { fencedBlocks, guideFiles, read, shortName } from './markdown';
import { scratchDir } from '../support/scratch-dir';
import { KernelMessage } from '../support/kernel-messages';

jest.setTimeout(120_000);

const ES_PASSWORD = 'docs-examples-es-3f81';
const TS_API_KEY = 'docs-examples-ts-d02c';

const pages = guideFiles()
  .map(file => ({
    file,
    name: shortName(file),
    blocks: fencedBlocks(read(file)).filter(b => b.info === 'searchbook')
  }))
  .filter(page => page.blocks.length > 0);

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: ES_PASSWORD,
    tsApiKey: TS_API_KEY,
    security: true
  });
});

afterAll(async () => {
  await sandbox?.close();
});

/** What a reader sees as text: each output's text/plain, in order. */
const shownText = (iopub: IopubMessage[]): string[] =>
  iopub
    .filter(
      m =>
        KernelMessage.isDisplayDataMsg(m) || KernelMessage.isExecuteResultMsg(m)
    )
    .map(m => plainText(m.content.data) ?? '');

/** The parts of an output that differ from run to run: the sandbox's port and the time taken. */
const settled = (text: string): string =>
  text
    .replace(/127\.0\.0\.1([:-])\d+/g, '127.0.0.1$1PORT')
    .replace(/\bin \d+ ms\b/g, 'in N ms')
    .trimEnd();

it('the README and the guide hold console examples, the README one at least', () => {
  expect(pages.map(p => shortName(p.file))).toContain('README.md');
  expect(pages.length).toBeGreaterThan(3);
});

describe.each(pages)('$name', ({ file, blocks }) => {
  let kernel: KernelClient;

  beforeAll(async () => {
    // A fresh kernel per page, started where a notebook would be (%export writes there).
    kernel = await KernelClient.start(
      {
        ES_PASSWORD,
        TYPESENSE_API_KEY: TS_API_KEY,
        SEARCHBOOK_ES_URL: sandbox.esUrl,
        SEARCHBOOK_TYPESENSE_URL: sandbox.tsUrl
      },
      { cwd: scratchDir('searchbook-docs-examples-') }
    );
  });

  afterAll(async () => {
    await kernel?.close();
  });

  it.each(blocks.map(b => [b.line, b] as const))(
    'the example at line %i runs without an error',
    async (_line, block) => {
      const { reply, iopub } = await kernel.execute(block.body);
      const errors = iopub
        .filter(KernelMessage.isErrorMsg)
        .map(m => `${m.content.ename}: ${m.content.evalue}`);
      const stderr = iopub
        .filter(KernelMessage.isStreamMsg)
        .filter(m => m.content.name === 'stderr')
        .map(m => m.content.text);
      expect({ status: reply.content.status, errors, stderr }).toEqual({
        status: 'ok',
        errors: [],
        stderr: []
      });
      // The README shows its example's output in the block after it: it must be what runs.
      if (file === join(REPO, 'README.md')) {
        const all = fencedBlocks(read(file));
        const shown = all[all.findIndex(b => b.line === block.line) + 1];
        expect(shown?.info).toBe('text');
        expect(settled(shown?.body ?? '')).toBe(
          settled(shownText(iopub).join('\n'))
        );
      }
    }
  );
});
