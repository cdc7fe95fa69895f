import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { utf8Length } from '../../../src/core/prompt/cap';
import type { WorkspaceFs } from '../../../src/core/storage/workspaceFs';
import { MAX_OUTPUT_BYTES, MAX_VISITED } from '../../../src/core/tools/implementations/common';
import { LIST_MAX_ENTRIES } from '../../../src/core/tools/implementations/listFiles';
import {
  excerpt,
  SEARCH_MAX_FILE_BYTES,
  SEARCH_MAX_FILES,
  SEARCH_MAX_MATCHES,
} from '../../../src/core/tools/implementations/search';
import { contextFor, fencedBody, headerOf, memoryWorkspace, ok, refused, ROOT } from './toolHarness';

function workspace() {
  const fs = memoryWorkspace({
    '.gitignore': 'dist/\n.env\n',
    'README.md': '# Project\nSee AUTH notes.\n',
    'src/auth.ts': 'export function login() {}\nconst Auth = 1;\n',
    'src/lib/token.ts': 'const auth = 2;\n',
    'src/lib/ui.tsx': 'nothing here\n',
    'dist/bundle.js': 'auth in dist',
    '.env': 'AUTH_SECRET=1',
    'node_modules/pkg/index.ts': 'auth in node_modules',
    '.git/config': 'auth in git',
    '.groundwork/plans/p.md': 'auth in groundwork',
    'logo.png': new Uint8Array([0x89, 0x00, 0x61, 0x75, 0x74, 0x68]),
    'huge.txt': `auth${'a'.repeat(SEARCH_MAX_FILE_BYTES)}`,
  });
  fs.symlink(`${ROOT}/linked`, 'src/lib');
  fs.writeRaw('/outside/secret.ts', 'auth outside');
  fs.symlink(`${ROOT}/out`, '/outside');
  return contextFor(fs, { exclude: ['**/node_modules'] });
}

describe('list_files', () => {
  const context = workspace();

  test('a folder: folders first with a trailing /, links with @, what agents may not see left out', async () => {
    const content = await ok('list_files', {}, context);
    assert.deepEqual(fencedBody(content).split('\n'), [
      'src/',
      '.gitignore',
      'README.md',
      'huge.txt',
      'linked@',
      'logo.png',
      'out@',
    ]);
    assert.equal(
      headerOf(content),
      'Folder .: 1 folder, 4 files, 2 symbolic links; 5 entries hidden (.git, .groundwork, ignored by .gitignore or excluded by the user)',
    );
    assert.match(content, /source="listing of \."/);
  });

  test('a sub-folder, given with a trailing /', async () => {
    assert.deepEqual(fencedBody(await ok('list_files', { path: 'src/' }, context)).split('\n'), ['lib/', 'auth.ts']);
  });

  test('a pattern walks below the folder, matching paths relative to it, never through a link', async () => {
    const content = await ok('list_files', { pattern: '**/*.ts' }, context);
    assert.deepEqual(fencedBody(content).split('\n'), ['src/auth.ts', 'src/lib/token.ts']);
    assert.deepEqual(fencedBody(await ok('list_files', { path: 'src', pattern: '*.ts' }, context)).split('\n'), [
      'auth.ts',
    ]);
    assert.deepEqual(fencedBody(await ok('list_files', { pattern: '**/lib' }, context)).split('\n'), ['src/lib/']);
    assert.deepEqual(
      fencedBody(await ok('list_files', { pattern: '*' }, context))
        .split('\n')
        .filter((l) => l.endsWith('@')),
      ['linked@', 'out@'],
    );
  });

  test('nothing matching is said without a block', async () => {
    assert.match(await ok('list_files', { pattern: '**/*.rs' }, context), /^Nothing under \. matching '\*\*\/\*\.rs'/);
  });

  const refusals: { input: Record<string, unknown>; says: RegExp }[] = [
    { input: { path: 'README.md' }, says: /'README\.md' is a file, not a folder: use read_file/ },
    {
      input: { path: 'dist' },
      says: /'dist' is excluded from what agents may read \(the workspace's \.gitignore ignores it/,
    },
    { input: { path: 'node_modules' }, says: /excluded pattern '\*\*\/node_modules'/ },
    { input: { path: '.git' }, says: /inside \.git/ },
    { input: { path: 'out' }, says: /'out' leads outside the workspace through a symbolic link/ },
    { input: { path: 'missing' }, says: /Nothing is at 'missing'/ },
  ];
  for (const { input, says } of refusals) {
    test(`${JSON.stringify(input)} is refused`, async () => {
      await refused('list_files', input, context, says);
    });
  }

  test('a cancelled run stops the listing', async () => {
    const controller = new AbortController();
    controller.abort();
    await refused(
      'list_files',
      { pattern: '**' },
      { ...context, signal: controller.signal },
      /^The listing was stopped: the run was cancelled\.$/,
    );
  });

  test(`at most ${LIST_MAX_ENTRIES} entries, said`, async () => {
    const many = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, '']));
    const ctx = contextFor(memoryWorkspace(many));
    for (const input of [{ path: 'f' }, { path: 'f', pattern: '*.txt' }]) {
      const content = await ok('list_files', input, ctx);
      assert.equal(fencedBody(content).split('\n').length, LIST_MAX_ENTRIES);
      assert.match(headerOf(content), /only the first 500 are shown: narrow the path or pattern/);
    }
  });

  test(`stops after looking at ${MAX_VISITED} entries, said`, async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_VISITED + 50 }, (_, i) => [`f/${i}.log`, '']));
    const content = await ok('list_files', { pattern: '**/*.txt' }, contextFor(memoryWorkspace(many)));
    assert.match(content, /^Nothing under \. matching .*stopped after looking at 20,000 entries, so some are missing/);
  });
});

describe('search', () => {
  const context = workspace();

  test('literal, case-insensitive, path:line: text, only in what agents may see', async () => {
    const content = await ok('search', { query: 'auth' }, context);
    assert.deepEqual(fencedBody(content).split('\n'), [
      'README.md:2: See AUTH notes.',
      'src/auth.ts:2: const Auth = 1;',
      'src/lib/token.ts:1: const auth = 2;',
    ]);
    assert.match(
      headerOf(content),
      /^3 matches for 'auth' in \. \(5 files searched\); 1 file over 1 MiB not searched; 1 binary file not searched; 5 entries hidden/,
    );
    assert.match(content, /source="search results for auth"/);
  });

  test('in a folder, in one file, and a query with regex characters taken literally', async () => {
    assert.deepEqual(fencedBody(await ok('search', { query: 'AUTH', path: 'src/lib' }, context)).split('\n'), [
      'src/lib/token.ts:1: const auth = 2;',
    ]);
    assert.deepEqual(fencedBody(await ok('search', { query: 'login', path: 'src/auth.ts' }, context)).split('\n'), [
      'src/auth.ts:1: export function login() {}',
    ]);
    assert.match(
      await ok('search', { query: 'login.*' }, context),
      /^No matches for 'login\.\*' in \. \(5 files searched\)/,
    );
  });

  test('refuses what list_files refuses', async () => {
    await refused('search', { query: 'auth', path: 'dist' }, context, /excluded from what agents may read/);
    await refused('search', { query: 'auth', path: 'out' }, context, /leads outside the workspace/);
    await refused('search', { query: 'auth', path: '.env' }, context, /excluded from what agents may read/);
  });

  test('a long line is cut to 200 characters around its first match', () => {
    const line = `${'a'.repeat(1000)}NEEDLE${'b'.repeat(1000)}`;
    const cut = excerpt(line, 'needle');
    assert.match(cut, /^…a+NEEDLEb+…$/);
    assert.equal([...cut].length, 200);
    assert.equal(excerpt('  short  ', 'x'), 'short');
  });

  test(`at most ${SEARCH_MAX_MATCHES} matches, said`, async () => {
    const ctx = contextFor(memoryWorkspace({ 'a.txt': 'hit\n'.repeat(150), 'b.txt': 'hit\n' }));
    const content = await ok('search', { query: 'HIT' }, ctx);
    assert.equal(fencedBody(content).split('\n').length, SEARCH_MAX_MATCHES);
    assert.match(
      headerOf(content),
      /^100 matches for 'HIT' in \. \(1 file searched\); stopped at 100 matches: narrow the query or the path/,
    );
  });

  test(`at most ${SEARCH_MAX_FILES} files read, said`, async () => {
    const many = Object.fromEntries(
      Array.from({ length: SEARCH_MAX_FILES + 10 }, (_, i) => [`d/${String(i).padStart(5, '0')}.txt`, 'x']),
    );
    const content = await ok('search', { query: 'needle' }, contextFor(memoryWorkspace(many)));
    assert.match(
      content,
      /^No matches for 'needle' in \. \(5,000 files searched\); stopped after reading 5,000 files or 50 MiB/,
    );
  });

  test('at most 50 MiB read, said', async () => {
    const chunk = 'y'.repeat(SEARCH_MAX_FILE_BYTES - 10);
    const many = Object.fromEntries(
      Array.from({ length: 52 }, (_, i) => [`d/${String(i).padStart(2, '0')}.txt`, chunk]),
    );
    const content = await ok('search', { query: 'needle' }, contextFor(memoryWorkspace(many)));
    assert.match(content, /^No matches for 'needle' in \. \(50 files searched\); stopped after reading/);
  });

  test('the output stays under 64 KiB with long paths', async () => {
    const deep = `${'very-long-folder-name/'.repeat(40)}f.txt`;
    const content = await ok('search', { query: 'x' }, contextFor(memoryWorkspace({ [deep]: 'x\n'.repeat(100) })));
    assert.ok(utf8Length(content) <= MAX_OUTPUT_BYTES);
    assert.match(headerOf(content), /only the first \d+ are shown \(cut at 64 KiB\)/);
  });

  test('stops between files when the run is cancelled', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${String(i).padStart(2, '0')}.txt`, 'needle']),
    );
    const inner = memoryWorkspace(files);
    const controller = new AbortController();
    let reads = 0;
    const fs: WorkspaceFs = Object.assign(Object.create(inner) as WorkspaceFs, {
      read: async (path: string, maxBytes: number) => {
        if (++reads === 3) controller.abort();
        return inner.read(path, maxBytes);
      },
    });
    await refused(
      'search',
      { query: 'needle' },
      contextFor(fs, { signal: controller.signal }),
      /^The search was stopped: the run was cancelled\.$/,
    );
    assert.equal(reads, 3);
  });
});
