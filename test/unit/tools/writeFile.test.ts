import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHANGE_BEFORE_MAX_BYTES } from '../../../src/core/run/runTypes';
import { countLines } from '../../../src/core/tools/implementations/writeFile';
import { agentTools, createToolRunCache } from '../../../src/core/tools/registry';
import { ToolInputError, type ActingPorts, type ToolResult } from '../../../src/core/tools/toolTypes';
import type { MemoryWorkspaceFs } from '../fakes/memoryWorkspaceFs';
import { contextFor, memoryWorkspace, ROOT } from './toolHarness';

const encode = (text: string) => new TextEncoder().encode(text);

interface Change {
  step: 'before' | 'after';
  path: string;
  bytes: Uint8Array | undefined;
  created?: boolean;
  /** What the file held on disk when the port was called. */
  onDisk: string | undefined;
}

/** An acting port that records each change call with what was on disk at that moment. */
function recordingActing(fs: MemoryWorkspaceFs, refuse?: string): { acting: ActingPorts; changes: Change[] } {
  const changes: Change[] = [];
  const acting: ActingPorts = {
    async beforeChange(c) {
      changes.push({ step: 'before', path: c.path, bytes: c.before, onDisk: fs.text(`${ROOT}/${c.path}`) });
      if (refuse !== undefined) throw new ToolInputError(refuse);
    },
    async afterChange(c) {
      changes.push({
        step: 'after',
        path: c.path,
        bytes: c.after,
        created: c.created,
        onDisk: fs.text(`${ROOT}/${c.path}`),
      });
    },
    runCommand: async () => 'ran',
    sleep: async () => 'woke',
    reportDiscovery: async () => 'noted',
  };
  return { acting, changes };
}

function write(fs: MemoryWorkspaceFs, acting: ActingPorts | undefined, input: unknown): Promise<ToolResult> {
  return agentTools.run(
    'write_file',
    input,
    contextFor(fs, acting === undefined ? {} : { acting }),
    createToolRunCache(),
  );
}

async function wrote(fs: MemoryWorkspaceFs, acting: ActingPorts, input: unknown): Promise<string> {
  const result = await write(fs, acting, input);
  assert.equal(result.isError, false, result.content);
  return result.content;
}

describe('write_file: creating', () => {
  test('a new file in new folders: created, the run told before and after with the bytes', async () => {
    const fs = memoryWorkspace({ 'README.md': '# x\n' });
    const { acting, changes } = recordingActing(fs);
    const content = 'export const a = 1;\nexport const b = 2;\n';
    assert.equal(
      await wrote(fs, acting, { path: 'src/deep/new.js', content }),
      `Wrote src/deep/new.js (2 lines, ${encode(content).length} bytes); created.`,
    );
    assert.equal(fs.text(`${ROOT}/src/deep/new.js`), content);
    assert.deepEqual(changes, [
      { step: 'before', path: 'src/deep/new.js', bytes: undefined, onDisk: undefined },
      { step: 'after', path: 'src/deep/new.js', bytes: encode(content), created: true, onDisk: content },
    ]);
  });

  test('an empty file', async () => {
    const fs = memoryWorkspace();
    const { acting } = recordingActing(fs);
    assert.equal(
      await wrote(fs, acting, { path: 'empty.txt', content: '' }),
      'Wrote empty.txt (0 lines, 0 bytes); created.',
    );
    assert.equal(fs.text(`${ROOT}/empty.txt`), '');
  });

  test('one line, counted in UTF-8 bytes', async () => {
    const fs = memoryWorkspace();
    const { acting } = recordingActing(fs);
    assert.equal(
      await wrote(fs, acting, { path: './notes/é.md', content: 'é' }),
      'Wrote notes/é.md (1 line, 2 bytes); created.',
    );
  });
});

describe('write_file: replacing', () => {
  const old = Array.from({ length: 10 }, (_, i) => `old ${i}`).join('\n') + '\n';

  test('the previous content goes to beforeChange while it is still on disk', async () => {
    const fs = memoryWorkspace({ 'src/a.js': old });
    const { acting, changes } = recordingActing(fs);
    assert.equal(
      await wrote(fs, acting, { path: 'src/a.js', content: 'new\n' }),
      'Wrote src/a.js (1 line, 4 bytes); replaced the previous 10 lines.',
    );
    assert.equal(fs.text(`${ROOT}/src/a.js`), 'new\n');
    assert.deepEqual(changes, [
      { step: 'before', path: 'src/a.js', bytes: encode(old), onDisk: old },
      { step: 'after', path: 'src/a.js', bytes: encode('new\n'), created: false, onDisk: 'new\n' },
    ]);
  });

  test('a binary file replaced says so', async () => {
    const fs = memoryWorkspace({ 'logo.png': new Uint8Array([0x89, 0x50, 0, 1, 2]) });
    const { acting, changes } = recordingActing(fs);
    assert.equal(
      await wrote(fs, acting, { path: 'logo.png', content: 'text' }),
      'Wrote logo.png (1 line, 4 bytes); replaced a binary file of 5 bytes.',
    );
    assert.deepEqual(changes[0]?.bytes, new Uint8Array([0x89, 0x50, 0, 1, 2]));
  });

  test('through a link inside the root: the real file is written and reported, the link stays', async () => {
    const fs = memoryWorkspace({ 'src/a.js': old });
    fs.symlink(`${ROOT}/current.js`, 'src/a.js');
    const { acting, changes } = recordingActing(fs);
    assert.equal(
      await wrote(fs, acting, { path: 'current.js', content: 'x' }),
      'Wrote current.js (1 line, 1 byte); replaced the previous 10 lines.',
    );
    assert.equal(fs.text(`${ROOT}/src/a.js`), 'x');
    assert.deepEqual(
      changes.map((c) => c.path),
      ['src/a.js', 'src/a.js'],
    );
    assert.equal((await fs.info(`${ROOT}/current.js`))?.kind, 'symlink');
  });

  test('a file over the undo limit is refused before the run is told, and left as it was', async () => {
    const big = new Uint8Array(CHANGE_BEFORE_MAX_BYTES + 1).fill(0x61);
    const fs = memoryWorkspace({ 'big.txt': big });
    const { acting, changes } = recordingActing(fs);
    const result = await write(fs, acting, { path: 'big.txt', content: 'small' });
    assert.equal(result.isError, true);
    assert.match(
      result.content,
      /^'big\.txt' is larger than 4 MiB, too large for write_file to change while keeping what it held for undo\./,
    );
    assert.deepEqual(changes, []);
    assert.equal((await fs.info(`${ROOT}/big.txt`))?.size, CHANGE_BEFORE_MAX_BYTES + 1);
  });

  test('a file of exactly the undo limit can still be replaced', async () => {
    const fs = memoryWorkspace({ 'edge.txt': new Uint8Array(CHANGE_BEFORE_MAX_BYTES).fill(0x61) });
    const { acting } = recordingActing(fs);
    assert.match(await wrote(fs, acting, { path: 'edge.txt', content: 'b' }), /replaced the previous 1 line\.$/);
  });
});

describe('write_file: refusals and failures', () => {
  test('without an agent run: refused, nothing written', async () => {
    const fs = memoryWorkspace();
    const result = await write(fs, undefined, { path: 'a.txt', content: 'x' });
    assert.deepEqual(result, {
      isError: true,
      content: 'write_file is only available in an agent run; here you can only read the workspace.',
    });
    assert.equal(fs.text(`${ROOT}/a.txt`), undefined);
  });

  test('the run refusing in beforeChange: its message, nothing written', async () => {
    const fs = memoryWorkspace({ 'a.txt': 'keep' });
    const { acting, changes } = recordingActing(fs, 'The run may not write that.');
    assert.deepEqual(await write(fs, acting, { path: 'a.txt', content: 'x' }), {
      isError: true,
      content: 'The run may not write that.',
    });
    assert.equal(fs.text(`${ROOT}/a.txt`), 'keep');
    assert.equal(changes.length, 1);
  });

  test('a failed write: an error result naming the file by its relative path, and no afterChange', async () => {
    const fs = memoryWorkspace();
    fs.failOn = (op) => (op === 'writeAtomic' ? Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) : undefined);
    const { acting, changes } = recordingActing(fs);
    const result = await write(fs, acting, { path: 'a.txt', content: 'x' });
    assert.equal(result.isError, true);
    assert.match(result.content, /^write_file failed: /);
    assert.doesNotMatch(result.content, /\/w\//);
    assert.deepEqual(
      changes.map((c) => c.step),
      ['before'],
    );
  });

  test('bad input: a missing content, a content over 1 MiB of characters', async () => {
    const fs = memoryWorkspace();
    const { acting } = recordingActing(fs);
    assert.match((await write(fs, acting, { path: 'a.txt' })).content, /the field 'content' is missing/);
    assert.match(
      (await write(fs, acting, { path: 'a.txt', content: 'x'.repeat(1024 * 1024 + 1) })).content,
      /'content' must be at most 1048576 characters long/,
    );
  });

  test('the target is the path as given', () => {
    assert.equal(agentTools.target('write_file', { path: './src/a.js', content: '' }), './src/a.js');
    assert.equal(agentTools.target('write_file', { content: '' }), '?');
  });
});

describe('lines as a person counts them', () => {
  for (const [text, lines] of [
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\nb', 2],
    ['a\r\nb\r\n', 2],
    ['\n', 1],
    ['\n\n', 2],
  ] as const) {
    test(`${JSON.stringify(text)} has ${lines}`, () => assert.equal(countLines(text), lines));
  }
});
