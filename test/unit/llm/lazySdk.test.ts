// The SDK is loaded on the first model call, not when the client module is imported or the
// client constructed (so that activate() stays fast). A resolve hook registered
// before the client module is imported logs every module this process resolves from then on.
// A require() of the SDK (how the bundled extension loads it) shows in require.cache instead.
// In its own file, importing nothing that imports the client: the test runner gives each file its
// own process, so nothing has loaded the SDK yet.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reply, startScriptedModelServer } from '../../support/scriptedModelServer';

const HOOK = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}
`;

describe('lazy SDK', () => {
  test('importing and constructing AnthropicClient loads no SDK; the first call does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-lazy-sdk-'));
    const log = join(dir, 'resolved.txt');
    writeFileSync(log, '');
    const isSdk = (path: string) => path.includes('/@anthropic-ai/sdk/');
    const sdkLoaded = () => readFileSync(log, 'utf8').split('\n').some(isSdk) || Object.keys(require.cache).some(isSdk);
    const server = await startScriptedModelServer([{ reply: reply.text('hi') }]);
    try {
      register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { log } });
      const clientUrl = pathToFileURL(join(__dirname, '../../../src/core/node/anthropicClient.ts')).href;
      const { AnthropicClient } = (await import(clientUrl)) as typeof import('../../../src/core/node/anthropicClient');
      assert.ok(readFileSync(log, 'utf8').includes('anthropicClient.ts'), 'the hook sees the client module load');
      const client = new AnthropicClient({
        apiKey: async () => 'sk-ant-lazy',
        baseURL: server.baseURL,
        models: () => 'claude-haiku-4-5',
      });
      assert.equal(sdkLoaded(), false, 'the SDK was loaded before the first call');
      const request = {
        system: 's',
        messages: [{ role: 'user' as const, content: 'hi' }],
        model: { tier: 'fast' as const },
        maxTokens: 10,
      };
      for await (const event of client.stream(request, new AbortController().signal)) void event;
      assert.equal(sdkLoaded(), true, 'the first call loads the SDK');
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
