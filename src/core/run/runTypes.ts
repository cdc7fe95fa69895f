// An agent run: one role working on one task in one root folder, with tools that act (write files,
// run approved commands, sleep, report what it learned). Everything about a run lives in
// `.groundwork/runs/<run-id>/` (core/plan/layout.ts): `run.json` (this RunRecord), the transcript
// and the changes it made, so it can be looked at, resumed and reverted from any window or the CLI.
import type { LlmMessage, LlmRetry, LlmUsage } from '../llm/llmClient';
import type { ToolActivity } from '../tools/toolActivity';

/**
 * - running: under way (or its process died: see `interrupted`, which is derived, not stored, when
 *   nobody holds the run's lock);
 * - completed: the model ended its reply;
 * - failed: the model call failed, the model refused, or the turn limit was reached;
 * - stopped: the person stopped it (Ctrl+C, closing its terminal, SIGTERM).
 */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'stopped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** `run.json`. Every field is checked when read: the folder may come from a cloned repository. */
export interface RunRecord {
  version: 1;
  /** The folder name: `YYYYMMDD-HHMMSS-<role>-<4 hex>` (see runStore.ts). */
  id: string;
  role: string;
  /** What the person asked, as given (capped at TASK_MAX_CHARS). */
  task: string;
  /** The root the run works in, relative to the workspace folder with '/' ('.' for the workspace). */
  root: string;
  status: RunStatus;
  /** Model calls made so far. */
  turns: number;
  usage?: LlmUsage;
  /** The concrete model of the last turn. */
  model?: string;
  costUsd?: number;
  /** ISO-8601 UTC. */
  startedAt: string;
  updatedAt: string;
  endedAt?: string;
  /** Why it failed or stopped, one sentence (failed/stopped only). */
  reason?: string;
  /** The model's last text, capped at SUMMARY_MAX_CHARS (completed runs). */
  summary?: string;
  /** Where it was started: shown in lists, and a run started by a build names its phase later. */
  origin: 'vscode' | 'cli';
  /** ISO-8601 UTC: when Revert Run last put the run's files back (see revert.ts). */
  revertedAt?: string;
  /**
   * The first manifest the run wrote, in words ('package.json', 'rules.inc (Makefile includes it)'),
   * saved before the write: a build's later phases ask again for its script runners (manifestWatch.ts).
   */
  manifestWrite?: string;
  /** The run ran a command (saved before it started): it may have written a manifest the write tools never saw. */
  ranCommand?: boolean;
}

export const MANIFEST_WRITE_MAX_CHARS = 1000;

export const TASK_MAX_CHARS = 20_000;
export const SUMMARY_MAX_CHARS = 4_000;
export const REASON_MAX_CHARS = 500;

/** One file in `changes.json`. */
export interface ChangeEntry {
  /** Relative to the run's root, '/'-separated, the real file (links resolved). */
  path: string;
  /** Its bytes before the run first changed it; null when the run created it. */
  before: { encoding: 'utf8' | 'base64'; data: string } | null;
  /** SHA-256 (hex) of `before`'s bytes; null when created. */
  beforeSha256: string | null;
  /** SHA-256 (hex) of what the run last wrote: a file whose hash differs was changed outside the run. */
  afterSha256: string;
}

/** `changes.json`: the files in the order the run first touched them. */
export interface ChangesFile {
  version: 1;
  files: ChangeEntry[];
}

/** The most of one file's old content a run keeps for undo; a larger file is not overwritten. */
export const CHANGE_BEFORE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * One line of `transcript.jsonl`, appended as it happens. `message` lines replayed in order are
 * the conversation (the task, each assistant turn, each turn's tool results), which is what Resume
 * continues from; the others are for people reading the run.
 */
export type TranscriptRecord =
  | { type: 'message'; at: string; turn: number; message: LlmMessage }
  | {
      type: 'command';
      at: string;
      command: string;
      decision: ApprovalDecision;
      exitCode?: number;
      signal?: string;
      timedOut?: boolean;
      durationMs?: number;
      log?: string;
    }
  | { type: 'sleep'; at: string; mode: 'timer' | 'event' | 'manual'; seconds?: number; event?: string; reason?: string }
  | { type: 'woken'; at: string; reason: string }
  | {
      type: 'discovery';
      at: string;
      scope: 'local' | 'global';
      content: string;
      impact?: string;
      caseId?: string;
      duplicate?: boolean;
    }
  | { type: 'end'; at: string; status: RunStatus; reason?: string };

/**
 * How a command came to run or not:
 * - auto: pre-approved by `groundwork.commands.autoApprove` (or `--approve` on the CLI);
 * - once: the person allowed it this time; run: for the rest of the run (this exact text);
 * - denied: the person said no; refused: not asked (unattended, untrusted folder, a protected pattern with nobody to ask).
 */
export type ApprovalDecision = 'auto' | 'once' | 'run' | 'denied' | 'refused';

/** What a front end (the integrated terminal, the CLI's stderr) is told as a run goes. */
export type RunEvent =
  | { type: 'started'; run: RunRecord; resumed: boolean }
  | { type: 'text'; text: string }
  | { type: 'tool'; activity: ToolActivity }
  | { type: 'wrote'; path: string; lines: number; created: boolean; edit: boolean }
  | { type: 'asking'; command: string; why: string }
  | { type: 'approval'; command: string; decision: ApprovalDecision; why?: string }
  | { type: 'command'; command: string }
  | { type: 'output'; chunk: string }
  | {
      type: 'exit';
      command: string;
      exitCode?: number;
      signal?: string;
      timedOut: boolean;
      cancelled: boolean;
      durationMs: number;
    }
  | { type: 'sleep'; mode: 'timer' | 'event' | 'manual'; seconds?: number; event?: string; reason?: string }
  | { type: 'woken'; reason: string }
  /** caseId: the discovery case it became (or, with duplicate, the one it repeats); absent when only the journal has it. */
  | { type: 'discovery'; scope: 'local' | 'global'; content: string; caseId?: string; duplicate?: boolean }
  | { type: 'retry'; retry: LlmRetry }
  | { type: 'notice'; text: string }
  /** `reply`: the model's whole last text (signals taken out), for a caller that checks it (a build phase). */
  | { type: 'ended'; run: RunRecord; reply?: string };

/**
 * What an agent run asks of discovery cases (core/cases' CaseService fits it): a learning becomes
 * a case, or is found to repeat one; a prompt gets the block of what earlier agents learned.
 */
export interface RunDiscoveries {
  report(report: {
    scope: 'local' | 'global';
    content: string;
    impact?: 'low' | 'medium' | 'high' | 'critical';
    taskId?: string;
    agentId?: string;
  }): Promise<{ kind: 'created'; case: { id: string }; hookError?: string } | { kind: 'duplicate'; id: string }>;
  /** The block for the prompt of `agentId` ('' when there is nothing to give). */
  injection(agentId?: string): Promise<{ text: string }>;
}
