// The CLI's composition root: the one place the real adapters are made (system time, the workspace
// store on disk, the process's terminal, the model from the environment, the role files beside the
// install, the core's services) and the process's streams bound as CliIo.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { systemClock } from '../core/clock';
import { NodeCommandRunner } from '../core/node/nodeCommandRunner';
import { NodeSpecWriter } from '../core/node/nodeSpecWriter';
import { openWorkspaceStore } from '../core/node/openWorkspace';
import { errorCode } from '../core/storage/storageError';
import type { CliDeps, CliIo } from './cliTypes';
import { loadBundledCliRoles, loadCliRole, modelFromEnv, readBundledWorkflow } from './modelDeps';
import { processTerminal } from './terminal';

/** The real world, every adapter a command may reach. */
export function createNodeDeps(): CliDeps {
  return {
    clock: systemClock,
    openStore: (root) => openWorkspaceStore(root),
    isDirectory: async (path) => (await stat(path).catch(() => undefined))?.isDirectory() ?? false,
    readTextFile: async (path) => {
      const info = await stat(path).catch(() => undefined);
      return info?.isFile() && info.size <= 1_000_000 ? readFile(path, 'utf8').catch(() => undefined) : undefined;
    },
    terminal: processTerminal,
    model: modelFromEnv,
    loadRole: (name, store, warn) => loadCliRole(name, store, warn),
    // Loaded on first use: a usage error or `journal list` never loads a service.
    discovery: async (deps) => new (await import('../core/discovery/discoveryService')).DiscoveryService(deps),
    brainstorm: async (deps) => new (await import('../core/brainstorm/brainstormService')).BrainstormService(deps),
    agentRunner: async (deps) => new (await import('../core/run/agentRun')).AgentRunner(deps),
    buildRunner: async (deps) => new (await import('../core/build/buildRunner')).BuildRunner(deps),
    cases: async (deps) => new (await import('../core/cases/caseService')).CaseService(deps),
    git: async (root) => new (await import('../core/node/gitLogRunner')).GitLogRunner(root),
    bundledWorkflow: () => readBundledWorkflow(),
    bundledRoles: () => loadBundledCliRoles(),
    commands: new NodeCommandRunner(),
    hash: (bytes) => createHash('sha256').update(bytes).digest('hex'),
    specWriter: (root) => new NodeSpecWriter(root),
  };
}

export interface ProcessIoOptions {
  stdout?: Writable;
  stderr?: Writable;
  /** Called once when output could not be written for a reason other than the reader leaving. */
  onWriteFailure?: () => void;
}

/**
 * The process's streams as CliIo. Without an 'error' listener a failed write is an uncaught
 * exception with a stack trace, which is what `groundwork journal list | head` used to print.
 *
 * EPIPE (the reader closed the pipe) is not a failure: the reader has all it wanted, as with
 * `git log | head`. Later writes to that stream are dropped, the command finishes, and the exit
 * code is its own (0 when it succeeded). Any other write error (a full disk behind a redirect)
 * means the output is incomplete: it is reported once on stderr and `onWriteFailure` is called,
 * so that main.ts exits 1.
 */
export function processIo(options: ProcessIoOptions = {}): CliIo {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  let stdoutOpen = true;
  let stderrOpen = true;
  let failed = false;
  const fail = () => {
    if (!failed) options.onWriteFailure?.();
    failed = true;
  };
  // Only a stream's first error counts: what follows (a write to the closed stream) is its echo.
  stdout.on('error', (err: unknown) => {
    if (!stdoutOpen) return;
    stdoutOpen = false;
    if (errorCode(err) === 'EPIPE') return;
    if (stderrOpen) stderr.write(`groundwork: could not write the output (${describe(err)}); it is incomplete\n`);
    fail();
  });
  stderr.on('error', (err: unknown) => {
    if (!stderrOpen) return;
    stderrOpen = false;
    if (errorCode(err) !== 'EPIPE') fail();
  });
  return {
    stdout: (text) => void (stdoutOpen && stdout.write(text)),
    stderr: (text) => void (stderrOpen && stderr.write(text)),
    env: process.env,
    cwd: process.cwd(),
  };
}

function describe(err: unknown): string {
  return errorCode(err) ?? (err instanceof Error ? err.message : String(err));
}
