// `groundwork discover` as a real child process (Node started with tsx on src/cli/main.ts)
// against the scripted model server, for what only a real process shows: the environment, the
// language from LANG, Ctrl-C. The API key is a canary that must appear nowhere. Moved out of
// test/unit/cli/discover.test.ts (the in-process suites) since each child costs a Node start.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRoundFile } from '../../../src/core/discovery/roundFile';
import { match, reply, startScriptedModelServer } from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import { filesUnder } from '../../support/tempDirs';
import { runCliProcess, type CliRun } from '../../support/processes';
import {
  assertKeyNotPrinted,
  BRIEF,
  CANARY,
  QUESTIONS_1,
  ROLE,
  round,
  tempWorkspace,
} from '../../support/discoverScript';

describe('groundwork discover as a child process', () => {
  async function groundwork(
    args: string[],
    env: Record<string, string>,
    onSpawn?: (kill: (signal: NodeJS.Signals) => void) => void,
  ): Promise<CliRun> {
    const run = await runCliProcess(args, {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      ...(onSpawn ? { onSpawn } : {}),
    });
    assertKeyNotPrinted(run.stdout, run.stderr);
    return run;
  }

  test('the whole conversation: questions, answers, brief; then Ctrl-C mid-call exits 130 and keeps the session', async () => {
    const server = await startScriptedModelServer([
      { match: match.all(ROLE, round('Discovery round 1/3')), times: 2, reply: reply.text(QUESTIONS_1) },
      { name: 'brief', match: match.all(ROLE, round('Discovery round 2/3')), reply: reply.text(BRIEF) },
      {
        name: 'slow',
        match: match.all(ROLE, round('Discovery round 2/3')),
        reply: reply.text(BRIEF, { firstChunkDelayMs: 20_000 }),
      },
    ]);
    try {
      const ws = await tempWorkspace();
      const env = { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseURL, LANG: 'fr_FR.UTF-8' };
      const q = await groundwork(['--workspace', ws, 'discover', '--session', 'proc', 'Build me a CRM'], env);
      assert.equal(q.code, 0, q.stderr);
      assert.match(q.stdout, /^Avant de commencer à construire/);
      assert.match(q.stderr, /answer with: groundwork discover --session proc "<your answers>"/);
      const b = await groundwork(['--workspace', ws, 'discover', '--session', 'proc', 'My team, web'], env);
      assert.equal(b.code, 0, b.stderr);
      assert.match(
        b.stdout,
        /Idea Brief saved to \.groundwork\/plans\/a-small-web-crm-for-a-five-person-sales-team\/idea-brief\.md\n$/,
      );
      assert.equal(existsSync(join(ws, '.groundwork/discovery/proc.md')), false);

      assert.equal(
        (await groundwork(['--workspace', ws, 'discover', '--session', 'proc', 'Build me a CRM'], env)).code,
        0,
      );
      const stopped = await groundwork(['--workspace', ws, 'discover', '--session', 'proc', 'My team'], env, (kill) => {
        void until('the slow request', () => (server.requests.length === 4 ? true : undefined)).then(() =>
          kill('SIGINT'),
        );
      });
      assert.equal(stopped.code, 130, stopped.stderr);
      assert.match(stopped.stderr, /Arrêté\. Ta réponse est enregistrée/);
      const kept = parseRoundFile(await readFile(join(ws, '.groundwork/discovery/proc.md'), 'utf8'));
      assert.ok(kept.ok && kept.data.rounds[0]?.answer === 'My team');
      for (const [path, text] of await filesUnder(ws)) assert.ok(!text.includes(CANARY), `the key is in ${path}`);
    } finally {
      await server.close();
    }
  });

  test('no key: exit 2 with what to set', async () => {
    const ws = await tempWorkspace();
    const r = await groundwork(['--workspace', ws, 'discover', 'Build me a CRM'], {});
    assert.equal(r.code, 2);
    assert.match(r.stderr, /set ANTHROPIC_API_KEY/);
  });
});
