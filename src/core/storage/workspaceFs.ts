/** What `info` found at a path, without following a final symbolic link (lstat). */
export interface EntryInfo {
  size: number;
  mtimeMs: number;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** The permission bits (0o755…), where the file system has them. */
  mode?: number;
}

/** The newest part of a file that may be too large to read whole (see `readNewestLines`). */
export interface NewestLines {
  /** Whole lines (the last one may lack its newline: a torn write); all of the file when it fits. */
  data: Uint8Array;
  /** The 1-based line number of the first line in `data`. */
  firstLine: number;
  /** The size of the file when it was read, so the caller can tell how much was left out. */
  size: number;
}

/** How writeAtomic writes. */
export interface WriteOptions {
  /** Flush to the disk before the rename (default true). */
  durable?: boolean;
}

/**
 * The file system as the core needs it. Paths are absolute; checking that they stay inside the
 * workspace is the store's job, not the port's. Failures are StorageErrors whose messages name
 * the path.
 */
export interface WorkspaceFs {
  /**
   * The whole file, or undefined when it does not exist. Over `maxBytes` it is StorageError
   * 'too-large' (naming the file, its size and the cap) rather than a huge allocation.
   */
  read(path: string, maxBytes: number): Promise<Uint8Array | undefined>;

  /**
   * For append-only logs, which may outgrow any cap: the whole file when it is at most `maxBytes`,
   * else its newest whole lines within the last `maxBytes` (a line cut by that boundary is left
   * out). The older part is scanned only to count its lines, so memory stays within `maxBytes`.
   * Undefined when the file does not exist.
   */
  readNewestLines(path: string, maxBytes: number): Promise<NewestLines | undefined>;

  /**
   * Replaces the file in one step: a reader sees the old content or the new, never a mix, even if
   * the process is killed. Creates missing parent folders. `mode` defaults to 0o644. The new
   * content is flushed to the disk before the rename, unless `durable` is false (a file whose
   * loss in a power cut costs nothing: the rename stays atomic, a few calls cheaper).
   */
  writeAtomic(path: string, data: Uint8Array | string, mode?: number, options?: WriteOptions): Promise<void>;

  /**
   * Appends `line` (one record ending in "\n", no other newline; or several such lines, a batch
   * of records that each stay a whole line) with a single write() on an O_APPEND file. If the file does not end in "\n" (a writer was killed mid-record), the bytes
   * after its last newline are first appended to `<path>.corrupt` and cut off, so the record
   * starts on a fresh line. The caller holds the lock (see `withLock`), since that repair must
   * not race another writer.
   */
  appendRecord(path: string, line: string): Promise<void>;

  /** Names in the folder ([] when it does not exist), without in-flight temp files. */
  list(dir: string): Promise<string[]>;

  /** lstat, or undefined when nothing is there. */
  info(path: string): Promise<EntryInfo | undefined>;

  /** The path with every symbolic link resolved; the path must exist. */
  realpath(path: string): Promise<string>;

  /** Removes a file, or a folder with everything in it; nothing there is not an error. */
  remove(path: string): Promise<void>;

  /**
   * Moves a file, folder or link (not what a link points to) to `to`, creating the folder `to`
   * goes into; refuses when something is at `to` already.
   */
  rename(from: string, to: string): Promise<void>;

  /**
   * Runs `fn` holding a lock that other processes (another window, the CLI) respect. Re-entrant
   * within one async call chain, so a locked section may call code that takes the same lock.
   * Waiting too long is StorageError 'locked'; with `wait: false` a lock held by anyone else (this
   * process included) is 'locked' at once, while a stale one is still taken over.
   */
  withLock<T>(lockPath: string, fn: () => Promise<T>, options?: LockOptions): Promise<T>;
}

export interface LockOptions {
  /** False: do not wait for a holder, refuse at once (default true: wait up to the lock's timeout). */
  wait?: boolean;
}
