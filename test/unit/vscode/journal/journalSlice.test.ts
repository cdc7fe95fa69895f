import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JournalEntry } from '../../../../src/core/journal/journalEntry';
import { JOURNAL_PAGE, journalSlice } from '../../../../src/vscode/journal/journalSlice';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const entry = (i: number): JournalEntry => ({
  timestamp: new Date(T0 + i * 1000).toISOString(),
  title: `Discovery ${i}`,
  description: `What was learned, number ${i}`,
});

describe("the journal's slice of the panel", () => {
  test('lists the newest journal entries first and counts them all', () => {
    const records = Array.from({ length: JOURNAL_PAGE + 7 }, (_, i) => entry(i));
    const state = { journal: journalSlice({ records, problems: [] }) };
    assert.equal(state.journal.total, JOURNAL_PAGE + 7);
    assert.equal(state.journal.entries.length, JOURNAL_PAGE);
    assert.equal(state.journal.entries[0]!.title, `Discovery ${JOURNAL_PAGE + 6}`);
    assert.equal(state.journal.entries.at(-1)!.title, 'Discovery 7');
  });

  test('counts the journal lines that could not be read', () => {
    const problems = [{ line: 2, reason: 'not valid JSON', excerpt: '{"ti' }];
    const state = { journal: journalSlice({ records: [entry(1)], problems }) };
    assert.equal(state.journal.skipped, 1);
    assert.equal(state.journal.entries.length, 1);
  });

  test('a journal over its read cap says what was left unread, and is not counted as skipped lines', () => {
    const problems = [
      {
        line: 1,
        reason:
          'the file is 40.2 MiB; only its newest 16 MiB were read (its first 9000 lines are kept in the file but not shown)',
        excerpt: '',
        unreadLines: 9000,
      },
      { line: 9002, reason: 'not valid JSON', excerpt: '{' },
    ];
    const state = { journal: journalSlice({ records: [entry(1)], problems }) };
    assert.equal(state.journal.skipped, 1);
    assert.match(
      state.journal.partial ?? '',
      /^The journal is large: the file is 40\.2 MiB; only its newest 16 MiB were read/,
    );
  });

  test('a journal that cannot be read becomes an error the panel shows', () => {
    const state = { journal: journalSlice({ error: 'discoveries.jsonl is 40 MB; the limit is 16 MB' }) };
    assert.equal(state.journal.error, 'discoveries.jsonl is 40 MB; the limit is 16 MB');
    assert.deepEqual(state.journal.entries, []);
  });
});
