import { visibleText } from '../visibleText';

/**
 * Why the storage layer refused or failed:
 * - `unsafe-path`: the path could leave the `.groundwork` folder (or is not a plain name there);
 * - `too-large`: a file is over the size cap for reading it whole;
 * - `locked`: another process kept the workspace lock past the wait;
 * - `busy`: a session's step is under way elsewhere (its lock is held), so this one is refused;
 * - `corrupt`: a file that must be exact (e.g. the counters) cannot be understood;
 * - `io`: the operating system said no (permissions, disk full, a folder in the way...).
 */
export type StorageErrorCode = 'unsafe-path' | 'too-large' | 'locked' | 'busy' | 'corrupt' | 'io';

/**
 * An error the user can act on: the message names the path, says what was refused and why, and
 * what to do. Paths in the message are quoted with single quotes so that the store can show them
 * relative to the workspace (see `relabelStorageError`).
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    /** The path the error is about, as shown in the message. */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Shows a path in a message: quoted, with control and invisible characters (a NUL byte above
 * all) made visible so that the user sees what was refused.
 */
export function quotePath(path: string): string {
  return `'${visibleText(path)}'`;
}

/**
 * The same error with `prefix` (the workspace folder, ending in '/') cut from the paths that start
 * with it: `err.path`, and every quoted path in the message (see `quotePath`) that begins with it.
 * Only the start of a path is cut, so a path that merely contains the prefix further on (a link
 * target such as '/elsewhere/<workspace>/data') is shown whole.
 */
export function relabelStorageError(err: StorageError, prefix: string): StorageError {
  if (prefix === '') return err;
  // An opening quote begins the message or follows a space or a bracket; a quote after a letter is
  // an apostrophe inside a path, and what follows it is not the start of a path.
  const quotedPrefix = new RegExp(`(?<=^|[\\s(])'${escapeRegExp(visibleText(prefix))}`, 'g');
  const path = err.path.startsWith(prefix) ? err.path.slice(prefix.length) : err.path;
  const relabelled = new StorageError(err.code, path, err.message.replace(quotedPrefix, "'"), { cause: err.cause });
  if (err.stack !== undefined)
    relabelled.stack = `${relabelled.name}: ${relabelled.message}\n${err.stack.split('\n').slice(1).join('\n')}`;
  return relabelled;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A size as people read it: '512 bytes', '4.9 KiB', '40.2 MiB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

/**
 * A file over the cap for reading it whole. The caps are not settings (they keep one read from
 * holding the extension host's memory), so the way out is a smaller file.
 */
export function tooLargeError(path: string, size: number, maxBytes: number): StorageError {
  return new StorageError(
    'too-large',
    path,
    `Refused to read ${quotePath(path)}: it is ${formatBytes(size)}, over the cap of ${formatBytes(maxBytes)} ` +
      `for reading a file whole. Make it smaller, e.g. by moving old content to another file, then try again.`,
  );
}

const ADVICE: Record<string, string> = {
  EACCES: 'Check the permissions of the file and its folder.',
  EPERM: 'Check the permissions of the file and its folder, and that no other program holds it open.',
  EBUSY: 'Another program holds it open; close it, then try again.',
  ENOSPC: 'Free some disk space, then try again.',
  EDQUOT: 'Free some disk space (the disk quota is used up), then try again.',
  EROFS: 'The file system is read-only; open the workspace from a writable location.',
  EISDIR: 'A folder is in the way; move or remove it.',
  ENOTEMPTY: 'A folder is in the way; move or remove it.',
  ENOTDIR: 'A file is in the way where a folder is expected; move or remove it.',
  ELOOP: 'A symbolic link is in the way; remove it.',
  EMFILE: 'Too many files are open; close some programs, then try again.',
  ENAMETOOLONG: 'Use a shorter name.',
};

/** An operating-system error (errno code) as a StorageError that names the path. */
export function ioStorageError(action: string, path: string, err: unknown): StorageError {
  if (err instanceof StorageError) return err;
  const code = errorCode(err);
  const detail = code ?? (err instanceof Error ? err.message : String(err));
  const advice =
    (code !== undefined ? ADVICE[code] : undefined) ??
    'Check that the workspace folder is reachable and writable, then try again.';
  return new StorageError('io', path, `Could not ${action} ${quotePath(path)} (${detail}). ${advice}`, { cause: err });
}

/** The errno code of an operating-system error, if it has one. */
export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}
