import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RUNS_DIR, RUN_FILES, runFile } from '../../../src/core/plan/layout';
import { RUN_LIST_MAX, displayStatus } from '../../../src/core/run/runStore';
import type { NewRun } from '../../../src/core/run/runStore';
import { StorageError } from '../../../src/core/storage/storageError';
import { runWorkspace, sampleRun } from './runFixtures';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const NEW: NewRun = {
  role: 'builder',
  task: 'Add a README',
  root: '.',
  status: 'running',
  turns: 0,
  startedAt: new Date(T0).toISOString(),
  origin: 'vscode',
};

/** A random part that gives these values in turn. */
const draws =
  (...values: string[]) =>
  () =>
    values.shift() ?? 'ffff';

describe('RunStore.create', () => {
  test('makes the folder and run.json, with the id, the version and updatedAt', async () => {
    const { ws, runs } = runWorkspace();
    const run = await runs.create(NEW, draws('0a1f'), T0);
    assert.deepEqual(run, {
      ...NEW,
      version: 1,
      id: '20250102-030405-builder-0a1f',
      updatedAt: '2025-01-02T03:04:05.000Z',
    });
    assert.deepEqual(JSON.parse(ws.fs.text(ws.path(runFile(run.id, RUN_FILES.record))) ?? ''), run);
    assert.deepEqual(await runs.read(run.id), { ok: true, run });
  });

  test('draws another id when the folder exists already', async () => {
    const { ws, runs } = runWorkspace();
    ws.fs.mkdir(ws.path(runFile('20250102-030405-builder-aaaa')));
    const run = await runs.create(NEW, draws('aaaa', 'bbbb'), T0);
    assert.equal(run.id, '20250102-030405-builder-bbbb');
  });

  test('refuses a record its reader would refuse, writing nothing', async () => {
    const { ws, runs } = runWorkspace();
    await assert.rejects(
      runs.create({ ...NEW, root: '../elsewhere' }, draws('0a1f'), T0),
      /The run was not created: field root has a '\.\.' segment/,
    );
    await assert.rejects(runs.create({ ...NEW, role: 'No Such Role' }, draws('0a1f'), T0), RangeError);
    assert.deepEqual(await ws.store.list(RUNS_DIR), []);
  });
});

describe('RunStore.read', () => {
  test('refuses an id that is not one before touching the disk', async () => {
    const { ws, runs } = runWorkspace();
    ws.fs.failOn = (op, path) => new Error(`touched ${op} ${path}`);
    for (const id of ['../../etc', '20250102-030405-builder-0a1f/../x', '', 'README.md']) {
      const read = await runs.read(id);
      assert.equal(read.ok, false);
      assert.match((read as { problem: string }).problem, /is not a run id/);
    }
  });

  test('a missing or damaged run.json is a problem naming the file', async () => {
    const { ws, runs } = runWorkspace();
    const id = sampleRun().id;
    const file = ws.path(runFile(id, RUN_FILES.record));
    const problem = async () => {
      const read = await runs.read(id);
      assert.equal(read.ok, false);
      return (read as { problem: string }).problem;
    };
    assert.match(await problem(), /^'\.groundwork\/runs\/20250102-030405-builder-0a1f\/run\.json' is missing/);
    ws.fs.writeRaw(file, '{"version":1,');
    assert.match(await problem(), /run\.json' is damaged: it is not valid JSON\.$/);
    ws.fs.writeRaw(file, JSON.stringify({ ...sampleRun(), status: 'exploded' }));
    assert.match(await problem(), /run\.json' is damaged: field status "exploded" is not one of/);
    // A folder copied under another name is not that other run.
    ws.fs.writeRaw(file, JSON.stringify(sampleRun({ id: '20250102-030405-builder-ffff' })));
    assert.match(await problem(), /its id 20250102-030405-builder-ffff is not the name of its folder/);
  });

  test('a run.json that is a link out of .groundwork is a problem, not a read', async () => {
    const { ws, runs } = runWorkspace();
    ws.fs.writeRaw('/secret.json', JSON.stringify(sampleRun()));
    ws.fs.symlink(ws.path(runFile(sampleRun().id, RUN_FILES.record)), '/secret.json');
    const read = await runs.read(sampleRun().id);
    assert.equal(read.ok, false);
    assert.match((read as { problem: string }).problem, /symbolic link/);
  });
});

describe('RunStore.update', () => {
  test('changes the fields given, removes those given as undefined, and keeps id and version', async () => {
    const { ws, runs } = runWorkspace();
    const run = await runs.create(
      { ...NEW, status: 'failed', reason: 'It broke.', endedAt: '2025-01-02T03:05:00.000Z' },
      draws('0a1f'),
      T0,
    );
    const updated = await runs.update(run.id, {
      status: 'running',
      turns: 4,
      reason: undefined,
      endedAt: undefined,
      updatedAt: '2025-01-02T04:00:00.000Z',
    });
    const { reason: _r, endedAt: _e, ...rest } = run;
    assert.deepEqual(updated, { ...rest, status: 'running', turns: 4, updatedAt: '2025-01-02T04:00:00.000Z' });
    assert.deepEqual(JSON.parse(ws.fs.text(ws.path(runFile(run.id, RUN_FILES.record))) ?? ''), updated);
    const sneaky = await runs.update(run.id, { id: 'other', version: 2 } as never);
    assert.equal(sneaky.id, run.id);
    assert.equal(sneaky.version, 1);
  });

  test('refuses a patch that would make the record unreadable, and a run that cannot be read', async () => {
    const { runs } = runWorkspace();
    const run = await runs.create(NEW, draws('0a1f'), T0);
    await assert.rejects(runs.update(run.id, { turns: -1 }), /The run was not updated: field turns/);
    await assert.rejects(
      runs.update('20250102-030405-builder-ffff', { turns: 1 }),
      (err: unknown) => err instanceof StorageError && /is missing/.test(err.message),
    );
  });

  test('updates made at once do not lose each other', async () => {
    const { runs } = runWorkspace();
    const run = await runs.create(NEW, draws('0a1f'), T0);
    await Promise.all([runs.update(run.id, { turns: 2 }), runs.update(run.id, { model: 'claude-haiku-4-5' })]);
    const read = await runs.read(run.id);
    assert.ok(read.ok);
    assert.equal(read.run.turns, 2);
    assert.equal(read.run.model, 'claude-haiku-4-5');
  });
});

describe('RunStore.list', () => {
  test('lists runs newest first, ignores what is not a run folder and reports damaged ones', async () => {
    const { ws, runs } = runWorkspace();
    const a = await runs.create({ ...NEW, startedAt: '2025-01-02T03:04:05.000Z' }, draws('aaaa'), T0);
    const b = await runs.create(
      { ...NEW, role: 'tester', startedAt: '2025-01-03T00:00:00.000Z' },
      draws('bbbb'),
      T0 + 86_400_000,
    );
    const c = await runs.create({ ...NEW, startedAt: '2025-01-02T12:00:00.000Z' }, draws('cccc'), T0 + 3600_000);
    ws.fs.writeRaw(ws.path(`${RUNS_DIR}/README.md`), '# runs');
    ws.fs.writeRaw(ws.path(`${RUNS_DIR}/notes/run.json`), JSON.stringify(sampleRun()));
    ws.fs.writeRaw(ws.path(`${RUNS_DIR}/20250101-000000-builder-dddd/run.json`), 'garbage');
    const listed = await runs.list();
    assert.deepEqual(
      listed.runs.map((r) => r.id),
      [b.id, c.id, a.id],
    );
    assert.equal(listed.problems.length, 1);
    assert.equal(listed.problems[0]?.id, '20250101-000000-builder-dddd');
    assert.match(listed.problems[0]?.problem ?? '', /not valid JSON/);
  });

  test('an empty workspace has no runs', async () => {
    const { runs } = runWorkspace();
    assert.deepEqual(await runs.list(), { runs: [], problems: [] });
  });

  test(`reads at most the ${RUN_LIST_MAX} newest folders`, async () => {
    const { ws, runs } = runWorkspace();
    for (let i = 0; i < RUN_LIST_MAX + 3; i++) {
      const hex = i.toString(16).padStart(4, '0');
      const id = `20250102-030405-builder-${hex}`;
      ws.fs.writeRaw(ws.path(runFile(id, RUN_FILES.record)), JSON.stringify(sampleRun({ id })));
    }
    const listed = await runs.list();
    assert.equal(listed.runs.length, RUN_LIST_MAX);
    assert.equal(listed.runs[0]?.id, '20250102-030405-builder-01f6');
    assert.ok(!listed.runs.some((r) => r.id.endsWith('-0000')));
  });
});

describe('the run lock', () => {
  test('a running run nobody holds is interrupted; one whose lock is held is running', async () => {
    const { runs } = runWorkspace();
    const run = await runs.create(NEW, draws('0a1f'), T0);
    assert.equal(await runs.isHeld(run.id), false);
    assert.equal(displayStatus(run, false), 'interrupted');
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const live = runs.withRunLock(run.id, async () => {
      entered();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await inside;
    assert.equal(await runs.isHeld(run.id), true);
    assert.equal(displayStatus(run, true), 'running');
    await assert.rejects(
      runs.withRunLock(run.id, async () => undefined),
      (err: unknown) => err instanceof StorageError && err.code === 'busy',
    );
    release();
    await live;
    assert.equal(await runs.isHeld(run.id), false);
  });

  test('an ended run is shown as it ended, held or not', () => {
    for (const status of ['completed', 'failed', 'stopped'] as const) {
      assert.equal(displayStatus(sampleRun({ status }), false), status);
      assert.equal(displayStatus(sampleRun({ status }), true), status);
    }
  });

  test('refuses to lock or log under an id that is not one', async () => {
    const { runs } = runWorkspace();
    await assert.rejects(
      runs.withRunLock('../x', async () => undefined),
      (err: unknown) => err instanceof StorageError && err.code === 'unsafe-path',
    );
    assert.throws(() => runs.transcript('../x'), StorageError);
    await assert.rejects(runs.writeCommandLog('../x', 1, 'x'), StorageError);
  });
});

describe('transcript and command logs', () => {
  test('a transcript appends and reads back its records; a damaged line is a problem', async () => {
    const { ws, runs } = runWorkspace();
    const id = sampleRun().id;
    const log = runs.transcript(id);
    await log.append({
      type: 'message',
      at: '2025-01-02T03:04:05.000Z',
      turn: 0,
      message: { role: 'user', content: 'Do it' },
    });
    ws.appendRaw(
      runFile(id, RUN_FILES.transcript),
      '{"type":"message","at":"2025-01-02T03:04:06.000Z","turn":1,"message":{"role":"assistant","content":[]}}\n',
    );
    await log.append({ type: 'end', at: '2025-01-02T03:04:07.000Z', status: 'completed' });
    const read = await log.readAll();
    assert.deepEqual(
      read.records.map((r) => r.type),
      ['message', 'end'],
    );
    assert.equal(read.problems.length, 1);
    assert.equal(read.problems[0]?.line, 2);
  });

  test('command logs are kept as commands/NNN.log', async () => {
    const { ws, runs } = runWorkspace();
    const id = sampleRun().id;
    await runs.writeCommandLog(id, 7, '$ npm test\nok\n');
    assert.equal(ws.fs.text(ws.path(`${RUNS_DIR}/${id}/commands/007.log`)), '$ npm test\nok\n');
    assert.equal(await runs.readCommandLog(id, 7), '$ npm test\nok\n');
    assert.equal(await runs.readCommandLog(id, 8), undefined);
    await assert.rejects(runs.writeCommandLog(id, 0, 'x'), RangeError);
  });
});
