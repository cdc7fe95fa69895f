// `--workspace FILE.code-workspace` against hostile workspace files (a cloned repository's): every
// malformed one is a usage error, never a crash or a hang.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import { chooseWorkspaceFolder, stripJsonc, workspaceFolders } from '../../../src/cli/workspaceChoice';
import { harness } from './cliHarness';
import { tempFolder } from '../../support/tempDirs';
import { cpuTimed } from '../../support/cpuTime';

const FILE = '/w/team.code-workspace';

function cli(text: string | undefined, folders: string[]) {
  const h = harness({ readTextFile: async (p) => (p === FILE ? text : undefined) });
  for (const f of folders) h.folders.add(f);
  return h;
}

async function usage(text: string | undefined, folders: string[] = [], ...extra: string[]) {
  const h = cli(text, folders);
  const r = await h.run('--workspace', FILE, ...extra, 'journal', 'list');
  return { ...r, opened: h.opened };
}

describe('--workspace FILE.code-workspace against hostile files', () => {
  it('keeps commas inside strings that look like trailing commas (",]" and ", }")', () => {
    const text = '{ "folders": [ { "name": "a,]", "path": "x, }" }, ] }';
    assert.deepEqual(JSON.parse(stripJsonc(text)), { folders: [{ name: 'a,]', path: 'x, }' }] });
    assert.deepEqual(workspaceFolders(text, FILE), [{ name: 'a,]', path: '/w/x, }' }]);
  });

  it('reads a workspace file that starts with a byte order mark, as VS Code does', () => {
    assert.deepEqual(workspaceFolders('\ufeff{ "folders": [ { "path": "app" } ] }', FILE), [
      { name: 'app', path: '/w/app' },
    ]);
  });

  it('refuses --folder NAME when two folders have that name, rather than taking the first', async () => {
    const text = '{ "folders": [ { "name": "app", "path": "one" }, { "name": "app", "path": "two" } ] }';
    const r = await usage(text, ['/w/one', '/w/two'], '--folder', 'app');
    assert.equal(r.code, 2, `opened ${r.opened.join()}`);
    assert.match(r.stderr, /app/);
    assert.deepEqual(r.opened, []);
  });

  it('a folder whose name ends in .code-workspace is still a folder for --workspace', async () => {
    const h = harness({ readTextFile: async () => undefined });
    h.folders.add('/w/odd.code-workspace');
    const r = await h.run('--workspace', '/w/odd.code-workspace', 'journal', 'list');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(h.opened, ['/w/odd.code-workspace']);
  });

  it('keeps comment markers inside strings, escaped quotes and backslashes, and drops comments between items', () => {
    const text = '{ "folders": [ { "name": "a\\"//b", "path": "c\\\\" /* x */ }, // y\n { "path": "/*d*/" } /*, */ ] }';
    assert.deepEqual(workspaceFolders(text, FILE), [
      { name: 'a"//b', path: '/w/c\\' },
      { name: '*d*', path: '/*d*' },
    ]);
  });

  it('turns unterminated comments and strings, a lone backslash at the end, deep nesting and __proto__ into usage errors', async () => {
    const texts = [
      '{ "folders": [ { "path": "a" } ] } /* never closed',
      '{ "folders": /* [ { "path": "a" } ] */',
      '{ "folders": [ { "path": "a',
      '{ "folders": [ { "path": "a\\',
      '/',
      '',
      '{ "folders": ' + '['.repeat(400_000) + ']'.repeat(400_000) + ' }',
      '{ "folders": ' + '['.repeat(400_000) + ' }',
      '{ "__proto__": { "folders": [ { "path": "evil" } ] } }',
      '{ "folders": [ null, 7, "a", [], { "path": 7 }, { "path": "" }, { "path": ["a"] }, { "path": "' +
        'x'.repeat(5000) +
        '" }, { "uri": "file:///" } ] }',
      'null',
      '[ { "path": "a" } ]',
    ];
    for (const text of texts) {
      const r = await usage(text, ['/w/a', '/w/evil']);
      // The first parses (an unterminated comment at the end hides nothing): it opens /w/a.
      if (text === texts[0]) {
        assert.deepEqual(r.opened, ['/w/a']);
        continue;
      }
      assert.equal(r.code, 2, `${text.slice(0, 60)}: ${r.stderr}`);
      assert.deepEqual(r.opened, [], text.slice(0, 60));
      assert.ok(r.stderr.length < 2000, text.slice(0, 60));
    }
  });

  it('strips a 1 MB file of comments, commas and quotes in linear time (quadratic would take minutes); refuses more than 1 MB', () => {
    for (const unit of ['/**/', '// x\n', ',    ', '"\\"",', '/*', ', ]', 'a']) {
      const text = unit.repeat(Math.floor(1_000_000 / unit.length));
      let best = Infinity;
      for (let i = 0; i < 2; i++) {
        best = Math.min(best, cpuTimed(() => stripJsonc(text)).ms);
      }
      assert.ok(best < 3000, `${JSON.stringify(unit)}: ${best.toFixed(0)} ms`);
    }
    assert.throws(() => workspaceFolders(' '.repeat(1_000_001), FILE), /larger than a workspace file can be/);
  });

  it('shows names with escapes, colours and line breaks as visible text in its messages', async () => {
    const text = JSON.stringify({
      folders: [{ name: '\u001b[2J\u001b]0;pwned\u0007\u202eevil\nline', path: 'a' }, { path: 'b' }],
    });
    const r = await usage(text, ['/w/a', '/w/b'], '--folder', 'nope');
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /[\u0000-\u0009\u000b-\u001f\u202e]/);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });

  it('resolves "/" and "../.." as VS Code does: the one folder is worked in, wherever it is (the person named this file)', async () => {
    for (const [path, root] of [
      ['/', '/'],
      ['../..', '/'],
      ['../other', '/other'],
    ] as const) {
      const r = await usage(JSON.stringify({ folders: [{ path }] }), [root]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.opened, [root]);
    }
    // Several folders, none chosen: it never guesses, even when one of them is "/".
    const r = await usage(JSON.stringify({ folders: [{ path: '/' }, { path: 'a' }] }), [
      '/',
      '/w/a',
      '/.groundwork',
      '/w/a/.groundwork',
    ]);
    assert.equal(r.code, 2);
  });

  it('asks for a folder that exists: a listed folder missing from the disk is the usual error', async () => {
    const r = await usage(JSON.stringify({ folders: [{ path: 'gone' }] }), []);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /the workspace folder '\/w\/gone' does not exist/);
  });

  it('chooses among folders without reading outside them: only <folder>/.groundwork is asked about', async () => {
    const asked: string[] = [];
    const folders = workspaceFolders(
      JSON.stringify({ folders: [{ path: '../x' }, { path: '/' }, { path: 'y/../z' }] }),
      FILE,
    );
    await assert.rejects(
      chooseWorkspaceFolder(folders, undefined, FILE, async (p) => (asked.push(p), false)),
      /none has a \.groundwork/,
    );
    assert.deepEqual(asked, ['/x/.groundwork', '/.groundwork', '/w/z/.groundwork']);
  });

  it(
    'reads neither a FIFO nor a 50 MB file nor a folder through the real deps, and does not hang',
    { timeout: 10_000 },
    async () => {
      const dir = await tempFolder();
      const readTextFile = createNodeDeps().readTextFile!;
      const fifo = join(dir, 'fifo.code-workspace');
      execFileSync('mkfifo', [fifo]);
      await writeFile(join(dir, 'big.code-workspace'), Buffer.alloc(50 * 1024 * 1024, 0x20));
      assert.equal(await readTextFile(fifo), undefined);
      assert.equal(await readTextFile(join(dir, 'big.code-workspace')), undefined);
      assert.equal(await readTextFile(dir), undefined);
      await writeFile(join(dir, 'ok.code-workspace'), '{ "folders": [ { "path": "." } ] }');
      assert.equal(await readTextFile(join(dir, 'ok.code-workspace')), '{ "folders": [ { "path": "." } ] }');
    },
  );
});
