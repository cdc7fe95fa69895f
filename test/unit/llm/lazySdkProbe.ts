// The process lazySdk.test.ts starts: nothing here has loaded the SDK or the client module yet.
// A resolve hook registered before the client module is imported logs every module this process
// resolves from then on; a require() of the SDK (how the bundled extension loads it) shows in
// require.cache instead. Prints what it saw as one line of JSON; the test asserts on it.
// Usage: node --import tsx lazySdkProbe.ts <scripted server's base URL>
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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

async function probe(baseURL: string): Promise<Record<string, boolean>> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-lazy-sdk-'));
  const log = join(dir, 'resolved.txt');
  writeFileSync(log, '');
  const isSdk = (path: string) => path.includes('/@anthropic-ai/sdk/');
  const sdkLoaded = () => readFileSync(log, 'utf8').split('\n').some(isSdk) || Object.keys(require.cache).some(isSdk);
  try {
    register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { log } });
    const clientUrl = pathToFileURL(join(__dirname, '../../../src/core/node/anthropicClient.ts')).href;
    const { AnthropicClient } = (await import(clientUrl)) as typeof import('../../../src/core/node/anthropicClient');
    const hookSawClient = readFileSync(log, 'utf8').includes('anthropicClient.ts');
    const client = new AnthropicClient({
      apiKey: async () => 'sk-ant-lazy',
      baseURL,
      models: () => 'claude-haiku-4-5',
    });
    const loadedBeforeCall = sdkLoaded();
    const request = {
      system: 's',
      messages: [{ role: 'user' as const, content: 'hi' }],
      model: { tier: 'fast' as const },
      maxTokens: 10,
    };
    for await (const event of client.stream(request, new AbortController().signal)) void event;
    return { hookSawClient, loadedBeforeCall, loadedAfterCall: sdkLoaded() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void probe(process.argv[2] ?? '').then(
  (seen) => process.stdout.write(JSON.stringify(seen) + '\n'),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
