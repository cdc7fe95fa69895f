// The workspace layout: every folder and file name Groundwork keeps under `.groundwork/`, the
// paths built from them, and what a plan folder's names say about the plan. Discovery, brainstorm,
// the journal, the sleep log, the workspace model and the explorer all take their names from here;
// a new feature (builds, cases, annotations) adds its names here first.
//
// Paths are relative to `.groundwork/` unless a function says it returns a display path.
import { isSlug } from '../storage/safeNames';
import { displayPath, GROUNDWORK_DIR } from '../storage/workspaceStore';

export { GROUNDWORK_DIR };

/** One folder per plan: `plans/<slug>/`. */
export const PLANS_DIR = 'plans';
/** Discovery sessions under way: `discovery/<session>.md`. */
export const DISCOVERY_DIR = 'discovery';
/** The agent panel's discovery session (`discovery/panel.md`; the chat participant drives the same one); the CLI's default is 'cli', so the two do not meet. */
export const PANEL_SESSION = 'panel';
/** The journal of what agents learned, one JSON record per line. */
export const JOURNAL_FILE = 'discoveries.jsonl';
/** Sleeping agents, one JSON record per line. */
export const SLEEP_FILE = 'sleep.jsonl';
/** Every model call and every session step, one JSON record per line. */
export const AUDIT_FILE = 'audit.jsonl';
/** Workspace overrides of the shipped role files: `roles/<name>.md`. */
export const WORKSPACE_ROLES_DIR = 'roles';
/** The panel's pointer to the Idea Brief it shows (a pointer to a plan file, never a copy). */
export const PENDING_BRIEF_FILE = 'panel/brief.json';

/** The files of a plan folder. */
export const PLAN_FILES = {
  /** Discovery's result. */
  ideaBrief: 'idea-brief.md',
  /** A brainstorm's session, between its steps. */
  state: '.brainstorm.json',
  roundsDir: 'rounds',
  document: '00-brainstorming.md',
  context: '00-brainstorming.context.md',
  /** Written last: vouches that the document and the context file are whole. */
  sentinel: '.brainstorm-complete',
  workersDir: '.workers',
  /** In a brainstorm seeded from a plan: points at that plan (a pointer, never a copy). */
  seededFrom: 'seeded-from.md',
  /** In the plan a brainstorm was seeded from: points at the brainstorms made from it. */
  brainstorms: 'brainstorms.md',
} as const;

/** The files that best represent a plan, best first. */
export const PLAN_MAIN_FILES: readonly string[] = [PLAN_FILES.document, PLAN_FILES.ideaBrief];

export function roundFileName(round: number): string {
  return `round-${round}.md`;
}

/** `.groundwork`-relative path of a plan folder, or of a file in it. */
export function planFile(slug: string, file?: string): string {
  return file === undefined ? `${PLANS_DIR}/${slug}` : `${PLANS_DIR}/${slug}/${file}`;
}

/** Workspace-relative path of a plan folder or of a file in it, e.g. `.groundwork/plans/crm/idea-brief.md`. */
export function planDisplayPath(slug: string, file?: string): string {
  return displayPath(planFile(slug, file));
}

/** A plan worker's log (`.workers/<agent>.ndjson`), relative to the plan folder. */
export function workerLogName(agent: string): string {
  return `${PLAN_FILES.workersDir}/${agent}.ndjson`;
}

/**
 * The slug and file of a path inside a plan folder, given relative to `.groundwork/` or to the
 * workspace (`.groundwork/plans/<slug>/<file>`); undefined for any other path, a slug that is not
 * one, or a file in a subfolder.
 */
export function planPathParts(path: string): { slug: string; file: string } | undefined {
  const rel = path.startsWith(`${GROUNDWORK_DIR}/`) ? path.slice(GROUNDWORK_DIR.length + 1) : path;
  const parts = rel.split('/');
  if (parts.length !== 3 || parts[0] !== PLANS_DIR) return undefined;
  const [, slug, file] = parts as [string, string, string];
  if (!isSlug(slug) || file === '' || file === '.' || file === '..') return undefined;
  return { slug, file };
}

/** What the names in a plan folder say about the plan. */
export interface PlanState {
  /** A finished brainstorm, or an Idea Brief with no brainstorm under way. */
  complete: boolean;
  /** A brainstorm under way (its session file without the sentinel): Resume continues it. */
  unfinishedBrainstorm: boolean;
}

export function planStateOf(names: readonly string[]): PlanState {
  const has = (name: string) => names.includes(name);
  return {
    complete: has(PLAN_FILES.sentinel) || (has(PLAN_FILES.ideaBrief) && !has(PLAN_FILES.state)),
    unfinishedBrainstorm: has(PLAN_FILES.state) && !has(PLAN_FILES.sentinel),
  };
}

/** A discovery session's round file, `.groundwork`-relative, from its file stem. */
export function discoveryFile(stem: string): string {
  return `${DISCOVERY_DIR}/${stem}.md`;
}

/** One folder per agent run: `runs/<run-id>/`. */
export const RUNS_DIR = 'runs';

/** The files of a run folder. */
export const RUN_FILES = {
  /** What the run is: role, task, root, status, turns, tokens, cost, times. */
  record: 'run.json',
  /** Every message and tool call, one JSON record per line, appended as it happens. */
  transcript: 'transcript.jsonl',
  /** Every file the run created or changed, with its content before the run's first change. */
  changes: 'changes.json',
  /** The full output of each command: `commands/<n>.log`. */
  commandsDir: 'commands',
} as const;

/** `.groundwork`-relative path of a run folder, or of a file in it. */
export function runFile(runId: string, file?: string): string {
  return file === undefined ? `${RUNS_DIR}/${runId}` : `${RUNS_DIR}/${runId}/${file}`;
}

/** A command's full output, relative to the run folder: `commands/001.log`. */
export function commandLogName(n: number): string {
  return `${RUN_FILES.commandsDir}/${String(n).padStart(3, '0')}.log`;
}

/** One folder per build: `builds/<build-id>/`. */
export const BUILDS_DIR = 'builds';

/** The files of a build folder. */
export const BUILD_FILES = {
  /** The build's state: phases, attempts, status, times, tokens, cost (core/build/buildRecord.ts). */
  record: 'build.yaml',
  /** What was built, how to run it, what was verified: written at the end, opened in the preview. */
  report: 'report.md',
  /** One line per phase change, as it happens. */
  log: 'build.log',
} as const;

/** `.groundwork`-relative path of a build folder, or of a file in it. */
export function buildFile(buildId: string, file?: string): string {
  return file === undefined ? `${BUILDS_DIR}/${buildId}` : `${BUILDS_DIR}/${buildId}/${file}`;
}

/** A workspace's own build workflow, replacing the bundled `roles/build.workflow.yaml`. */
export const WORKSPACE_WORKFLOW_FILE = 'workflows/build.yaml';

/** Discovery cases, one JSON line per change of a case (the last line for an id wins). */
export const CASES_FILE = 'cases.jsonl';
/** Monotonic counters that ids are drawn from: `{"discovery": N, ...}`. */
export const COUNTERS_FILE = 'metrics/counters.json';
/** The generated view of the global discovery cases (rewritten whole, never edited). */
export const DISCOVERIES_VIEW_FILE = 'discoveries.md';
/** One folder per agent persona: `agents/<persona>/`. */
export const AGENTS_DIR = 'agents';

/** The generated view of one persona's local discovery cases: `agents/<persona>/discoveries.md`. */
export function agentDiscoveriesFile(persona: string): string {
  return `${AGENTS_DIR}/${persona}/discoveries.md`;
}
