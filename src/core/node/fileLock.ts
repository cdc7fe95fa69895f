// A lock file shared by every process that writes a workspace: two VS Code windows and the CLI.
// Creating it exclusively (a hard link that fails when the name exists) is the mutual exclusion;
// the hard part is a lock left behind by a process that died, which must be taken over without
// two waiters both believing they did.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { StorageError, errorCode, ioStorageError, quotePath } from '../storage/storageError';

export interface FileLockOptions {
  /** How long to wait for a held lock before StorageError 'locked' (default 10 s). */
  timeoutMs?: number;
  /** A lock not refreshed for this long is taken over, whoever holds it (default 30 s). */
  staleMs?: number;
  /**
   * An empty or unreadable lock this old is taken over (default 2 s): written by hand, or by a
   * writer killed mid-way on a file system without hard links.
   */
  unreadableStaleMs?: number;
  /** A `.steal` file this old is removed: its taker died mid-steal (default 5 s). */
  stealStaleMs?: number;
}

type Settings = Required<FileLockOptions>;

interface Holder {
  pid: number;
  host: string;
  token: string;
  acquiredAt: number;
}

interface Snapshot {
  raw: string;
  holder: Holder | undefined;
  mtimeMs: number;
  ino: number;
}

const HOST = hostname();
const MAX_LOCK_BYTES = 4096;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

function settings(options: FileLockOptions): Settings {
  return {
    timeoutMs: options.timeoutMs ?? 10_000,
    staleMs: options.staleMs ?? 30_000,
    unreadableStaleMs: options.unreadableStaleMs ?? 2_000,
    stealStaleMs: options.stealStaleMs ?? 5_000,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Short jittered waits, so that waiters neither spin nor wake in step. */
function backoff(attempt: number): number {
  return Math.min(2 * 1.5 ** attempt, 50) * (0.5 + Math.random());
}

function newToken(): string {
  return randomBytes(12).toString('hex');
}

function parseHolder(raw: string): Holder | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return undefined;
    const h = v as Record<string, unknown>;
    if (!Number.isSafeInteger(h.pid) || typeof h.host !== 'string' || typeof h.token !== 'string') return undefined;
    return { pid: h.pid as number, host: h.host, token: h.token, acquiredAt: typeof h.acquiredAt === 'number' ? h.acquiredAt : 0 };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return errorCode(err) !== 'ESRCH';
  }
}

/** The lock file as it is now, or undefined when there is none. Never follows a link. */
async function readSnapshot(path: string): Promise<Snapshot | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return undefined;
    if (code !== 'ELOOP' && code !== 'EMLINK') throw ioStorageError('read the lock', path, err);
    // A planted link is an unreadable lock: it ages into staleness and is then removed.
    const st = await fsp.lstat(path).catch(() => undefined);
    return st && { raw: '', holder: undefined, mtimeMs: st.mtimeMs, ino: st.ino };
  }
  try {
    const st = await handle.stat();
    let raw = '';
    if (st.isFile()) {
      const buf = Buffer.alloc(MAX_LOCK_BYTES);
      const { bytesRead } = await handle.read(buf, 0, MAX_LOCK_BYTES, 0);
      raw = buf.subarray(0, bytesRead).toString('utf8');
    }
    return { raw, holder: parseHolder(raw), mtimeMs: st.mtimeMs, ino: st.ino };
  } finally {
    await handle.close();
  }
}

/** Whether the lock may be taken over: its holder is gone, or it has not been refreshed for long. */
function isStale(snap: Snapshot, staleMs: number, unreadableStaleMs: number): boolean {
  const age = Date.now() - snap.mtimeMs;
  if (snap.holder === undefined) return age > unreadableStaleMs;
  if (snap.holder.host === HOST && !isAlive(snap.holder.pid)) return true;
  return age > staleMs;
}

/** Where the content of a lock is written before it is linked into place. */
function tempFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

function tempPattern(path: string): RegExp {
  const escaped = basename(path).replace(/[.*+?^$|()[\]{}\\]/g, '\\$&');
  return new RegExp('^\\.' + escaped + '\\.tmp-(\\d+)-[0-9a-f]{8}$');
}

/**
 * Creates the file only if there is none; false when it exists. The content is written to a
 * temp file first and hard-linked into place, so that the lock never exists empty: a writer
 * killed in between leaves only a temp file (hidden from listings, swept later), not a lock
 * that everyone has to wait out. Where hard links are not supported, O_EXCL create + write.
 */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const temp = tempFor(path);
  try {
    await fsp.writeFile(temp, content, { flag: 'wx', mode: 0o644 });
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw ioStorageError('create the lock', path, err);
    await fsp.mkdir(dirname(path), { recursive: true }).catch((e: unknown) => {
      throw ioStorageError('create the folder of', path, e);
    });
    return createExclusive(path, content);
  }
  try {
    await fsp.link(temp, path);
    return true;
  } catch (err) {
    const code = errorCode(err);
    if (code === 'EEXIST') return false;
    // The temp was swept by a process that judged it abandoned: start again.
    if (code === 'ENOENT') return createExclusive(path, content);
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV') {
      return createByOpen(path, content);
    }
    throw ioStorageError('create the lock', path, err);
  } finally {
    await fsp.unlink(temp).catch(() => undefined);
  }
}

async function createByOpen(path: string, content: string): Promise<boolean> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, 'wx', 0o644);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw ioStorageError('create the lock', path, err);
  }
  try {
    await handle.writeFile(content);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.unlink(path).catch(() => undefined);
    throw ioStorageError('write the lock', path, err);
  }
  await handle.close();
  return true;
}

/** After a crash: removes the temp files of lock writers that are gone (or a minute old). */
async function sweepTemps(path: string): Promise<void> {
  const pattern = tempPattern(path);
  const dir = dirname(path);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined) continue;
    const st = await fsp.lstat(join(dir, name)).catch(() => undefined);
    if (st === undefined) continue;
    if (!isAlive(Number(pid)) || Date.now() - st.mtimeMs > 60_000) await fsp.unlink(join(dir, name)).catch(() => undefined);
  }
}

async function unlinkIfUnchanged(path: string, seen: Snapshot): Promise<void> {
  const now = await readSnapshot(path);
  if (now === undefined || now.raw !== seen.raw || now.ino !== seen.ino) return;
  await fsp.unlink(path).catch((err: unknown) => {
    if (errorCode(err) !== 'ENOENT') throw ioStorageError('remove the stale lock', path, err);
  });
}

/**
 * Takes the `.steal` file that serializes everyone who removes the lock (stealers and the
 * owner releasing it), so that one of them cannot remove a lock another has just created.
 * Returns its token, or undefined when someone else has it.
 */
async function takeSteal(stealPath: string, s: Settings): Promise<string | undefined> {
  const token = newToken();
  const content = JSON.stringify({ pid: process.pid, host: HOST, token, acquiredAt: Date.now() });
  if (await createExclusive(stealPath, content)) return token;
  const snap = await readSnapshot(stealPath);
  if (snap === undefined || !isStale(snap, s.stealStaleMs, s.unreadableStaleMs)) return undefined;
  await unlinkIfUnchanged(stealPath, snap);
  return (await createExclusive(stealPath, content)) ? token : undefined;
}

async function dropSteal(stealPath: string, token: string): Promise<void> {
  const snap = await readSnapshot(stealPath).catch(() => undefined);
  if (snap?.holder?.token === token) await fsp.unlink(stealPath).catch(() => undefined);
}

/** Removes the lock if it is still the stale one that was seen; true when it is gone. */
async function steal(path: string, seen: Snapshot, s: Settings): Promise<boolean> {
  const stealPath = `${path}.steal`;
  const token = await takeSteal(stealPath, s);
  if (token === undefined) return false;
  try {
    const now = await readSnapshot(path);
    if (now === undefined) return true;
    if (now.raw !== seen.raw || now.ino !== seen.ino || !isStale(now, s.staleMs, s.unreadableStaleMs)) return false;
    await unlinkIfUnchanged(path, now);
    await sweepTemps(path);
    await sweepTemps(stealPath);
    return true;
  } finally {
    await dropSteal(stealPath, token);
  }
}

function lockedError(path: string, snap: Snapshot | undefined, timeoutMs: number): StorageError {
  const h = snap?.holder;
  const who =
    h === undefined
      ? 'an unknown process (the lock file is empty or unreadable)'
      : `process ${h.pid} on ${h.host === HOST ? 'this computer' : `host '${h.host}'`} since ${new Date(h.acquiredAt).toISOString()}`;
  return new StorageError(
    'locked',
    path,
    `Timed out after ${Math.round(timeoutMs / 100) / 10} s waiting for the lock ${quotePath(path)}, held by ${who}. ` +
      `If that process (another VS Code window or a groundwork command) is still working, try again when it ` +
      `finishes. If it hung, end it; if no Groundwork process is running, delete ${quotePath(path)}.`,
  );
}

const held = new Set<FileLock>();
let exitHookInstalled = false;

/** One held lock file. Prefer `withFileLock`, which also orders waiters of this process. */
export class FileLock {
  private released = false;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private touching = false;

  private constructor(
    readonly path: string,
    private readonly token: string,
    private readonly s: Settings,
  ) {
    // A holder that works longer than the stale age keeps its lock by refreshing its mtime.
    this.heartbeat = setInterval(() => void this.touch(), Math.max(1000, s.staleMs / 3));
    this.heartbeat.unref();
    held.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const lock of held) lock.releaseSync();
      });
    }
  }

  static async acquire(path: string, options: FileLockOptions = {}): Promise<FileLock> {
    const s = settings(options);
    return FileLock.acquireBy(path, s, Date.now() + s.timeoutMs);
  }

  /** @internal Waits until `deadline`; messages still say the whole wait was `s.timeoutMs`. */
  static async acquireBy(path: string, s: Required<FileLockOptions>, deadline: number): Promise<FileLock> {
    const token = newToken();
    const content = JSON.stringify({ pid: process.pid, host: HOST, token, acquiredAt: Date.now() });
    for (let attempt = 0; ; attempt++) {
      if (await createExclusive(path, content)) return new FileLock(path, token, s);
      const snap = await readSnapshot(path);
      if (snap !== undefined) {
        if (isStale(snap, s.staleMs, s.unreadableStaleMs) && (await steal(path, snap, s))) continue;
        if (Date.now() >= deadline) throw lockedError(path, snap, s.timeoutMs);
      } else if (Date.now() >= deadline) {
        throw lockedError(path, undefined, s.timeoutMs);
      } else {
        continue;
      }
      await sleep(Math.min(backoff(attempt), Math.max(1, deadline - Date.now())));
    }
  }

  /** Removes the lock file only if it still holds our token: a stealer may have taken it. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    held.delete(this);
    const stealPath = `${this.path}.steal`;
    const deadline = Date.now() + this.s.stealStaleMs + 1000;
    let stealToken = await takeSteal(stealPath, this.s).catch(() => undefined);
    for (let attempt = 0; stealToken === undefined && Date.now() < deadline; attempt++) {
      await sleep(backoff(attempt));
      stealToken = await takeSteal(stealPath, this.s).catch(() => undefined);
    }
    try {
      const snap = await readSnapshot(this.path);
      if (snap?.holder?.token !== this.token) return;
      await fsp.unlink(this.path).catch((err: unknown) => {
        if (errorCode(err) !== 'ENOENT') throw ioStorageError('release the lock', this.path, err);
      });
    } finally {
      if (stealToken !== undefined) await dropSteal(stealPath, stealToken);
    }
  }

  private async touch(): Promise<void> {
    if (this.touching || this.released) return;
    this.touching = true;
    try {
      const snap = await readSnapshot(this.path);
      if (snap?.holder?.token === this.token && !this.released) {
        const now = new Date();
        await fsp.utimes(this.path, now, now);
      }
    } catch {
      // Best effort: a missed refresh only matters after staleMs without any.
    } finally {
      this.touching = false;
    }
  }

  /** On process exit only synchronous calls run; a lock left anyway is recovered as stale. */
  private releaseSync(): void {
    try {
      if (parseHolder(readFileSync(this.path, 'utf8'))?.token === this.token) unlinkSync(this.path);
    } catch {
      // Nothing more can be done while exiting.
    }
  }
}

const heldInChain = new AsyncLocalStorage<ReadonlySet<string>>();
const queues = new Map<string, Promise<void>>();

/** Waits for the turn of this process; returns the function that ends it. */
async function enterQueue(path: string, deadline: number, timeoutMs: number): Promise<() => void> {
  const previous = queues.get(path) ?? Promise.resolve();
  let leave!: () => void;
  const mine = new Promise<void>((resolve) => (leave = resolve));
  const tail = previous.then(() => mine);
  queues.set(path, tail);
  const end = () => {
    leave();
    if (queues.get(path) === tail) queues.delete(path);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = await Promise.race([
    previous.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now())))),
  ]);
  clearTimeout(timer);
  if (!timedOut) return end;
  end();
  throw new StorageError(
    'locked',
    path,
    `Timed out after ${Math.round(timeoutMs / 100) / 10} s waiting for the lock ${quotePath(path)}: this ` +
      `process is still using it for another operation. Try again when that finishes.`,
  );
}

/**
 * Runs `fn` holding the lock file at `path`. Waiters in this process queue in order; a call
 * made inside `fn` (in its async call chain) that asks for the same lock runs without waiting.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const outer = heldInChain.getStore();
  if (outer?.has(path)) return fn();
  const s = settings(options);
  const deadline = Date.now() + s.timeoutMs;
  const leave = await enterQueue(path, deadline, s.timeoutMs);
  try {
    const lock = await FileLock.acquireBy(path, s, deadline);
    try {
      return await heldInChain.run(new Set([...(outer ?? []), path]), fn);
    } finally {
      await lock.release();
    }
  } finally {
    leave();
  }
}
