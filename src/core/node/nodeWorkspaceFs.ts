import { constants, promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { StorageError, errorCode, ioStorageError, quotePath, tooLargeError } from '../storage/storageError';
import type { EntryInfo, LockOptions, NewestLines, WorkspaceFs, WriteOptions } from '../storage/workspaceFs';
import type { FileLockOptions } from './lockFile';
import { withFileLock } from './lockQueue';
import { missing, NOFOLLOW, openChecked, openForAppend, openRegularFile } from './regularFiles';
import { isTempName, sweepTemps, tempPathFor } from './tempFiles';

export interface NodeWorkspaceFsOptions {
  /** fsync after every append (default false: a killed process loses nothing either way). */
  fsyncAppends?: boolean;
  lock?: FileLockOptions;
}

const SWEEP_EVERY_MS = 60_000;
const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;

/** WorkspaceFs on node:fs. See the port for the contract of each method. */
export class NodeWorkspaceFs implements WorkspaceFs {
  private readonly lastSweep = new Map<string, number>();

  constructor(private readonly options: NodeWorkspaceFsOptions = {}) {}

  async read(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
    const opened = await openRegularFile(path);
    if (opened === undefined) return undefined;
    const { handle, size } = opened;
    try {
      if (size > maxBytes) throw tooLargeError(path, size, maxBytes);
      // The file may grow while it is read; the cap holds for what is actually read.
      const chunks: Buffer[] = [];
      let total = 0;
      for (let want = Math.min(size, maxBytes) + 1; ; want = CHUNK) {
        const buf = Buffer.allocUnsafe(want);
        const { bytesRead } = await handle.read(buf, 0, want, total);
        if (bytesRead === 0) break;
        chunks.push(buf.subarray(0, bytesRead));
        total += bytesRead;
        if (total > maxBytes) throw tooLargeError(path, total, maxBytes);
      }
      // Most files are read whole by the first read(): copying them again would hold the thread for nothing.
      return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
    } catch (err) {
      throw ioStorageError('read', path, err);
    } finally {
      await handle.close();
    }
  }

  async readNewestLines(path: string, maxBytes: number): Promise<NewestLines | undefined> {
    const opened = await openRegularFile(path);
    if (opened === undefined) return undefined;
    const { handle, size } = opened;
    try {
      const start = Math.max(0, size - maxBytes);
      let firstLine = 1;
      // The byte before `start`: a newline means `start` begins a line (as the file's start does).
      let before = NEWLINE;
      for (let pos = 0; pos < start;) {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK, start - pos));
        const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
        if (bytesRead === 0) break;
        const chunk = buf.subarray(0, bytesRead);
        for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, i + 1)) firstLine++;
        before = chunk[bytesRead - 1] ?? NEWLINE;
        pos += bytesRead;
      }
      // Up to the size seen at the start: what is appended meanwhile is newer than this read.
      const data = Buffer.allocUnsafe(size - start);
      let got = 0;
      while (got < data.length) {
        const { bytesRead } = await handle.read(data, got, data.length - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      let from = 0;
      if (before !== NEWLINE) {
        const newline = data.subarray(0, got).indexOf(NEWLINE);
        from = newline < 0 ? got : newline + 1;
        if (newline >= 0) firstLine++;
      }
      return { data: data.subarray(from, got), firstLine, size };
    } catch (err) {
      throw ioStorageError('read', path, err);
    } finally {
      await handle.close();
    }
  }

  async writeAtomic(path: string, data: Uint8Array | string, mode = 0o644, options: WriteOptions = {}): Promise<void> {
    const durable = options.durable !== false;
    const dir = dirname(path);
    await this.sweepTempsNow(dir);
    const temp = tempPathFor(path);
    let handle: fsp.FileHandle | undefined;
    try {
      handle = await openTemp(temp, mode, path);
      // open() applies the umask; the mode asked for is the mode the file gets.
      await handle.chmod(mode);
      await handle.writeFile(data);
      if (durable) await handle.sync();
      await handle.close();
      handle = undefined;
      await renameOver(temp, path);
    } catch (err) {
      await handle?.close().catch(() => undefined);
      await fsp.rm(temp, { force: true }).catch(() => undefined);
      throw ioStorageError('write', path, err);
    }
    if (durable) await syncFolder(dir);
  }

  async appendRecord(path: string, line: string): Promise<void> {
    if (!line.endsWith('\n')) throw new RangeError('appendRecord takes whole lines, each ending in "\\n".');
    const data = Buffer.from(line, 'utf8');
    let handle: fsp.FileHandle;
    let size: number;
    try {
      ({ handle, size } = await openForAppend(path));
    } catch (err) {
      throw ioStorageError('open for appending', path, err);
    }
    try {
      await this.setAsideTornTail(handle, path, size);
      // One write() on an O_APPEND file: the record lands whole after whatever is there.
      const { bytesWritten } = await handle.write(data);
      if (bytesWritten !== data.length) {
        throw new StorageError(
          'io',
          path,
          `Could not append to ${quotePath(path)}: only ${bytesWritten} of ${data.length} bytes were written. ` +
            `Check the free disk space; the partial line is set aside before the next append.`,
        );
      }
      if (this.options.fsyncAppends) await handle.sync();
    } catch (err) {
      throw ioStorageError('append to', path, err);
    } finally {
      await handle.close();
    }
  }

  async list(dir: string): Promise<string[]> {
    try {
      const names = await fsp.readdir(dir);
      return names.filter((name) => !isTempName(name)).sort();
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return [];
      throw ioStorageError('list', dir, err);
    }
  }

  async info(path: string): Promise<EntryInfo | undefined> {
    try {
      const st = await fsp.lstat(path);
      const kind = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other';
      return { size: st.size, mtimeMs: st.mtimeMs, kind, mode: st.mode & 0o777 };
    } catch (err) {
      if (missing(err)) return undefined;
      throw ioStorageError('look at', path, err);
    }
  }

  async realpath(path: string): Promise<string> {
    try {
      return await fsp.realpath(path);
    } catch (err) {
      throw ioStorageError('resolve', path, err);
    }
  }

  async remove(path: string): Promise<void> {
    try {
      await fsp.rm(path, { recursive: true, force: true });
    } catch (err) {
      throw ioStorageError('remove', path, err);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    try {
      // rename() would replace a file at `to`; nothing is ever lost by a move.
      if ((await fsp.lstat(to).catch(() => undefined)) !== undefined)
        throw Object.assign(new Error(`${to} exists`), { code: 'EEXIST' });
      await fsp.mkdir(dirname(to), { recursive: true });
      await renameOver(from, to);
    } catch (err) {
      throw ioStorageError('move', from, err);
    }
  }

  withLock<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    // Not waiting is a wait of no time: a held lock is 'locked' at once, a stale one still taken over.
    return withFileLock(
      lockPath,
      fn,
      options.wait === false ? { ...this.options.lock, timeoutMs: 0 } : this.options.lock,
    );
  }

  /**
   * A writer killed between creating its temp file and renaming it leaves the temp behind; the
   * next write in that folder (at most once a minute per folder) removes those over a minute old.
   */
  private async sweepTempsNow(dir: string): Promise<void> {
    const now = Date.now();
    if (now - (this.lastSweep.get(dir) ?? -Infinity) < SWEEP_EVERY_MS) return;
    this.lastSweep.set(dir, now);
    await sweepTemps(dir);
  }

  /**
   * If the file does not end in a newline, its last line is a record whose writer was cut off:
   * keep those bytes in `<path>.corrupt` (flushed first, so nothing is lost), then cut them off.
   */
  private async setAsideTornTail(handle: fsp.FileHandle, path: string, size: number): Promise<void> {
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === NEWLINE) return;
    let cut = 0;
    for (let end = size; end > 0;) {
      const start = Math.max(0, end - CHUNK);
      const buf = Buffer.alloc(end - start);
      await handle.read(buf, 0, buf.length, start);
      const index = buf.lastIndexOf(NEWLINE);
      if (index >= 0) {
        cut = start + index + 1;
        break;
      }
      end = start;
    }
    const corruptPath = `${path}.corrupt`;
    const action = `set aside the torn last line of ${quotePath(path)} in`;
    let corrupt: fsp.FileHandle;
    let corruptSize: number;
    try {
      // Never through a link: a cloned repository could point it at a file outside the workspace.
      const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW;
      ({ handle: corrupt, size: corruptSize } = await openChecked(corruptPath, flags, action));
    } catch (err) {
      // Named as the path in the way: the log itself is fine, its .corrupt is what blocks.
      throw ioStorageError(action, corruptPath, err);
    }
    try {
      for (let from = cut; from < size; from += CHUNK) {
        const length = Math.min(CHUNK, size - from);
        const buf = Buffer.alloc(length + (from + length === size ? 1 : 0), NEWLINE);
        await handle.read(buf, 0, length, from);
        await writeWhole(corrupt, buf);
      }
      await corrupt.sync();
    } catch (err) {
      // The tail stays in the log and is set aside again by the next append: a partial copy
      // (a full disk) left here would come before it.
      await corrupt.truncate(corruptSize).catch(() => undefined);
      throw ioStorageError(action, corruptPath, err);
    } finally {
      await corrupt.close();
    }
    await handle.truncate(cut);
  }
}

/**
 * One write() may write only part of the buffer (a disk that fills up meanwhile); the rest is
 * written after it, so that the next write() fails with the reason (ENOSPC) or goes through.
 */
async function writeWhole(handle: fsp.FileHandle, buf: Buffer): Promise<void> {
  for (let done = 0; done < buf.length;) {
    const { bytesWritten } = await handle.write(buf, done, buf.length - done);
    if (bytesWritten === 0) throw Object.assign(new Error('no bytes were written'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

/** Windows refuses to replace a file another program (an indexer, an antivirus) has open for a moment. */
async function renameOver(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fsp.rename(from, to);
    } catch (err) {
      const code = errorCode(err);
      const transient = process.platform === 'win32' && (code === 'EPERM' || code === 'EACCES' || code === 'EBUSY');
      if (!transient || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
    }
  }
}

/** Creates the temp file, and its folder only when that is missing: the folder nearly always exists. */
async function openTemp(temp: string, mode: number, path: string): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(temp, 'wx', mode);
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw err;
  }
  try {
    await fsp.mkdir(dirname(temp), { recursive: true });
  } catch (err) {
    throw ioStorageError('create the folder for', path, err);
  }
  return fsp.open(temp, 'wx', mode);
}

/** Makes the rename itself durable; not every platform can open a folder, so best effort. */
async function syncFolder(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot fsync a folder; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
