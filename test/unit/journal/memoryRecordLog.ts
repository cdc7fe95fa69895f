// A hand-written in-memory RecordLog for core tests. It keeps raw text lines, so a test can plant
// a corrupt line exactly as a crash or a hand edit would leave it, and it reads them back the way
// the JSONL store does: one JSON value per line, bad lines skipped and reported with their number.
import type { ReadProblem, ReadResult, RecordLog, RecordParser } from '../../../src/core/storage/recordLog';

export class MemoryRecordLog<T> implements RecordLog<T> {
  /** Raw lines; `undefined` is a file that does not exist yet. */
  lines: string[] | undefined;

  constructor(
    private readonly parse: RecordParser<T>,
    lines?: string[],
  ) {
    this.lines = lines;
  }

  async append(record: T): Promise<void> {
    (this.lines ??= []).push(JSON.stringify(record));
  }

  async readAll(): Promise<ReadResult<T>> {
    const records: T[] = [];
    const problems: ReadProblem[] = [];
    (this.lines ?? []).forEach((text, i) => {
      if (text.trim() === '') return;
      const problem = (reason: string) => problems.push({ line: i + 1, reason, excerpt: text.slice(0, 80) });
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        problem('not valid JSON');
        return;
      }
      const parsed = this.parse(value);
      if (parsed.ok) records.push(parsed.record);
      else problem(parsed.reason);
    });
    return { records, problems };
  }

  /** The file as the JSONL store would hold it. */
  text(): string {
    return (this.lines ?? []).map((l) => `${l}\n`).join('');
  }
}

/** A clock that moves only when told to. */
export class FakeClock {
  constructor(public time: number) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
