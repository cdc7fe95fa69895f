// `groundwork discover --session`: names that sanitise to the same file name used to share one
// conversation (`--session a/b`, then `--session a-b` recorded the second request as round 1's
// answer of the first). Each name is its own conversation now, and a name that cannot be one is
// refused before any model call.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { discover as discoverCommand } from '../../../src/cli/commands/discover';
import {
  lastUserText,
  match,
  reply,
  startScriptedModelServer,
  type MessagesBody,
  type ScriptedModelServer,
} from '../../support/scriptedModelServer';
import { cliHere, scriptedDeps } from './cliHarness';
import { tempFolder } from '../../support/tempDirs';
import type { CliRun } from '../../support/processes';

const QUESTIONS = 'DISCOVERY_QUESTIONS\n1. Who will use it?\n2. Web or phone?';

describe('groundwork discover --session: one conversation per name', () => {
  let server: ScriptedModelServer;
  let ws: string;
  let env: Record<string, string | undefined>;
  beforeEach(async () => {
    server = await startScriptedModelServer();
    ws = await tempFolder('groundwork-sessions-');
    env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.baseURL, LANG: 'C.UTF-8' };
  });
  afterEach(() => server.close());

  async function discover(argv: string[]): Promise<CliRun> {
    return cliHere(['--workspace', ws, 'discover', ...argv], scriptedDeps(), {
      env,
      cwd: ws,
      commands: [discoverCommand],
    });
  }

  test("--session 'a/b' then --session 'a-b': the second request starts its own round 1", async () => {
    server.add({
      name: 'round 1',
      match: match.system("You are Groundwork's discovery agent"),
      reply: reply.text(QUESTIONS),
      times: 2,
    });
    assert.equal((await discover(['--session', 'a/b', 'build me a CRM'])).code, 0);
    const second = await discover(['--session', 'a-b', 'build me a bakery shop']);
    assert.equal(second.code, 0, second.stderr);
    const [first, other] = server.requests.map((r) => lastUserText(r.body as MessagesBody));
    assert.match(first ?? '', /Discovery round 1\/3/);
    assert.match(other ?? '', /Discovery round 1\/3[\s\S]*build me a bakery shop/, 'not an answer to round 1 of a/b');
    assert.equal((server.requests[1]!.body as MessagesBody).messages.length, 1);
  });

  test('a session name with a line break or only invisible characters is bad usage, before any call', async () => {
    for (const name of ['a\nCREATED: 0', '\u200b\u200d']) {
      const r = await discover(['--session', name, 'build me a CRM']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--session: the session name/);
    }
    assert.equal(server.requests.length, 0);
  });
});
