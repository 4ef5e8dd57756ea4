/**
 * Filesystem failures of an export, told as what they are (with the error code and the path),
 * never mixed up with the engine's.
 */

/** An error from Node's fs layer: it carries the system's error code and the call that failed. */
export function isFileSystemError(
  err: unknown
): err is NodeJS.ErrnoException & { code: string } {
  // Not `instanceof Error`: errors made in another realm (a vm context, as under test runners) are not.
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as NodeJS.ErrnoException).code === 'string' &&
    typeof (err as NodeJS.ErrnoException).syscall === 'string' &&
    typeof (err as Error).message === 'string'
  );
}

const MEANING: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than the filesystem allows',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the filesystem is read-only',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EEXIST: 'it exists already',
  EXDEV: 'not on the same filesystem',
  EIO: 'an input/output error of the device',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files'
};

/** `filesystem error ENOSPC (no space left on the device) writing /path`: what failed, on which path. */
export function fileSystemErrorText(
  err: NodeJS.ErrnoException & { code: string },
  doing: string,
  path: string
): string {
  const meaning = Object.hasOwn(MEANING, err.code)
    ? MEANING[err.code]
    : err.message;
  return `filesystem error ${err.code} (${meaning}) ${doing} ${path}`;
}
