import type { ParseArgsConfig } from 'node:util';
import type { SpecWriter } from '../core/annotations/specWriter';
import type { BrainstormServiceDeps } from '../core/brainstorm/brainstormService';
import type { BrainstormApi } from '../core/brainstorm/brainstormTypes';
import type { Clock } from '../core/clock';
import type { CommandRunner } from '../core/commands/commandRunner';
import type { AgentRunDeps, AgentRunner } from '../core/run/agentRun';
import type { BuildDeps, BuildRunner } from '../core/build/buildRunner';
import type { CaseService, CaseServiceDeps } from '../core/cases/caseService';
import type { GitLogPort } from '../core/cases/staleness';
import type { DiscoveryServiceDeps } from '../core/discovery/discoveryService';
import type { DiscoveryApi } from '../core/discovery/discoveryTypes';
import type { LlmClient } from '../core/llm/llmClient';
import type { Role } from '../core/roles/roleSchema';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import type { CliTerminal } from './terminal';

export type Env = Readonly<Record<string, string | undefined>>;

/** Where a command's output goes; the real process in main.ts, strings in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Env;
  cwd: string;
}

/** The model as the environment configures it (see modelDeps.ts). */
export interface ModelFromEnv {
  /** The client, made on first use (the SDK loads then). */
  llm: () => Promise<LlmClient>;
  /** The key, for redacting it from anything printed as a last guard. */
  secrets: string[];
}

/**
 * Everything a command reaches besides its I/O, made in one place: `createNodeDeps()` in
 * nodeDeps.ts for the real world; tests replace what they fake.
 */
export interface CliDeps {
  clock: Clock;
  /** The store of `<workspaceRoot>/.groundwork`; opening it touches nothing. */
  openStore(workspaceRoot: string): WorkspaceStore;
  /** Whether `path` is an existing folder; kept here so tests need no real folder. */
  isDirectory(path: string): Promise<boolean>;
  /** A small text file outside the workspace (a `.code-workspace` file); undefined when it cannot be read. */
  readTextFile?(path: string): Promise<string | undefined>;
  /** stdin, the terminals and Ctrl-C, for the commands that converse. */
  terminal: CliTerminal;
  /**
   * The model from the environment, checked at once (bad settings are a UsageError with
   * `helpTopic`); the client is made on first use. `log` gets the SDK's warnings.
   */
  model(env: Env, log?: (line: string) => void, helpTopic?: string): ModelFromEnv;
  /** The role `name`: the bundled file, or the workspace's override; problems go to `warn`. */
  loadRole(name: string, store: WorkspaceStore, warn: (line: string) => void): Promise<Role>;
  /** The discovery service over these deps (loaded on first use). */
  discovery(deps: DiscoveryServiceDeps): Promise<DiscoveryApi>;
  /** The brainstorm service over these deps (loaded on first use: it brings yaml with it). */
  brainstorm(deps: BrainstormServiceDeps): Promise<BrainstormApi>;
  /** The agent runtime over these deps (loaded on first use). */
  agentRunner(deps: AgentRunDeps): Promise<AgentRunner>;
  /** The build orchestrator over these deps (loaded on first use). */
  buildRunner(deps: BuildDeps): Promise<BuildRunner>;
  /** The discovery cases over these deps (loaded on first use). */
  cases(deps: CaseServiceDeps): Promise<CaseService>;
  /** `git log` in the workspace folder, for the cases' staleness check. */
  git(workspaceRoot: string): Promise<GitLogPort>;
  /** The text of the bundled `roles/build.workflow.yaml`. */
  bundledWorkflow(): Promise<string>;
  /** The bundled roles by name, without the workspace's overrides (what a build's checks are compared with). */
  bundledRoles(): Promise<ReadonlyMap<string, Role>>;
  /** Where an agent's approved commands run: child processes in their own process group. */
  commands: CommandRunner;
  /** SHA-256 of bytes, hex. */
  hash(bytes: Uint8Array): string;
  /** Writes the specs of runs and builds in the workspace folder (discovery notes, marked requirements); without it they are not annotated. */
  specWriter?(workspaceRoot: string): SpecWriter;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandContext {
  io: CliIo;
  deps: CliDeps;
  /** The command's options after parsing (globals included). */
  values: OptionValues;
  /** Positionals after the command words. */
  args: string[];
  json: boolean;
  /** The workspace folder, checked to exist, and its store; opened on first use. */
  workspace(): Promise<{ root: string; store: WorkspaceStore }>;
}

export interface CliCommand {
  /** The words that select the command, e.g. ['journal', 'append']. */
  path: readonly string[];
  /** One line for the command list. */
  summary: string;
  /** Synopsis after `groundwork `, e.g. 'journal list [--json]'. */
  usage: string;
  /** Further help lines. */
  details?: readonly string[];
  /** Options besides the global ones; string or boolean only (no short aliases needed yet). */
  options?: NonNullable<ParseArgsConfig['options']>;
  /** How many positionals after the command words; default none. */
  args?: { min: number; max: number; name: string };
  /** Returns the exit code. Throws UsageError for bad input (exit 2); other errors exit 1. */
  run(ctx: CommandContext): Promise<number>;
}

/** Bad usage or bad input: exit 2, one line on stderr, with a hint to the command's help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The help topic to point at, e.g. 'journal append'. */
    readonly helpTopic?: string,
  ) {
    super(message);
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;
