import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WorkspaceFs } from '../../../src/core/storage/workspaceFs';
import { createToolRunCache } from '../../../src/core/tools/registry';
import { call, contextFor, fencedBody, memoryWorkspace, ok, refused, ROOT } from './toolHarness';

describe('nested .gitignore files', () => {
  const fs = memoryWorkspace({
    '.gitignore': '*.log\n*.txt\n!notes.txt\nvendor/\n',
    'pkg/.gitignore': '.secret-config\n/build\nnotes.txt\n',
    'pkg/.secret-config': 'token-pkg',
    'pkg/index.ts': 'export {};',
    'pkg/notes.txt': 'pkg notes',
    'pkg/build/out.js': 'built',
    'pkg/sub/build/out.js': 'sub build',
    'pkg/sub/.secret-config': 'token-sub',
    'other/.secret-config': 'other config',
    'build/out.js': 'root build',
    'notes.txt': 'root notes',
    'logs/.gitignore': '!keep.log\n',
    'logs/keep.log': 'kept log',
    'logs/drop.log': 'dropped log',
    'logs/deep/keep.log': 'deep kept log',
    'other/keep.log': 'other log',
    'vendor/.gitignore': '!*\n',
    'vendor/lib.js': 'vendored',
  });
  fs.symlink(`${ROOT}/linked`, 'pkg');
  const context = contextFor(fs);

  const hidden: { path: string; reason: RegExp }[] = [
    { path: 'pkg/.secret-config', reason: /the \.gitignore in 'pkg' ignores it \(rule '\.secret-config'\)/ },
    { path: 'pkg/sub/.secret-config', reason: /the \.gitignore in 'pkg' ignores it/ },
    { path: 'linked/.secret-config', reason: /the \.gitignore in 'linked' ignores it/ },
    { path: 'pkg/build/out.js', reason: /the \.gitignore in 'pkg' ignores it \(rule '\/build'\)/ },
    { path: 'pkg/notes.txt', reason: /the \.gitignore in 'pkg' ignores it \(rule 'notes\.txt'\)/ },
    { path: 'logs/drop.log', reason: /the workspace's \.gitignore ignores it \(rule '\*\.log'\)/ },
    { path: 'other/keep.log', reason: /the workspace's \.gitignore ignores it/ },
    { path: 'vendor/lib.js', reason: /the workspace's \.gitignore ignores it \(rule 'vendor\/'\)/ },
  ];
  for (const { path, reason } of hidden) {
    test(`read_file refuses ${path}`, async () => {
      assert.match(await refused('read_file', { path }, context, /is excluded from what agents may read/), reason);
    });
  }

  const visible: { path: string; text: RegExp }[] = [
    { path: 'other/.secret-config', text: /other config/ },
    { path: 'pkg/index.ts', text: /export/ },
    { path: 'pkg/sub/build/out.js', text: /sub build/ },
    { path: 'build/out.js', text: /root build/ },
    { path: 'notes.txt', text: /root notes/ },
    { path: 'logs/keep.log', text: /kept log/ },
    { path: 'logs/deep/keep.log', text: /deep kept log/ },
  ];
  for (const { path, text } of visible) {
    test(`read_file reads ${path}`, async () => {
      assert.match(await ok('read_file', { path }, context), text);
    });
  }

  test('list_files leaves out what a nested .gitignore ignores, in a folder and below', async () => {
    assert.deepEqual(fencedBody(await ok('list_files', { path: 'pkg' }, context)).split('\n'), [
      'sub/',
      '.gitignore',
      'index.ts',
    ]);
    const all = fencedBody(await ok('list_files', { pattern: '**' }, context)).split('\n');
    for (const path of [
      'pkg/.secret-config',
      'pkg/sub/.secret-config',
      'pkg/build/',
      'pkg/notes.txt',
      'logs/drop.log',
      'vendor/',
    ])
      assert.ok(!all.includes(path), path);
    for (const path of [
      'other/.secret-config',
      'pkg/sub/build/out.js',
      'build/out.js',
      'logs/keep.log',
      'logs/deep/keep.log',
      'notes.txt',
    ])
      assert.ok(all.includes(path), path);
    await refused(
      'list_files',
      { path: 'pkg/build' },
      context,
      /the \.gitignore in 'pkg' ignores it \(rule '\/build'\)/,
    );
  });

  test('search finds nothing in what a nested .gitignore ignores', async () => {
    assert.deepEqual(fencedBody(await ok('search', { query: 'config' }, context)).split('\n'), [
      'other/.secret-config:1: other config',
      'pkg/.gitignore:1: .secret-config',
    ]);
    assert.match(await ok('search', { query: 'token' }, context), /^No matches for 'token'/);
    assert.deepEqual(fencedBody(await ok('search', { query: ' log' }, context)).split('\n'), [
      'logs/keep.log:1: kept log',
      'logs/deep/keep.log:1: deep kept log',
    ]);
    await refused(
      'search',
      { query: 'token', path: 'pkg/.secret-config' },
      context,
      /the \.gitignore in 'pkg' ignores it/,
    );
  });
});

/** A workspace whose fs counts the reads and looks of each path. */
function counted(files: Record<string, string>) {
  const inner = memoryWorkspace(files);
  const reads = new Map<string, number>();
  const looks = new Map<string, number>();
  const bump = (map: Map<string, number>, path: string) =>
    map.set(path.slice(ROOT.length + 1), (map.get(path.slice(ROOT.length + 1)) ?? 0) + 1);
  const fs: WorkspaceFs = Object.assign(Object.create(inner) as WorkspaceFs, {
    read: (path: string, max: number) => (bump(reads, path), inner.read(path, max)),
    info: (path: string) => (bump(looks, path), inner.info(path)),
  });
  return { context: contextFor(fs), reads, looks };
}

describe('nested .gitignore files: read once per run, and only where they count', () => {
  test('a walk reads each .gitignore once and looks for none in folders whose listing has none', async () => {
    const { context, reads, looks } = counted({
      '.gitignore': 'x\n',
      'a/.gitignore': 'y\n',
      'a/b/c.txt': 'hit',
      'd/e/f.txt': 'hit',
      'ignored/.gitignore': '!*\n',
      'ignored/g.txt': 'hit',
    });
    const cache = createToolRunCache();
    const root = await call('list_files', { path: '.' }, context, cache);
    assert.equal(root.isError, false);
    // (search reads the .gitignore files it finds as text, so it searches a folder without one)
    await call('search', { query: 'hit', path: 'd' }, context, cache);
    await call('list_files', { pattern: '**' }, context, cache);
    // After the walk, path resolution finds every folder's rules in the run cache.
    assert.equal((await call('read_file', { path: 'a/b/c.txt' }, context, cache)).isError, false);
    const gitignoreReads = [...reads].filter(([path]) => path.endsWith('.gitignore'));
    assert.deepEqual(gitignoreReads.sort(), [
      ['.gitignore', 1],
      ['a/.gitignore', 1],
      ['ignored/.gitignore', 1],
    ]);
    for (const folder of ['a/b/', 'd/', 'd/e/']) assert.equal(looks.get(`${folder}.gitignore`), undefined, folder);
  });

  test('a .gitignore inside an ignored folder is not read: nothing in it can be re-included', async () => {
    const { context, reads } = counted({ '.gitignore': 'vendor/\n', 'vendor/.gitignore': '!*\n', 'vendor/a.js': 'a' });
    await refused(
      'read_file',
      { path: 'vendor/a.js' },
      context,
      /the workspace's \.gitignore ignores it \(rule 'vendor\/'\)/,
    );
    assert.match(await ok('search', { query: 'a' }, context), /^No matches/);
    assert.equal(reads.get('vendor/.gitignore'), undefined);
  });
});

describe('.git/info/exclude', () => {
  const fs = memoryWorkspace({
    '.git/info/exclude': '# local rules\nscratch/\n*.draft\nkept.draft\n',
    '.gitignore': '!kept.draft\n',
    'scratch/todo.md': 'scratch',
    'a/plan.draft': 'draft',
    'kept.draft': 'kept',
    'a/kept.draft': 'kept below',
    'src/a.ts': 'code',
  });
  const context = contextFor(fs);

  const cases: { path: string; says?: RegExp }[] = [
    { path: 'scratch/todo.md', says: /the workspace's \.git\/info\/exclude ignores it \(rule 'scratch\/'\)/ },
    { path: 'a/plan.draft', says: /\.git\/info\/exclude ignores it \(rule '\*\.draft'\)/ },
    { path: 'kept.draft' },
    { path: 'a/kept.draft' },
    { path: 'src/a.ts' },
  ];
  for (const { path, says } of cases) {
    test(`${path}: ${says === undefined ? 'read (the .gitignore wins over it)' : 'refused'}`, async () => {
      if (says === undefined) await ok('read_file', { path }, context);
      else await refused('read_file', { path }, context, says);
    });
  }

  test('its rules apply to listings, and .git itself stays hidden', async () => {
    assert.deepEqual(fencedBody(await ok('list_files', { pattern: '**' }, context)).split('\n'), [
      '.gitignore',
      'a/',
      'a/kept.draft',
      'kept.draft',
      'src/',
      'src/a.ts',
    ]);
    await refused('read_file', { path: '.git/info/exclude' }, context, /inside \.git/);
  });

  test('one that is a symbolic link is not read', async () => {
    const linked = memoryWorkspace({ 'rules.txt': 'src/\n', 'src/a.ts': 'code' });
    linked.symlink(`${ROOT}/.git/info/exclude`, `${ROOT}/rules.txt`);
    await ok('read_file', { path: 'src/a.ts' }, contextFor(linked));
  });
});

describe('ignore files that cannot be trusted or read', () => {
  test('a nested .gitignore over 256 KiB refuses the calls that touch its folder, and only those', async () => {
    const context = contextFor(
      memoryWorkspace({ 'pkg/.gitignore': '# padding\n'.repeat(30_000), 'pkg/a.txt': 'a', 'other/b.txt': 'b' }),
    );
    const says =
      /^The \.gitignore in 'pkg' is over 256 KiB, so the tools cannot tell which files it hides and refuse to read anything in that folder\. Tell the user/;
    await refused('read_file', { path: 'pkg/a.txt' }, context, says);
    await refused('list_files', { path: 'pkg' }, context, says);
    await refused('search', { query: 'a' }, context, says);
    await ok('read_file', { path: 'other/b.txt' }, context);
    await ok('list_files', {}, context);
  });

  test('.git/info/exclude over 256 KiB refuses every call', async () => {
    const context = contextFor(memoryWorkspace({ '.git/info/exclude': '# padding\n'.repeat(30_000), 'a.txt': 'a' }));
    await refused('read_file', { path: 'a.txt' }, context, /\.git\/info\/exclude is over 256 KiB/);
  });

  const links: { name: string; link: string; target: string }[] = [
    { name: 'the root .gitignore linked to .git/config', link: '.gitignore', target: `${ROOT}/.git/config` },
    { name: 'a nested .gitignore linked to ../.git/config', link: 'pkg/.gitignore', target: '../.git/config' },
    { name: 'a .gitignore linked into .groundwork', link: 'pkg/.gitignore', target: `${ROOT}/.groundwork/rules` },
    { name: 'a .gitignore linked to a credential file', link: '.gitignore', target: `${ROOT}/.env` },
  ];
  for (const { name, link, target } of links) {
    test(`${name} is not read: its lines are neither rules nor echoed`, async () => {
      const fs = memoryWorkspace({
        '.git/config': '[remote "origin"]\nsecret-token-abc\n',
        '.groundwork/rules': 'secret-token-abc\n',
        '.env': 'secret-token-abc\n',
        'pkg/secret-token-abc': 'visible',
        'secret-token-abc': 'visible',
      });
      fs.symlink(`${ROOT}/${link}`, target);
      const context = contextFor(fs);
      assert.match(await ok('read_file', { path: 'secret-token-abc' }, context), /visible/);
      assert.match(await ok('read_file', { path: 'pkg/secret-token-abc' }, context), /visible/);
      const listing = await ok('list_files', { pattern: '**' }, context);
      assert.match(listing, /pkg\/secret-token-abc/);
    });
  }

  test('a .gitignore linked to another file inside the workspace is followed', async () => {
    const fs = memoryWorkspace({ 'shared/rules': '*.tmp\n', 'pkg/a.tmp': 'tmp', 'b.tmp': 'tmp' });
    fs.symlink(`${ROOT}/pkg/.gitignore`, '../shared/rules');
    const context = contextFor(fs);
    await refused(
      'read_file',
      { path: 'pkg/a.tmp' },
      context,
      /the \.gitignore in 'pkg' ignores it \(rule '\*\.tmp'\)/,
    );
    await ok('read_file', { path: 'b.tmp' }, context);
  });
});
