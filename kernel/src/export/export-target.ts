/**
 * What an export may write to, checked before anything is read from the engine and again just
 * before the finished file is renamed into place: a new name, or (with overwrite) a regular
 * file. A directory, a named pipe, a device node, a socket or a symbolic link is never replaced
 * (lstat: a link is judged as itself, not as what it points to), whatever overwrite says.
 */
import type { Stats } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileSystemErrorText, isFileSystemError } from './file-errors';

export class ExportRefused extends Error {
  constructor(
    readonly ename: string,
    message: string,
    readonly hint: string,
    /** What was found, without "so nothing was exported" (e.g. `/x is a directory`). */
    readonly found: string = message,
    /** The same advice for the side panel's export dialog, where there is no %export line. */
    readonly dialogHint: string = hint
  ) {
    super(message);
  }
}

const FIX: Record<string, string> = {
  ENAMETOOLONG: 'Give the file a shorter name.',
  EACCES:
    "Name a file in a folder the kernel may write to (it runs as the user who started Jupyter), or change that folder's permissions.",
  EPERM:
    "Name a file in a folder the kernel may write to (it runs as the user who started Jupyter), or change that folder's permissions.",
  EROFS: 'Name a file on a filesystem that is not read-only.',
  ENOSPC: 'Free some space on that filesystem, or name a file on another one.',
  EDQUOT: 'Free some space on that filesystem, or name a file on another one.'
};

/** A filesystem failure before the export started: named as one, with the path. */
export function fileSystemRefusal(
  err: unknown,
  doing: string,
  path: string
): ExportRefused {
  if (!isFileSystemError(err)) {
    return new ExportRefused(
      'FilesystemError',
      `${(err as Error).message} (${doing} ${path}), so nothing was exported.`,
      'Name another file.'
    );
  }
  const fix = Object.hasOwn(FIX, err.code)
    ? (FIX[err.code] as string)
    : 'Name another file, or correct the path.';
  const text = fileSystemErrorText(err, doing, path);
  return new ExportRefused(
    'FilesystemError',
    `${text.charAt(0).toUpperCase()}${text.slice(1)}, so nothing was exported.`,
    fix
  );
}

/** A path Node's fs calls would refuse with an argument error: told in the export's own words. */
export function refuseNul(file: string): void {
  if (file.includes('\0')) {
    throw new ExportRefused(
      'InvalidFileName',
      `The path ${JSON.stringify(file)} holds a NUL character, so nothing was exported.`,
      'Write the file name without it: no file name can hold a NUL character.'
    );
  }
}

/**
 * The folder exists and is one; returns the file's path with the folder's symbolic links
 * resolved, which names the file the same way whichever path led to it.
 */
export async function resolveFolder(file: string): Promise<string> {
  const folder = dirname(file);
  let info: Stats;
  try {
    info = await stat(folder);
  } catch (err) {
    if (isFileSystemError(err) && err.code === 'ENOENT') {
      throw noSuchFolder(folder);
    }
    throw fileSystemRefusal(err, 'reading the folder', folder);
  }
  if (!info.isDirectory()) {
    throw new ExportRefused(
      'NoSuchDirectory',
      `${folder} is not a folder, so nothing was exported.`,
      'Name a file in a folder that exists (a relative name is written next to the notebook).'
    );
  }
  try {
    return join(await realpath(folder), basename(file));
  } catch (err) {
    throw fileSystemRefusal(err, 'reading the folder', folder);
  }
}

function noSuchFolder(folder: string): ExportRefused {
  return new ExportRefused(
    'NoSuchDirectory',
    `The folder ${folder} does not exist, so nothing was exported.`,
    'Create it first, or name a file in a folder that exists (a relative name is written next to the notebook).'
  );
}

function kindOf(info: Stats): string | undefined {
  if (info.isFile()) {
    return undefined;
  }
  if (info.isSymbolicLink()) {
    return 'a symbolic link';
  }
  if (info.isDirectory()) {
    return 'a directory';
  }
  if (info.isFIFO()) {
    return 'a named pipe (FIFO)';
  }
  if (info.isCharacterDevice()) {
    return 'a character device';
  }
  if (info.isBlockDevice()) {
    return 'a block device';
  }
  if (info.isSocket()) {
    return 'a socket';
  }
  return 'not a regular file';
}

/**
 * Refuses unless `file` is a new name, or a regular file and `overwrite` is given. `example` is a
 * file name to suggest (e.g. `products.jsonl`).
 */
export async function checkReplaceable(
  file: string,
  overwrite: boolean,
  example: string
): Promise<void> {
  let info: Stats;
  try {
    info = await lstat(file);
  } catch (err) {
    if (isFileSystemError(err) && err.code === 'ENOENT') {
      return;
    }
    throw fileSystemRefusal(err, 'looking up', file);
  }
  const kind = kindOf(info);
  if (kind === undefined) {
    if (overwrite) {
      return;
    }
    throw new ExportRefused(
      'FileExists',
      `${file} exists, so nothing was exported.`,
      'Add overwrite to the %export line to replace it, or name another file.',
      `${file} exists`,
      'Tick "Replace an existing file" in the export dialog to replace it, or name another file.'
    );
  }
  if (info.isSymbolicLink()) {
    const to = await readlink(file).catch(() => undefined);
    const link = `${file} is a symbolic link${to === undefined ? '' : ` to ${to}`}`;
    throw new ExportRefused(
      'NotARegularFile',
      `${link}, so nothing was exported: an export replaces only a regular file, never a link or what it points to.`,
      `Name the file itself${to === undefined ? '' : ` (${to})`} if it is the one to replace, or a new name.`,
      link
    );
  }
  if (info.isDirectory()) {
    throw new ExportRefused(
      'NotARegularFile',
      `${file} is a directory, so nothing was exported: an export replaces only a regular file.`,
      `Name a file inside it, for example ${join(file, example)}.`,
      `${file} is a directory`
    );
  }
  throw new ExportRefused(
    'NotARegularFile',
    `${file} is ${kind}, so nothing was exported: an export replaces only a regular file, never a pipe, device or socket.`,
    `Name a regular file or a new name, for example ${join(dirname(file), example)}.`,
    `${file} is ${kind}`
  );
}
