/**
 * A line of a JSONL file that could not be read as a record; or, once per read of a log over its
 * read cap, its oldest lines, which were not read at all (`unreadLines` is then set).
 */
export interface ReadProblem {
  /** 1-based line number in the file (1 for the unread oldest lines). */
  line: number;
  /** Why it was skipped, e.g. "not valid JSON" or "missing field title". */
  reason: string;
  /** The start of the offending line, capped so that a huge line cannot flood a report ('' when unread). */
  excerpt: string;
  /** How many of the file's oldest lines were not read, because the file is over its read cap. */
  unreadLines?: number;
}

export interface ReadResult<T> {
  /** Every valid record, in file order. */
  records: T[];
  /** Every line that was skipped, in file order. */
  problems: ReadProblem[];
}

/**
 * An append-only log of records (one JSON object per line). The journal and the sleep log
 * are built on it; the storage layer provides the JSONL implementation.
 */
export interface RecordLog<T> {
  append(record: T): Promise<void>;
  readAll(): Promise<ReadResult<T>>;
}

/** Turns a parsed JSON value into a record, or says why it is not one. */
export type RecordParser<T> = (value: unknown) => { ok: true; record: T } | { ok: false; reason: string };
