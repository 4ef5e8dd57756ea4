/**
 * Reads and writes the profiles file. Writes are atomic (a temporary file in the same
 * directory, then rename), so a reader or a crash never sees half a file, and the file is
 * private to the user (0600) although it holds no secret: host names and user names are
 * still nobody else's business.
 */
import { randomBytes } from 'node:crypto';
// Through the `promises` object (not a copied namespace), so a test can make one call fail.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { userConfigDir } from '../protocol/jupyter-paths';
import { SearchbookError } from '../../../contracts/errors';
import {
  describeProfileIssue,
  type Profile,
  type ProfilesFile,
  ProfilesFileSchema
} from './profile-schema';

export class ProfileFileError extends SearchbookError {
  override readonly name = 'ProfileFileError';
  override readonly code = 'SEARCHBOOK_ERR_PROFILE_FILE';
}

/** `<Jupyter config dir>/searchbook/profiles.json`; JUPYTER_CONFIG_DIR moves it. */
export function profilesPath(
  env: Record<string, string | undefined> = process.env
): string {
  return join(userConfigDir(env), 'searchbook', 'profiles.json');
}

export class ProfileStore {
  constructor(readonly path: string = profilesPath()) {}

  /** The file's profiles; no file yet means none. A bad file is an error naming the field. */
  async load(): Promise<ProfilesFile> {
    let text: string;
    try {
      text = await fs.readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return { version: 1, profiles: [] };
      }
      throw new ProfileFileError(
        `Cannot read ${this.path} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`
      );
    }
    return this.parse(text);
  }

  async get(name: string): Promise<Profile | undefined> {
    return (await this.load()).profiles.find(p => p.name === name);
  }

  /** Adds the profile, or replaces the one of the same name; returns the one it replaced. */
  async put(profile: Profile): Promise<Profile | undefined> {
    const file = await this.load();
    const index = file.profiles.findIndex(p => p.name === profile.name);
    const previous = index >= 0 ? file.profiles[index] : undefined;
    if (index >= 0) {
      file.profiles[index] = profile;
    } else {
      file.profiles.push(profile);
    }
    await this.write(file);
    return previous;
  }

  /** Removes a profile; returns it, or undefined when there was none of that name. */
  async remove(name: string): Promise<Profile | undefined> {
    const file = await this.load();
    const previous = file.profiles.find(p => p.name === name);
    if (!previous) {
      return undefined;
    }
    await this.write({
      ...file,
      profiles: file.profiles.filter(p => p !== previous)
    });
    return previous;
  }

  /** Validates, then replaces the file atomically with mode 0600. */
  async write(file: ProfilesFile): Promise<void> {
    const checked = ProfilesFileSchema.parse(file);
    const dir = dirname(this.path);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = join(
      dir,
      `.${basename(this.path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
    );
    try {
      // 'wx': never follow or reuse an existing file; the mode applies from the first byte.
      const handle = await fs.open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(checked, null, 2)}\n`, 'utf8');
        await handle.chmod(0o600); // a umask cannot widen it, but be explicit
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, this.path);
    } catch (err) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw new ProfileFileError(
        `Cannot write ${this.path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the previous file is unchanged.`
      );
    }
  }

  private parse(text: string): ProfilesFile {
    const name = basename(this.path);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      // JSON.parse's message quotes the text around the mistake, which may be a secret typed
      // into the file by hand: report only the place.
      throw new ProfileFileError(
        `${this.path} is not valid JSON${jsonPlace(text, (err as Error).message)}; check its quotes and commas.`
      );
    }
    const parsed = ProfilesFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ProfileFileError(
        `${name}: ${issue ? describeProfileIssue(issue) : 'invalid'} (in ${this.path})`
      );
    }
    return parsed.data;
  }
}

function jsonPlace(text: string, message: string): string {
  const at = /position (\d+)/.exec(message)?.[1];
  if (at === undefined) {
    return '';
  }
  const before = text.slice(0, Number(at));
  const line = before.split('\n').length;
  return ` at line ${line}, column ${Number(at) - before.lastIndexOf('\n')}`;
}
