// From what the workspace holds to the journal's and the sleepers' slices of the panel. No vscode
// import: unit-tested (test/unit/vscode/panelState.test.ts).
import type { JournalEntry } from '../core/journal/journalEntry';
import type { Sleeper } from '../core/sleep/sleepLog';
import type { ReadResult } from '../core/storage/recordLog';
import type { JournalEntryView, JournalSlice } from '../shared/protocol/journal';
import type { SleeperView, SleepSlice } from '../shared/protocol/sleep';

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

/**
 * Who sleeps, with when each sleep started and how long it may last: the panel counts down from
 * these itself, so the slice does not change as time passes.
 */
export function sleepSlice(sleepers: Sleeper[] | { error: string }): SleepSlice {
  if ('error' in sleepers) return { sleepers: [], error: sleepers.error };
  return {
    sleepers: sleepers.map(({ state }): SleeperView => {
      const mode = state.mode;
      return {
        agent: state.agent,
        mode: mode.kind,
        ...(mode.kind === 'event' ? { waitingFor: `${mode.target.type} ${mode.target.id}` } : {}),
        startedAt: state.startedAt,
        maxDurationMs: state.maxDurationMs,
      };
    }),
  };
}
