// What the `groundwork brainstorm` tests share: the scripted replies of the three inquisitors and
// the coordinator (test/support/brainstormScript.ts), a fake terminal, the command run in-process
// through runCli on a real temporary workspace, and readers for what it leaves in the plan folder.
import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brainstorm } from '../../../src/cli/commands/brainstorm';
import { parseContextFile } from '../../../src/core/brainstorm/contextFile';
import type { BrainstormContext, BrainstormSession } from '../../../src/core/brainstorm/brainstormTypes';
import { CANARY, SLUG } from '../../support/brainstormScript';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scriptedModelServer';
import { cliHere, scriptedDeps, terminal, type TerminalOptions } from './cliHarness';
import { filesUnder, tempFolder } from '../../support/tempDirs';
import type { CliRun } from '../../support/processes';

export { terminal, type TerminalOptions };
export * from '../../support/brainstormScript';

/** `groundwork --workspace ws brainstorm …` in-process; the key must never be printed. */
export async function runBrainstorm(
  ws: string,
  env: Record<string, string | undefined>,
  argv: string[],
  options: TerminalOptions = {},
): Promise<CliRun> {
  const r = await cliHere(['--workspace', ws, 'brainstorm', ...argv], scriptedDeps(options), {
    env,
    cwd: ws,
    commands: [brainstorm],
  });
  assert.ok(!r.stdout.includes(CANARY) && !r.stderr.includes(CANARY), 'the key is never printed');
  return r;
}

export const planPath = (ws: string, slug: string, file = '') => join(ws, '.groundwork/plans', slug, file);

export async function readContext(ws: string, slug = SLUG): Promise<BrainstormContext> {
  const where = `.groundwork/plans/${slug}/00-brainstorming.context.md`;
  return parseContextFile(await readFile(join(ws, where), 'utf8'), where);
}

export async function readSession(ws: string, slug = SLUG): Promise<BrainstormSession> {
  return JSON.parse(await readFile(planPath(ws, slug, '.brainstorm.json'), 'utf8')) as BrainstormSession;
}

/** The prompt tokens of the audit log's brainstorm model calls, by kind. */
export async function auditTokens(
  ws: string,
): Promise<{ kind: string; inputTokens: number; cacheReadTokens: number }[]> {
  const lines = (await readFile(join(ws, '.groundwork/audit.jsonl'), 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines
    .map((l) => JSON.parse(l) as { kind: string; usage?: { inputTokens: number; cacheReadTokens: number } })
    .filter((e) => e.usage !== undefined)
    .map((e) => ({ kind: e.kind, inputTokens: e.usage!.inputTokens, cacheReadTokens: e.usage!.cacheReadTokens }));
}

export const bodyText = (body: unknown) => JSON.stringify(body);

export interface ScriptedWorkspace {
  server: ScriptedModelServer;
  ws: string;
  env: Record<string, string | undefined>;
}

/**
 * A fresh scripted model server and workspace folder for each test of the calling suite, handed to
 * `set`. After each test: every model request was scripted, and the key is in no file.
 */
export function useScriptedWorkspace(set: (s: ScriptedWorkspace) => void): void {
  let current: ScriptedWorkspace | undefined;
  beforeEach(async () => {
    const server = await startScriptedModelServer();
    const ws = await tempFolder('groundwork-brainstorm-');
    current = { server, ws, env: { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseURL } };
    set(current);
  });
  afterEach(async () => {
    const { server, ws } = current!;
    try {
      assert.deepEqual(
        server.unmatched.map((r) => r.seq),
        [],
        'every model request was scripted',
      );
      for (const [path, text] of await filesUnder(ws)) assert.ok(!text.includes(CANARY), `the key is in ${path}`);
    } finally {
      // Closed also when a check fails, or its keep-alive sockets would hold the test process open.
      await server.close();
    }
  });
}
