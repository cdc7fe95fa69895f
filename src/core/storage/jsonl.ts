import type { ReadProblem, ReadResult, RecordLog, RecordParser } from './recordLog';
import { StorageError, formatBytes, quotePath } from './storageError';
import type { WorkspaceFs } from './workspaceFs';

export const TORN_LINE_REASON = 'torn last line (no newline): set aside on next append';
const EXCERPT_LENGTH = 120;

export interface JsonlReadResult<T> extends ReadResult<T> {
  /** The bytes after the last newline, if any: a record whose writer was cut off. */
  tornTail?: string;
}

function excerpt(line: string): string {
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function parseLine<T>(line: string, parser: RecordParser<T>): { ok: true; record: T } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${describe(err)})` };
  }
  try {
    return parser(value);
  } catch (err) {
    // A parser that throws is a bug, but one bad line must not hide the others.
    return { ok: false, reason: `rejected by the parser (${describe(err)})` };
  }
}

/**
 * Reads JSONL text whose first line is line `firstLine` of the file. Never throws on content: a
 * line that is not JSON or not a record is a problem with its line number, and every valid line
 * is kept. A last line without a newline is never a record, even if it parses: its writer may
 * have been cut off mid-record.
 */
export function parseJsonl<T>(text: string, parser: RecordParser<T>, firstLine = 1): JsonlReadResult<T> {
  const records: T[] = [];
  const problems: ReadProblem[] = [];
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  lines.forEach((raw, index) => {
    const line = index === 0 && firstLine === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') return;
    const parsed = parseLine(line, parser);
    if (parsed.ok) records.push(parsed.record);
    else problems.push({ line: firstLine + index, reason: parsed.reason, excerpt: excerpt(line) });
  });
  if (last === '') return { records, problems };
  problems.push({ line: firstLine + lines.length, reason: TORN_LINE_REASON, excerpt: excerpt(last) });
  return { records, problems, tornTail: last };
}

/** One record as one line: JSON escapes newlines inside strings, so the only "\n" is the last. */
export function serializeRecord(record: unknown): string {
  const json = JSON.stringify(record);
  if (typeof json !== 'string') throw new TypeError(`Cannot store ${typeof record} as a JSONL record.`);
  return `${json}\n`;
}

export interface JsonlLogOptions {
  /** The most that one read holds: of a larger file only the newest lines are read. */
  maxBytes: number;
  /** The lock every writer of this file takes. */
  lockPath: string;
  /** How the file is named in messages (default: its path). */
  displayPath?: string;
}

/** A JSONL file as a RecordLog: appends under the lock, reads tolerate damage. */
export class JsonlLog<T> implements RecordLog<T> {
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly fs: WorkspaceFs,
    readonly path: string,
    private readonly parser: RecordParser<T>,
    private readonly options: JsonlLogOptions,
  ) {}

  async append(record: T): Promise<void> {
    const line = this.checkedLine(record);
    await this.fs.withLock(this.options.lockPath, () => this.fs.appendRecord(this.path, line));
  }

  /**
   * As append, without taking the log's lock: for a writer that is this file's only one by another
   * lock it holds (an agent run's transcript, under the run's lock for the run's whole length).
   */
  async appendHeld(record: T): Promise<void> {
    await this.fs.appendRecord(this.path, this.checkedLine(record));
  }

  /** As appendHeld for several records at once: one write, each record still a whole line of its own. */
  async appendHeldMany(records: readonly T[]): Promise<void> {
    if (records.length > 0) await this.fs.appendRecord(this.path, records.map((r) => this.checkedLine(r)).join(''));
  }

  private checkedLine(record: T): string {
    const line = serializeRecord(record);
    // A record the reader would skip is a bug in the caller; better refused now than lost later.
    const check = parseLine(line.slice(0, -1), this.parser);
    if (!check.ok) {
      const shown = this.options.displayPath ?? this.path;
      throw new StorageError(
        'corrupt',
        shown,
        `Refused to append to ${quotePath(shown)}: the record would be skipped when read back (${check.reason}). ` +
          `This is a bug in the code that made the record; please report it.`,
      );
    }
    return line;
  }

  /**
   * Every valid record, in file order. A log is never refused for its size, since appends keep
   * growing it: over `maxBytes` only its newest lines are read, and one problem (first, with
   * `unreadLines`) says how much was left out.
   */
  async readAll(): Promise<JsonlReadResult<T>> {
    const newest = await this.fs.readNewestLines(this.path, this.options.maxBytes);
    if (newest === undefined) return { records: [], problems: [] };
    const result = parseJsonl(this.decoder.decode(newest.data), this.parser, newest.firstLine);
    if (newest.data.length === newest.size) return result;
    const unreadLines = newest.firstLine - 1;
    const unread: ReadProblem = {
      line: 1,
      reason:
        `the file is ${formatBytes(newest.size)}; only its newest ${formatBytes(this.options.maxBytes)} were read ` +
        `(its first ${unreadLines === 1 ? 'line is' : `${unreadLines} lines are`} kept in the file but not shown)`,
      excerpt: '',
      unreadLines,
    };
    return { ...result, problems: [unread, ...result.problems] };
  }
}
