/**
 * Why the storage layer refused or failed:
 * - `unsafe-path`: the path could leave the `.groundwork` folder (or is not a plain name there);
 * - `too-large`: a file is over the size cap for reading it whole;
 * - `locked`: another process kept the workspace lock past the wait;
 * - `corrupt`: a file that must be exact (e.g. the counters) cannot be understood;
 * - `io`: the operating system said no (permissions, disk full, a folder in the way...).
 */
export type StorageErrorCode = 'unsafe-path' | 'too-large' | 'locked' | 'corrupt' | 'io';

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

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

/**
 * Shows a path in a message: quoted, with control characters (a NUL byte above all) made
 * visible so that the user sees what was refused.
 */
export function quotePath(path: string): string {
  const visible = path.replace(/[\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\0') return '\\0';
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return `'${visible}'`;
}

/** The same error with every occurrence of `prefix` removed from its message and path. */
export function relabelStorageError(err: StorageError, prefix: string): StorageError {
  if (prefix === '') return err;
  const strip = (s: string) => s.split(prefix).join('');
  const relabelled = new StorageError(err.code, strip(err.path), strip(err.message), { cause: err.cause });
  if (err.stack !== undefined) relabelled.stack = `${relabelled.name}: ${relabelled.message}\n${err.stack.split('\n').slice(1).join('\n')}`;
  return relabelled;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

/** A file over the cap for reading it whole. */
export function tooLargeError(path: string, size: number, maxBytes: number): StorageError {
  return new StorageError(
    'too-large',
    path,
    `Refused to read ${quotePath(path)}: it is ${formatBytes(size)}, over the cap of ${formatBytes(maxBytes)} ` +
      `for reading a file whole. Move old content to another file to shrink it, or raise the cap.`,
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
  const advice = (code !== undefined ? ADVICE[code] : undefined) ?? 'Check that the workspace folder is reachable and writable, then try again.';
  return new StorageError('io', path, `Could not ${action} ${quotePath(path)} (${detail}). ${advice}`, { cause: err });
}

/** The errno code of an operating-system error, if it has one. */
export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
