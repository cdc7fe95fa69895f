// What the agent stress tests share: the built CLI (dist/cli.js) as a real process against the
// scripted model server, its stderr kept (the tail only: a command may print hundreds of MB), and
// the small checks on processes and run ids they make.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ScriptedModelServer } from '../../support/scriptedModelServer';
import { CLI, runNode, type ProcessRun } from '../../support/processes';

/** The API key the CLI is given: it must never appear in anything it prints or a command sees. */
export const KEY = 'sk-ant-canary-agent-never-print-me';
const TAIL_BYTES = 64 * 1024;

/** dist/cli.js as a child; `during` gets the live stderr tail (its last 64 KB) and a way to signal the CLI. */
export function cli(
  args: string[],
  server: ScriptedModelServer,
  extraEnv: Record<string, string> = {},
  during?: (stderr: () => string, kill: (s: NodeJS.Signals) => void) => void,
): Promise<ProcessRun> {
  return runNode(CLI.built, args, {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: server.baseURL,
      ...extraEnv,
    },
    stderrTail: TAIL_BYTES,
    ...(during ? { onSpawn: (kill, stderr) => during(stderr, kill) } : {}),
  });
}

/** Alive and not a zombie (a zombie still answers kill(pid, 0)). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.charAt(s.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return true;
  }
}

/** The run id stderr's last line names (`groundwork: run <id> <status>`). */
export function runIdOf(stderr: string): string {
  const id = /run (\d{8}-\d{6}-[a-z0-9-]+-[0-9a-f]{4})/.exec(stderr.trim().split('\n').at(-1) ?? '')?.[1];
  assert.ok(id, `the last line names the run:\n${stderr.slice(-2000)}`);
  return id;
}
