import { stat } from 'node:fs/promises';
import { systemClock } from '../core/clock';
import { openWorkspaceStore } from '../core/node/openWorkspace';
import type { CliDeps, CliIo } from './cliTypes';

/** The real world: system time, the workspace on disk. */
export const nodeDeps: CliDeps = {
  clock: systemClock,
  openStore: (root) => openWorkspaceStore(root),
  isDirectory: async (path) => (await stat(path).catch(() => undefined))?.isDirectory() ?? false,
};

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}
