// Runs the CLI in-process with captured output. The store is the real one over an in-memory
// file system (`ws`, where tests plant damage); pass `openStore` to use another.
import { runCli } from '../../../src/cli/runCli';
import type { CliDeps } from '../../../src/cli/cliTypes';
import { FakeClock } from '../fakes/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

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
      const io = { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), env: {}, cwd: '/ws' };
      const code = await runCli(argv, io, deps);
      return { code, stdout, stderr };
    },
  };
}
