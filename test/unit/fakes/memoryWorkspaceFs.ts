// An in-memory WorkspaceFs for unit tests of the core: '/'-separated absolute paths, folders,
// files with modes and symbolic links, and the same torn-tail repair as the real adapter.
import { AsyncLocalStorage } from 'node:async_hooks';
import { systemClock, type Clock } from '../../../src/core/clock';
import { StorageError, ioStorageError, quotePath, tooLargeError } from '../../../src/core/storage/storageError';
import type { EntryInfo, LockOptions, NewestLines, WorkspaceFs } from '../../../src/core/storage/workspaceFs';

type Entry =
  | { kind: 'file'; data: Uint8Array; mode: number; mtimeMs: number }
  | { kind: 'directory'; mtimeMs: number }
  | { kind: 'symlink'; target: string; mtimeMs: number };

export type FsOperation =
  | 'read'
  | 'readNewestLines'
  | 'writeAtomic'
  | 'appendRecord'
  | 'list'
  | 'info'
  | 'realpath'
  | 'remove'
  | 'rename'
  | 'withLock';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function errno(code: string): Error {
  return Object.assign(new Error(code), { code });
}

function segmentsOf(path: string): string[] {
  if (!path.startsWith('/')) throw new RangeError(`MemoryWorkspaceFs takes absolute paths, got '${path}'`);
  return path.split('/').filter((s) => s !== '');
}

const join = (segments: string[]) => `/${segments.join('/')}`;

/**
 * The locks the current async call chain holds, of every MemoryWorkspaceFs (keys from `lockKey`).
 * One for the module, not one per instance: Node 20 keeps each AsyncLocalStorage ever used in a
 * list it walks on every async call, so with one per fake each test made every later async call
 * slower (the unit tests run in one process: 24 s of a 90 s run).
 */
const lockChain = new AsyncLocalStorage<ReadonlyMap<string, { held: boolean }>>();
let made = 0;

export class MemoryWorkspaceFs implements WorkspaceFs {
  private readonly entries = new Map<string, Entry>([['/', { kind: 'directory', mtimeMs: 0 }]]);
  /** As in lockQueue.ts: one token per acquisition, cleared at release, so late callbacks queue. */
  private readonly lockPrefix = `${++made}:`;
  private readonly lockQueues = new Map<string, Promise<void>>();
  /** Return an error to make the next matching call fail with it (a disk full, a permission...). */
  failOn: ((op: FsOperation, path: string) => Error | undefined) | undefined;

  constructor(private readonly clock: Clock = systemClock) {}

  // ---- helpers for tests ----

  /** Writes bytes as they are, with no repair: what a killed writer or another program leaves. */
  writeRaw(path: string, content: string | Uint8Array): void {
    const segments = this.realSegments(path, false);
    this.mkdirs(segments.slice(0, -1));
    const data = typeof content === 'string' ? encoder.encode(content) : content;
    this.entries.set(join(segments), { kind: 'file', data, mode: 0o644, mtimeMs: this.clock.now() });
  }

  text(path: string): string | undefined {
    const entry = this.entries.get(join(this.realSegments(path, true)));
    return entry?.kind === 'file' ? decoder.decode(entry.data) : undefined;
  }

  modeOf(path: string): number | undefined {
    const entry = this.entries.get(join(this.realSegments(path, true)));
    return entry?.kind === 'file' ? entry.mode : undefined;
  }

  symlink(path: string, target: string): void {
    const segments = segmentsOf(path);
    this.mkdirs(segments.slice(0, -1));
    this.entries.set(join(segments), { kind: 'symlink', target, mtimeMs: this.clock.now() });
  }

  mkdir(path: string): void {
    this.mkdirs(this.realSegments(path, true));
  }

  /** Every path held, sorted. */
  paths(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** Whether the current async call chain holds the lock. */
  holdsLock(lockPath: string): boolean {
    return lockChain.getStore()?.get(this.lockPrefix + lockPath)?.held ?? false;
  }

  // ---- WorkspaceFs ----

  async read(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
    this.maybeFail('read', path);
    const entry = this.entries.get(join(this.realSegments(path, true)));
    if (entry === undefined) return undefined;
    if (entry.kind !== 'file') throw ioStorageError('read', path, errno('EISDIR'));
    if (entry.data.length > maxBytes) throw tooLargeError(path, entry.data.length, maxBytes);
    return entry.data.slice();
  }

  async readNewestLines(path: string, maxBytes: number): Promise<NewestLines | undefined> {
    this.maybeFail('readNewestLines', path);
    const entry = this.entries.get(join(this.realSegments(path, true)));
    if (entry === undefined) return undefined;
    if (entry.kind !== 'file') throw ioStorageError('read', path, errno('EISDIR'));
    const { data } = entry;
    const start = Math.max(0, data.length - maxBytes);
    let from = start;
    if (start > 0 && data[start - 1] !== 0x0a) {
      const newline = data.indexOf(0x0a, start);
      from = newline < 0 ? data.length : newline + 1;
    }
    let firstLine = 1;
    for (let i = 0; i < from; i++) if (data[i] === 0x0a) firstLine++;
    return { data: data.slice(from), firstLine, size: data.length };
  }

  async writeAtomic(path: string, data: Uint8Array | string, mode = 0o644): Promise<void> {
    this.maybeFail('writeAtomic', path);
    const segments = this.realSegments(path, false);
    this.mkdirs(segments.slice(0, -1));
    const existing = this.entries.get(join(segments));
    if (existing?.kind === 'directory') throw ioStorageError('write', path, errno('EISDIR'));
    const bytes = typeof data === 'string' ? encoder.encode(data) : data.slice();
    this.entries.set(join(segments), { kind: 'file', data: bytes, mode, mtimeMs: this.clock.now() });
  }

  async appendRecord(path: string, line: string): Promise<void> {
    this.maybeFail('appendRecord', path);
    if (!line.endsWith('\n')) throw new RangeError('appendRecord takes whole lines, each ending in "\\n".');
    const segments = this.realSegments(path, true);
    this.mkdirs(segments.slice(0, -1));
    const key = join(segments);
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.kind !== 'file') throw ioStorageError('append to', path, errno('EISDIR'));
    let data = entry?.data ?? new Uint8Array();
    if (data.length > 0 && data[data.length - 1] !== 0x0a) {
      const cut = data.lastIndexOf(0x0a) + 1;
      const corruptKey = `${key}.corrupt`;
      const corrupt = this.entries.get(corruptKey);
      if (corrupt !== undefined && corrupt.kind !== 'file') {
        throw ioStorageError(`set aside the torn last line of ${quotePath(path)} in`, corruptKey, errno('ELOOP'));
      }
      const tail = data.slice(cut);
      this.entries.set(corruptKey, {
        kind: 'file',
        data: concat(corrupt?.data ?? new Uint8Array(), tail, encoder.encode('\n')),
        mode: 0o644,
        mtimeMs: this.clock.now(),
      });
      data = data.slice(0, cut);
    }
    this.entries.set(key, {
      kind: 'file',
      data: concat(data, encoder.encode(line)),
      mode: entry?.mode ?? 0o644,
      mtimeMs: this.clock.now(),
    });
  }

  async list(dir: string): Promise<string[]> {
    this.maybeFail('list', dir);
    const segments = this.realSegments(dir, true);
    const entry = this.entries.get(join(segments));
    if (entry === undefined) return [];
    if (entry.kind !== 'directory') throw ioStorageError('list', dir, errno('ENOTDIR'));
    const prefix = segments.length === 0 ? '/' : `${join(segments)}/`;
    return [...this.entries.keys()]
      .filter((k) => k !== '/' && k.startsWith(prefix) && !k.slice(prefix.length).includes('/'))
      .map((k) => k.slice(prefix.length))
      .sort();
  }

  async info(path: string): Promise<EntryInfo | undefined> {
    this.maybeFail('info', path);
    const entry = this.entries.get(join(this.realSegments(path, false)));
    if (entry === undefined) return undefined;
    return { kind: entry.kind, mtimeMs: entry.mtimeMs, size: entry.kind === 'file' ? entry.data.length : 0 };
  }

  async realpath(path: string): Promise<string> {
    this.maybeFail('realpath', path);
    const real = join(this.realSegments(path, true));
    if (!this.entries.has(real)) throw ioStorageError('resolve', path, errno('ENOENT'));
    return real;
  }

  async remove(path: string): Promise<void> {
    this.maybeFail('remove', path);
    const key = join(this.realSegments(path, false));
    for (const k of [...this.entries.keys()]) {
      if (k === key || k.startsWith(`${key}/`)) this.entries.delete(k);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    this.maybeFail('rename', from);
    const source = join(this.realSegments(from, false));
    if (!this.entries.has(source)) throw ioStorageError('move', from, errno('ENOENT'));
    const targetSegments = this.realSegments(to, false);
    const target = join(targetSegments);
    if (this.entries.has(target)) throw ioStorageError('move', to, errno('EEXIST'));
    this.mkdirs(targetSegments.slice(0, -1));
    for (const k of [...this.entries.keys()]) {
      if (k !== source && !k.startsWith(`${source}/`)) continue;
      this.entries.set(target + k.slice(source.length), this.entries.get(k)!);
      this.entries.delete(k);
    }
  }

  async withLock<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    this.maybeFail('withLock', lockPath);
    const key = this.lockPrefix + lockPath;
    const outer = lockChain.getStore();
    if (outer?.get(key)?.held) return fn();
    if (options.wait === false && this.lockQueues.has(lockPath))
      throw new StorageError('locked', lockPath, `The lock '${lockPath}' is held.`);
    const previous = this.lockQueues.get(lockPath) ?? Promise.resolve();
    let leave!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (leave = resolve)));
    this.lockQueues.set(lockPath, tail);
    await previous;
    const hold = { held: true };
    try {
      return await lockChain.run(new Map([...(outer ?? []), [key, hold]]), fn);
    } finally {
      hold.held = false;
      leave();
      if (this.lockQueues.get(lockPath) === tail) this.lockQueues.delete(lockPath);
    }
  }

  // ---- internals ----

  private maybeFail(op: FsOperation, path: string): void {
    const err = this.failOn?.(op, path);
    if (err !== undefined) throw err instanceof StorageError ? err : ioStorageError(op, path, err);
  }

  private mkdirs(segments: string[]): void {
    for (let i = 1; i <= segments.length; i++) {
      const key = join(segments.slice(0, i));
      const entry = this.entries.get(key);
      if (entry === undefined) this.entries.set(key, { kind: 'directory', mtimeMs: this.clock.now() });
      else if (entry.kind !== 'directory') throw ioStorageError('create the folder', key, errno('ENOTDIR'));
    }
  }

  /** The path with links resolved (the last one only when `followLast`). */
  private realSegments(path: string, followLast: boolean): string[] {
    const pending = segmentsOf(path);
    const done: string[] = [];
    for (let hops = 0; pending.length > 0;) {
      const name = pending.shift() as string;
      if (name === '.') continue;
      if (name === '..') {
        done.pop();
        continue;
      }
      const entry = this.entries.get(join([...done, name]));
      if (entry?.kind !== 'symlink' || (pending.length === 0 && !followLast)) {
        done.push(name);
        continue;
      }
      if (++hops > 40) throw ioStorageError('resolve', path, errno('ELOOP'));
      const target = entry.target.startsWith('/')
        ? segmentsOf(entry.target)
        : entry.target.split('/').filter((s) => s !== '');
      if (entry.target.startsWith('/')) done.length = 0;
      pending.unshift(...target);
    }
    return done;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
