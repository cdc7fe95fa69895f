// Runs the CLI in-process with captured output. The store is the real one over an in-memory
// file system (`ws`, where tests plant damage); pass `openStore` to use another.
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { runCli } from '../../../src/cli/runCli';
import type { CliDeps } from '../../../src/cli/cliTypes';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import type { CliTerminal } from '../../../src/cli/terminal';
import { FakeClock } from '../fakes/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { tempFolder as tempFolderOf } from '../../support/tempDirs';

export const T0 = Date.UTC(2025, 0, 31, 9, 15, 0);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

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
    async run(...argv) {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: (s: string) => void (stdout += s),
        stderr: (s: string) => void (stderr += s),
        env: {},
        cwd: '/ws',
      };
      const code = await runCli(argv, io, deps);
      return { code, stdout, stderr };
    },
  };
}

export const repo = join(import.meta.dirname, '../../..');
// Resolved from the repository, since the child may run with a workspace as its current folder.
export const tsx = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('tsx')).href;

/** A temporary folder, removed when the process ends. */
export const tempFolder = (prefix = 'groundwork-cli-'): Promise<string> => tempFolderOf(prefix);

/** Every file under `dir`, as [relative path, text]. */
export async function filesUnder(dir: string, rel = ''): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true }).catch(() => [])) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, path)));
    else if (e.isFile()) out.push([path, await readFile(join(dir, path), 'utf8')]);
  }
  return out;
}

export interface ProcessOptions {
  cwd?: string;
  /** The child's whole environment (default: this process's), NO_COLOR added. */
  env?: Record<string, string | undefined>;
  /** Gets a way to signal the child, e.g. to send SIGINT mid-call. */
  onSpawn?: (kill: (signal: NodeJS.Signals) => void) => void;
}

/** `groundwork …` as a real child process (`node --import tsx src/cli/main.ts …`). */
export function runCliProcess(args: string[], options: ProcessOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, join(repo, 'src/cli/main.ts'), ...args], {
      cwd: options.cwd ?? repo,
      env: { ...(options.env ?? process.env), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? -1 : -2), stdout, stderr }));
    options.onSpawn?.((signal) => child.kill(signal));
  });
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
