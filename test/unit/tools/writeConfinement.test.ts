// The confinement corpus of write_file and edit_file: every path here must be an error result,
// and nothing may be written (no file changed or added, beforeChange never called). Paths come
// from a model that may have read them in a hostile file, so each is a way out someone would try.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentTools, createToolRunCache } from '../../../src/core/tools/registry';
import type { ActingPorts, ToolContext } from '../../../src/core/tools/toolTypes';
import { resolveWritePath } from '../../../src/core/tools/writePaths';
import type { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import { contextFor, memoryWorkspace, ROOT } from './toolHarness';

/** An acting port that records the change calls and refuses nothing. */
function recordingActing(): { acting: ActingPorts; changes: string[] } {
  const changes: string[] = [];
  const acting: ActingPorts = {
    beforeChange: async (c) => void changes.push(`before ${c.path}`),
    afterChange: async (c) => void changes.push(`after ${c.path}`),
    runCommand: async () => 'ran',
    sleep: async () => 'woke',
    reportDiscovery: async () => 'noted',
  };
  return { acting, changes };
}

/** A workspace with what the corpus aims at: protected folders, links in and out, a file to go through. */
function hostileWorkspace(): MemoryWorkspaceFs {
  const fs = memoryWorkspace({
    'src/a.js': 'a\n',
    'a.txt': 'plain\n',
    '.git/config': '[core]\n',
    '.git/hooks/README': 'hooks\n',
    '.vscode/settings.json': '{}\n',
    '.groundwork/roles/x.md': 'role\n',
    '.github/workflows/ci.yml': 'on: push\n',
    'sub/.git': 'gitdir: ../.git/modules/sub\n',
  });
  fs.writeRaw('/outside/secret.txt', 'secret\n');
  fs.mkdir('/outside/dir');
  fs.symlink(`${ROOT}/out`, '/outside/dir');
  fs.symlink(`${ROOT}/out.txt`, '/outside/secret.txt');
  fs.symlink(`${ROOT}/relout`, '../outside');
  fs.symlink(`${ROOT}/g`, '.git');
  fs.symlink(`${ROOT}/settings.json`, '.vscode/settings.json');
  fs.symlink(`${ROOT}/gw`, '.groundwork');
  fs.symlink(`${ROOT}/dangling`, 'nowhere/at/all');
  fs.symlink(`${ROOT}/hop`, 'out');
  fs.mkdir(`${ROOT}/empty-folder`);
  return fs;
}

/** Every file and link with its content: what must be the same after a refused write. */
function snapshot(fs: MemoryWorkspaceFs): string[] {
  return fs.paths().map((p) => `${p} ${JSON.stringify(fs.text(p) ?? null)}`);
}

const CORPUS: { name: string; path: string; says: RegExp }[] = [
  { name: 'a parent folder', path: '../x', says: /'\.\.' segment/ },
  { name: 'an absolute path', path: '/tmp/x', says: /absolute path/ },
  { name: 'a Windows absolute path', path: 'C:/x', says: /absolute path/ },
  { name: "'..' after a folder", path: 'a/../../x', says: /'\.\.' segment/ },
  { name: 'a NUL in a name', path: 'a\0b.txt', says: /NUL byte/ },
  { name: 'a backslash', path: 'src\\..\\..\\x', says: /backslash/ },
  { name: 'a device name', path: 'src/con.txt', says: /device name/ },
  { name: 'the root', path: '.', says: /workspace root/ },
  { name: 'the root, empty', path: '', says: /workspace root/ },
  { name: 'an existing folder', path: 'src', says: /is a folder/ },
  { name: 'an empty folder', path: 'empty-folder/', says: /is a folder/ },
  { name: 'a folder link out', path: 'out/x.txt', says: /outside the workspace through a symbolic link/ },
  { name: 'a file link out', path: 'out.txt', says: /outside the workspace through a symbolic link/ },
  { name: 'a relative link out', path: 'relout/new.txt', says: /outside the workspace/ },
  { name: 'a link to a link out', path: 'hop/x.txt', says: /outside the workspace/ },
  { name: 'a dangling link', path: 'dangling', says: /symbolic link to something that does not exist/ },
  {
    name: 'through a dangling link',
    path: 'dangling/x.txt',
    says: /'dangling' is a symbolic link to something that does not exist/,
  },
  { name: '.vscode in capitals', path: '.VSCODE/settings.json', says: /VS Code's settings/ },
  { name: '.vscode, a new file', path: '.vscode/tasks.json', says: /VS Code's settings/ },
  { name: 'fullwidth .vscode (NFKC)', path: '.ｖｓｃｏｄｅ/settings.json', says: /VS Code's settings/ },
  { name: '.git/config', path: '.git/config', says: /'\.git' holds Git's data and hooks/ },
  { name: 'a Git hook', path: '.git/hooks/pre-commit', says: /Git's data and hooks/ },
  { name: '.Git in mixed case', path: '.Git/hooks/pre-commit', says: /Git's data and hooks/ },
  { name: '.git with an invisible joiner (HFS+)', path: '.g\u200cit/config', says: /Git's data and hooks/ },
  { name: 'a file named .git', path: '.git', says: /Git's data and hooks/ },
  { name: 'a nested repository', path: 'sub/.git', says: /Git's data and hooks/ },
  { name: 'a nested .git folder', path: 'vendor/lib/.git/hooks/post-checkout', says: /Git's data and hooks/ },
  { name: '.groundwork roles', path: '.groundwork/roles/x.md', says: /Groundwork's own state/ },
  { name: '.groundwork, new', path: '.GroundWork/plans/p/plan.md', says: /Groundwork's own state/ },
  { name: 'a workflow', path: '.github/workflows/ci.yml', says: /GitHub runs the workflows/ },
  { name: 'a workflow in capitals', path: '.GitHub/Workflows/new.yaml', says: /GitHub runs the workflows/ },
  { name: 'a .code-workspace file', path: 'x.CODE-WORKSPACE', says: /\.code-workspace file/ },
  { name: 'a nested .code-workspace file', path: 'tools/all.code-workspace', says: /\.code-workspace file/ },
  {
    name: 'a link inside pointing at .git/',
    path: 'g/config',
    says: /symbolic link on the way leads to '\.git\/config'.*Git's data/,
  },
  { name: 'a new hook through a link to .git/', path: 'g/hooks/pre-push', says: /leads to '\.git\/hooks\/pre-push'/ },
  { name: 'a file link to .vscode/settings.json', path: 'settings.json', says: /leads to '\.vscode\/settings\.json'/ },
  { name: 'a link to .groundwork', path: 'gw/roles/y.md', says: /leads to '\.groundwork\/roles\/y\.md'/ },
  { name: 'through a file as a folder', path: 'a.txt/b.js', says: /'a\.txt' is a file, not a folder/ },
  { name: 'through a file deeper', path: 'src/a.js/x/y.js', says: /'src\/a\.js' is a file, not a folder/ },
  { name: 'a fullwidth solidus (NFKC /)', path: 'src\uff0f..\uff0fx', says: /once Unicode is normalised/ },
  { name: 'one-dot leaders (NFKC ..)', path: '\u2024\u2024/x', says: /once Unicode is normalised/ },
  { name: 'a two-dot leader (NFKC ..)', path: 'src/\u2025/x', says: /once Unicode is normalised/ },
  { name: 'a one-dot leader alone (NFKC .)', path: '\u2024/x', says: /once Unicode is normalised/ },
  { name: 'a fullwidth reverse solidus', path: 'a\uff3cb', says: /once Unicode is normalised/ },
  { name: 'a fullwidth colon (NFKC :)', path: 'a\uff1ab', says: /once Unicode is normalised/ },
  {
    name: 'an ideographic space at the end (NFKC trailing space)',
    path: 'a\u3000',
    says: /once Unicode is normalised/,
  },
];

describe('write confinement: refused, and nothing written', () => {
  for (const tool of ['write_file', 'edit_file'] as const) {
    for (const { name, path, says } of CORPUS) {
      test(`${tool}: ${name} (${JSON.stringify(path)})`, async () => {
        const fs = hostileWorkspace();
        const { acting, changes } = recordingActing();
        const before = snapshot(fs);
        const input = tool === 'write_file' ? { path, content: 'pwned\n' } : { path, old_text: 'a', new_text: 'pwned' };
        const result = await agentTools.run(tool, input, contextFor(fs, { acting }), createToolRunCache());
        assert.equal(result.isError, true, `expected a refusal, got: ${result.content}`);
        assert.match(result.content, says);
        assert.deepEqual(changes, []);
        assert.deepEqual(snapshot(fs), before);
      });
    }
  }

  test('a refusal says what to do and never shows the real path outside', async () => {
    const fs = hostileWorkspace();
    const { acting } = recordingActing();
    const result = await agentTools.run(
      'write_file',
      { path: 'out/x.txt', content: 'x' },
      contextFor(fs, { acting }),
      createToolRunCache(),
    );
    assert.equal(result.isError, true);
    assert.doesNotMatch(result.content, /outside\/dir|\/outside/);
    assert.match(result.content, /Write only files inside the workspace/);
  });

  test('a pipe or a device (what the fake cannot make: its info says so) is refused', async () => {
    const fs = hostileWorkspace();
    fs.writeRaw(`${ROOT}/fifo`, '');
    const info = fs.info.bind(fs);
    fs.info = async (path) => (path === `${ROOT}/fifo` ? { kind: 'other', size: 0, mtimeMs: 0 } : info(path));
    const { acting, changes } = recordingActing();
    const result = await agentTools.run(
      'write_file',
      { path: 'fifo', content: 'x' },
      contextFor(fs, { acting }),
      createToolRunCache(),
    );
    assert.equal(result.isError, true);
    assert.match(result.content, /not a regular file/);
    assert.deepEqual(changes, []);
  });

  test('a Windows short name on a Windows root is refused before the disk is asked', async () => {
    const fs = hostileWorkspace();
    const { acting, changes } = recordingActing();
    const context: ToolContext = contextFor(fs, { acting, root: 'C:\\w' });
    const result = await agentTools.run(
      'write_file',
      { path: 'GIT~1/config', content: 'x' },
      context,
      createToolRunCache(),
    );
    assert.equal(result.isError, true);
    assert.match(result.content, /Windows short name/);
    assert.deepEqual(changes, []);
  });
});

describe('write confinement: what is allowed', () => {
  const context = (fs: MemoryWorkspaceFs) => contextFor(fs, { acting: recordingActing().acting });

  test('a new file in new folders resolves below the real root', async () => {
    const fs = hostileWorkspace();
    const target = await resolveWritePath('src/new/deep/x.ts', context(fs), createToolRunCache());
    assert.deepEqual(target, {
      segments: ['src', 'new', 'deep', 'x.ts'],
      shown: 'src/new/deep/x.ts',
      real: `${ROOT}/src/new/deep/x.ts`,
      realSegments: ['src', 'new', 'deep', 'x.ts'],
      exists: false,
    });
  });

  test('an existing file, by a link inside the root: the real file is the one written', async () => {
    const fs = hostileWorkspace();
    fs.symlink(`${ROOT}/lib`, 'src');
    const target = await resolveWritePath('lib/a.js', context(fs), createToolRunCache());
    assert.deepEqual(target, {
      segments: ['lib', 'a.js'],
      shown: 'lib/a.js',
      real: `${ROOT}/src/a.js`,
      realSegments: ['src', 'a.js'],
      exists: true,
      kind: 'file',
    });
  });

  test('a root that is itself a link: paths are relative to its real path', async () => {
    const fs = memoryWorkspace();
    fs.mkdir('/real/w');
    fs.symlink('/linked', '/real/w');
    const target = await resolveWritePath('a/b.txt', contextFor(fs, { root: '/linked' }), createToolRunCache());
    assert.equal(target.real, '/real/w/a/b.txt');
    assert.deepEqual(target.realSegments, ['a', 'b.txt']);
  });

  test('names that only look like protected ones are fine', async () => {
    const fs = hostileWorkspace();
    for (const path of [
      '.gitignore',
      '.github/CODEOWNERS',
      '.github/workflow-notes.md',
      'docs/.vscode-notes.md',
      'my.code-workspace.md',
      'ａ.txt',
      'café/x.md',
      'a..b.txt',
    ]) {
      const target = await resolveWritePath(path, context(fs), createToolRunCache());
      assert.equal(target.exists, false, path);
    }
  });
});
