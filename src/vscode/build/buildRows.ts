// The Builds group of the plan explorer as data: one row per build (newest first, at most
// BUILDS_SHOWN), its phases, and each phase's tries (the agent run of each, as a run row whose files
// expand beneath it). Pure (no vscode, no disk): the words come in from the caller (localized there),
// planExplorer.ts turns the rows into TreeItems, test/unit/vscode/build/buildRows.test.ts checks them.
// Every text here comes from a build folder, a model or a command, which may come from a cloned
// repository: it is cut to one visible line where it is a label, and the tooltip is plain text.
import { runTime, type RowLook } from '../explorer/rowLook';
import { phaseTotals, formatDuration } from '../../core/build/buildText';
import type {
  AttemptCause,
  BuildRecord,
  BuildStatus,
  PhaseAttempt,
  PhaseState,
  PhaseStatus,
} from '../../core/build/buildTypes';
import { formatTokens, formatUsd, totalTokens } from '../../core/llm/usage';
import { GROUNDWORK_DIR, PLANS_DIR } from '../../core/plan/layout';
import { isSlug } from '../../core/storage/safeNames';
import { visibleText } from '../../core/visibleText';
import type { Listing, RunRow } from '../agentRun/runRows';

/** What a build is made from (a build record's `source`). */
export type BuildSource = BuildRecord['source'];
export type BuildShownStatus = BuildStatus | 'interrupted';

/** The builds the group shows; past them a row says how many more there are. */
export const BUILDS_SHOWN = 50;
const LABEL_CHARS = 60;
const EVIDENCE_LINES = 12;

/** How a row of the Builds group looks: every build and phase row offers its actions by contextValue. */
type BuildLook = RowLook & { contextValue: string };

/** contextValue: `build-<status>[-here][-folder]`. */
export interface BuildRow extends BuildLook {
  id: string;
  status: BuildShownStatus;
  /** Running in this window: Stop is offered. */
  here: boolean;
  /** The project folder relative to the workspace ('.' for the workspace), once the analyst named it. */
  project?: string;
  /** The plan it was made from (its slug: planOf), shown under that plan too. */
  plan?: string;
  phases: PhaseRow[];
}

/** contextValue: `build-phase` when Rerun Phase is offered (the build is not under way and every earlier phase passed), else `build-phase-locked`. */
export interface PhaseRow extends BuildLook {
  buildId: string;
  name: string;
  status: PhaseStatus;
  /** Whether it has tries to expand. */
  tried: boolean;
}

/** A try of a phase: its agent run (its files expand beneath it), or a note when it failed before its run began. */
export type AttemptNode = { kind: 'run'; row: RunRow } | { kind: 'note'; text: string; tooltip?: string };

/** The builds to show; a damaged build.yaml is a problem row. */
export type BuildsListing = Listing<BuildRow>;

/** The words of the rows, localized by the caller. */
export interface BuildWords {
  status: Readonly<Record<BuildShownStatus, string>>;
  phase: Readonly<Record<PhaseStatus, string>>;
  cause: Readonly<Record<AttemptCause, string>>;
  inThisWindow: string;
  from: (source: string) => string;
  project: (folder: string) => string;
  started: (when: string) => string;
  ended: (when: string) => string;
  tries: (n: number) => string;
  attempt: (n: number) => string;
  /** A try that failed before its agent run began. */
  noRun: string;
}

const BUILD_ICONS: Readonly<Record<BuildShownStatus, { icon: string; color?: string }>> = {
  running: { icon: 'sync~spin' },
  completed: { icon: 'pass', color: 'testing.iconPassed' },
  failed: { icon: 'error', color: 'testing.iconFailed' },
  stopped: { icon: 'debug-stop' },
  interrupted: { icon: 'warning', color: 'list.warningForeground' },
};

const PHASE_ICONS: Readonly<Record<PhaseStatus, { icon: string; color?: string }>> = {
  pending: { icon: 'circle-large-outline', color: 'disabledForeground' },
  running: { icon: 'sync~spin' },
  passed: { icon: 'pass', color: 'testing.iconPassed' },
  failed: { icon: 'error', color: 'testing.iconFailed' },
  stopped: { icon: 'debug-stop', color: 'testing.iconSkipped' },
};

/** What a build is made from, as a person reads it: the brief's path, or the brainstorm's plan. */
export function sourceText(source: BuildSource): string {
  return source.kind === 'brief' ? oneLine(source.path, 200) : oneLine(source.slug, 64);
}

/**
 * The plan a build was made from: a brainstorm's slug, or the plan folder of a brief saved in it
 * (`.groundwork/plans/<slug>/…`). Undefined for any other path, a path that climbs (`..`) or is not
 * plain, and a name that is not a plan's: the record may come from a cloned repository.
 */
export function planOf(source: BuildSource): string | undefined {
  if (source.kind === 'brainstorm') return isSlug(source.slug) ? source.slug : undefined;
  const parts = source.path.split('/');
  if (parts.length < 4 || parts[0] !== GROUNDWORK_DIR || parts[1] !== PLANS_DIR) return undefined;
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) return undefined;
  return isSlug(parts[2]!) ? parts[2] : undefined;
}

/** `build-<status>`, `-here` for one under way in this window, `-folder` once it has a project folder. */
export function buildContext(status: BuildShownStatus, here: boolean, hasFolder: boolean): string {
  return `build-${status}${status === 'running' && here ? '-here' : ''}${hasFolder ? '-folder' : ''}`;
}

/** "1.2 s · 3.4k tokens · $0.0123" for a phase (or a build) that ran; '' before. */
export function phaseFigures(phase: PhaseState): string {
  if (phase.attempts.length === 0) return '';
  const t = phaseTotals(phase);
  // A try under way has no figures yet: nothing rather than "0 tokens · cost unknown".
  if (t.durationMs === undefined && t.tokens === 0 && t.costUsd === undefined) return '';
  return [t.durationMs === undefined ? '' : formatDuration(t.durationMs), formatTokens(t.tokens), formatUsd(t.costUsd)]
    .filter(Boolean)
    .join(' · ');
}

export function buildTotalsText(build: BuildRecord): string {
  return `${formatTokens(build.usage ? totalTokens(build.usage) : 0)} · ${formatUsd(build.costUsd)}`;
}

export function buildRow(
  build: BuildRecord,
  status: BuildShownStatus,
  here: boolean,
  words: BuildWords,
  now: number,
  locale?: string,
): BuildRow {
  const { icon, color } = BUILD_ICONS[status];
  // The project's folder names it best (two builds of one brief get sum-tool and sum-tool-2); before the analyst named it, its plan.
  const named = build.projectDir !== undefined && build.projectDir !== '.' ? build.projectDir : build.projectName;
  const label = oneLine(
    named ??
      (build.source.kind === 'brief' ? build.source.path.replace(/^.*\/plans\/([^/]+)\/.*$/, '$1') : build.source.slug),
    LABEL_CHARS,
  );
  const plan = planOf(build.source);
  const when = runTime(build.startedAt, now, locale);
  const description = [words.status[status], when, formatUsd(build.costUsd)].join(' · ');
  const tooltip = [
    `${label} — ${words.status[status]}${status === 'running' && here ? ` (${words.inThisWindow})` : ''}`,
    words.from(sourceText(build.source)),
    ...(build.projectDir !== undefined ? [words.project(oneLine(build.projectDir, 200))] : []),
    [words.started(when), build.endedAt ? words.ended(runTime(build.endedAt, now, locale)) : undefined]
      .filter(Boolean)
      .join(' · '),
    buildTotalsText(build),
    ...(build.reason ? [oneLine(build.reason, 800)] : []),
    build.id,
  ];
  return {
    id: build.id,
    status,
    here: status === 'running' && here,
    ...(build.projectDir !== undefined ? { project: build.projectDir } : {}),
    ...(plan !== undefined ? { plan } : {}),
    label,
    description,
    icon,
    ...(color ? { color } : {}),
    tooltip,
    ariaLabel: `${label}, ${description}`,
    contextValue: buildContext(status, here, build.projectDir !== undefined),
    phases: build.phases.map((p, i) =>
      phaseRow(build, p, status !== 'running' && build.phases.slice(0, i).every((q) => q.status === 'passed'), words),
    ),
  };
}

function phaseRow(build: BuildRecord, phase: PhaseState, rerunnable: boolean, words: BuildWords): PhaseRow {
  const { icon, color } = PHASE_ICONS[phase.status];
  const figures = phaseFigures(phase);
  const tries = phase.attempts.length;
  const last = phase.attempts.at(-1);
  const description = [words.phase[phase.status], tries > 1 ? words.tries(tries) : '', figures]
    .filter(Boolean)
    .join(' · ');
  const tooltip = [
    `${phase.name} — ${words.phase[phase.status]}`,
    oneLine(phase.role, 64),
    ...(figures ? [figures] : []),
    ...(last?.reason ? [oneLine(last.reason, 800)] : []),
    ...(last?.evidence ? evidenceLines(last.evidence) : []),
  ];
  return {
    buildId: build.id,
    name: phase.name,
    status: phase.status,
    label: oneLine(phase.name, LABEL_CHARS),
    description,
    icon,
    ...(color ? { color } : {}),
    tooltip,
    ariaLabel: `${phase.name}, ${description}`,
    contextValue: rerunnable ? 'build-phase' : 'build-phase-locked',
    tried: tries > 0,
  };
}

/** A try's agent run as a row of the phase: "try 2 (sent back: QA failed)", its status and figures, Open Changes on it. */
export function attemptRunRow(base: RunRow, attempt: PhaseAttempt, n: number, words: BuildWords): RunRow {
  const cause = attempt.cause && attempt.cause !== 'first' ? ` (${words.cause[attempt.cause]})` : '';
  const label = `${words.attempt(n)}${cause}`;
  const status = words.phase[attempt.status === 'running' ? 'running' : attempt.status];
  const tokens = attempt.usage ? formatTokens(totalTokens(attempt.usage)) : '';
  const description = [status, tokens, attempt.costUsd !== undefined ? formatUsd(attempt.costUsd) : '']
    .filter(Boolean)
    .join(' · ');
  // The try's own verdict (a run that completed may have failed Groundwork's check), not its run's status.
  const { icon, color } = PHASE_ICONS[attempt.status];
  const { color: _runColor, ...rest } = base;
  return {
    ...rest,
    icon,
    ...(color ? { color } : {}),
    label,
    description,
    tooltip: [label, ...(attempt.reason ? [oneLine(attempt.reason, 800)] : []), ...base.tooltip.slice(2)],
    ariaLabel: `${label}, ${description}`,
    contextValue: 'build-run',
  };
}

/** A try that has no run to show: why it failed. */
export function attemptNote(attempt: PhaseAttempt, n: number, words: BuildWords): AttemptNode {
  const text = `${words.attempt(n)}: ${attempt.reason ? oneLine(attempt.reason, 120) : words.noRun}`;
  return { kind: 'note', text, tooltip: attempt.reason ? oneLine(attempt.reason, 800) : words.noRun };
}

/** The rows of the newest BUILDS_SHOWN builds (`builds` newest first, as BuildStore.list gives them). */
export function buildsListing(
  builds: readonly { build: BuildRecord; status: BuildShownStatus; here: boolean }[],
  problems: { id: string; problem: string }[],
  words: BuildWords,
  now: number,
  locale?: string,
): BuildsListing {
  return {
    rows: builds
      .slice(0, BUILDS_SHOWN)
      .map(({ build, status, here }) => buildRow(build, status, here, words, now, locale)),
    more: Math.max(0, builds.length - BUILDS_SHOWN),
    problems: problems.map((p) => ({ id: oneLine(p.id, 120), problem: oneLine(p.problem, 500) })),
  };
}

function evidenceLines(evidence: string): string[] {
  const lines = evidence.split(/\r?\n/).filter((l) => l.trim() !== '');
  const shown = lines.slice(0, EVIDENCE_LINES).map((l) => oneLine(l, 200));
  return lines.length > EVIDENCE_LINES ? [...shown, '…'] : shown;
}

/** One visible line of at most `max` characters (an ellipsis when cut). */
function oneLine(text: string, max: number): string {
  const chars = [...visibleText(text.replace(/\s+/g, ' ').trim())];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
