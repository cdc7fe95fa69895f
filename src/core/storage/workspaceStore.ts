import { JsonlLog } from './jsonl';
import type { RecordParser } from './recordLog';
import { assertRelativePath, safeFileName } from './safeNames';
import { StorageError, quotePath, relabelStorageError } from './storageError';
import type { EntryInfo, WorkspaceFs, WriteOptions } from './workspaceFs';
import { visibleText } from '../visibleText';

export const GROUNDWORK_DIR = '.groundwork';
/** The one lock every writer of the workspace takes, relative to `.groundwork/`. */
const LOCK_FILE = '.lock';
/** The locks held by one session's step each, see `withSessionLock`. */
const SESSION_LOCKS_DIR = 'locks';
const DEFAULT_MAX_JSONL_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_TEXT_BYTES = 2 * 1024 * 1024;

/** `.groundwork/<rel>`: how a path inside the folder is shown to people, store or no store. */
export function displayPath(rel: string): string {
  return `${GROUNDWORK_DIR}/${rel}`;
}

export interface WorkspaceStoreOptions {
  /** The most of a JSONL log one read holds (default 16 MiB); of a larger log the newest lines are read. */
  maxJsonlBytes?: number;
  /** Cap for `readText` when the call gives none (default 2 MiB). */
  maxTextBytes?: number;
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * Everything Groundwork keeps lives under `<workspace>/.groundwork`, addressed by '/'-separated
 * paths relative to it. Every path is checked twice: lexically (no '..', no absolute path...)
 * and on disk (no symbolic link along the way may lead out of the folder), since a cloned
 * repository can contain a `.groundwork` with links planted in it.
 */
export class WorkspaceStore {
  /** `<workspace>/.groundwork`. */
  readonly root: string;
  private readonly workspaceRoot: string;
  private readonly windows: boolean;
  private readonly lockPath: string;
  private readonly maxJsonlBytes: number;
  private readonly maxTextBytes: number;
  private readonly decoder = new TextDecoder('utf-8');
  /** The port with every path checked and every message relative to the workspace. */
  private readonly guarded: WorkspaceFs;
  /** The real path of `root` as the last full check found it, for the one-call check of an existing path. */
  private rootReal: string | undefined;

  constructor(
    private readonly fs: WorkspaceFs,
    workspaceRoot: string,
    options: WorkspaceStoreOptions = {},
  ) {
    this.windows = WINDOWS_ABSOLUTE.test(workspaceRoot);
    if (!this.windows && !workspaceRoot.startsWith('/')) {
      throw new RangeError(`The workspace root must be an absolute path, got ${quotePath(workspaceRoot)}.`);
    }
    this.workspaceRoot = workspaceRoot.replace(/[\\/]+$/, '');
    this.root = `${this.workspaceRoot}/${GROUNDWORK_DIR}`;
    this.lockPath = this.pathOf(LOCK_FILE);
    this.maxJsonlBytes = options.maxJsonlBytes ?? DEFAULT_MAX_JSONL_BYTES;
    this.maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
    this.guarded = this.guardedFs();
  }

  /**
   * The port itself, for readers of the workspace outside `.groundwork/` (the agents' read tools),
   * which confine their paths themselves (core/tools/projectPaths.ts).
   */
  get files(): WorkspaceFs {
    return this.fs;
  }

  /** The absolute path of the workspace folder, without a trailing separator. */
  get folder(): string {
    return this.workspaceRoot;
  }

  /** The absolute path of `rel`, checked lexically and against symbolic links on disk. */
  async resolve(rel: string): Promise<string> {
    return this.io(() => this.check(this.pathOf(rel)));
  }

  /** The file as text, or undefined when it does not exist. */
  async readText(rel: string, maxBytes = this.maxTextBytes): Promise<string | undefined> {
    return this.io(async () => {
      const bytes = await this.fs.read(await this.check(this.pathOf(rel)), maxBytes);
      return bytes === undefined ? undefined : this.decoder.decode(bytes);
    });
  }

  /** The file's bytes, or undefined when it does not exist: for a reader that decodes a large file in parts. */
  async readBytes(rel: string, maxBytes = this.maxTextBytes): Promise<Uint8Array | undefined> {
    return this.io(async () => this.fs.read(await this.check(this.pathOf(rel)), maxBytes));
  }

  /** Replaces the file atomically, creating folders as needed. */
  async writeText(rel: string, text: string, mode?: number, options?: WriteOptions): Promise<void> {
    return this.io(async () => this.fs.writeAtomic(await this.check(this.pathOf(rel)), text, mode, options));
  }

  /**
   * A JSONL log; appends take the log's own lock (`locks/log-<name>.lock`), so an append never
   * waits for another area's save.
   */
  log<T>(rel: string, parser: RecordParser<T>, options: { maxBytes?: number } = {}): JsonlLog<T> {
    return new JsonlLog(this.guarded, this.pathOf(rel), parser, {
      maxBytes: options.maxBytes ?? this.maxJsonlBytes,
      lockPath: this.pathOf(`${SESSION_LOCKS_DIR}/log-${safeFileName(rel)}.lock`),
      displayPath: displayPath(rel),
    });
  }

  /** Names in a folder of `.groundwork` (the folder itself when `rel` is omitted); [] if missing. */
  async list(rel?: string): Promise<string[]> {
    return this.io(async () => this.fs.list(await this.check(rel === undefined ? this.root : this.pathOf(rel))));
  }

  /** What is at `rel` (a symbolic link is reported as one, not followed), or undefined. */
  async info(rel: string): Promise<EntryInfo | undefined> {
    return this.io(async () => this.fs.info(await this.check(this.pathOf(rel))));
  }

  /** Removes a file or a folder with its content; nothing there is not an error. */
  async remove(rel: string): Promise<void> {
    return this.io(async () => this.fs.remove(await this.check(this.pathOf(rel))));
  }

  /**
   * Moves a file, folder or link inside `.groundwork`; `to` must be free. A link is moved itself,
   * never what it points to, so its own target does not matter: the folders the entry leaves and
   * enters are what is checked (a link planted in a cloned repository can be set aside).
   */
  async move(fromRel: string, toRel: string): Promise<void> {
    return this.io(async () => {
      const from = this.pathOf(fromRel);
      const to = this.pathOf(toRel);
      await this.check(from.slice(0, from.lastIndexOf('/')));
      await this.check(to.slice(0, to.lastIndexOf('/')));
      await this.fs.rename(from, to);
    });
  }

  /**
   * Runs `fn` holding a lock that another window or the CLI respects, for read-modify-write
   * sequences that must not interleave with theirs. Without `area` it is the workspace lock; an
   * area (`plans`, `discovery`, …) has its own (`locks/area-<area>.lock`), so writers of different
   * areas never wait for each other. Every writer of a file must use the same area.
   */
  async withLock<T>(fn: () => Promise<T>, area?: string): Promise<T> {
    const lock =
      area === undefined ? this.lockPath : this.pathOf(`${SESSION_LOCKS_DIR}/area-${safeFileName(area)}.lock`);
    return this.guarded.withLock(lock, fn);
  }

  /**
   * Refuses, before a session creates anything, a path it will write that is not safe or not
   * writable as `kind`: a link leading out of `.groundwork` (refused as everywhere), or something
   * of another kind in the way (a folder, a FIFO or a link where a file goes). Missing is fine.
   */
  async checkWritable(rel: string, kind: 'file' | 'directory'): Promise<void> {
    const info = await this.info(rel);
    await this.resolve(rel);
    if (info === undefined || info.kind === kind) return;
    const what =
      info.kind === 'symlink'
        ? 'a symbolic link'
        : info.kind === 'other'
          ? 'a special file (a FIFO, socket or device)'
          : `a ${info.kind}`;
    throw new StorageError(
      'unsafe-path',
      displayPath(rel),
      `Refused to write ${quotePath(displayPath(rel))}: it is ${what}, where Groundwork keeps a ${kind}. Move it away, then try again.`,
    );
  }

  /**
   * Runs `fn` holding the lock of one session (`.groundwork/locks/<name>.lock`) for a whole step,
   * its model calls included, so that a second window or CLI run on the same session is refused
   * before it sends anything, rather than paying for the same call again. Never waits: a held lock
   * is StorageError 'busy' at once (a holder that died is taken over). No other lock is held
   * meanwhile; `fn` takes an area's or a log's lock for each write, as any writer does.
   */
  /**
   * Whether a process (this one included, outside the holder's own call chain) holds the session
   * lock `name`: found by trying it without waiting, so for that instant this call holds it itself.
   */
  async isSessionLockHeld(name: string): Promise<boolean> {
    try {
      await this.withSessionLock(name, async () => undefined);
      return false;
    } catch (err) {
      if (err instanceof StorageError && err.code === 'busy') return true;
      throw err;
    }
  }

  async withSessionLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const rel = `${SESSION_LOCKS_DIR}/${safeFileName(name)}.lock`;
    let entered = false;
    try {
      return await this.guarded.withLock(
        this.pathOf(rel),
        () => {
          entered = true;
          return fn();
        },
        { wait: false },
      );
    } catch (err) {
      if (entered || !(err instanceof StorageError) || err.code !== 'locked') throw err;
      throw new StorageError(
        'busy',
        displayPath(rel),
        `A step of ${visibleText(name)} is under way in another window or a groundwork command (it holds ${quotePath(displayPath(rel))}).`,
      );
    }
  }

  private pathOf(rel: string): string {
    return `${this.root}/${assertRelativePath(rel).join('/')}`;
  }

  /**
   * Refuses `path` (under `root`) when a symbolic link leads out of `.groundwork`: the real path
   * of its deepest existing ancestor must be inside the real path of the folder. Parts that do
   * not exist yet hold no links.
   */
  private async check(path: string): Promise<string> {
    if (path !== this.root && !path.startsWith(`${this.root}/`)) {
      throw new StorageError(
        'unsafe-path',
        path,
        `Refused to use ${quotePath(path)}: it is outside the .groundwork folder.`,
      );
    }
    const segments = path === this.root ? [] : assertRelativePath(path.slice(this.root.length + 1));
    if (segments.length > 0 && (await this.quickCheck(path))) return path;
    this.rootReal = undefined;
    const rootInfo = await this.fs.info(this.root);
    if (rootInfo === undefined) return path;
    if (rootInfo.kind !== 'directory') throw await this.badRoot(rootInfo.kind);
    const rootReal = await this.fs.realpath(this.root);
    for (let depth = segments.length; depth >= 1; depth--) {
      const real = await this.realIfExists(`${this.root}/${segments.slice(0, depth).join('/')}`);
      if (real === 'missing') continue;
      if (real === 'dangling' || !this.isInside(real, rootReal)) throw await this.escape(path, segments, rootReal);
      break;
    }
    this.rootReal = rootReal;
    return path;
  }

  /**
   * The check in one or two calls, as every write makes it (a lock file, counters, a log): true
   * when `path`, or the nearest folder above a missing one, has a real path inside the real path
   * the last full check found for the root. Anything else (the first check, a link, a dangling
   * link, a root that moved or became a link) is left to the full check, which names the culprit.
   */
  private async quickCheck(path: string): Promise<boolean> {
    const rootReal = this.rootReal;
    if (rootReal === undefined) return false;
    for (let at = path; at.length > this.root.length; at = at.slice(0, at.lastIndexOf('/'))) {
      const real = await this.fs.realpath(at).catch(() => undefined);
      if (real !== undefined) return this.isInside(real, rootReal);
      // Missing, or a link to nothing (which the full check refuses): only missing goes on up.
      if ((await this.fs.info(at)) !== undefined) return false;
    }
    return false;
  }

  /**
   * The real path of an entry, 'missing', or 'dangling' for a link to nothing. Other processes
   * create and remove files meanwhile (the lock file comes and goes constantly), so an entry that
   * vanishes between the two calls is looked at again rather than taken for a dangling link.
   */
  private async realIfExists(path: string): Promise<string | 'missing' | 'dangling'> {
    for (let attempt = 0; ; attempt++) {
      const info = await this.fs.info(path);
      if (info === undefined) return 'missing';
      const real = await this.fs.realpath(path).catch(() => undefined);
      if (real !== undefined) return real;
      if (info.kind === 'symlink' || attempt >= 10) return 'dangling';
    }
  }

  private async badRoot(kind: string): Promise<StorageError> {
    const shown = quotePath(this.root);
    if (kind === 'symlink') {
      const target = await this.fs.realpath(this.root).catch(() => 'a missing target');
      return new StorageError(
        'unsafe-path',
        this.root,
        `Refused to use ${shown}: it is a symbolic link (to ${quotePath(target)}), and Groundwork keeps its ` +
          `state only in a real .groundwork folder of the workspace. Replace the link with a folder.`,
      );
    }
    return new StorageError(
      'unsafe-path',
      this.root,
      `Refused to use ${shown}: it is a ${kind}, not a folder. Move it away so that Groundwork can create its folder.`,
    );
  }

  /** Names the link that leads out, for a message the user can act on. */
  private async escape(path: string, segments: string[], rootReal: string): Promise<StorageError> {
    for (let depth = 1; depth <= segments.length; depth++) {
      const link = `${this.root}/${segments.slice(0, depth).join('/')}`;
      if ((await this.fs.info(link))?.kind !== 'symlink') continue;
      const real = await this.fs.realpath(link).catch(() => undefined);
      if (real !== undefined && this.isInside(real, rootReal)) continue;
      const where = real === undefined ? 'a target that does not exist' : quotePath(real);
      return new StorageError(
        'unsafe-path',
        path,
        `Refused to use ${quotePath(path)}: ${quotePath(link)} is a symbolic link to ${where}, outside the ` +
          `.groundwork folder. Remove the link, or replace it with a real file or folder.`,
      );
    }
    return new StorageError(
      'unsafe-path',
      path,
      `Refused to use ${quotePath(path)}: its real location is outside the .groundwork folder. ` +
        `Check for symbolic links under ${quotePath(this.root)}.`,
    );
  }

  /** Compares path segments, never string prefixes: '/w/.groundwork-evil' is not inside '/w/.groundwork'. */
  private isInside(path: string, folder: string): boolean {
    const split = (p: string) =>
      p
        .split(this.windows ? /[\\/]/ : '/')
        .filter((s) => s !== '')
        .map((s) => (this.windows ? s.toLowerCase() : s));
    const inner = split(path);
    const outer = split(folder);
    return inner.length >= outer.length && outer.every((segment, i) => inner[i] === segment);
  }

  /** Shows StorageError paths relative to the workspace. */
  private async io<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      // A workspace at '/' has no prefix worth stripping.
      const prefix = this.workspaceRoot === '' ? '' : `${this.workspaceRoot}/`;
      throw err instanceof StorageError ? relabelStorageError(err, prefix) : err;
    }
  }

  private guardedFs(): WorkspaceFs {
    const fs = this.fs;
    const checked = <T>(path: string, op: (p: string) => Promise<T>) => this.io(async () => op(await this.check(path)));
    return {
      read: (path, maxBytes) => checked(path, (p) => fs.read(p, maxBytes)),
      readNewestLines: (path, maxBytes) => checked(path, (p) => fs.readNewestLines(p, maxBytes)),
      writeAtomic: (path, data, mode, options) => checked(path, (p) => fs.writeAtomic(p, data, mode, options)),
      appendRecord: (path, line) => checked(path, (p) => fs.appendRecord(p, line)),
      list: (dir) => checked(dir, (p) => fs.list(p)),
      info: (path) => checked(path, (p) => fs.info(p)),
      realpath: (path) => checked(path, (p) => fs.realpath(p)),
      remove: (path) => checked(path, (p) => fs.remove(p)),
      rename: (from, to) =>
        checked(from.slice(0, from.lastIndexOf('/')), () =>
          checked(to.slice(0, to.lastIndexOf('/')), () => fs.rename(from, to)),
        ),
      withLock: (lockPath, fn, options) => checked(lockPath, (p) => fs.withLock(p, fn, options)),
    };
  }
}
