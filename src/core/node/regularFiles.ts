// Opening a path that must be a regular file: a folder, a FIFO, a socket or a device is refused
// by name (a record written to a FIFO would be lost, a read from it would hang), and so is a file
// with a second name for appending. Apart from NodeWorkspaceFs, which reads and writes what opens.
import { constants, promises as fsp, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { StorageError, errorCode, ioStorageError, quotePath } from '../storage/storageError';

export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export function missing(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The file open for reading with its size, or undefined when it does not exist. */
export async function openRegularFile(path: string): Promise<{ handle: fsp.FileHandle; size: number } | undefined> {
  try {
    return await openChecked(path, constants.O_RDONLY, 'read');
  } catch (err) {
    if (missing(err)) return undefined;
    throw ioStorageError('read', path, err);
  }
}

/** Open for reading (the torn-tail check) and appending; the folder is created if missing. */
export async function openForAppend(path: string): Promise<{ handle: fsp.FileHandle; size: number }> {
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;
  let opened: Awaited<ReturnType<typeof openChecked>>;
  try {
    opened = await openChecked(path, flags, 'append to');
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw err;
    await fsp.mkdir(dirname(path), { recursive: true });
    opened = await openChecked(path, flags, 'append to');
  }
  const { handle, size, nlink } = opened;
  // A file with another name is a hard link: appending would change that other file too, which
  // may be anywhere on the disk (the store's checks see links, not hard links). A replacement
  // (writeAtomic) is safe either way: the rename gives the name a file of its own.
  if (nlink > 1) {
    await handle.close();
    throw new StorageError(
      'io',
      path,
      `Refused to append to ${quotePath(path)}: it has ${nlink - 1} other name(s) (a hard link), so appending would change another file too. Copy it to a file of its own, then try again.`,
    );
  }
  return { handle, size };
}

/**
 * Opens `path` and refuses anything but a regular file, saying what it is: a record written
 * to a FIFO would be reported as appended and lost, a read from it would hang. O_NONBLOCK
 * keeps the open itself from waiting for the other end of a FIFO. Unless `flags` has
 * O_NOFOLLOW, a link is followed, as for every path of the store, which checked where it leads.
 */
export async function openChecked(
  path: string,
  flags: number,
  verb: string,
): Promise<{ handle: fsp.FileHandle; size: number; nlink: number }> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, flags | NONBLOCK, 0o644);
  } catch (err) {
    // A folder (EISDIR), a socket or a FIFO opened to write (ENXIO) cannot even be opened:
    // name it, not the errno. A link refused by O_NOFOLLOW keeps its own message (ELOOP).
    if (!missing(err)) {
      const st = await ((flags & NOFOLLOW) !== 0 ? fsp.lstat(path) : fsp.stat(path)).catch(() => undefined);
      if (st !== undefined && !st.isFile() && !st.isSymbolicLink()) throw notRegularFile(verb, path, st);
    }
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notRegularFile(verb, path, st);
    return { handle, size: st.size, nlink: st.nlink };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

function notRegularFile(verb: string, path: string, st: Stats): StorageError {
  const what = st.isDirectory()
    ? 'a folder'
    : st.isFIFO()
      ? 'a FIFO (named pipe)'
      : st.isSocket()
        ? 'a socket'
        : st.isCharacterDevice()
          ? 'a character device'
          : st.isBlockDevice()
            ? 'a block device'
            : 'a special file';
  return new StorageError(
    'io',
    path,
    `Refused to ${verb} ${quotePath(path)}: it is ${what}, not a regular file. Move it away.`,
  );
}
