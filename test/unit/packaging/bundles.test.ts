// The lazily loaded feature bundles are found from the `*Feature.ts` files themselves, and the list
// in src/vscode/bundles.ts must name exactly those: a feature file left out (or a listed one that is
// gone) fails the build with a sentence that says which file and what to do. A module that several
// of the bundles loaded after activation need is in one of them (planBundles), a bundle hands over
// what others import from it (handedOver), and a module in two bundles is found (duplicates).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const { featureBundles, mainModules, planBundles, handedOver, duplicates } = require(
  join(root, 'scripts/featureBundles.mjs'),
) as {
  featureBundles(root: string): { entry: string; file: string }[];
  mainModules(root: string): string[];
  planBundles(reach: Map<string, string[]>, entries: { cli: string }): Map<string, string>;
  handedOver(
    holds: Map<string, string[]>,
    imports: Map<string, string[]>,
    holderFor: (bundle: string, module: string) => string | undefined,
  ): Map<string, Set<string>>;
  duplicates(bundles: Record<string, Record<string, number>>): { module: string; bytes: number; bundles: string[] }[];
};

const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the list file, with these files (each a one-line module) around it. */
function tree(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bundles-'));
  made.push(dir);
  mkdirSync(join(dir, 'src/vscode'), { recursive: true });
  copyFileSync(join(root, 'src/vscode/bundles.ts'), join(dir, 'src/vscode/bundles.ts'));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), 'export {};\n');
  }
  return dir;
}

const LISTED = featureBundles(root).map((b) => b.entry);

describe('the feature bundles', () => {
  test('each src/vscode/<feature>/<name>Feature.ts is dist/<name>.js, and the list names them all', () => {
    const bundles = featureBundles(root);
    assert.ok(bundles.length >= 8, JSON.stringify(bundles));
    assert.deepEqual(
      bundles.find((b) => b.entry === 'src/vscode/discovery/discoveryFeature.ts'),
      { entry: 'src/vscode/discovery/discoveryFeature.ts', file: 'discovery.js' },
    );
    assert.equal(new Set(bundles.map((b) => b.file)).size, bundles.length, 'no two bundles share a file');
  });

  test('a *Feature.ts file left out of the list fails, naming it and what to do', () => {
    const dir = tree([...LISTED, 'src/vscode/sleep/sleepFeature.ts']);
    assert.throws(
      () => featureBundles(dir),
      /src\/vscode\/sleep\/sleepFeature\.ts is named as a lazy feature bundle .* add it there, or rename the file/,
    );
  });

  test('a listed file that is gone fails too', () => {
    const dir = tree(LISTED.filter((f) => !f.endsWith('chatFeature.ts')));
    assert.throws(
      () => featureBundles(dir),
      /lists src\/vscode\/chat\/chatFeature\.ts in FEATURE_BUNDLES, but there is no such file/,
    );
  });
});

describe('which bundle holds a module several entries need', () => {
  const entries = { cli: 'cli' };
  const plan = (reach: Record<string, string[]>) =>
    Object.fromEntries(planBundles(new Map(Object.entries(reach)), entries));

  test('the modules taken from chunk-main are read from the list file', () => {
    assert.ok(mainModules(root).includes('src/core/storage/storageError.ts'));
  });

  test('a module one entry needs stays in its bundle', () => {
    assert.deepEqual(plan({ 'a.ts': ['cli'], 'b.ts': ['discovery'] }), { 'a.ts': 'cli', 'b.ts': 'discovery' });
  });

  test('the others go to one chunk per set of entries, named after it, the CLI last', () => {
    assert.deepEqual(
      plan({
        'service.ts': ['discovery', 'cli'],
        'view.ts': ['cli', 'discovery'],
        'tools.ts': ['build', 'agentRun', 'cli'],
        'runtime.ts': ['build', 'agentRun'],
      }),
      {
        'service.ts': 'chunk-discovery-cli',
        'view.ts': 'chunk-discovery-cli',
        'tools.ts': 'chunk-agentRun-build-cli',
        'runtime.ts': 'chunk-agentRun-build',
      },
    );
  });

  test('a bundle hands over the modules that a module of another bundle imports, and no others', () => {
    const holds = new Map([
      ['discovery', ['feature.ts']],
      ['chunk-discovery-cli', ['service.ts', 'helper.ts']],
      ['chunk-main', ['storageError.ts']],
    ]);
    const imports = new Map([
      ['feature.ts', ['service.ts', 'storageError.ts']],
      ['service.ts', ['helper.ts', 'storageError.ts']],
    ]);
    const holder = new Map([...holds].flatMap(([bundle, modules]) => modules.map((m) => [m, bundle] as const)));
    const handed = handedOver(holds, imports, (_bundle, module) => holder.get(module));
    assert.deepEqual([...handed.keys()].sort(), ['chunk-discovery-cli', 'chunk-main']);
    assert.deepEqual([...handed.get('chunk-discovery-cli')!], ['service.ts']);
    assert.deepEqual([...handed.get('chunk-main')!], ['storageError.ts']);
  });

  test('a module in two bundles is found, with both bundles, the heaviest first', () => {
    const found = duplicates({
      extension: { 'src/core/storage/storageError.ts': 300, 'src/vscode/extension.ts': 900 },
      cli: { 'src/core/storage/storageError.ts': 280, 'src/cli/main.ts': 500 },
      discovery: { 'src/core/discovery/discoveryService.ts': 4000 },
      chunk: { 'src/core/discovery/discoveryService.ts': 4100 },
    });
    assert.deepEqual(found, [
      { module: 'src/core/discovery/discoveryService.ts', bytes: 4100, bundles: ['discovery', 'chunk'] },
      { module: 'src/core/storage/storageError.ts', bytes: 300, bundles: ['extension', 'cli'] },
    ]);
    assert.deepEqual(duplicates({ a: { 'x.ts': 1 }, b: { 'y.ts': 1 } }), []);
  });
});
