// The journal and the sleep log an agent run writes to, made from the extension's bundle and handed
// to the feature bundles that run agents (agent runs, builds): their modules declare error classes,
// which must be one class on both sides of a bundle's edge (esbuild.mjs, bundles.ts).
import { systemClock } from '../../core/clock';
import { Journal } from '../../core/journal/journal';
import { parseJournalEntry } from '../../core/journal/journalEntry';
import { JOURNAL_FILE, SLEEP_FILE } from '../../core/plan/layout';
import { SleepLog } from '../../core/sleep/sleepLog';
import type { RunLogs } from './agentRuntime';

export const RUN_LOGS: RunLogs = {
  journal: (store) => new Journal(store.log(JOURNAL_FILE, parseJournalEntry), systemClock),
  sleepLog: (store) => new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), systemClock),
};
