// `groundwork brainstorm` refusals that keep it from hanging (--unattended, empty stdin) and a whole
// brainstorm with piped answers, on the built CLI (dist/cli.js, which `npm run test:stress`
// builds first), timed from spawn to exit. Moved out of test/unit/cli/brainstormResume.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModelServer } from '../../support/scriptedModelServer';
import { CANARY, FOLLOW_UP, SLUG, TOPIC, followUp, inquisitors, summarize } from '../../support/brainstormScript';
import { CLI, repo, runNode } from '../../support/processes';
import { tempFolder } from '../../support/tempDirs';

/** The built CLI with only PATH and `env` in its environment, answers piped in when given. */
const builtCli = (args: string[], env: Record<string, string>, stdin?: string) =>
  runNode(CLI.built, args, { env: { PATH: process.env['PATH'] ?? '', ...env }, ...(stdin ? { stdin } : {}) });

describe('groundwork brainstorm: the built CLI (npm run build) never waits for answers nobody gives', () => {
  test('--unattended exits 2 at once, before the key, any model call or any file', async (t) => {
    assert.ok(existsSync(join(repo, 'dist/cli.js')), 'dist/cli.js is missing: run npm run build');
    const server = await startScriptedModelServer();
    try {
      const ws = await tempFolder('groundwork-brainstorm-');
      const r = await builtCli(['--workspace', ws, 'brainstorm', '--unattended', TOPIC], {
        ANTHROPIC_API_KEY: CANARY,
        ANTHROPIC_BASE_URL: server.baseURL,
      });
      t.diagnostic(`--unattended: exit ${r.code} after ${r.ms.toFixed(0)} ms`);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /needs someone to answer its questions.*without --unattended.*groundwork discover/);
      assert.ok(r.ms < 1000, `took ${r.ms.toFixed(0)} ms`);
      assert.equal(existsSync(join(ws, '.groundwork')), false, 'nothing written');
      const noKey = await builtCli(['--workspace', ws, 'brainstorm', '--unattended', TOPIC], {});
      assert.equal(noKey.code, 2);
      assert.match(noKey.stderr, /--unattended/, 'refused for what it is, not for the missing key');

      // stdin from /dev/null: refused the same way, before round 1.
      const devNull = await builtCli(['--workspace', ws, 'brainstorm', TOPIC], {
        ANTHROPIC_API_KEY: CANARY,
        ANTHROPIC_BASE_URL: server.baseURL,
      });
      t.diagnostic(`stdin </dev/null: exit ${devNull.code} after ${devNull.ms.toFixed(0)} ms`);
      assert.equal(devNull.code, 2, devNull.stderr);
      assert.match(devNull.stderr, /no answers on stdin/);
      assert.ok(devNull.ms < 2000, `took ${devNull.ms.toFixed(0)} ms`);
      assert.equal(existsSync(join(ws, '.groundwork/plans')), false);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });

  test('answers piped into the built CLI: a whole brainstorm', async () => {
    const server = await startScriptedModelServer([...inquisitors(), followUp(), summarize()]);
    try {
      const ws = await tempFolder('groundwork-brainstorm-');
      const r = await builtCli(
        ['--workspace', ws, 'brainstorm', '--rounds', '2', TOPIC],
        { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseURL },
        'a\nb\nc\nd\nx\ny\n',
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        new RegExp(`${FOLLOW_UP[0]![0].replace(/\?/, '\\?')}[\\s\\S]*Brainstorm complete after 2 rounds`),
      );
      assert.ok(existsSync(join(ws, `.groundwork/plans/${SLUG}/.brainstorm-complete`)));
    } finally {
      await server.close();
    }
  });
});
