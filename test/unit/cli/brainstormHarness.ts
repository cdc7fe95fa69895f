// What the `groundwork brainstorm` tests share: the scripted replies of the three inquisitors and
// the coordinator, a fake terminal, the command run in-process through runCli on a real temporary
// workspace, and readers for what it leaves in the plan folder.
import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brainstorm } from '../../../src/cli/commands/brainstorm';
import { runCli } from '../../../src/cli/runCli';
import { parseContextFile } from '../../../src/core/brainstorm/contextFile';
import type { Angle, BrainstormContext, BrainstormSession } from '../../../src/core/brainstorm/brainstormTypes';
import {
  match,
  reply,
  startScriptedModelServer,
  type Reply,
  type ScriptRule,
  type ScriptedModelServer,
  type StreamReply,
} from '../../support/scriptedModelServer';
import { filesUnder, repo, scriptedDeps, tempFolder, terminal, type CliRun, type TerminalOptions } from './cliHarness';

export { terminal, type TerminalOptions };

export const CANARY = 'sk-ant-canary-5e1b7d2c9a4f3e80-never-print-me';
export const TOPIC = 'Let customers export their invoices';
export const SLUG = 'let-customers-export-their-invoices';

const SYSTEM: Record<Angle | 'coordinator', string> = {
  ux: 'UX inquisitor',
  technical: 'Technical inquisitor',
  'edge-cases': 'Edge-cases inquisitor',
  coordinator: 'Brainstorm coordinator',
};

type Q = [text: string, priority: number];

/** Round 1 as merged: by priority, then angle (ux, technical, edge-cases). Shown grouped by angle. */
export const ROUND_1: Record<Angle, Q[]> = {
  ux: [
    ['Who exports the invoices, the owner or the accountant?', 1],
    ['Where would someone look for the export button first?', 2],
  ],
  technical: [['Which file formats must the export write?', 1]],
  'edge-cases': [['What should happen when a period has no invoices at all?', 2]],
};
/** The order the questions are shown and answered in: grouped by angle. */
export const SHOWN_1 = [...ROUND_1.ux, ...ROUND_1.technical, ...ROUND_1['edge-cases']].map(([text]) => text);

export const FOLLOW_UP: Q[] = [
  ['Does the accountant need a login of their own?', 1],
  ['How many invoices does the largest customer have per year?', 2],
];

export function questionsJson(angle: Angle, qs: Q[]): string {
  return JSON.stringify({ questions: qs.map(([text, priority]) => ({ text, angle, priority })) });
}

export const SUMMARY = {
  summary: {
    topic: 'Accountants export a period of invoices as CSV',
    key_insights: ['Accountants, not owners, do most exports'],
    decisions: ['CSV only: the accountants asked use CSV (technical, round 1)'],
    open_questions: ['Which time zone decides the period of an invoice?'],
  },
};

export function inquisitor(
  angle: Angle,
  replyWith: Reply | string = questionsJson(angle, ROUND_1[angle]),
  extra: Partial<ScriptRule> = {},
): ScriptRule {
  return {
    name: `inquisitor ${angle}`,
    match: match.system(SYSTEM[angle]),
    reply: typeof replyWith === 'string' ? reply.text(replyWith) : replyWith,
    ...extra,
  };
}

/** The three inquisitors of round 1, each with `options` (e.g. a delay). */
export function inquisitors(options: Omit<StreamReply, 'blocks'> = {}): ScriptRule[] {
  return (['ux', 'technical', 'edge-cases'] as const).map((a) =>
    inquisitor(a, reply.text(questionsJson(a, ROUND_1[a]), options)),
  );
}

export function followUp(
  replyWith: Reply = reply.text(questionsJson('edge-cases', FOLLOW_UP)),
  extra: Partial<ScriptRule> = {},
): ScriptRule {
  return {
    name: 'follow-up',
    match: match.all(match.system(SYSTEM.coordinator), match.lastUserText('TASK: follow-up')),
    reply: replyWith,
    ...extra,
  };
}

export function summarize(
  replyWith: Reply = reply.text(JSON.stringify(SUMMARY)),
  extra: Partial<ScriptRule> = {},
): ScriptRule {
  return {
    name: 'summarize',
    match: match.all(match.system(SYSTEM.coordinator), match.lastUserText('TASK: summarize')),
    reply: replyWith,
    ...extra,
  };
}

/** `groundwork --workspace ws brainstorm …` in-process; the key must never be printed. */
export async function runBrainstorm(
  ws: string,
  env: Record<string, string | undefined>,
  argv: string[],
  options: TerminalOptions = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), env, cwd: ws };
  const code = await runCli(['--workspace', ws, 'brainstorm', ...argv], io, scriptedDeps(options), [brainstorm]);
  assert.ok(!stdout.includes(CANARY) && !stderr.includes(CANARY), 'the key is never printed');
  return { code, stdout, stderr };
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

/** The built CLI (`npm run build`) as a child process, timed from spawn to exit. */
export function runBuiltCli(
  args: string[],
  env: Record<string, string>,
  stdin: 'ignore' | string = 'ignore',
): Promise<CliRun & { ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(repo, 'dist/cli.js'), ...args], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env },
      stdio: [stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (stdin !== 'ignore') child.stdin?.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? -1 : -2), stdout, stderr, ms: performance.now() - started }),
    );
  });
}

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
