// The loops over a folder's specs (appendDiscoveryNote, markSpecs) and the CLI's writer: a spec the
// writer refuses, or that is no regular file, is skipped and the others are still done.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import { appendDiscoveryNote, changedText, markSpecs } from '../../../src/core/annotations/specWriter';
import type { SpecPorts, SpecRefusal, SpecWriter } from '../../../src/core/annotations/specWriter';
import { NodeSpecWriter } from '../../../src/core/node/nodeSpecWriter';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { tempFolder } from '../../support/tempDirs';

const REGION = '- <!--@ax:0-1:green:task-001-->[task-001] login<!--/@ax-->\n';
const fs = new NodeWorkspaceFs();

/** A folder with specs/a.md, specs/b.md and specs/c.md holding `text`. */
async function folder(text: string): Promise<string> {
  const dir = await tempFolder('groundwork-specs-');
  await mkdir(join(dir, 'specs'));
  for (const name of ['a.md', 'b.md', 'c.md']) await writeFile(join(dir, 'specs', name), text);
  return dir;
}

/** A writer on disk that refuses `refuse` (as a link out of the folder is refused). */
function refusing(dir: string, refuse: string): SpecWriter {
  const disk = new NodeSpecWriter(dir, fs);
  return {
    edit: (path, change) =>
      path.endsWith(refuse) ? Promise.reject(new Error(`${refuse} is refused`)) : disk.edit(path, change),
  };
}

const regionsOf = (text: string) => parseAnnotations(text).annotations.filter((a) => a.kind === 'region').length;

describe('the loops over the specs skip a spec the writer refuses', () => {
  test('markSpecs marks the others and tells the refusal', async () => {
    const dir = await folder('- [task-001] one\n');
    const refusals: SpecRefusal[] = [];
    const ports: SpecPorts = { fs, writer: refusing(dir, 'b.md'), refused: (r) => refusals.push(r) };
    assert.deepEqual(await markSpecs(ports, dir, { color: 'green', tasks: 'all' }), [
      join(dir, 'specs/a.md'),
      join(dir, 'specs/c.md'),
    ]);
    assert.deepEqual(refusals, [{ path: join(dir, 'specs/b.md'), reason: 'b.md is refused' }]);
    assert.equal(regionsOf(await readFile(join(dir, 'specs/c.md'), 'utf8')), 1);
    assert.equal(await readFile(join(dir, 'specs/b.md'), 'utf8'), '- [task-001] one\n');
  });

  test('appendDiscoveryNote goes on to the next spec when one is refused before it is read', async () => {
    const dir = await folder(REGION);
    const refusals: SpecRefusal[] = [];
    const ports: SpecPorts = { fs, writer: refusing(dir, 'a.md'), refused: (r) => refusals.push(r) };
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'task-001', caseId: 'disc-001', content: 'x' }),
      join(dir, 'specs/b.md'),
    );
    assert.equal(refusals.length, 1);
    assert.equal(await readFile(join(dir, 'specs/c.md'), 'utf8'), REGION, 'one note, in the first spec written');
  });

  test('appendDiscoveryNote stops at the spec that has the region when writing it is refused', async () => {
    const dir = await folder(REGION);
    const refusals: SpecRefusal[] = [];
    const writer: SpecWriter = {
      edit: (path, change) => {
        change(REGION);
        return Promise.reject(new Error('kept changing'));
      },
    };
    assert.equal(
      await appendDiscoveryNote({ fs, writer, refused: (r) => refusals.push(r) }, dir, {
        task: 'task-001',
        caseId: 'disc-001',
        content: 'x',
      }),
      undefined,
    );
    assert.deepEqual(
      refusals.map((r) => r.path),
      [join(dir, 'specs/a.md')],
    );
  });
});

describe('NodeSpecWriter', () => {
  test('a folder, a pipe, a link to a folder are skipped (false); a link out of the folder is refused', async (t) => {
    const dir = await folder('- [task-001] one\n');
    const outside = await tempFolder('groundwork-outside-');
    await writeFile(join(outside, 'secret.md'), REGION);
    await mkdir(join(dir, 'specs/a-dir.md'));
    await symlink(join(dir, 'specs/a-dir.md'), join(dir, 'specs/a-link.md'));
    await symlink(join(outside, 'secret.md'), join(dir, 'specs/b-out.md'));
    let fifo = false;
    if (process.platform !== 'win32') {
      try {
        execFileSync('mkfifo', [join(dir, 'specs/a-fifo.md')]);
        fifo = true;
      } catch {
        t.diagnostic('mkfifo is not available: no pipe in this run');
      }
    }
    const writer = new NodeSpecWriter(dir, fs);
    const change = (text: string) => ({ text: `${text}x` });
    assert.equal(await writer.edit(join(dir, 'specs/a-dir.md'), change), false);
    assert.equal(await writer.edit(join(dir, 'specs/a-link.md'), change), false);
    if (fifo) assert.equal(await writer.edit(join(dir, 'specs/a-fifo.md'), change), false);
    await assert.rejects(writer.edit(join(dir, 'specs/b-out.md'), change), /outside|symbolic link|workspace/i);

    const refusals: SpecRefusal[] = [];
    const ports: SpecPorts = { fs, writer, refused: (r) => refusals.push(r) };
    const marked = await markSpecs(ports, dir, { color: 'green', tasks: 'all' });
    assert.deepEqual(marked, [join(dir, 'specs/a.md'), join(dir, 'specs/b.md'), join(dir, 'specs/c.md')]);
    assert.deepEqual(
      refusals.map((r) => r.path),
      [join(dir, 'specs/b-out.md')],
    );
    assert.equal(await readFile(join(outside, 'secret.md'), 'utf8'), REGION, 'the file outside is untouched');
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'task-001', caseId: 'disc-001', content: 'x' }),
      join(dir, 'specs/a.md'),
    );
    assert.equal(await readFile(join(outside, 'secret.md'), 'utf8'), REGION);
    assert.equal(changedText('ab', { offset: 1, insert: 'x' }), 'axb');
  });

  test('a spec with a BOM: marked after it, the BOM kept on disk', async () => {
    const dir = await tempFolder('groundwork-specs-');
    await mkdir(join(dir, 'specs'));
    await writeFile(join(dir, 'specs/requirements.md'), '\ufeff- [task-001] first\n');
    assert.equal(
      (await markSpecs({ fs, writer: new NodeSpecWriter(dir, fs) }, dir, { color: 'green', tasks: 'all' })).length,
      1,
    );
    const text = await readFile(join(dir, 'specs/requirements.md'), 'utf8');
    assert.equal(text, '\ufeff- <!--@ax:2-18:green:task-001-->[task-001] first<!--/@ax-->\n');
  });
});
