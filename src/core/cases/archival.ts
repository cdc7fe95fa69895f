// Cases leave the prompts for good in two ways (docs/discovery-cases.md, "Archival"): a finished
// task's local cases are archived with it (its global ones hold for the project and stay), and an
// outdated case nobody reviewed within N days is archived rather than left flagged forever. Both
// keep the case in the store, where a person can resurrect it.
import { applyCaseAction } from './caseActions';
import { believableTime } from './caseRecord';
import type { DiscoveryCase } from './caseRecord';
import type { CaseStore } from './caseStore';

/** The default of `groundwork.cases.archiveOutdatedAfterDays` and of the CLI's `--archive-after-days`. */
export const ARCHIVE_OUTDATED_AFTER_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Archives the active local cases of a finished task (a build's id, an agent run's); returns them. */
export async function archiveTask(store: CaseStore, taskId: string): Promise<DiscoveryCase[]> {
  return store.updateMany((cases, now) =>
    cases
      .filter(
        (c) =>
          c.status === 'active' &&
          c.metadata.scope === 'local' &&
          (c.parentId === taskId || c.metadata.sourceTaskId === taskId),
      )
      .map((c) => applyCaseAction(c, { kind: 'archive', reason: 'parent_task_completed' }, now)),
  );
}

/**
 * Archives the cases outdated and untouched (no edit, no validation, no other change) for at least
 * `days` days (a change dated more than a day ahead counts as long ago: see believableTime); returns them. RangeError for a number of days that is not a whole number from 1.
 */
export async function archiveUnreviewedOutdated(
  store: CaseStore,
  days: number = ARCHIVE_OUTDATED_AFTER_DAYS,
): Promise<DiscoveryCase[]> {
  if (!Number.isSafeInteger(days) || days < 1)
    throw new RangeError(`Outdated cases are archived after a whole number of days from 1, not ${days}.`);
  return store.updateMany((cases, now) => {
    const cutoff = Date.parse(now) - days * DAY_MS;
    return cases
      .filter((c) => c.status === 'outdated' && believableTime(c.updatedAt, Date.parse(now)) <= cutoff)
      .map((c) => applyCaseAction(c, { kind: 'archive', reason: 'outdated_unreviewed' }, now));
  });
}
