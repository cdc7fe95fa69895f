// The build folders: made held, read back checked, saved whole, listed with the damaged ones named,
// an interrupted build told from a live one, and a log a person can read.
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BuildStore, buildDisplayStatus } from '../../../src/core/build/buildStore';
import type { BuildRecord } from '../../../src/core/build/buildTypes';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';

const T0 = Date.UTC(2026, 10, 24, 14, 0, 0);

function fields(): Omit<BuildRecord, 'id'> {
  return {
    version: 1,
    status: 'running',
    source: { kind: 'brief', path: '.groundwork/plans/bakery-crm/idea-brief.md' },
    mode: 'new',
    phases: [
      { name: 'analyst', role: 'build-analyst', check: 'brief', status: 'pending', attempts: [] },
      { name: 'architect', role: 'build-architect', check: 'architecture', status: 'pending', attempts: [] },
    ],
    verified: [],
    startedAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    origin: 'cli',
  };
}

describe('BuildStore', () => {
  test('a build is made held, read back as written, and saved whole on each change', async () => {
    const ws = new MemoryWorkspace();
    const builds = new BuildStore(ws.store);
    let release!: () => void;
    let entered!: (id: string) => void;
    const inside = new Promise<string>((resolve) => (entered = resolve));
    const live = builds.createHeld(
      fields(),
      'bakery-crm',
      () => '0a1f',
      T0,
      async (build) => {
        entered(build.id);
        await new Promise<void>((resolve) => (release = resolve));
        const phases = build.phases.map((p, i) => (i === 0 ? { ...p, status: 'passed' as const } : p));
        await builds.save({ ...build, phases, projectName: 'bakery-crm', projectDir: 'bakery-crm' });
        await builds.log(build.id, '2026-11-24T14:00:01.000Z', 'analyst passed:\nbakery-crm');
        return build.id;
      },
    );
    // Asked from elsewhere (another window, the explorer), the live build is held.
    assert.equal(await builds.isHeld(await inside), true, 'held while the build runs');
    release();
    const id = await live;
    assert.equal(id, '20261124-140000-bakery-crm-0a1f');
    assert.equal(await builds.isHeld(id), false);
    const read = await builds.read(id);
    assert.ok(read.ok, read.ok ? '' : read.problem);
    assert.equal(read.build.phases[0]?.status, 'passed');
    assert.equal(read.build.projectDir, 'bakery-crm');
    assert.equal(buildDisplayStatus(read.build, false), 'interrupted', 'running, and nobody holds it');
    assert.equal(
      ws.fs.text(`/ws/.groundwork/builds/${id}/build.log`),
      '2026-11-24T14:00:01.000Z analyst passed: bakery-crm\n',
    );
  });

  test('a second build in the same second gets another name', async () => {
    const ws = new MemoryWorkspace();
    const builds = new BuildStore(ws.store);
    const hex = ['0a1f', '0a1f', 'beef'];
    const first = await builds.createHeld(
      fields(),
      'x',
      () => hex.shift() as string,
      T0,
      async (b) => b.id,
    );
    const second = await builds.createHeld(
      fields(),
      'x',
      () => hex.shift() as string,
      T0,
      async (b) => b.id,
    );
    assert.notEqual(first, second);
    assert.match(second, /-beef$/);
  });

  test('a damaged or copied build.yaml is named with what is wrong, and listed as a problem', async () => {
    const ws = new MemoryWorkspace();
    const builds = new BuildStore(ws.store);
    const id = await builds.createHeld(
      fields(),
      'ok',
      () => '0001',
      T0,
      async (b) => b.id,
    );
    ws.fs.writeRaw('/ws/.groundwork/builds/20261124-140000-bad-0002/build.yaml', 'version: 1\nid: [not, text]\n');
    const copied = '20261124-140000-copy-0003';
    ws.fs.writeRaw(
      `/ws/.groundwork/builds/${copied}/build.yaml`,
      ws.fs.text(`/ws/.groundwork/builds/${id}/build.yaml`) ?? '',
    );
    ws.fs.writeRaw('/ws/.groundwork/builds/README.md', 'not a build');
    const { builds: listed, problems } = await builds.list();
    assert.deepEqual(
      listed.map((b) => b.id),
      [id],
    );
    assert.deepEqual(problems.map((p) => p.id).sort(), ['20261124-140000-bad-0002', copied]);
    assert.match(problems.find((p) => p.id === copied)?.problem ?? '', /is not the name of its folder/);
    const bad = await builds.read('../../etc');
    assert.equal(bad.ok, false);
  });
});
