// From what the workspace holds to the journal's slice of the panel: the newest entries, how many
// there are, what could not be read. No vscode import: unit-tested.
import type { JournalEntry } from '../../core/journal/journalEntry';
import type { ReadResult } from '../../core/storage/recordLog';
import type { JournalEntryView, JournalSlice } from '../../shared/protocol/journal';

/** How many journal entries the panel lists; the rest are a click away in the file. */
export const JOURNAL_PAGE = 50;

export function journalSlice(journal: ReadResult<JournalEntry> | { error: string }): JournalSlice {
  if ('error' in journal) return { entries: [], total: 0, skipped: 0, error: journal.error };
  const { records, problems } = journal;
  const entries: JournalEntryView[] = records
    .slice(-JOURNAL_PAGE)
    .reverse()
    .map((r) => ({
      timestamp: r.timestamp,
      title: r.title,
      description: r.description,
      ...(r.scope ? { scope: r.scope } : {}),
      ...(r.agent ? { agent: r.agent } : {}),
    }));
  const unread = problems.find((p) => p.unreadLines !== undefined);
  return {
    entries,
    total: records.length,
    skipped: problems.filter((p) => p !== unread).length,
    ...(unread ? { partial: `The journal is large: ${unread.reason}.` } : {}),
  };
}
