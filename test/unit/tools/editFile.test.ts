import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHANGE_BEFORE_MAX_BYTES } from '../../../src/core/run/runTypes';
import { agentTools, createToolRunCache } from '../../../src/core/tools/registry';
import type { ActingPorts, ToolResult } from '../../../src/core/tools/toolTypes';
import type { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import { contextFor, memoryWorkspace, ROOT } from './toolHarness';

const encode = (text: string) => new TextEncoder().encode(text);

interface Change {
  step: 'before' | 'after';
  path: string;
  bytes: Uint8Array | undefined;
  created?: boolean;
}

function recordingActing(): { acting: ActingPorts; changes: Change[] } {
  const changes: Change[] = [];
  const acting: ActingPorts = {
    beforeChange: async (c) => void changes.push({ step: 'before', path: c.path, bytes: c.before }),
    afterChange: async (c) => void changes.push({ step: 'after', path: c.path, bytes: c.after, created: c.created }),
    runCommand: async () => 'ran',
    sleep: async () => 'woke',
    reportDiscovery: async () => 'noted',
  };
  return { acting, changes };
}

function edit(fs: MemoryWorkspaceFs, acting: ActingPorts | undefined, input: unknown): Promise<ToolResult> {
  return agentTools.run(
    'edit_file',
    input,
    contextFor(fs, acting === undefined ? {} : { acting }),
    createToolRunCache(),
  );
}

const SOURCE = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

/** An edit that must be refused: its message matches, nothing changed, the run never told. */
async function refusedEdit(
  files: Record<string, string | Uint8Array>,
  input: Record<string, unknown>,
  says: RegExp,
): Promise<void> {
  const fs = memoryWorkspace(files);
  const { acting, changes } = recordingActing();
  const before = fs.paths().map((p) => `${p} ${fs.text(p)}`);
  const result = await edit(fs, acting, input);
  assert.equal(result.isError, true, result.content);
  assert.match(result.content, says);
  assert.deepEqual(changes, []);
  assert.deepEqual(
    fs.paths().map((p) => `${p} ${fs.text(p)}`),
    before,
  );
}

describe('edit_file: one match', () => {
  test('replaced; the run told with the bytes before and after; the counts said', async () => {
    const fs = memoryWorkspace({ 'src/a.js': SOURCE });
    const { acting, changes } = recordingActing();
    const input = {
      path: 'src/a.js',
      old_text: 'function b() {\n  return 1;',
      new_text: 'function b() {\n  // two\n  return 2;',
    };
    const result = await edit(fs, acting, input);
    assert.deepEqual(result, { isError: false, content: 'Edited src/a.js: replaced 2 lines with 3 (now 8 lines).' });
    const after = SOURCE.replace('function b() {\n  return 1;', 'function b() {\n  // two\n  return 2;');
    assert.equal(fs.text(`${ROOT}/src/a.js`), after);
    assert.deepEqual(changes, [
      { step: 'before', path: 'src/a.js', bytes: encode(SOURCE) },
      { step: 'after', path: 'src/a.js', bytes: encode(after), created: false },
    ]);
  });

  test('part of a line, and deleting with an empty new_text', async () => {
    const fs = memoryWorkspace({ 'a.txt': 'hello cruel world\n' });
    const { acting } = recordingActing();
    assert.equal(
      (await edit(fs, acting, { path: 'a.txt', old_text: 'cruel ', new_text: '' })).content,
      'Edited a.txt: replaced 1 line with 0 (now 1 line).',
    );
    assert.equal(fs.text(`${ROOT}/a.txt`), 'hello world\n');
  });

  test("'$&' and '$1' in new_text are written as they are", async () => {
    const fs = memoryWorkspace({ 'a.sh': 'echo X\n' });
    const { acting } = recordingActing();
    assert.equal((await edit(fs, acting, { path: 'a.sh', old_text: 'X', new_text: '$& $1 $$' })).isError, false);
    assert.equal(fs.text(`${ROOT}/a.sh`), 'echo $& $1 $$\n');
  });

  test('matches are counted without overlaps', async () => {
    const fs = memoryWorkspace({ 'a.txt': 'aaa' });
    const { acting } = recordingActing();
    assert.equal((await edit(fs, acting, { path: 'a.txt', old_text: 'aa', new_text: 'b' })).isError, false);
    assert.equal(fs.text(`${ROOT}/a.txt`), 'ba');
  });

  test("a Windows file: old_text with '\\n' matches its '\\r\\n' lines, and new_text gets them too", async () => {
    const fs = memoryWorkspace({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    const { acting } = recordingActing();
    assert.equal(
      (await edit(fs, acting, { path: 'win.txt', old_text: 'one\ntwo', new_text: 'uno\ndos\nmas' })).content,
      'Edited win.txt: replaced 2 lines with 3 (now 4 lines).',
    );
    assert.equal(fs.text(`${ROOT}/win.txt`), 'uno\r\ndos\r\nmas\r\nthree\r\n');
  });

  test('a byte order mark is kept', async () => {
    const fs = memoryWorkspace({ 'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...encode('abc\n')]) });
    const { acting } = recordingActing();
    assert.equal((await edit(fs, acting, { path: 'bom.txt', old_text: 'b', new_text: 'B' })).isError, false);
    assert.deepEqual(await fs.read(`${ROOT}/bom.txt`, 100), new Uint8Array([0xef, 0xbb, 0xbf, ...encode('aBc\n')]));
  });

  test('the target is the path as given', () => {
    assert.equal(agentTools.target('edit_file', { path: 'src/a.js', old_text: 'a', new_text: 'b' }), 'src/a.js');
  });
});

describe('edit_file: refused, nothing changed', () => {
  test('no match', () =>
    refusedEdit(
      { 'a.js': SOURCE },
      { path: 'a.js', old_text: 'return 3;', new_text: 'x' },
      /^old_text was not found in 'a\.js'; read the file again and copy the text exactly\.$/,
    ));

  test('two matches', () =>
    refusedEdit(
      { 'a.js': SOURCE },
      { path: 'a.js', old_text: '  return 1;', new_text: '  return 2;' },
      /^old_text matches 2 places in 'a\.js'; include more surrounding lines so it matches exactly one\.$/,
    ));

  test('indentation differs: no match', () =>
    refusedEdit(
      { 'a.js': SOURCE },
      { path: 'a.js', old_text: 'function a() {\nreturn 1;', new_text: 'x' },
      /was not found/,
    ));

  test('the same text as the new one', () =>
    refusedEdit({ 'a.js': SOURCE }, { path: 'a.js', old_text: 'a()', new_text: 'a()' }, /nothing to change/));

  test('an empty old_text', () =>
    refusedEdit(
      { 'a.js': SOURCE },
      { path: 'a.js', old_text: '', new_text: 'x' },
      /'old_text' must be at least 1 character long/,
    ));

  test('a missing file', () =>
    refusedEdit(
      { 'a.js': SOURCE },
      { path: 'b.js', old_text: 'a', new_text: 'b' },
      /^'b\.js' does not exist, so it cannot be edited\. Use write_file to create it/,
    ));

  test('a binary file', () =>
    refusedEdit(
      { 'a.bin': new Uint8Array([0x61, 0, 0x62]) },
      { path: 'a.bin', old_text: 'a', new_text: 'b' },
      /^'a\.bin' is a binary file \(3 bytes\); edit_file changes text files only\./,
    ));

  test('invalid UTF-8', () =>
    refusedEdit(
      { 'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) },
      { path: 'latin1.txt', old_text: 'caf', new_text: 'x' },
      /is not valid UTF-8 text/,
    ));

  test('a file over the undo limit', () =>
    refusedEdit(
      { 'big.txt': new Uint8Array(CHANGE_BEFORE_MAX_BYTES + 1).fill(0x61) },
      { path: 'big.txt', old_text: 'b', new_text: 'c' },
      /too large for edit_file to change/,
    ));

  test('a protected file', () =>
    refusedEdit(
      { '.git/config': '[core]\n' },
      { path: '.git/config', old_text: 'core', new_text: 'x' },
      /Git's data and hooks/,
    ));

  test('without an agent run', async () => {
    const fs = memoryWorkspace({ 'a.js': SOURCE });
    assert.deepEqual(await edit(fs, undefined, { path: 'a.js', old_text: 'a', new_text: 'b' }), {
      isError: true,
      content: 'edit_file is only available in an agent run; here you can only read the workspace.',
    });
    assert.equal(fs.text(`${ROOT}/a.js`), SOURCE);
  });
});
