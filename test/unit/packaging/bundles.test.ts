// The lazily loaded feature bundles are found from the `*Feature.ts` files themselves, and the list
// in src/vscode/bundles.ts must name exactly those: a feature file left out (or a listed one that is
// gone) fails the build with a sentence that says which file and what to do.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const { featureBundles, mainModules } = require(join(root, 'scripts/featureBundles.mjs')) as {
  featureBundles(root: string): { entry: string; file: string }[];
  mainModules(root: string): string[];
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

  test('the modules the feature bundles take from the extension bundle are read from the same file', () => {
    assert.ok(mainModules(root).includes('src/core/storage/storageError.ts'));
  });
});
