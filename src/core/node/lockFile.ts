// The lock file shared by every process that writes a workspace (two VS Code windows and the
// CLI), as it is on disk: who holds it, creating it exclusively, judging it stale and taking a
// stale one over. Creating it exclusively (a hard link that fails when the name exists) is the
// mutual exclusion; the hard part is a lock left behind by a process that died, which must be
// taken over without two waiters both believing they did.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { isStorableMs } from '../clock';
import { errorCode, ioStorageError } from '../storage/storageError';
import { sweepTemps, tempPathFor } from './tempFiles';

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

export type Settings = Required<FileLockOptions>;

export interface Holder {
  pid: number;
  host: string;
  token: string;
  /** When it was taken, if the file says so in a usable form. */
  acquiredAt: number | undefined;
}

export interface Snapshot {
  raw: string;
  holder: Holder | undefined;
  mtimeMs: number;
  ino: number;
}

export const HOST = hostname();
const MAX_LOCK_BYTES = 4096;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export function settings(options: FileLockOptions): Settings {
  return {
    timeoutMs: options.timeoutMs ?? 10_000,
    staleMs: options.staleMs ?? 30_000,
    unreadableStaleMs: options.unreadableStaleMs ?? 2_000,
    stealStaleMs: options.stealStaleMs ?? 5_000,
  };
}

export function newToken(): string {
  return randomBytes(12).toString('hex');
}

export function parseHolder(raw: string): Holder | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return undefined;
    const h = v as Record<string, unknown>;
    if (!Number.isSafeInteger(h.pid) || typeof h.host !== 'string' || typeof h.token !== 'string') return undefined;
    // Any process can write the file: a time out of range is unknown, not a crash when shown.
    const acquiredAt = isStorableMs(h.acquiredAt) ? h.acquiredAt : undefined;
    return { pid: h.pid as number, host: h.host, token: h.token, acquiredAt };
  } catch {
    return undefined;
  }
}

/** Above every pid a system hands out (Linux's ceiling is 2^22); kill() refuses larger numbers. */
const MAX_PID = 2 ** 31 - 1;

/**
 * Whether a process of this host with this pid may still hold a lock. Numbers no process has
 * (kill() takes 0 and negative ones for process groups) are dead, and so is a zombie: it has
 * exited, its parent just has not collected its status, yet kill(pid, 0) still succeeds on it.
 */
function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!Number.isInteger(pid) || pid <= 0 || pid > MAX_PID) return false;
  if (procState(pid) === 'Z') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return errorCode(err) !== 'ESRCH';
  }
}

/** The state letter of /proc/<pid>/stat where there is one (Linux), e.g. 'R', 'S', 'Z'. */
function procState(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "<pid> (<name>) <state> ...": the name may itself hold spaces and parentheses.
    const end = stat.lastIndexOf(')');
    return end < 0 ? undefined : stat.charAt(end + 2);
  } catch {
    return undefined;
  }
}

/** The lock file as it is now, or undefined when there is none. Never follows a link. */
export async function readSnapshot(path: string): Promise<Snapshot | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return undefined;
    if (code !== 'ELOOP' && code !== 'EMLINK' && code !== 'ENXIO') throw ioStorageError('read the lock', path, err);
    // A planted link (ELOOP, EMLINK) or socket (ENXIO) is an unreadable lock, as a planted FIFO
    // is: it ages into staleness and is then removed.
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

/**
 * A lock of this host is stamped with this clock (see `stampWithThisClock` and the heartbeat in
 * fileLock.ts): further ahead than a small step of the clock, its mtime is no holder's.
 */
const SAME_HOST_CLOCK_SKEW_MS = 5_000;

/**
 * Whether the lock may be taken over: its holder on this host is gone (see `isAlive`), or the
 * lock has not been refreshed for long. An mtime further in the future than a holder could have
 * set (written by hand, or by a clock since set back) says nothing about when the lock was last
 * refreshed; counted as fresh, it would stay fresh until that time came, and every writer would
 * time out until someone deleted the file.
 */
export function isStale(snap: Snapshot, staleMs: number, unreadableStaleMs: number): boolean {
  const holder = snap.holder;
  if (holder?.host === HOST && !isAlive(holder.pid)) return true;
  const age = Date.now() - snap.mtimeMs;
  // Another host's clock may run ahead as it may run behind. Behind, its lock looks stale once
  // the lag nears the stale age; ahead, it is trusted as far. An unreadable lock's host is unknown.
  const aheadAllowed = holder?.host === HOST ? SAME_HOST_CLOCK_SKEW_MS : staleMs;
  if (-age > aheadAllowed) return true;
  return age > (holder === undefined ? unreadableStaleMs : staleMs);
}

/**
 * Creates the file only if there is none; false when it exists. The content is written to a
 * temp file first and hard-linked into place, so that the lock never exists empty: a writer
 * killed in between leaves only a temp file (hidden from listings, swept later), not a lock
 * that everyone has to wait out. Where hard links are not supported, O_EXCL create + write.
 */
export async function createExclusive(path: string, content: string): Promise<boolean> {
  const temp = tempPathFor(path);
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(temp, 'wx', 0o644);
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw ioStorageError('create the lock', path, err);
    await fsp.mkdir(dirname(path), { recursive: true }).catch((e: unknown) => {
      throw ioStorageError('create the folder of', path, e);
    });
    return createExclusive(path, content);
  }
  // From here the temp file exists: every way out removes it, or a full disk fills up with them
  // (one more each time a waiter tries again). One that cannot be removed is swept later.
  await fillOrRemove(handle, temp, content, 'create the lock', path);
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
  // Ours, and unusable if the write fails: left behind, it would block everyone until it went stale.
  await fillOrRemove(handle, path, content, 'write the lock', path);
  return true;
}

/**
 * Writes `content` to the newly created `file` through `handle`, stamps and closes it; on any
 * failure (a full disk) closes and removes `file`, and throws saying what could not be done.
 */
async function fillOrRemove(
  handle: fsp.FileHandle,
  file: string,
  content: string,
  action: string,
  shown: string,
): Promise<void> {
  try {
    await handle.writeFile(content);
    await stampWithThisClock(handle);
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.unlink(file).catch(() => undefined);
    throw ioStorageError(action, shown, err);
  }
}

/**
 * A lock's mtime is its holder's clock, as its heartbeat sets it (see `isStale`), from the
 * start: a file system may stamp a new file with another clock (an NFS server's). Best effort,
 * as the heartbeat is: where times cannot be set, the file system's stamp is all there is.
 */
async function stampWithThisClock(handle: fsp.FileHandle): Promise<void> {
  const now = new Date();
  await handle.utimes(now, now).catch(() => undefined);
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
export async function takeSteal(stealPath: string, s: Settings): Promise<string | undefined> {
  const token = newToken();
  const content = JSON.stringify({ pid: process.pid, host: HOST, token, acquiredAt: Date.now() });
  if (await createExclusive(stealPath, content)) return token;
  const snap = await readSnapshot(stealPath);
  if (snap === undefined || !isStale(snap, s.stealStaleMs, s.unreadableStaleMs)) return undefined;
  await unlinkIfUnchanged(stealPath, snap);
  return (await createExclusive(stealPath, content)) ? token : undefined;
}

export async function dropSteal(stealPath: string, token: string): Promise<void> {
  const snap = await readSnapshot(stealPath).catch(() => undefined);
  if (snap?.holder?.token === token) await fsp.unlink(stealPath).catch(() => undefined);
}

/** Removes the lock if it is still the stale one that was seen; true when it is gone. */
export async function steal(path: string, seen: Snapshot, s: Settings): Promise<boolean> {
  const stealPath = `${path}.steal`;
  const token = await takeSteal(stealPath, s);
  if (token === undefined) return false;
  try {
    const now = await readSnapshot(path);
    if (now === undefined) return true;
    if (now.raw !== seen.raw || now.ino !== seen.ino || !isStale(now, s.staleMs, s.unreadableStaleMs)) return false;
    await unlinkIfUnchanged(path, now);
    // A lock writer that finds its temp file gone starts again, so a dead pid is enough here.
    const writerGone = (pid: number) => !isAlive(pid);
    await sweepTemps(dirname(path), { of: path, writerGone });
    await sweepTemps(dirname(path), { of: stealPath, writerGone });
    return true;
  } finally {
    await dropSteal(stealPath, token);
  }
}
