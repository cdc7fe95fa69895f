// One held lock file, with its heartbeat and its release. Waiting in order within this process,
// and re-entry from inside a locked section, are lockQueue.ts's job.
import { promises as fsp, readFileSync, unlinkSync } from 'node:fs';
import { StorageError, errorCode, ioStorageError, quotePath } from '../storage/storageError';
import { visibleText } from '../visibleText';
import {
  HOST,
  createExclusive,
  dropSteal,
  isStale,
  newToken,
  parseHolder,
  readSnapshot,
  settings,
  steal,
  takeSteal,
} from './lockFile';
import type { FileLockOptions, Settings, Snapshot } from './lockFile';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Short jittered waits, so that waiters neither spin nor wake in step. */
function backoff(attempt: number): number {
  return Math.min(2 * 1.5 ** attempt, 50) * (0.5 + Math.random());
}

function lockedError(path: string, snap: Snapshot | undefined, timeoutMs: number): StorageError {
  const h = snap?.holder;
  const who =
    h === undefined
      ? 'an unknown process (the lock file is empty or unreadable)'
      : `process ${h.pid} on ${h.host === HOST ? 'this computer' : `host '${visibleText(h.host)}'`}` +
        (h.acquiredAt === undefined ? '' : ` since ${new Date(h.acquiredAt).toISOString()}`);
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
  /** When this process took it, by its clock. */
  private readonly takenAt = Date.now();

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
  static async acquireBy(path: string, s: Settings, deadline: number): Promise<FileLock> {
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
    // Held briefly (as nearly every lock is), it cannot have been judged stale, so no stealer is
    // between the look at its token and the unlink: the .steal handshake's calls are skipped. A
    // clock set back meanwhile (elapsed < 0) may have made it look stale: the handshake then.
    const elapsed = Date.now() - this.takenAt;
    if (elapsed >= 0 && elapsed < this.s.staleMs / 3) return this.unlinkIfOurs();
    const stealPath = `${this.path}.steal`;
    const deadline = Date.now() + this.s.stealStaleMs + 1000;
    let stealToken: string | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        stealToken = await takeSteal(stealPath, this.s);
      } catch {
        // The .steal file cannot be written (a full disk): trying again only fails again, for
        // seconds. It matters only if this lock was judged stale (no heartbeat for the stale
        // age) and taken over meanwhile; releasing without it beats leaving the lock for all
        // to wait out. The locked section's own error, if any, is the one to report.
        break;
      }
      if (stealToken !== undefined || Date.now() >= deadline) break;
      await sleep(backoff(attempt));
    }
    try {
      await this.unlinkIfOurs();
    } finally {
      if (stealToken !== undefined) await dropSteal(stealPath, stealToken);
    }
  }

  /** Removes the file if it holds our token: someone may have deleted it by hand and taken it since. */
  private async unlinkIfOurs(): Promise<void> {
    const snap = await readSnapshot(this.path);
    if (snap?.holder?.token !== this.token) return;
    await fsp.unlink(this.path).catch((err: unknown) => {
      if (errorCode(err) !== 'ENOENT') throw ioStorageError('release the lock', this.path, err);
    });
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
