import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import { appendDiscoveryNote, specFiles, SPEC_MAX_BYTES } from '../../../src/core/annotations/specWriter';
import { markPhaseSpecs, requirementsDocument } from '../../../src/core/build/specMarks';
import { markRequirementEvidence } from '../../../src/core/build/requirementEvidence';
import { NodeSpecWriter } from '../../../src/core/node/nodeSpecWriter';
import { NodeWorkspaceFs } from '../../../src/core/node/nodeWorkspaceFs';
import { tempFolder } from '../../support/tempDirs';

const REQUIREMENTS = '# Requirements\n\n- [task-001] One.\n- [task-002] Two.\n';
const colors = (text: string) =>
  parseAnnotations(text).annotations.flatMap((a) => (a.kind === 'region' ? [[a.task, a.color]] : []));

describe('requirementsDocument', () => {
  test("the brief's [task-NNN] lines as a list, each task once", () => {
    const brief =
      'PROJECT_NAME: t\nREQUIREMENTS:\n- [task-001] One | Acceptance: x\n  * [task-002] Two\n- [task-001] again\n- REQ-003: old style\n';
    assert.equal(requirementsDocument(brief), '# Requirements\n\n- [task-001] One | Acceptance: x\n- [task-002] Two\n');
    assert.equal(requirementsDocument('PROJECT_NAME: t\n- REQ-001: x\n'), undefined);
  });
});

describe('specs on the disk (NodeSpecWriter)', () => {
  async function project(): Promise<{
    ws: string;
    dir: string;
    ports: { fs: NodeWorkspaceFs; writer: NodeSpecWriter };
  }> {
    const ws = await tempFolder('groundwork-specs-');
    const dir = join(ws, 'p');
    await mkdir(join(dir, 'specs'), { recursive: true });
    await writeFile(join(dir, 'specs/requirements.md'), REQUIREMENTS);
    const fs = new NodeWorkspaceFs();
    return { ws, dir, ports: { fs, writer: new NodeSpecWriter(ws, fs) } };
  }

  test('architect: all blue, whatever its reply claims; no other phase marks; the evidence colours green, red and blue', async () => {
    const { dir, ports } = await project();
    const architect = await markPhaseSpecs(ports, dir, 'architecture');
    assert.equal(architect?.ok, true);
    const spec = join(dir, 'specs/requirements.md');
    assert.deepEqual(colors(await readFile(spec, 'utf8')), [
      ['task-001', 'blue'],
      ['task-002', 'blue'],
    ]);
    assert.equal(await markPhaseSpecs(ports, dir, 'architecture'), undefined, 'nothing left to do');
    for (const check of ['verification', 'delivery', 'review'] as const)
      assert.equal(await markPhaseSpecs(ports, dir, check), undefined, `${check} marks nothing`);
    assert.deepEqual(colors(await readFile(spec, 'utf8')), [
      ['task-001', 'blue'],
      ['task-002', 'blue'],
    ]);
    const marked = await markRequirementEvidence(ports, dir, [
      { id: 'task-001', result: 'passed', tests: ['task-001 one (passed)'] },
      { id: 'task-002', result: 'failed', tests: ['task-002 two (failed)'] },
    ]);
    assert.match(
      marked?.text ?? '',
      /1 verified \(green\), 1 failed \(red\), 0 with no passing test \(blue\) in specs\/requirements\.md/,
    );
    assert.deepEqual(colors(await readFile(spec, 'utf8')), [
      ['task-001', 'green'],
      ['task-002', 'red'],
    ]);
    await markRequirementEvidence(ports, dir, [
      { id: 'task-001', result: 'untested', tests: [] },
      { id: 'task-002', result: 'passed', tests: ['task-002 two (passed)'] },
    ]);
    assert.deepEqual(colors(await readFile(spec, 'utf8')), [
      ['task-001', 'blue'],
      ['task-002', 'green'],
    ]);
    assert.equal(await markRequirementEvidence({ ...ports, writer: undefined }, dir, []), undefined);
  });

  test('a note goes into requirements.md first, then the other specs by name; once per case', async () => {
    const { dir, ports } = await project();
    await writeFile(
      join(dir, 'specs/a.md'),
      '- <!--@ax:0-1:green:task-001-->[task-001] elsewhere<!--/@ax-->\n- <!--@ax:0-1:green:task-003-->[task-003] only here<!--/@ax-->\n',
    );
    await writeFile(join(dir, 'specs/notes.txt'), 'not a spec');
    assert.deepEqual(
      (await specFiles(ports.fs, dir)).map((p) => p.slice(dir.length + 1)),
      ['specs/requirements.md', 'specs/a.md'],
    );
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'task-003', caseId: 'disc-001', content: 'x' }),
      join(dir, 'specs/a.md'),
    );
    await markPhaseSpecs(ports, dir, 'architecture');
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'task-001', caseId: 'disc-002', content: 'y' }),
      join(dir, 'specs/requirements.md'),
    );
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'task-001', caseId: 'disc-002', content: 'y' }),
      undefined,
    );
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'task-009', caseId: 'disc-003', content: 'z' }),
      undefined,
    );
    assert.equal(
      await appendDiscoveryNote(ports, dir, { task: 'bad id', caseId: 'disc-003', content: 'z' }),
      undefined,
    );
    const text = await readFile(join(dir, 'specs/requirements.md'), 'utf8');
    assert.equal(parseAnnotations(text).annotations.filter((a) => a.kind === 'discovery').length, 1);
  });

  test('a link out of the folder is refused; a huge spec is skipped', async () => {
    const { ws, dir, ports } = await project();
    const outside = await tempFolder('groundwork-outside-');
    await writeFile(join(outside, 'secret.md'), REQUIREMENTS);
    await symlink(join(outside, 'secret.md'), join(dir, 'specs/b.md'));
    const marked = await markPhaseSpecs(ports, dir, 'architecture');
    assert.equal(marked?.ok, false);
    assert.match(
      marked?.text ?? '',
      /requirements marked .* in specs\/requirements\.md; specs\/b\.md could not be marked: /,
      'the others are still marked',
    );
    assert.equal(await readFile(join(outside, 'secret.md'), 'utf8'), REQUIREMENTS, 'the file outside is untouched');
    await assert.rejects(ports.writer.edit(join(outside, 'secret.md'), () => ({ text: 'x' })));
    const huge = join(ws, 'p/specs/requirements.md');
    await writeFile(huge, `- [task-001] x\n${'y'.repeat(SPEC_MAX_BYTES)}`);
    assert.equal(await ports.writer.edit(huge, () => ({ text: 'x' })), false);
    assert.equal(await ports.writer.edit(join(dir, 'specs/missing.md'), () => ({ text: 'x' })), false);
  });
});
