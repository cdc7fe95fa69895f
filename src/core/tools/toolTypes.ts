// A tool is a definition (what the model sees, and what the tool may touch) apart from its
// implementation, which reaches the world only through the ports in its context. The registry
// (registry.ts) pairs them; the session runner offers a role the tools its file lists.
import type { LlmTool } from '../llm/llmClient';
import type { RandomBytes } from '../prompt/untrustedText';
import type { WorkspaceFs } from '../storage/workspaceFs';

/** What a tool may touch: the read tools only read the workspace. */
export type ToolAccess = 'read-workspace';

export interface ToolDefinition extends LlmTool {
  access: ToolAccess;
}

/** Everything a tool call may use. One context serves all the calls of one agent run. */
export interface ToolContext {
  fs: WorkspaceFs;
  /** The absolute path of the workspace root every path is relative to (no trailing slash). */
  root: string;
  /** Glob patterns whose matches are skipped like `.gitignore`d ones (VS Code's `files.exclude`). */
  exclude: readonly string[];
  signal: AbortSignal;
  random?: RandomBytes;
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
