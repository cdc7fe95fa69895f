// The Runs group of the plan explorer as data: one row per agent run, newest first and at most
// RUNS_SHOWN of them, and one row per file a run changed. Pure (no vscode, no disk): the words come
// in from the caller (localized there), planExplorer.ts turns the rows into TreeItems, and
// test/unit/vscode/agentRun/runRows.test.ts checks them. Every text here comes from a run folder, which may
// come from a cloned repository: it is cut to one visible line where it is a label.
import { runTime, type RowLook } from '../explorer/rowLook';
import { formatTokens, formatUsd, totalTokens } from '../../core/llm/usage';
import type { ChangeEntry, RunRecord, RunStatus } from '../../core/run/runTypes';
import { visibleText } from '../../core/visibleText';

/** The read-only documents of a file's content before a run (runDiffs.ts): `<scheme>:/<run-id>/<path>`. */
export const RUN_BEFORE_SCHEME = 'groundwork-run-before';
/** The tree rows of a run's files (their A/M badge: agentRunContribution.ts): `<scheme>:/<run-id>/<path>?A|M`. */
export const RUN_FILE_SCHEME = 'groundwork-run-file';

/** The runs the group shows; past them a row says how many more there are. */
export const RUNS_SHOWN = 50;
const TASK_LABEL_CHARS = 60;

export type RunShownStatus = RunStatus | 'interrupted';

/** What a run row shows and offers; `contextValue` is what the `viewItem` when clauses match. */
export interface RunRow extends RowLook {
  id: string;
  role: string;
  status: RunShownStatus;
  /** The run's folder relative to the workspace folder ('.' for the folder itself). */
  root: string;
  /** ariaLabel: the task, the status (which the icon shows) and the description. */
  contextValue: string;
  /** Running in this window: Stop Run is offered. */
  here: boolean;
}

/** A file a run created (A) or changed (M). */
export interface FileRow {
  runId: string;
  /** Relative to the run's root, '/'-separated. */
  path: string;
  created: boolean;
  label: string;
  description: string;
  tooltip: string;
  /** What a screen reader says: the path and whether the run created or changed it (which the badge shows). */
  ariaLabel: string;
}

/** What a group of the explorer lists (runs, builds): its newest rows, how many more there are, and the folders that could not be read, each with why. */
export interface Listing<Row> {
  rows: Row[];
  more: number;
  problems: { id: string; problem: string }[];
}

export type RunsListing = Listing<RunRow>;

/** The words of the rows, localized by the caller. */
export interface RunWords {
  status: Readonly<Record<RunShownStatus, string>>;
  /** "{role} · {time}" and the like are composed here; these are the pieces. */
  inThisWindow: string;
  started: (when: string) => string;
  ended: (when: string) => string;
  figures: (turns: number, tokens: string, cost: string) => string;
  reverted: (when: string) => string;
  created: string;
  changed: string;
}

const ICONS: Readonly<Record<RunShownStatus, { icon: string; color?: string }>> = {
  running: { icon: 'sync~spin' },
  completed: { icon: 'pass', color: 'testing.iconPassed' },
  failed: { icon: 'error', color: 'testing.iconFailed' },
  stopped: { icon: 'debug-stop' },
  interrupted: { icon: 'warning', color: 'list.warningForeground' },
};

/** The context value of a run row: `run-<status>`, and `run-running-here` for a run of this window. */
export function runContext(status: RunShownStatus, here: boolean): string {
  return status === 'running' && here ? 'run-running-here' : `run-${status}`;
}

export function runRow(
  run: RunRecord,
  status: RunShownStatus,
  here: boolean,
  words: RunWords,
  now: number,
  locale?: string,
): RunRow {
  const { icon, color } = ICONS[status];
  const role = oneLine(run.role, 64);
  const tokens = formatTokens(run.usage ? totalTokens(run.usage) : 0);
  const tooltip = [
    `${role} — ${words.status[status]}${status === 'running' && here ? ` (${words.inThisWindow})` : ''}`,
    oneLine(run.task, 600),
    [
      words.started(runTime(run.startedAt, now, locale)),
      run.endedAt ? words.ended(runTime(run.endedAt, now, locale)) : undefined,
    ]
      .filter(Boolean)
      .join(' · '),
    words.figures(run.turns, tokens, formatUsd(run.costUsd)),
    ...(run.reason ? [oneLine(run.reason, 500)] : []),
    ...(run.revertedAt ? [words.reverted(runTime(run.revertedAt, now, locale))] : []),
    run.id,
  ];
  const label = oneLine(run.task, TASK_LABEL_CHARS);
  const description = `${role} · ${runTime(run.startedAt, now, locale)}`;
  return {
    id: run.id,
    role: run.role,
    status,
    root: run.root,
    label,
    description,
    icon,
    ...(color ? { color } : {}),
    tooltip,
    ariaLabel: `${label}, ${words.status[status]}, ${description}`,
    contextValue: runContext(status, here),
    here: status === 'running' && here,
  };
}

/** The rows of the newest RUNS_SHOWN runs (`runs` newest first, as RunStore.list gives them). */
export function runsListing(
  runs: readonly { run: RunRecord; status: RunShownStatus; here: boolean }[],
  problems: { id: string; problem: string }[],
  words: RunWords,
  now: number,
  locale?: string,
): RunsListing {
  return {
    rows: runs.slice(0, RUNS_SHOWN).map(({ run, status, here }) => runRow(run, status, here, words, now, locale)),
    more: Math.max(0, runs.length - RUNS_SHOWN),
    problems,
  };
}

export function fileRows(
  runId: string,
  entries: readonly Pick<ChangeEntry, 'path' | 'before'>[],
  words: Pick<RunWords, 'created' | 'changed'>,
): FileRow[] {
  return entries.map((entry) => {
    const slash = entry.path.lastIndexOf('/');
    const created = entry.before === null;
    const tooltip = `${oneLine(entry.path, 400)} — ${created ? words.created : words.changed}`;
    return {
      runId,
      path: entry.path,
      created,
      label: oneLine(entry.path.slice(slash + 1), 120),
      description: slash > 0 ? oneLine(entry.path.slice(0, slash), 120) : '',
      tooltip,
      ariaLabel: tooltip,
    };
  });
}

/** One visible line of at most `max` characters (an ellipsis when cut). */
function oneLine(text: string, max: number): string {
  const chars = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
