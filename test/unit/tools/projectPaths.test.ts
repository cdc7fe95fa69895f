import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { checkProjectPath, relativeInside } from '../../../src/core/tools/projectPaths';
import { ToolInputError } from '../../../src/core/tools/toolTypes';
import { contextFor, fencedBody, memoryWorkspace, ok, refused, ROOT } from './toolHarness';

describe('paths: lexical checks', () => {
  const refusedPaths: { path: string; says: RegExp }[] = [
    { path: '../outside.txt', says: /'\.\.' segment/ },
    { path: 'a/../../x', says: /'\.\.' segment/ },
    { path: 'a/..', says: /'\.\.' segment/ },
    { path: '/etc/passwd', says: /absolute path/ },
    { path: 'C:\\x', says: /absolute path/ },
    { path: 'C:/x', says: /absolute path/ },
    { path: 'c:x', says: /absolute path/ },
    { path: '\\\\server\\share\\x', says: /absolute path/ },
    { path: 'src\\a.ts', says: /backslash/ },
    { path: 'a\0b', says: /NUL byte/ },
    { path: 'a\nb', says: /control character/ },
    { path: 'a\u009bb', says: /control character/ },
    { path: 'CON', says: /device name reserved by Windows/ },
    { path: 'nul.txt', says: /device name reserved by Windows/ },
    { path: 'src/com1.log', says: /device name/ },
    { path: 'Lpt9', says: /device name/ },
    { path: 'notes.', says: /ends in a dot or a space/ },
    { path: 'dir /x', says: /ends in a dot or a space/ },
    { path: '...', says: /ends in a dot/ },
    ...['<', '>', ':', '"', '|', '?', '*'].map((c) => ({
      path: `src/a${c}b`,
      says: /contains one of < > : " \| \? \*/,
    })),
  ];
  for (const { path, says } of refusedPaths) {
    test(`${JSON.stringify(path)} is refused`, () => {
      assert.throws(
        () => checkProjectPath(path),
        (err: unknown) =>
          err instanceof ToolInputError && says.test(err.message) && /^The path '.*' was refused: /.test(err.message),
      );
    });
  }

  const accepted: [string, string[]][] = [
    ['', []],
    ['.', []],
    ['./', []],
    ['src/', ['src']],
    ['./src/./a.ts', ['src', 'a.ts']],
    ['a//b', ['a', 'b']],
    ['.env', ['.env']],
    ['console.log', ['console.log']],
    ['con-fig', ['con-fig']],
    ['..foo', ['..foo']],
    ['ünïcode/файл.md', ['ünïcode', 'файл.md']],
  ];
  for (const [path, segments] of accepted) {
    test(`${JSON.stringify(path)} is ${JSON.stringify(segments)}`, () => {
      assert.deepEqual(checkProjectPath(path), segments);
    });
  }

  test('inside is decided by segments, case-insensitively on Windows only', () => {
    assert.deepEqual(relativeInside('/w/a/b', '/w', false), ['a', 'b']);
    assert.deepEqual(relativeInside('/w', '/w', false), []);
    assert.equal(relativeInside('/w-evil/a', '/w', false), undefined);
    assert.equal(relativeInside('/W/a', '/w', false), undefined);
    assert.deepEqual(relativeInside('C:\\Work\\src', 'c:/work', true), ['src']);
    assert.equal(relativeInside('C:\\Work2\\src', 'C:\\Work', true), undefined);
  });
});

describe('paths: symbolic links (in memory)', () => {
  const fs = memoryWorkspace({ 'inside.txt': 'inside text', 'docs/guide.md': 'guide text' });
  fs.writeRaw('/outside/secret.txt', 'TOP SECRET');
  fs.writeRaw('/w-evil/secret.txt', 'TOP SECRET');
  fs.symlink(`${ROOT}/leak.txt`, '/outside/secret.txt');
  fs.symlink(`${ROOT}/leakdir`, '/outside');
  fs.symlink(`${ROOT}/sibling`, '../w-evil');
  fs.symlink(`${ROOT}/alias.txt`, 'inside.txt');
  fs.symlink(`${ROOT}/manual`, 'docs');
  fs.symlink(`${ROOT}/dangling`, '/nowhere/at/all');
  const context = contextFor(fs);

  for (const path of [
    'leak.txt',
    'leakdir/secret.txt',
    'sibling/secret.txt',
    'leakdir/missing.txt',
    'leakdir/a/b/missing.txt',
  ]) {
    test(`${path} is refused as outside, without its content`, async () => {
      const message = await refused(
        'read_file',
        { path },
        context,
        /leads outside the workspace through a symbolic link/,
      );
      assert.doesNotMatch(message, /SECRET|\/outside/);
    });
  }

  test('links that stay inside work, shown by the path as given', async () => {
    assert.match(
      await ok('read_file', { path: 'alias.txt' }, context),
      /^alias\.txt, lines 1–1 of 1\n[\s\S]*inside text/,
    );
    assert.match(await ok('read_file', { path: 'manual/guide.md' }, context), /guide text/);
    assert.deepEqual(fencedBody(await ok('list_files', { path: 'manual' }, context)).split('\n'), ['guide.md']);
  });

  test('a link to nothing is not found, its target not named', async () => {
    const message = await refused('read_file', { path: 'dangling' }, context, /^Nothing is at 'dangling'/);
    assert.doesNotMatch(message, /nowhere/);
  });
});

describe('paths: symbolic links on a real disk (NodeWorkspaceFs)', () => {
  let base: string;
  let root: string;
  const fs = new NodeWorkspaceFs();
  const context = () => contextFor(fs, { root });

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'gw-tools-')));
    const real = join(base, 'ws');
    await mkdir(join(real, 'src'), { recursive: true });
    await mkdir(join(real, '.groundwork'), { recursive: true });
    await mkdir(join(base, 'outside'), { recursive: true });
    await writeFile(join(base, 'outside', 'secret.txt'), 'TOP SECRET');
    await writeFile(join(real, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(real, '.groundwork', 'state.json'), '{"secret": "GW STATE"}');
    await symlink(join(base, 'outside', 'secret.txt'), join(real, 'leak.txt'));
    await symlink(join(base, 'outside'), join(real, 'leakdir'));
    await symlink('.groundwork', join(real, 'peek'));
    await symlink('src/a.ts', join(real, 'alias.ts'));
    // The workspace is opened through a link, so its path and its real path differ.
    root = join(base, 'opened');
    await symlink(real, root);
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const outside: { tool: string; input: Record<string, unknown> }[] = [
    { tool: 'read_file', input: { path: 'leak.txt' } },
    { tool: 'read_file', input: { path: 'leakdir/secret.txt' } },
    { tool: 'list_files', input: { path: 'leakdir' } },
    { tool: 'search', input: { query: 'secret', path: 'leakdir' } },
    { tool: 'search', input: { query: 'secret', path: 'leak.txt' } },
  ];
  for (const { tool, input } of outside) {
    test(`${tool} ${JSON.stringify(input)} is refused as outside`, async () => {
      const message = await refused(tool, input, context(), /leads outside the workspace through a symbolic link/);
      assert.doesNotMatch(message, /SECRET|outside\//);
    });
  }

  test('a link inside to .groundwork/ is refused', async () => {
    await refused(
      'read_file',
      { path: 'peek/state.json' },
      context(),
      /excluded from what agents may read.*Groundwork's own internal folder/,
    );
    await refused('list_files', { path: 'peek' }, context(), /excluded/);
  });

  test('inside files read; walks neither follow links nor find what is behind them', async () => {
    assert.match(await ok('read_file', { path: 'alias.ts' }, context()), /export const a = 1;/);
    assert.deepEqual(fencedBody(await ok('list_files', {}, context())).split('\n'), [
      'src/',
      'alias.ts@',
      'leak.txt@',
      'leakdir@',
      'peek@',
    ]);
    assert.deepEqual(fencedBody(await ok('list_files', { pattern: '**' }, context())).split('\n'), [
      'alias.ts@',
      'leak.txt@',
      'leakdir@',
      'peek@',
      'src/',
      'src/a.ts',
    ]);
    assert.match(
      await ok('search', { query: 'secret' }, context()),
      /^No matches for 'secret' in \. \(1 file searched\)/,
    );
  });

  test('an error from the disk names paths relative to the workspace', async () => {
    const failing = Object.assign(Object.create(fs) as NodeWorkspaceFs, {
      list: (dir: string) => fs.list(join(dir, 'a.ts')),
    });
    const message = await refused(
      'list_files',
      { path: 'src' },
      contextFor(failing, { root }),
      /^list_files failed: Could not list 'src\/a\.ts' \(ENOTDIR\)/,
    );
    assert.ok(!message.includes(base), message);
  });
});
