// A tool is a definition (what the model sees, and what the tool may touch) apart from its
// implementation, which reaches the world only through the ports in its context. The registry
// (registry.ts) pairs them; the session runner offers a role the tools its file lists.
import type { LlmTool } from '../llm/llmClient';
import type { RandomBytes } from '../prompt/untrustedText';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { WriteScope } from './writeScope';

/**
 * What a tool may touch: the read tools only read the run's root; `write-workspace` tools create
 * and change files in it; `run-command` runs a command there (it can change anything, so it needs
 * approval); `run-state` tools touch only Groundwork's own logs (sleep, report_discovery).
 */
export type ToolAccess = 'read-workspace' | 'write-workspace' | 'run-command' | 'run-state';

export interface ToolDefinition extends LlmTool {
  access: ToolAccess;
}

/** Everything a tool call may use. One context serves all the calls of one agent run. */
export interface ToolContext {
  fs: WorkspaceFs;
  /** The absolute path of the workspace root every path is relative to (no trailing slash). */
  root: string;
  /**
   * Where `root` is in the workspace, as names ([] or absent: it is the workspace folder). The
   * write tools judge protected places by the whole path from the workspace folder, so a run in a
   * subfolder cannot write a nested repository's `.git` or `.github/workflows` by its own root.
   */
  rootInWorkspace?: readonly string[];
  /** Glob patterns whose matches are skipped like `.gitignore`d ones (VS Code's `files.exclude`). */
  exclude: readonly string[];
  signal: AbortSignal;
  random?: RandomBytes;
  /** The agent run the acting tools belong to; without it they refuse (see ActingPorts). */
  acting?: ActingPorts;
  /**
   * Where write_file and edit_file may write, relative to `root` (the role's `writes:`); absent:
   * anywhere they may write at all. A write outside it is refused, saying why.
   */
  writeScope?: WriteScope;
  /**
   * Asked by write_file and edit_file with the path (relative to `root`, as given and as really
   * written) and the bytes about to be written: a reason refuses the write, and the model is told it
   * (a build's frozen tests and the scripts its TEST command runs).
   */
  writeGuard?: (path: string, bytes: Uint8Array) => string | undefined;
}

/**
 * What the acting tools need of the agent run that calls them (core/run/agentRun.ts provides it).
 * write_file and edit_file confine and write the file themselves, and tell the run before and after
 * each change so it can keep the content before the run's first change (for Revert Run) and show
 * the write; run_command, sleep and report_discovery are the run's to carry out (approval, the
 * command runner, the sleep log, the journal). A refusal is a ToolInputError, said to the model.
 */
export interface ActingPorts {
  /**
   * Before a file is created or changed. `path` is the root-relative path as names joined with '/'
   * (after resolving links: the file really written), `before` its bytes now (undefined: it does not
   * exist yet), `after` the bytes about to be written. Throws ToolInputError to refuse the write.
   */
  beforeChange(change: { path: string; before: Uint8Array | undefined; after: Uint8Array }): Promise<void>;
  /** After the write succeeded, with what was written. */
  afterChange(change: { path: string; after: Uint8Array; created: boolean }): Promise<void>;
  /** run_command: approval, then the command runner; the text returned goes to the model. */
  runCommand(input: { command: string; timeoutSeconds?: number }, signal: AbortSignal): Promise<string>;
  /** sleep: records the sleep, waits for its wake, returns the wake reason for the model. */
  sleep(input: SleepToolInput, signal: AbortSignal): Promise<string>;
  /** report_discovery: records the learning. */
  reportDiscovery(input: DiscoveryToolInput): Promise<string>;
}

export interface SleepToolInput {
  mode: 'timer' | 'event' | 'manual';
  seconds?: number;
  /** With mode 'event': the agent run (its id or role) or build phase whose end wakes the sleeper. */
  event?: string;
  reason?: string;
}

export const DISCOVERY_IMPACTS = ['low', 'medium', 'high', 'critical'] as const;
export type DiscoveryImpact = (typeof DISCOVERY_IMPACTS)[number];

export interface DiscoveryToolInput {
  scope: 'local' | 'global';
  content: string;
  impact?: DiscoveryImpact;
  /** The requirement it is about (`task-001`), as the model gave it: the run checks it and ignores a bad one. */
  task?: string;
}

/** What goes back to the model as a tool_result. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/**
 * A tool's implementation. `target` says what the call touches, for the people watching (the
 * path or the query as the model gave it, '.' for the root). `run` returns the result text; bad
 * input or a refused path throws ToolInputError, whose message goes back to the model.
 */
export interface ToolImplementation {
  target(input: Record<string, unknown>): string;
  run(input: Record<string, unknown>, context: ToolContext, cache: ToolRunCache): Promise<string>;
}

/** Per-run memo of what is costly to find out once (the real root, the ignore rules). */
export interface ToolRunCache {
  get<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/** A call the model made wrongly (a bad input, a path outside the workspace): said to the model, never a crash. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
