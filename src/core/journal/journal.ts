import type { Clock } from '../clock';
import type { ReadResult, RecordLog } from '../storage/recordLog';
import { checkJournalInput } from './journalEntry';
import type { JournalEntry, JournalInput } from './journalEntry';

/**
 * Thrown by `Journal.append` when the entry breaks a rule (empty title, description over 8 KB…).
 * The message says what to change; front ends show it as is (the CLI exits 2 with it).
 */
export class JournalInputError extends Error {
  override readonly name = 'JournalInputError';
}

/**
 * The discovery journal: an append-only list of what agents and people found out. Storage
 * errors from the log pass through unchanged so the caller can tell "bad input" from "disk".
 */
export class Journal {
  constructor(
    private readonly log: RecordLog<JournalEntry>,
    private readonly clock: Clock,
  ) {}

  /** Validates, stamps with the clock's time (ISO-8601 UTC) and appends; returns what was stored. */
  async append(input: JournalInput): Promise<JournalEntry> {
    const checked = checkJournalInput(input);
    if (!checked.ok) throw new JournalInputError(checked.reason);
    // Built field by field so the stored line has a stable key order and no stray keys.
    const entry: JournalEntry = {
      timestamp: new Date(this.clock.now()).toISOString(),
      ...checked.value,
    };
    await this.log.append(entry);
    return entry;
  }

  /**
   * Every valid entry in file (= append) order, plus the lines that were skipped with their line
   * numbers. A missing file reads as empty. Show the problems; do not drop them silently.
   */
  load(): Promise<ReadResult<JournalEntry>> {
    return this.log.readAll();
  }
}
