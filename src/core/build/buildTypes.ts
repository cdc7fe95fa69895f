// A build: an Idea Brief (or a brainstorm) becomes a project through phases, each a fresh agent run
// (core/run) in the project folder, each checked by Groundwork from the disk and from exit codes,
// never taken on the model's word. Everything about a build lives in
// `.groundwork/builds/<build-id>/` (core/plan/layout.ts): `build.yaml` (this BuildRecord), the
// build's log and, at the end, `report.md`.
import type { LlmUsage } from '../llm/llmClient';
import type { SpecFormat } from './externalSpec';
import type { TestContract } from './testContract';

/**
 * What Groundwork checks after a phase's run (the `check` of a workflow phase):
 * - brief: the reply is a parseable brief with `PROJECT_NAME:` (saved as `specs/brief.md`);
 * - architecture: `specs/architecture.md` exists, is not empty and has `TEST: <command>` lines
 *   (and `BUILD: <command>` when the project has a build step);
 * - tests-created: the run created at least one test file;
 * - build-command: the architecture's `BUILD:` command, when there is one, exits 0;
 * - verification: `VERIFICATION: PASS` and every `VERIFY: <command>` the reply lists, re-run by
 *   Groundwork, exits 0 (a PASS without commands, or whose commands fail, is "claimed but not
 *   verified"); FAIL sends the developer back once;
 * - review: `REVIEW: APPROVED`, or `REVIEW: CHANGES` with reasons (the developer goes back once);
 * - delivery: `BUILD_COMPLETE` with PROJECT, LOCATION, LANGUAGE, SUMMARY, USAGE, and
 *   `docs/USAGE.md` written;
 * - none: the run ending normally is enough (a workspace's own extra phase).
 */
export const PHASE_CHECKS = [
  'brief',
  'architecture',
  'tests-created',
  'build-command',
  'verification',
  'review',
  'delivery',
  'none',
] as const;
export type PhaseCheck = (typeof PHASE_CHECKS)[number];

/** One phase of a workflow file (`roles/build.workflow.yaml`, or `.groundwork/workflows/build.yaml`). */
export interface WorkflowPhase {
  /** kebab-case, unique in the workflow: `analyst`, `test-writer`… Each phase's system prompt begins with `Groundwork build phase: <name>`. */
  name: string;
  /** A role's name (a file of roles/ or .groundwork/roles/). */
  role: string;
  check: PhaseCheck;
}

export interface Workflow {
  /** In order; at least one, at most WORKFLOW_PHASES_MAX. */
  phases: WorkflowPhase[];
  /** Where it was read from, as shown in messages (`roles/build.workflow.yaml`, `.groundwork/workflows/build.yaml`). */
  file: string;
}

export const WORKFLOW_PHASES_MAX = 20;
/** The default workflow's phase names, in order. */
export const DEFAULT_PHASES = [
  'analyst',
  'architect',
  'test-writer',
  'developer',
  'qa',
  'reviewer',
  'delivery',
] as const;

/** A problem with a workflow file, said so a person can fix it: the file, the line, the field. */
export interface WorkflowProblem {
  file: string;
  line?: number;
  field?: string;
  message: string;
}

/** What the analyst's reply gives (docs/build-phases.md, "Markers"). */
export interface AnalystBrief {
  /** kebab-case, 1 to 3 words of [a-z0-9], at most 64 characters: it becomes a folder name. */
  projectName: string;
  /** TARGET: `existing` when the analyst reads the brief as a feature on the workspace's code (the person is asked). */
  target?: 'new' | 'existing';
  language?: string;
  database?: string;
  frontend?: boolean;
  scope?: string;
  components: string[];
}

/** The project's commands, from `specs/architecture.md`. */
export interface ProjectCommands {
  /** `TEST: <command>` lines, in order (at least one for the check to pass). */
  test: string[];
  /** `BUILD: <command>`, when the project has a build step. */
  build?: string;
}

/** QA's reply. */
export interface QaVerdict {
  verdict: 'pass' | 'fail' | 'none';
  /** `REASON:` (a FAIL's why), if given. */
  reason?: string;
  /** `VERIFY: <command>` lines, in order, deduplicated. */
  verify: string[];
}

/** The reviewer's reply. `REVIEW: CHANGES_REQUESTED` counts as changes. */
export interface ReviewVerdict {
  verdict: 'approved' | 'changes' | 'none';
  /** The lines after the verdict (what to change), if any. */
  reasons?: string;
}

/** Delivery's `BUILD_COMPLETE` summary (docs/build-phases.md, "Markers"). */
export interface DeliverySummary {
  project: string;
  location: string;
  language: string;
  summary: string;
  usage: string;
}

/**
 * - running: under way (interrupted, derived, when nobody holds the build's lock);
 * - completed: every phase passed its check;
 * - failed: a phase failed after its retries, a second QA failure, the cost ceiling;
 * - stopped: the person stopped it.
 */
export const BUILD_STATUSES = ['running', 'completed', 'failed', 'stopped'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

export const PHASE_STATUSES = ['pending', 'running', 'passed', 'failed', 'stopped'] as const;
export type PhaseStatus = (typeof PHASE_STATUSES)[number];

/** Why an attempt was made: the first, a retry after a transient failure, the developer sent back by QA or the reviewer, Rerun Phase, Resume. */
export type AttemptCause = 'first' | 'retry' | 'qa-failed' | 'review-changes' | 'rerun' | 'resume';

/** One try of a phase: one agent run and Groundwork's check of it. */
export interface PhaseAttempt {
  /** The agent run (`.groundwork/runs/<run-id>/`); absent when the attempt failed before its run began. */
  runId?: string;
  status: 'running' | 'passed' | 'failed' | 'stopped';
  startedAt: string;
  endedAt?: string;
  /** Why it failed, one or two sentences. */
  reason?: string;
  /** What proves it: the command and its output (cut), or the missing file. */
  evidence?: string;
  /** A failure worth retrying (a model error, a run that ended without its check passing). */
  transient?: boolean;
  /** Why this attempt was made: 'retry', 'qa-failed' (the developer sent back by QA), 'review-changes', 'rerun'. */
  cause?: AttemptCause;
  usage?: LlmUsage;
  costUsd?: number;
}

export interface PhaseState {
  name: string;
  role: string;
  check: PhaseCheck;
  status: PhaseStatus;
  attempts: PhaseAttempt[];
}

/** A command Groundwork ran itself to check a claim, and its exit code (null: it did not run, e.g. denied). */
export interface VerifiedCommand {
  phase: string;
  command: string;
  exitCode: number | null;
  /** The output, cut for the report. */
  output?: string;
}

/** How many tests a verification's output says ran, as build.yaml keeps it (the names are in `requirements`). */
export interface TestTallyShort {
  runner: string;
  ran: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Whether the runner's own summary was seen. */
  complete: boolean;
  /** Whether each test's name could be read. */
  named: boolean;
}

/** A requirement's evidence: passed (a test that names it passed, none failed), failed (one failed), untested. */
export interface RequirementResult {
  id: string;
  result: 'passed' | 'failed' | 'untested';
  /** The tests that name it, as the runner named them. */
  tests: string[];
}

/** The final verification: the frozen TEST commands re-run and the contract checked after the last phase. */
export interface FinalVerification {
  at: string;
  passed: boolean;
  tests?: TestTallyShort;
  requirements: RequirementResult[];
  /** What a person should know: why it failed, or that per-test results could not be read. */
  note?: string;
}

/** Where a build's spec came from: a Spec Kit feature folder or a Kiro spec, relative to the workspace. */
export interface SpecPointer {
  kind: 'spec';
  format: SpecFormat;
  path: string;
}

/** `build.yaml`. Every field is checked when read: the folder may come from a cloned repository. */
export interface BuildRecord {
  version: 1;
  /** The folder name: `YYYYMMDD-HHMMSS-<slug>-<4 hex>`. */
  id: string;
  status: BuildStatus;
  /** What the build was made from: a saved brief (its workspace-relative path) or a brainstorm (its plan slug). */
  source: { kind: 'brief'; path: string } | { kind: 'brainstorm'; slug: string };
  /**
   * A build from a spec written with another tool (externalSpec.ts): its format and folder. The
   * source is then a brief naming the spec's first file (spec.md, requirements.md), so that a
   * front end that knows only briefs and brainstorms still shows it.
   */
  input?: SpecPointer;
  /** Where the project is written, relative to the workspace ('.' for a feature on the workspace itself); set once the analyst named it. */
  projectDir?: string;
  projectName?: string;
  mode: 'new' | 'feature';
  phases: PhaseState[];
  /** The architect's TEST:/BUILD: commands, frozen when its phase passed: later checks take them from here, never from the file. */
  commands?: ProjectCommands;
  /** What the test writer's passed phase froze (testContract.ts). */
  contract?: TestContract;
  /** Groundwork's own re-check after the last phase (contractKeeper.ts): a build is completed only when it passed. */
  final?: FinalVerification;
  /** What the workspace's workflow or role files weaken of Groundwork's checks (weakerChecks.ts), as the gate said at the start. */
  weaker?: string[];
  /** Commands Groundwork re-ran itself (BUILD:, VERIFY:), with their exit codes. */
  verified: VerifiedCommand[];
  summary?: DeliverySummary;
  usage?: LlmUsage;
  costUsd?: number;
  /** The ceiling it stops at (groundwork.build.maxCostUsd, --max-cost). */
  maxCostUsd?: number;
  startedAt: string;
  updatedAt: string;
  endedAt?: string;
  /** Why it failed or stopped: which phase, what failed. */
  reason?: string;
  origin: 'vscode' | 'cli';
}
