/**
 * What an export leaves on disk, over the wire (kernel process, ZeroMQ, sandbox over HTTP):
 * two exports to one file name at once (a `%export` and the side panel's), names that are not
 * regular files (a pipe, a link, a directory, a device node, /dev/null itself), a NUL in the
 * path, and filesystems that refuse (read-only, full, a name too long). Every refusal comes
 * before anything is read from the engine and says what the path is; a failure while writing
 * is named as a filesystem error with its path and leaves the old file as it was.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs';
import { join } from 'node:path';
import type { RunningSandbox } from '@searchbook/sandbox/sandbox';
import type { GridReply } from '../../contracts/panel-protocol';
import { SECRETS } from '../drivers/helpers';
import { partialsOf, scratchDir } from '../export/export-helpers';
import { startExportSandbox } from '../export/export-sandbox';
import type { BreakingProxy } from '../support/breaking-proxy';
import {
  type ExecuteReply,
  type KernelClient,
  errorOf as cellError
} from '../support/kernel-client';
import {
  type PanelCommClient,
  kernelWithPanelComm,
  startExport
} from '../panel/panel-comm-client';

const COUNT = 3_000;
let kernel: KernelClient;
let sandbox: RunningSandbox;
let proxy: BreakingProxy;
let comm: PanelCommClient;
const cwd = scratchDir();
const mounts: string[] = [];

/** Whether this process may mount a tmpfs (root on Linux); the reason when not. */
function mountRefusal(): string | undefined {
  const probe = join(cwd, 'mount-probe');
  mkdirSync(probe);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], {
      stdio: 'pipe'
    });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `mounting a tmpfs failed (${String((err as Error).message).split('\n')[0]}); a root shell on Linux runs these cases`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

function deviceRefusal(): string | undefined {
  try {
    execFileSync('mknod', [join(cwd, 'device-probe'), 'c', '1', '3'], {
      stdio: 'pipe'
    });
    rmSync(join(cwd, 'device-probe'));
    return undefined;
  } catch (err) {
    return `mknod failed (${String((err as Error).message).split('\n')[0]})`;
  }
}

const cannotMount = mountRefusal();
const cannotMakeDevices = deviceRefusal();
if (cannotMount) {
  console.warn(
    `Skipped the read-only and full filesystem cases: ${cannotMount}.`
  );
}
if (cannotMakeDevices) {
  console.warn(
    `Skipped the device node made in a scratch folder (/dev/null itself is still tried): ${cannotMakeDevices}.`
  );
}
const asRoot = process.getuid?.() === 0;
if (asRoot) {
  console.warn(
    'Skipped the permission case: root may write into a folder without write permission, so EACCES does not occur; the read-only filesystem case stands for it.'
  );
}
const withMount = cannotMount ? it.skip : it;
const withoutRoot = asRoot ? it.skip : it;

/** A small tmpfs at `dir` (created), unmounted by the test's own `finally` or, failing that, afterAll. */
function mountTmpfs(dir: string, options: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  mounts.push(dir);
}

function unmount(dir: string): void {
  if (!mounts.includes(dir)) {
    return;
  }
  execFileSync('umount', ['-l', dir]);
  mounts.splice(mounts.indexOf(dir), 1);
}

beforeAll(async () => {
  const started = await startExportSandbox(COUNT);
  ({ sandbox, proxy } = started);
  const lines = [started.connect, started.windowCell(500)];
  ({ kernel, comm } = await kernelWithPanelComm(
    lines,
    { ...SECRETS },
    { cwd }
  ));
}, 60_000);
afterAll(async () => {
  for (const dir of [...mounts]) {
    unmount(dir);
  }
  await kernel?.close();
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
});

/** Sends the side panel's export request (of `products` on `es`, as JSONL unless `data` says); its answer and a wait for its first documents. */
const panelExport = (data: Record<string, unknown>) =>
  startExport(kernel, comm, {
    connection: 'es',
    target: 'products',
    format: 'jsonl',
    ...data
  });

const lines = (file: string) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean);
const errorOf = (answer: GridReply) =>
  answer.type === 'error' ? answer.message : `not an error: ${answer.type}`;
const evalue = (reply: ExecuteReply) => cellError(reply).evalue;
const traceback = (reply: ExecuteReply) =>
  cellError(reply).traceback.join('\n');
/**
 * Lets an export read two pages, the second after the kernel's progress interval (250 ms) so
 * that its progress shows documents, then holds its later pages until `release` is called: the
 * export is certainly still running for what the test does meanwhile, however slow the
 * machine, and ends as soon as the test lets it.
 */
function holdPagesAfterProgress(): { release(): void } {
  let release!: () => void;
  const released = new Promise<void>(resolve => (release = resolve));
  const searchesBefore = (index: number) =>
    proxy.seen.slice(0, index).filter(r => r.url === '/_search').length;
  proxy.rules.push(
    {
      matches: (_m, url, index) =>
        url === '/_search' && searchesBefore(index) === 1,
      delayMs: 300
    },
    {
      matches: (_m, url, index) =>
        url === '/_search' && searchesBefore(index) > 1,
      holdUntil: released
    }
  );
  return { release };
}

/** Requests that would read documents: none may be sent for a refused export. */
const reads = () =>
  proxy.seen.filter(r => r.url.includes('_pit') || r.url.includes('_search'));

describe('two exports to one file name at once', () => {
  it("a %export while the side panel writes the same file is refused, naming that export; the file is the panel's complete export", async () => {
    const pages = holdPagesAfterProgress();
    const panel = panelExport({ exportId: 'both', file: 'both.jsonl' });
    await panel.started();
    const seenBefore = proxy.seen.length;
    const refused = await kernel.execute(
      '%export products both.jsonl overwrite'
    );
    expect(refused.reply.content).toMatchObject({
      status: 'error',
      ename: 'ExportRunning'
    });
    expect(evalue(refused.reply)).toMatch(
      new RegExp(
        `^${join(cwd, 'both.jsonl')} is being written by another export \\(the side panel's export of products, running for [\\d.]+ s\\), so nothing was exported\\.$`
      )
    );
    expect(traceback(refused.reply)).toContain(
      'Wait for that export to end or stop it'
    );
    // The refused export opened no point in time of its own (the panel's reads go on).
    expect(
      proxy.seen
        .slice(seenBefore)
        .filter(r => r.method === 'POST' && r.url.includes('_pit'))
    ).toHaveLength(0);
    pages.release();
    const answer = await panel.answer();
    expect(answer).toMatchObject({
      type: 'exported',
      progress: { documents: COUNT }
    });
    const written = readFileSync(join(cwd, 'both.jsonl'));
    expect(written.includes(0)).toBe(false);
    // Exactly one export's output: the same lines as an export run alone.
    proxy.rules.length = 0;
    const alone = await kernel.execute('%export products alone.jsonl');
    expect(alone.reply.content.status).toBe('ok');
    expect(lines(join(cwd, 'both.jsonl')).sort()).toEqual(
      lines(join(cwd, 'alone.jsonl')).sort()
    );
    expect(readdirSync(cwd).filter(f => f.includes('.partial'))).toEqual([]);
  });

  it('two side panel exports with the same file name: the second is refused and the first completes', async () => {
    const pages = holdPagesAfterProgress();
    const first = panelExport({ exportId: 'first', file: 'products.jsonl' });
    await first.started();
    const second = await panelExport({
      exportId: 'second',
      file: 'products.jsonl',
      overwrite: true
    }).answer();
    expect(errorOf(second)).toMatch(
      /products\.jsonl is being written by another export \(the side panel's export of products, running for [\d.]+ s\), so nothing was exported\. Wait for that export to end/
    );
    pages.release();
    const answer = await first.answer();
    expect(answer).toMatchObject({
      type: 'exported',
      progress: { documents: COUNT }
    });
    expect(lines(join(cwd, 'products.jsonl'))).toHaveLength(COUNT);
    expect(readFileSync(join(cwd, 'products.jsonl')).includes(0)).toBe(false);
    // Once it ended, the name is free again.
    const again = await kernel.execute(
      '%export products products.jsonl overwrite'
    );
    expect(again.reply.content.status).toBe('ok');
  });
});

describe('only a regular file or a new name is ever replaced', () => {
  it('a named pipe (FIFO) is refused before anything is read, with or without overwrite, and stays a pipe', async () => {
    execFileSync('mkfifo', [join(cwd, 'pipe.jsonl')]);
    for (const line of [
      '%export products pipe.jsonl overwrite',
      '%export products pipe.jsonl'
    ]) {
      const { reply } = await kernel.execute(line);
      expect(reply.content).toMatchObject({
        status: 'error',
        ename: 'NotARegularFile'
      });
      expect(evalue(reply)).toBe(
        `${join(cwd, 'pipe.jsonl')} is a named pipe (FIFO), so nothing was exported: an export replaces only a regular file, never a pipe, device or socket.`
      );
      expect(traceback(reply)).toContain(
        `Name a regular file or a new name, for example ${join(cwd, 'products.jsonl')}.`
      );
    }
    expect(lstatSync(join(cwd, 'pipe.jsonl')).isFIFO()).toBe(true);
    expect(reads()).toHaveLength(0);
    expect(partialsOf(cwd, 'pipe.jsonl')).toEqual([]);
  });

  it('a symbolic link is refused and the file it points to is untouched', async () => {
    const elsewhere = join(cwd, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'kept.jsonl'), 'mine\n');
    symlinkSync(join(elsewhere, 'kept.jsonl'), join(cwd, 'link.jsonl'));
    const { reply } = await kernel.execute(
      '%export products link.jsonl overwrite'
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'NotARegularFile'
    });
    expect(evalue(reply)).toBe(
      `${join(cwd, 'link.jsonl')} is a symbolic link to ${join(elsewhere, 'kept.jsonl')}, so nothing was exported: an export replaces only a regular file, never a link or what it points to.`
    );
    expect(traceback(reply)).toContain(
      `Name the file itself (${join(elsewhere, 'kept.jsonl')}) if it is the one to replace, or a new name.`
    );
    expect(lstatSync(join(cwd, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(elsewhere, 'kept.jsonl'), 'utf8')).toBe('mine\n');
    expect(reads()).toHaveLength(0);
  });

  it('a directory with overwrite is refused up front: nothing is read, no partial file is written', async () => {
    mkdirSync(join(cwd, 'folder.jsonl'));
    const { reply } = await kernel.execute(
      '%export products folder.jsonl overwrite'
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'NotARegularFile'
    });
    expect(evalue(reply)).toBe(
      `${join(cwd, 'folder.jsonl')} is a directory, so nothing was exported: an export replaces only a regular file.`
    );
    expect(traceback(reply)).toContain(
      `Name a file inside it, for example ${join(cwd, 'folder.jsonl', 'products.jsonl')}.`
    );
    expect(reads()).toHaveLength(0);
    expect(readdirSync(cwd).filter(f => f.startsWith('folder.jsonl.'))).toEqual(
      []
    );
    // The side panel says the same, with the dialog's words.
    const answer = await panelExport({
      exportId: 'dir',
      file: 'folder.jsonl',
      overwrite: true
    }).answer();
    expect(errorOf(answer)).toMatch(
      /folder\.jsonl is a directory, so nothing was exported: an export replaces only a regular file\. Name a file inside it/
    );
    expect(reads()).toHaveLength(0);
  });

  it('a pipe made at the name while the export runs is not replaced: the complete export stays in the temporary file the answer names', async () => {
    const pages = holdPagesAfterProgress();
    const run = panelExport({
      exportId: 'late',
      file: 'late.jsonl',
      overwrite: true
    });
    await run.started();
    execFileSync('mkfifo', [join(cwd, 'late.jsonl')]);
    pages.release();
    const message = errorOf(await run.answer());
    expect(message).toMatch(
      new RegExp(
        `^The export of products could not write the file \\(${join(cwd, 'late.jsonl')} is a named pipe \\(FIFO\\), so it was not replaced\\) after 3,000 of 3,000 documents .*: late\\.jsonl was not written; the complete export is in late\\.jsonl\\.searchbook-[0-9a-f]{8}\\.partial\\.$`
      )
    );
    expect(lstatSync(join(cwd, 'late.jsonl')).isFIFO()).toBe(true);
    const [partial] = partialsOf(cwd, 'late.jsonl');
    expect(lines(partial as string)).toHaveLength(COUNT);
  });

  it('a device node is refused and stays one; so is /dev/null itself', async () => {
    // A node of the null device in the scratch folder is tried first: were it replaced, /dev/null is not tried.
    if (!cannotMakeDevices) {
      execFileSync('mknod', [join(cwd, 'null.jsonl'), 'c', '1', '3']);
      const twin = await kernel.execute(
        '%export products null.jsonl overwrite'
      );
      expect(twin.reply.content).toMatchObject({
        status: 'error',
        ename: 'NotARegularFile'
      });
      expect(evalue(twin.reply)).toBe(
        `${join(cwd, 'null.jsonl')} is a character device, so nothing was exported: an export replaces only a regular file, never a pipe, device or socket.`
      );
      expect(lstatSync(join(cwd, 'null.jsonl')).isCharacterDevice()).toBe(true);
      expect(partialsOf(cwd, 'null.jsonl')).toEqual([]);
    }
    const devNull = await kernel.execute(
      '%export products /dev/null overwrite'
    );
    expect(devNull.reply.content).toMatchObject({
      status: 'error',
      ename: 'NotARegularFile'
    });
    expect(evalue(devNull.reply)).toMatch(
      /^\/dev\/null is a character device, so nothing was exported/
    );
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter(f => f.startsWith('null.'))).toEqual([]);
    expect(reads()).toHaveLength(0);
  });
});

describe('filesystem errors are named as such, with the path', () => {
  it('a NUL in the path is refused before anything is sent, from a cell and from the side panel', async () => {
    const { reply } = await kernel.execute(
      '%export products "bad\u0000name.jsonl"'
    );
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'InvalidFileName'
    });
    expect(evalue(reply)).toContain(
      'holds a NUL character, so nothing was exported'
    );
    expect(evalue(reply)).not.toMatch(
      /ERR_INVALID_ARG|must be a string without null bytes/
    );
    const answer = await panelExport({
      exportId: 'nul',
      file: 'bad\u0000name.jsonl'
    }).answer();
    expect(errorOf(answer)).toContain(
      'holds a NUL character, so nothing was exported'
    );
    expect(reads()).toHaveLength(0);
  });

  it('a name too long for the filesystem is refused as ENAMETOOLONG, with the path, before anything is read', async () => {
    const name = `${'n'.repeat(300)}.jsonl`;
    const { reply } = await kernel.execute(`%export products ${name}`);
    expect(reply.content).toMatchObject({
      status: 'error',
      ename: 'FilesystemError'
    });
    expect(evalue(reply)).toBe(
      `Filesystem error ENAMETOOLONG (the name is too long) looking up ${join(cwd, name)}, so nothing was exported.`
    );
    expect(traceback(reply)).toContain('Give the file a shorter name.');
    expect(reads()).toHaveLength(0);
  });

  it('a long name that fits still exports: its temporary file name is cut to fit', async () => {
    const name = `${'l'.repeat(240)}.jsonl`;
    const { reply } = await kernel.execute(
      `%export products ${name}\n{"range": {"price": {"gte": 490}}}`
    );
    expect(reply.content.status).toBe('ok');
    expect(lines(join(cwd, name)).length).toBeGreaterThan(0);
  });

  withoutRoot(
    'a folder without write permission is refused as EACCES, with the path, before anything is read',
    async () => {
      const locked = join(cwd, 'locked');
      mkdirSync(locked, { mode: 0o555 });
      const { reply } = await kernel.execute(
        '%export products locked/out.jsonl'
      );
      expect(reply.content).toMatchObject({
        status: 'error',
        ename: 'FilesystemError'
      });
      expect(evalue(reply)).toMatch(
        new RegExp(
          `^Filesystem error EACCES \\(permission denied\\) creating ${join(locked, 'out.jsonl')}\\.searchbook-[0-9a-f]{8}\\.partial, so nothing was exported\\.$`
        )
      );
      expect(reads()).toHaveLength(0);
    }
  );

  withMount(
    'a read-only filesystem is refused as EROFS, with the path, before anything is read',
    async () => {
      const ro = join(cwd, 'ro');
      mountTmpfs(ro, 'size=64k,ro');
      try {
        const { reply } = await kernel.execute('%export products ro/out.jsonl');
        expect(reply.content).toMatchObject({
          status: 'error',
          ename: 'FilesystemError'
        });
        expect(evalue(reply)).toMatch(
          new RegExp(
            `^Filesystem error EROFS \\(the filesystem is read-only\\) creating ${join(ro, 'out.jsonl')}\\.searchbook-[0-9a-f]{8}\\.partial, so nothing was exported\\.$`
          )
        );
        expect(traceback(reply)).toContain(
          'Name a file on a filesystem that is not read-only.'
        );
        expect(reads()).toHaveLength(0);
      } finally {
        unmount(ro);
      }
    }
  );

  withMount(
    'a full disk stops the export with ENOSPC and the path; the old file stays as it was and no partial file is left',
    async () => {
      const full = join(cwd, 'full');
      mountTmpfs(full, 'size=256k');
      try {
        writeFileSync(join(full, 'old.jsonl'), 'mine\n');
        const { reply } = await kernel.execute(
          '%export products full/old.jsonl overwrite'
        );
        expect(reply.content).toMatchObject({
          status: 'error',
          ename: 'FilesystemError'
        });
        expect(evalue(reply)).toMatch(
          /^The export of products could not write the file \(filesystem error ENOSPC \(no space left on the device\) writing \/\S+\/full\/old\.jsonl\.searchbook-[0-9a-f]{8}\.partial\) after [\d,]+ of 3,000 documents .*: full\/old\.jsonl was not written; full\/old\.jsonl\.searchbook-[0-9a-f]{8}\.partial was removed\.$/
        );
        expect(evalue(reply)).not.toContain('engine error');
        expect(readFileSync(join(full, 'old.jsonl'), 'utf8')).toBe('mine\n');
        expect(readdirSync(full)).toEqual(['old.jsonl']);
      } finally {
        unmount(full);
      }
    }
  );
});

it('a kernel shut down during an export leaves no temporary file behind', async () => {
  const { kernel: other, comm: panel } = await kernelWithPanelComm(
    [
      `%connect elasticsearch ${proxy.url} user=elastic password=\${env:ES_PASSWORD} name=es`
    ],
    { ...SECRETS },
    { cwd }
  );
  const pages = holdPagesAfterProgress();
  try {
    await startExport(other, panel, {
      exportId: 'shut',
      connection: 'es',
      target: 'products',
      format: 'jsonl',
      file: 'shut.jsonl'
    }).started();
    expect(
      readdirSync(cwd).filter(f => f.startsWith('shut.jsonl'))
    ).toHaveLength(1);
    await other.request('control', 'shutdown_request', { restart: false });
    await other.exited();
    expect(readdirSync(cwd).filter(f => f.startsWith('shut.jsonl'))).toEqual(
      []
    );
  } finally {
    pages.release();
    await other.close();
  }
});

afterAll(() => {
  if (existsSync(cwd) && mounts.length === 0) {
    rmSync(cwd, { recursive: true, force: true });
  }
});
