// `--workspace` given a VS Code `.code-workspace` file: the folder `--folder` names, else the one
// with a `.groundwork/`, else a usage error that lists the choices; a hostile file is an error.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripJsonc, workspaceFolders } from '../../../src/cli/workspaceChoice';
import { harness } from './cliHarness';

const FILE = `{
  // Two folders, as VS Code writes them
  "folders": [
    { "path": "app" },
    { "name": "Docs // not a comment", "path": "../docs", },
    { "uri": "vscode-remote://elsewhere/x" },
  ],
  /* settings */ "settings": { "a": "/* kept */" },
}`;

function cli(files: Record<string, string>, folders: string[]) {
  const h = harness({ readTextFile: async (p) => files[p] });
  for (const f of folders) h.folders.add(f);
  return h;
}

describe('--workspace FILE.code-workspace', () => {
  it('reads JSON with comments and trailing commas, strings kept whole, and resolves paths against the file', () => {
    assert.deepEqual(JSON.parse(stripJsonc(FILE)).settings, { a: '/* kept */' });
    assert.deepEqual(workspaceFolders(FILE, '/w/team.code-workspace'), [
      { name: 'app', path: '/w/app' },
      { name: 'Docs // not a comment', path: '/docs' },
    ]);
  });

  it('works in the one folder with a .groundwork/ when --folder is not given', async () => {
    const h = cli({ '/w/team.code-workspace': FILE }, ['/w/app', '/docs', '/docs/.groundwork']);
    const r = await h.run('--workspace', '/w/team.code-workspace', 'journal', 'list');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(h.opened, ['/docs']);
  });

  it('works in the folder --folder names, by its name or its folder’s name', async () => {
    for (const name of ['app', 'Docs // not a comment']) {
      const h = cli({ '/w/team.code-workspace': FILE }, ['/w/app', '/docs']);
      const r = await h.run('--workspace', '/w/team.code-workspace', '--folder', name, 'journal', 'list');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(h.opened, [name === 'app' ? '/w/app' : '/docs']);
    }
  });

  it('asks for --folder, naming the choices, when several or none have a .groundwork/', async () => {
    const h = cli({ '/w/team.code-workspace': FILE }, ['/w/app', '/docs', '/w/app/.groundwork', '/docs/.groundwork']);
    const r = await h.run('--workspace', '/w/team.code-workspace', 'journal', 'list');
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /has 2 folders and app and Docs \/\/ not a comment have a \.groundwork\/; choose one with --folder NAME \(one of: app, Docs/,
    );
    assert.deepEqual(h.opened, []);
    const none = await cli({ '/w/team.code-workspace': FILE }, ['/w/app', '/docs']).run(
      '--workspace',
      '/w/team.code-workspace',
      'journal',
      'list',
    );
    assert.match(none.stderr, /none has a \.groundwork\/ yet/);
  });

  it('refuses an unknown folder name, a file that is no workspace, and --folder without a workspace file', async () => {
    const files = {
      '/w/team.code-workspace': FILE,
      '/w/bad.code-workspace': '{"folders": 7}',
      '/w/junk.code-workspace': 'not json',
    };
    const h = cli(files, ['/w/app', '/docs']);
    assert.match(
      (await h.run('--workspace', '/w/team.code-workspace', '--folder', 'nope', 'journal', 'list')).stderr,
      /has no folder named 'nope'; its folders: app, Docs/,
    );
    assert.match((await h.run('--workspace', '/w/bad.code-workspace', 'journal', 'list')).stderr, /lists no "folders"/);
    assert.match(
      (await h.run('--workspace', '/w/junk.code-workspace', 'journal', 'list')).stderr,
      /is not a workspace file/,
    );
    assert.match((await h.run('--workspace', '/w/missing.code-workspace', 'journal', 'list')).stderr, /cannot be read/);
    assert.match(
      (await h.run('--folder', 'app', 'journal', 'list')).stderr,
      /--folder picks a folder of a \.code-workspace file/,
    );
    assert.deepEqual(h.opened, []);
  });
});
