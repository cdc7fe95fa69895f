// `changes.json`: every file an agent run created or changed, with its bytes before the run first
// touched it, so that Revert Run can put them back. The entry is saved before the file is written
// and its hash after, so a run killed in between leaves a before that still equals the file (revert
// calls that file unchanged). It is read back with care: a cloned repository may hold a run folder,
// and what this file says is what a revert writes.
import { describeValue, isPlainObject } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { RUN_FILES, runFile } from '../plan/layout';
import { utf8Length } from '../prompt/cap';
import { StorageError, formatBytes, quotePath } from '../storage/storageError';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { relativePathProblem } from './runRecord';
import { CHANGE_BEFORE_MAX_BYTES } from './runTypes';
import type { ChangeEntry, ChangesFile } from './runTypes';

/** SHA-256 of bytes as 64 lower-case hex digits (the core has no crypto: node:crypto is passed in). */
export type Sha256 = (bytes: Uint8Array) => string;

/** The most a run's `changes.json` may grow to; a change past it is refused rather than kept unrevertable. */
export const CHANGES_FILE_MAX_BYTES = 64 * 1024 * 1024;
/** The most files one run may change. */
export const CHANGES_MAX_FILES = 10_000;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const encoder = new TextEncoder();
// fatal: bytes that are not UTF-8 go to base64 rather than being replaced; ignoreBOM: a BOM is kept.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes of a file as `changes.json` keeps them: as text when they are UTF-8, else base64. */
export function encodeBefore(bytes: Uint8Array): { encoding: 'utf8' | 'base64'; data: string } {
  try {
    const text = strictDecoder.decode(bytes);
    if (sameBytes(encoder.encode(text), bytes)) return { encoding: 'utf8', data: text };
  } catch {
    // Not UTF-8: base64 below.
  }
  return { encoding: 'base64', data: toBase64(bytes) };
}

/** The bytes `before` holds, or undefined when its data does not decode. */
export function decodeBefore(before: { encoding: 'utf8' | 'base64'; data: string }): Uint8Array | undefined {
  return before.encoding === 'utf8' ? encoder.encode(before.data) : fromBase64(before.data);
}

/**
 * The changes in `value`, or the first reason they are not: each path a plain relative path, none
 * twice, each before decoding to bytes whose hash is its beforeSha256 (one that does not was
 * tampered with, and restoring it would write what the run never saw).
 */
export function parseChangesFile(value: unknown, hash: Sha256): Checked<ChangesFile> {
  const bad = (reason: string) => ({ ok: false as const, reason });
  if (!isPlainObject(value)) return bad('it is not a JSON object');
  if (value['version'] !== 1) return bad(`version ${describeValue(value['version'])} is not 1`);
  const files = value['files'];
  if (!Array.isArray(files) || files.length > CHANGES_MAX_FILES)
    return bad(`field files is not a list of at most ${CHANGES_MAX_FILES} entries`);
  const seen = new Set<string>();
  const out: ChangeEntry[] = [];
  for (const [i, raw] of files.entries()) {
    const at = `files[${i}]`;
    if (!isPlainObject(raw)) return bad(`${at} is not an object`);
    const { path, before, beforeSha256, afterSha256 } = raw;
    if (typeof path !== 'string') return bad(`${at}.path is not text`);
    const problem = relativePathProblem(path);
    if (problem !== undefined) return bad(`${at}.path ${quotePath(path)} ${problem}`);
    if (seen.has(path)) return bad(`${at}.path ${quotePath(path)} is listed twice`);
    seen.add(path);
    if (typeof afterSha256 !== 'string' || !SHA256_HEX.test(afterSha256))
      return bad(`${at}.afterSha256 is not a SHA-256 in hex`);
    if (before === null) {
      if (beforeSha256 !== null)
        return bad(`${at}.beforeSha256 must be null when before is null (a file the run created)`);
      out.push({ path, before: null, beforeSha256: null, afterSha256 });
      continue;
    }
    if (
      !isPlainObject(before) ||
      (before['encoding'] !== 'utf8' && before['encoding'] !== 'base64') ||
      typeof before['data'] !== 'string'
    ) {
      return bad(`${at}.before is not null or {encoding: utf8 or base64, data}`);
    }
    if (typeof beforeSha256 !== 'string' || !SHA256_HEX.test(beforeSha256))
      return bad(`${at}.beforeSha256 is not a SHA-256 in hex`);
    const kept = { encoding: before['encoding'], data: before['data'] } as const;
    const bytes = decodeBefore(kept);
    if (bytes === undefined) return bad(`${at}.before.data is not valid base64`);
    if (bytes.length > CHANGE_BEFORE_MAX_BYTES)
      return bad(`${at}.before is over ${formatBytes(CHANGE_BEFORE_MAX_BYTES)}`);
    if (hash(bytes) !== beforeSha256)
      return bad(`${at}.before does not match its beforeSha256 (the content was altered)`);
    out.push({ path, before: kept, beforeSha256, afterSha256 });
  }
  return { ok: true, value: { version: 1, files: out } };
}

/** `changes.json` of a run: none yet is no changes; a damaged one is a problem sentence naming it. */
export async function readChanges(
  store: WorkspaceStore,
  runId: string,
  hash: Sha256,
): Promise<{ ok: true; changes: ChangesFile } | { ok: false; problem: string }> {
  const rel = runFile(runId, RUN_FILES.changes);
  const shown = quotePath(displayPath(rel));
  let text: string | undefined;
  try {
    text = await store.readText(rel, CHANGES_FILE_MAX_BYTES);
  } catch (err) {
    if (err instanceof StorageError) return { ok: false, problem: err.message };
    throw err;
  }
  if (text === undefined) return { ok: true, changes: { version: 1, files: [] } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: `${shown} is damaged: it is not valid JSON.` };
  }
  const parsed = parseChangesFile(value, hash);
  return parsed.ok
    ? { ok: true, changes: parsed.value }
    : { ok: false, problem: `${shown} is damaged: ${parsed.reason}.` };
}

/**
 * The change log of one live run. Each change is saved (replacing `changes.json` atomically) before
 * the call returns; saves run one at a time, so tool calls of one turn cannot save out of order,
 * and a save that fails leaves the log as it was on disk.
 */
export class ChangeLog {
  private files: ChangeEntry[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly rel: string;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly runId: string,
    private readonly hash: Sha256,
  ) {
    this.rel = runFile(runId, RUN_FILES.changes);
  }

  /** Reads the changes a resumed run made before; StorageError 'corrupt' when the file is damaged (it is not overwritten). */
  async load(): Promise<void> {
    return this.serial(async () => {
      const read = await readChanges(this.store, this.runId, this.hash);
      if (!read.ok)
        throw new StorageError(
          'corrupt',
          displayPath(this.rel),
          `${read.problem} Revert Run cannot use it, so the run is not resumed over it.`,
        );
      this.files = read.changes.files;
    });
  }

  /**
   * Records the file's bytes before the run changes it (`undefined`: the run creates it), saved
   * before the caller writes. Only the first before of a path is kept: that is what a revert
   * restores. `after`, the bytes about to be written, is recorded with a path's first before (one
   * save, and a kill between the write and `afterChange` leaves a file revert still knows);
   * without it, until `afterChange`, the file is expected to still be what it was.
   */
  async beforeChange(path: string, before: Uint8Array | undefined, after?: Uint8Array): Promise<void> {
    this.checkPath(path);
    if (before !== undefined && before.length > CHANGE_BEFORE_MAX_BYTES) {
      throw new RangeError(
        `${quotePath(path)} is ${formatBytes(before.length)}, over the ${formatBytes(CHANGE_BEFORE_MAX_BYTES)} a run keeps to undo a change.`,
      );
    }
    return this.serial(async () => {
      if (this.files.some((f) => f.path === path)) return;
      if (this.files.length >= CHANGES_MAX_FILES) throw this.full(`it already lists ${CHANGES_MAX_FILES} files`);
      // A kill before the write leaves the file as it was (no file, or its before): revert finds it
      // already as before. Without `after`, a created file's "after" is the empty file until afterChange.
      const afterSha256 = this.hash(after ?? before ?? new Uint8Array());
      const entry: ChangeEntry =
        before === undefined
          ? { path, before: null, beforeSha256: null, afterSha256 }
          : { path, before: encodeBefore(before), beforeSha256: this.hash(before), afterSha256 };
      await this.save([...this.files, entry]);
    });
  }

  /** Records what the run wrote to `path` (after its `beforeChange`). */
  async afterChange(path: string, after: Uint8Array): Promise<void> {
    this.checkPath(path);
    const sha = this.hash(after);
    return this.serial(async () => {
      const index = this.files.findIndex((f) => f.path === path);
      const entry = this.files[index];
      if (entry === undefined)
        throw new Error(`No before was recorded for ${quotePath(path)}: call beforeChange before writing a file.`);
      if (entry.afterSha256 === sha) return;
      await this.save(this.files.map((f, i) => (i === index ? { ...f, afterSha256: sha } : f)));
    });
  }

  /** The files in the order the run first touched them. */
  entries(): ChangeEntry[] {
    return this.files.map((f) => ({ ...f }));
  }

  /** Replaces the file with `files`, and only then the log in memory. */
  private async save(files: ChangeEntry[]): Promise<void> {
    const text = `${JSON.stringify({ version: 1, files } satisfies ChangesFile, null, 2)}\n`;
    if (utf8Length(text) > CHANGES_FILE_MAX_BYTES)
      throw this.full(`it would grow over ${formatBytes(CHANGES_FILE_MAX_BYTES)}`);
    await this.store.writeText(this.rel, text);
    this.files = files;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private checkPath(path: string): void {
    const problem = relativePathProblem(path);
    if (problem !== undefined) throw new RangeError(`The changed file's path ${quotePath(path)} ${problem}.`);
  }

  private full(why: string): StorageError {
    const shown = displayPath(this.rel);
    return new StorageError(
      'too-large',
      shown,
      `The change was not made: ${quotePath(shown)}, which keeps what Revert Run restores, is full (${why}).`,
    );
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out +=
      ALPHABET.charAt(n >> 18) +
      ALPHABET.charAt((n >> 12) & 63) +
      (b === undefined ? '=' : ALPHABET.charAt((n >> 6) & 63)) +
      (c === undefined ? '=' : ALPHABET.charAt(n & 63));
  }
  return out;
}

const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Strict base64 (padding required, no white space), or undefined. */
function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n = (sextet(text, i) << 18) | (sextet(text, i + 1) << 12) | (sextet(text, i + 2) << 6) | sextet(text, i + 3);
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

/** The 6 bits of one base64 character ('=' counts as 0). */
function sextet(text: string, i: number): number {
  return Math.max(0, DECODE[text.charCodeAt(i)] ?? 0);
}
