// The SDK is loaded on the first model call, not when the client module is imported or the
// client constructed (so that activate() stays fast). Seen from a process of its own
// (lazySdkProbe.ts): in this one, other test files may have loaded the SDK already, and the
// probe's resolve hook, once registered, cannot be taken back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { reply, startScriptedModelServer } from '../../support/scriptedModelServer';

const repo = join(__dirname, '../../..');

describe('lazy SDK', () => {
  test('importing and constructing AnthropicClient loads no SDK; the first call does', async () => {
    const server = await startScriptedModelServer([{ reply: reply.text('hi') }]);
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', join(__dirname, 'lazySdkProbe.ts'), server.baseURL],
        { cwd: repo },
      );
      const seen = JSON.parse(stdout) as Record<string, boolean>;
      assert.equal(seen['hookSawClient'], true, 'the hook sees the client module load');
      assert.equal(seen['loadedBeforeCall'], false, 'the SDK was loaded before the first call');
      assert.equal(seen['loadedAfterCall'], true, 'the first call loads the SDK');
      assert.equal(server.requests.length, 1, 'the probe made its one call to the scripted server');
    } finally {
      await server.close();
    }
  });
});
