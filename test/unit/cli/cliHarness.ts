// Runs the CLI in-process with captured output. The store is the real one over an in-memory
// file system (`ws`, where tests plant damage); pass `openStore` to use another.
import { Readable } from 'node:stream';
import { runCli } from '../../../src/cli/runCli';
import type { CliCommand, CliDeps, Env } from '../../../src/cli/cliTypes';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import type { CliTerminal } from '../../../src/cli/terminal';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import type { CliRun } from '../../support/processes';

export const T0 = Date.UTC(2025, 0, 31, 9, 15, 0);

export interface Harness {
  ws: MemoryWorkspace;
  clock: FakeClock;
  /** Folders that exist, for `--workspace` checks. */
  folders: Set<string>;
  opened: string[];
  run(...argv: string[]): Promise<CliRun>;
}

export function harness(overrides: Partial<CliDeps> = {}, ws = new MemoryWorkspace()): Harness {
  const clock = new FakeClock(T0);
  const folders = new Set(['/ws', '/other']);
  const opened: string[] = [];
  const deps: CliDeps = {
    ...createNodeDeps(),
    terminal: terminal(),
    clock,
    openStore: (root) => {
      opened.push(root);
      return ws.store;
    },
    isDirectory: async (p) => folders.has(p),
    ...overrides,
  };
  return {
    ws,
    clock,
    folders,
    opened,
    run: (...argv) => cliHere(argv, deps),
  };
}

/**
 * `groundwork <argv>` run in-process (runCli) with `deps`, in `cwd` (default /ws) with `env`
 * (default none), limited to `commands` when given; what it printed and its exit code.
 */
export async function cliHere(
  argv: readonly string[],
  deps: CliDeps,
  options: { env?: Env; cwd?: string; commands?: readonly CliCommand[] } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (s: string) => void (stdout += s),
    stderr: (s: string) => void (stderr += s),
    env: options.env ?? {},
    cwd: options.cwd ?? '/ws',
  };
  const code = await runCli(argv, io, deps, ...(options.commands ? [options.commands] : []));
  return { code, stdout, stderr };
}

export interface TerminalOptions {
  stdin?: string;
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Gets the Ctrl-C handler as the command starts. */
  onInterrupt?: (fire: () => void) => void;
  /** Gets the SIGTERM handler as the command starts. */
  onTerminate?: (fire: () => void) => void;
}

/** The real deps with the process seams of discover and brainstorm (stdin, TTYs, Ctrl-C) scripted. */
export function scriptedDeps(options: TerminalOptions = {}, overrides: Partial<CliDeps> = {}): CliDeps {
  return { ...createNodeDeps(), terminal: terminal(options), ...overrides };
}

/** The process seams of discover and brainstorm (stdin, TTYs, Ctrl-C), scripted. */
export function terminal(options: TerminalOptions = {}): CliTerminal {
  return {
    stdin: () => Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdinIsTTY: () => options.stdinIsTTY ?? false,
    stderrIsTTY: () => options.stderrIsTTY ?? false,
    onInterrupt: (handler) => {
      options.onInterrupt?.(handler);
      return () => undefined;
    },
    onTerminate: (handler) => {
      options.onTerminate?.(handler);
      return () => undefined;
    },
  };
}
