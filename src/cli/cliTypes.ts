import type { ParseArgsConfig } from 'node:util';
import type { Clock } from '../core/clock';
import type { RecordLog, RecordParser } from '../core/storage/recordLog';

/** Where a command's output goes; the real process in main.ts, strings in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** The part of the workspace store the CLI uses, so tests can hand in their own. */
export interface CliStore {
  log<T>(relPathInsideDotGroundwork: string, parser: RecordParser<T>): RecordLog<T>;
}

/** What the CLI needs from outside besides I/O; defaults are the real ones. */
export interface CliDeps {
  clock: Clock;
  openStore(workspaceRoot: string): CliStore;
  /** Whether `path` is an existing folder; kept here so tests need no real folder. */
  isDirectory(path: string): Promise<boolean>;
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
  workspace(): Promise<{ root: string; store: CliStore }>;
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
