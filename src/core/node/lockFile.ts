// The lock file shared by every process that writes a workspace (two VS Code windows and the
// CLI), as it is on disk: who holds it, creating it exclusively, judging it stale and taking a
// stale one over. Creating it exclusively (a hard link that fails when the name exists) is the
// mutual exclusion; the hard part is a lock left behind by a process that died, which must be
// taken over without two waiters both believing they did.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
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
export async function readSnapshot(path: string): Promise<Snapshot | undefined> {
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
export function isStale(snap: Snapshot, staleMs: number, unreadableStaleMs: number): boolean {
  const age = Date.now() - snap.mtimeMs;
  if (snap.holder === undefined) return age > unreadableStaleMs;
  if (snap.holder.host === HOST && !isAlive(snap.holder.pid)) return true;
  return age > staleMs;
}

/**
 * Creates the file only if there is none; false when it exists. The content is written to a
 * temp file first and hard-linked into place, so that the lock never exists empty: a writer
 * killed in between leaves only a temp file (hidden from listings, swept later), not a lock
 * that everyone has to wait out. Where hard links are not supported, O_EXCL create + write.
 */
export async function createExclusive(path: string, content: string): Promise<boolean> {
  const temp = tempPathFor(path);
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

