// Runs the CLI in-process with captured output. The store is in memory by default (raw lines, so
// tests can plant damage); pass `openStore` to use the real one on a temporary folder.
import { runCli } from '../../../src/cli/runCli';
import type { CliDeps, CliStore } from '../../../src/cli/cliTypes';
import type { RecordParser } from '../../../src/core/storage/recordLog';
import { FakeClock, MemoryRecordLog } from '../journal/memoryRecordLog';

export const T0 = Date.UTC(2025, 0, 31, 9, 15, 0);

export class MemoryStore implements CliStore {
  readonly files = new Map<string, string[]>();
  log<T>(rel: string, parser: RecordParser<T>): MemoryRecordLog<T> {
    let lines = this.files.get(rel);
    if (!lines) this.files.set(rel, (lines = []));
    return new MemoryRecordLog(parser, lines);
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Harness {
  store: MemoryStore;
  clock: FakeClock;
  /** Folders that exist, for `--workspace` checks. */
  folders: Set<string>;
  opened: string[];
  run(...argv: string[]): Promise<CliRun>;
}

export function harness(overrides: Partial<CliDeps> = {}): Harness {
  const store = new MemoryStore();
  const clock = new FakeClock(T0);
  const folders = new Set(['/ws', '/other']);
  const opened: string[] = [];
  const deps: CliDeps = {
    clock,
    openStore: (root) => {
      opened.push(root);
      return store;
    },
    isDirectory: async (p) => folders.has(p),
    ...overrides,
  };
  return {
    store,
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
