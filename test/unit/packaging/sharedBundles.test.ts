// The bundles share the core instead of each carrying a copy. The real build (esbuild.mjs, production,
// into a folder of its own): the bundles loaded after activation (the features, the CLI) hold each
// module once; extension.js keeps its own copy of what activation uses, and the others take the
// MAIN_MODULES from it (the CLI from its copy, chunk-main-cli.js); activation loads extension.js and
// nothing else; the CLI runs from the built files without vscode. The check the build ends with
// refuses a module in two bundles and an error class copied into extension.js and a bundle the
// extension host loads. The SDK's bundle, which ships the client and its messages resource only, has
// all the sources use of it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { reply, startScriptedModelServer } from '../../support/scriptedModelServer';

const root = join(__dirname, '..', '..', '..');
const run = promisify(execFile);

type Holds = Record<string, Record<string, number>>;
interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }>; imports: { path: string }[] }>;
}
interface Taken {
  bundle: string;
  holder: string;
  module: string;
}
interface Esbuild {
  build(options: { production: boolean; outdir: string; quiet: boolean }): Promise<{ holds: Holds; taken: Taken[] }>;
  checkBundles(
    built: { name: string; metafile: Metafile }[],
    links?: {
      handed?: Map<string, Set<string>>;
      taken?: Taken[];
      source?: (module: string) => string;
    },
  ): Holds;
}
const esbuildScript = (): Promise<Esbuild> => import(pathToFileURL(join(root, 'esbuild.mjs')).href);

/** A built bundle as the check sees it: the modules it holds and the modules it requires from outside. */
const bundle = (name: string, modules: string[], imports: string[] = []) => ({
  name,
  metafile: {
    outputs: {
      [`dist/${name}.js`]: {
        inputs: Object.fromEntries(modules.map((m) => [m, { bytesInOutput: 100 }])),
        imports: imports.map((path) => ({ path })),
      },
    },
  },
});

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the shared bundles, built', () => {
  let dist = '';
  let holds: Holds = {};
  let taken: Taken[] = [];
  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'gw-dist-'));
    dirs.push(dist);
    ({ holds, taken } = await (await esbuildScript()).build({ production: true, outdir: dist, quiet: true }));
  });

  const node = () => Object.entries(holds).filter(([name]) => name !== 'webview');
  const holders = (module: string) =>
    node()
      .filter(([, h]) => h[module] !== undefined)
      .map(([name]) => name);

  test("every module is in one bundle, but for extension.js's and the CLI's own copies: the CLI and the features carry no copy of the core", () => {
    const seen = new Map<string, string[]>();
    for (const [name, h] of node())
      if (name !== 'extension' && name !== 'chunk-main-cli')
        for (const m of Object.keys(h)) seen.set(m, [...(seen.get(m) ?? []), name]);
    const twice = [...seen].filter(([, names]) => names.length > 1).map(([m, names]) => `${m}: ${names.join(', ')}`);
    assert.deepEqual(twice, []);
    assert.ok(seen.size > 200, `the bundles hold ${seen.size} modules`);
    // What the CLI and the features share is in the chunks, not in cli.js.
    const core = Object.keys(holds['cli'] ?? {}).filter((m) => m.startsWith('src/core/'));
    assert.ok(core.length < 20, `cli.js holds ${core.length} core modules: ${core.join(', ')}`);
    assert.deepEqual(holders('src/core/discovery/discoveryService.ts'), ['chunk-discovery-cli']);
  });

  test('the error classes told apart with instanceof are one class each: extension.js holds them, the CLI its copy', () => {
    for (const module of ['src/core/storage/storageError.ts', 'src/core/llm/llmClient.ts', 'src/core/llm/watchdog.ts'])
      assert.deepEqual(holders(module).sort(), ['chunk-main-cli', 'extension'], module);
  });

  /** The files of dist/ a fresh process has loaded after requiring `files` (with a stand-in for vscode). */
  async function loadedAfter(files: string[]): Promise<string[]> {
    const script = `
      const Module = require('node:module');
      const handler = { get: (t, k) => (k in t ? t[k] : new Proxy(function () {}, handler)), apply: () => new Proxy(function () {}, handler), construct: () => new Proxy(function () {}, handler) };
      const vscode = new Proxy(function () {}, handler);
      const load = Module._load;
      Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
      const [dist, ...files] = process.argv.slice(1);
      for (const file of files) require(require('node:path').join(dist, file));
      console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.startsWith(dist)).map((f) => f.slice(dist.length + 1)).sort()));
    `;
    const { stdout } = await run(process.execPath, ['-e', script, dist, ...files]);
    return JSON.parse(stdout) as string[];
  }

  test("a chunk takes the MAIN_MODULES from extension.js in the extension host, from the CLI's copy without it", async () => {
    const chunk = taken.find((t) => t.holder === 'extension' && /^chunk-.*-cli$/.test(t.bundle))?.bundle;
    assert.ok(chunk, 'a chunk the CLI loads takes a MAIN_MODULE');
    const inHost = await loadedAfter(['extension.js', `${chunk}.js`]);
    assert.ok(inHost.includes(`${chunk}.js`) && !inHost.includes('chunk-main-cli.js'), inHost.join(', '));
    const inCli = await loadedAfter([`${chunk}.js`]);
    assert.ok(inCli.includes('chunk-main-cli.js') && !inCli.includes('extension.js'), inCli.join(', '));
  });

  test('activation loads dist/extension.js alone, no feature, chunk or library', async () => {
    const { stdout } = await run(process.execPath, [
      join(root, 'scripts/bench/activate.mjs'),
      '--once',
      '--dist',
      dist,
    ]);
    const { files } = JSON.parse(stdout) as { files: string[] };
    assert.deepEqual(
      files.map((f) => f.slice(dist.length + 1)),
      ['extension.js'],
    );
  });

  test('the CLI runs from the built files alone, without vscode', async () => {
    const help = await run(process.execPath, [join(dist, 'cli.js'), '--help']);
    assert.match(help.stdout, /^Usage: groundwork/m);
    const workspace = mkdtempSync(join(tmpdir(), 'gw-cli-'));
    dirs.push(workspace);
    const journal = await run(process.execPath, [join(dist, 'cli.js'), '--workspace', workspace, 'journal', 'list']);
    assert.match(journal.stdout, /The journal is empty/);
  });
  /** What the sources read off the SDK's module (`sdk.X`) and off its client (`client.X`, `client.messages.X`). */
  function sdkUses(): { sdk: Set<string>; client: Set<string>; messages: Set<string> } {
    const uses = { sdk: new Set<string>(), client: new Set<string>(), messages: new Set<string>() };
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    for (const file of walk(join(root, 'src'))) {
      const source = readFileSync(file, 'utf8');
      if (!source.includes('@anthropic-ai/sdk')) continue;
      const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      for (const m of text.matchAll(/(?<![\w.#])sdk\.(\w+)/g)) uses.sdk.add(m[1]!);
      for (const m of text.matchAll(/(?<![\w.#])client\.(\w+)(?:\.(\w+))?/g)) {
        uses.client.add(m[1]!);
        if (m[1] === 'messages' && m[2]) uses.messages.add(m[2]);
      }
    }
    return uses;
  }

  test("the SDK's bundle has what the sources use of the SDK, required or imported", async () => {
    const uses = sdkUses();
    assert.ok(uses.sdk.has('default') && uses.sdk.has('APIError'), [...uses.sdk].join(', '));
    assert.deepEqual([...uses.client], ['messages'], 'AnthropicClient uses a client resource the bundle does not ship');
    const file = join(dist, 'anthropicSdk.js');
    // AnthropicClient's namedExports: the module's exports, or all of them under `default`.
    const named = (loaded: Record<string, unknown>) =>
      (typeof loaded['APIError'] === 'function' ? loaded : loaded['default']) as Record<string, unknown>;
    for (const sdk of [named(require(file)), named(await import(pathToFileURL(file).href))]) {
      for (const name of uses.sdk) assert.equal(typeof sdk[name], 'function', `sdk.${name}`);
      const Client = sdk['default'] as new (options: object) => { messages: Record<string, unknown> };
      const client = new Client({ apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
      for (const method of uses.messages)
        assert.equal(typeof client.messages[method], 'function', `messages.${method}`);
    }
  });

  test("the SDK's bundle streams a reply and throws the SDK's own errors", async () => {
    const sdk = require(join(dist, 'anthropicSdk.js')) as {
      default: new (options: object) => {
        messages: { create(params: object): Promise<AsyncIterable<{ type: string; delta?: { text?: string } }>> };
      };
      APIError: new (...args: never[]) => Error & { status?: number };
      APIConnectionError: new (...args: never[]) => Error;
    };
    const server = await startScriptedModelServer([{ reply: reply.text(['Hel', 'lo']) }, { reply: reply.error(529) }]);
    try {
      const client = new sdk.default({ apiKey: 'sk-ant-test', baseURL: server.baseURL, maxRetries: 0 });
      const params = { model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
      let text = '';
      for await (const event of await client.messages.create({ ...params, stream: true }))
        if (event.type === 'content_block_delta') text += event.delta?.text ?? '';
      assert.equal(text, 'Hello');
      const overloaded = await client.messages.create({ ...params, stream: true }).catch((err: unknown) => err);
      assert.ok(overloaded instanceof sdk.APIError, String(overloaded));
      assert.equal(overloaded.status, 529);
    } finally {
      await server.close();
    }
    const refused = new sdk.default({ apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
    const error = await refused.messages
      .create({ model: 'm', max_tokens: 1, messages: [] })
      .catch((err: unknown) => err);
    assert.ok(error instanceof sdk.APIConnectionError, String(error));
  });
});

describe('the check the build ends with', () => {
  test('refuses a module in two bundles, naming it and both bundles', async () => {
    const { checkBundles } = await esbuildScript();
    assert.throws(
      () =>
        checkBundles([
          bundle('cli', ['src/cli/main.ts', 'src/core/plan/layout.ts']),
          bundle('chunk-discovery-cli', ['src/core/plan/layout.ts']),
        ]),
      /src\/core\/plan\/layout\.ts is in dist\/cli\.js and dist\/chunk-discovery-cli\.js: a module must be in one bundle/,
    );
    assert.doesNotThrow(() =>
      checkBundles([
        bundle('extension', ['src/vscode/extension.ts', 'src/core/plan/layout.ts']),
        bundle('cli', ['src/cli/main.ts']),
        bundle('chunk-discovery-cli', ['src/core/plan/layout.ts']),
        bundle('webview', ['src/shared/protocol/discovery.ts']),
        bundle('discovery', ['src/shared/protocol/discovery.ts']),
      ]),
    );
  });

  test('refuses an error class in extension.js and a bundle the host loads, and a MAIN_MODULE elsewhere', async () => {
    const { checkBundles } = await esbuildScript();
    const source = (module: string) => (module.endsWith('Error.ts') ? 'export class PlanError extends Error {}' : '');
    assert.throws(
      () =>
        checkBundles(
          [
            bundle('extension', ['src/vscode/extension.ts', 'src/core/plan/planError.ts']),
            bundle('chunk-discovery-cli', ['src/core/plan/planError.ts']),
          ],
          { source },
        ),
      /planError\.ts is in dist\/extension\.js and dist\/chunk-discovery-cli\.js and declares an error class: list it in MAIN_MODULES/,
    );
    // cli.js runs in a process of its own: its copy is no second class.
    assert.doesNotThrow(() =>
      checkBundles(
        [bundle('extension', ['src/core/plan/planError.ts']), bundle('cli', ['src/core/plan/planError.ts'])],
        { source },
      ),
    );
    assert.throws(
      () =>
        checkBundles([
          bundle('extension', ['src/core/llm/watchdog.ts']),
          bundle('chunk-main-cli', ['src/core/llm/watchdog.ts']),
          bundle('chunk-build-cli', ['src/core/llm/watchdog.ts']),
        ]),
      /src\/core\/llm\/watchdog\.ts is a MAIN_MODULE in dist\/chunk-build-cli\.js: it must be taken from dist\/extension\.js/,
    );
  });

  test('refuses a feature in the extension bundle, vscode in a bundle the CLI loads, a module taken but not handed over', async () => {
    const { checkBundles } = await esbuildScript();
    assert.throws(
      () => checkBundles([bundle('extension', ['src/vscode/extension.ts', 'src/vscode/chat/chatFeature.ts'])]),
      /src\/vscode\/chat\/chatFeature\.ts is in dist\/extension\.js: it must be loaded lazily/,
    );
    assert.throws(
      () => checkBundles([bundle('chunk-discovery-cli', ['src/core/discovery/roundFile.ts'], ['vscode'])]),
      /dist\/chunk-discovery-cli\.js needs vscode, but the CLI loads it/,
    );
    assert.throws(
      () =>
        checkBundles([bundle('cli', ['src/cli/main.ts'])], {
          handed: new Map(),
          taken: [{ bundle: 'cli', holder: 'chunk-discovery-cli', module: 'src/core/discovery/roundFile.ts' }],
        }),
      /dist\/cli\.js takes src\/core\/discovery\/roundFile\.ts from dist\/chunk-discovery-cli\.js, which does not hand it over/,
    );
  });
});
