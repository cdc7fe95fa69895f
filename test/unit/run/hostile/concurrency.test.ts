// Runs that meet each other in one workspace, in-process on the real disk: two runs at once, a
// revert or a resume of a run that is live, a list probing the run's lock meanwhile; and a run
// killed at the worst moment of a write, or resumed over a transcript with damaged lines.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RunRefusedError } from '../../../../src/core/run/agentRun';
import { ChangeLog } from '../../../../src/core/run/changesFile';
import { revertRun } from '../../../../src/core/run/revert';
import { DEVELOPER } from '../../agent/agentHarness';
import { diskRun, message, plantRun, runId, runJson, sha256, tempDir, utf8 } from './hostileFixtures';

const signal = () => new AbortController().signal;

describe('runs meeting in one workspace', () => {
  test('two runs at once: both complete, with ids, changes and transcripts of their own', async () => {
    const ws = await tempDir();
    const turns = (name: string) => [
      { tools: [{ name: 'write_file', input: { path: `${name}.txt`, content: `${name}\n` } }] },
      { tools: [{ name: 'edit_file', input: { path: `${name}.txt`, old_text: name, new_text: `${name}${name}` } }] },
      { text: `${name} done` },
    ];
    const a = diskRun(ws, turns('a'));
    const b = diskRun(ws, turns('b'));
    const [runA, runB] = await Promise.all([
      a.runner.start({ role: DEVELOPER, task: 'A', root: ws }, signal(), () => undefined),
      b.runner.start({ role: DEVELOPER, task: 'B', root: ws }, signal(), () => undefined),
    ]);
    assert.equal(runA.status, 'completed');
    assert.equal(runB.status, 'completed');
    assert.notEqual(runA.id, runB.id);
    for (const [run, name] of [
      [runA, 'a'],
      [runB, 'b'],
    ] as const) {
      const changes = JSON.parse(await readFile(join(ws, '.groundwork/runs', run.id, 'changes.json'), 'utf8')) as {
        files: { path: string }[];
      };
      assert.deepEqual(
        changes.files.map((f) => f.path),
        [`${name}.txt`],
      );
      const { records, problems } = await a.runs.transcript(run.id).readAll();
      assert.deepEqual(problems, []);
      assert.equal(records.filter((r) => r.type === 'message').length, 6);
    }
    assert.ok((await revertRun(a.store, a.runs, runA.id, sha256, ws)).ok);
    assert.ok((await revertRun(b.store, b.runs, runB.id, sha256, ws)).ok);
  });

  test('two runs on one file, one after the other: the older cannot be reverted over the newer; newest first brings the original back', async () => {
    const ws = await tempDir();
    await writeFile(join(ws, 'shared.txt'), 'original\n');
    const a = diskRun(ws, [
      {
        tools: [
          { name: 'write_file', input: { path: 'shared.txt', content: 'from A\n' } },
          { name: 'write_file', input: { path: 'a.txt', content: 'A\n' } },
        ],
      },
      { text: 'A done' },
    ]);
    const b = diskRun(ws, [
      { tools: [{ name: 'write_file', input: { path: 'shared.txt', content: 'from B\n' } }] },
      { text: 'B done' },
    ]);
    const runA = await a.runner.start({ role: DEVELOPER, task: 'A', root: ws }, signal(), () => undefined);
    const runB = await b.runner.start({ role: DEVELOPER, task: 'B', root: ws }, signal(), () => undefined);
    const first = await revertRun(a.store, a.runs, runA.id, sha256, ws);
    assert.equal(first.ok, false, 'A cannot be reverted over B');
    assert.deepEqual(first.ok ? [] : first.changedOutside, ['shared.txt']);
    assert.equal(await readFile(join(ws, 'a.txt'), 'utf8'), 'A\n', 'all or nothing: a.txt stays');
    assert.ok((await revertRun(b.store, b.runs, runB.id, sha256, ws)).ok);
    assert.equal(await readFile(join(ws, 'shared.txt'), 'utf8'), 'from A\n');
    assert.ok((await revertRun(a.store, a.runs, runA.id, sha256, ws)).ok);
    assert.equal(await readFile(join(ws, 'shared.txt'), 'utf8'), 'original\n');
  });

  test('a resume of a run that is live elsewhere is refused before any model call; a revert of it too', async () => {
    const ws = await tempDir();
    const id = runId(50);
    await plantRun(ws, id, runJson(id, { status: 'running' }), {
      'transcript.jsonl': `${message('user', 'task')}\n`,
      'changes.json': '{"version":1,"files":[]}',
    });
    const d = diskRun(ws, [{ text: 'should not be asked' }]);
    // Held from a call chain of its own, as another window or process holds it (the lock is re-entrant within one chain).
    let release = () => undefined as void;
    let held = false;
    const holding = d.runs.withRunLock(id, () => {
      held = true;
      return new Promise<void>((resolve) => (release = resolve));
    });
    for (let i = 0; i < 400 && !held; i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(held);
    try {
      await assert.rejects(
        d.runner.resume(id, DEVELOPER, signal(), () => undefined),
        (err: Error) =>
          err instanceof RunRefusedError && /is under way in another window or a groundwork command/.test(err.message),
      );
      const reverted = await revertRun(d.store, d.runs, id, sha256, ws);
      assert.equal(reverted.ok, false);
      assert.match(reverted.ok ? '' : reverted.problem, /under way .* Stop it first/);
    } finally {
      release();
      await holding;
    }
    assert.equal(d.script.requests.length, 0);
  });

  test('a run started while another resumes the same id: one of them is refused, never both live', async () => {
    const ws = await tempDir();
    const id = runId(51);
    await plantRun(ws, id, runJson(id), { 'transcript.jsonl': `${message('user', 'task')}\n` });
    const one = diskRun(ws, [{ hang: 'working…' }]);
    const two = diskRun(ws, [{ text: 'second' }]);
    const stop = new AbortController();
    const first = one.runner.resume(id, DEVELOPER, stop.signal, () => undefined);
    // Wait until the first holds the lock (its transcript grows or its record says running).
    for (let i = 0; i < 200 && !(await one.runs.isHeld(id).catch(() => false)); i++)
      await new Promise((r) => setTimeout(r, 10));
    await assert.rejects(
      two.runner.resume(id, DEVELOPER, signal(), () => undefined),
      RunRefusedError,
    );
    assert.equal(two.script.requests.length, 0);
    stop.abort();
    assert.equal((await first).status, 'stopped');
  });
});

// Found by an adversarial review and fixed (one left as todo, a known leftover): each test guards the
// fix; the comments say what the bug was and how it was fixed.
describe('found by review', () => {
  // revertRun (src/core/run/revert.ts:36) takes the run's lock with withRunLock, which refuses at
  // once when it is held; RunStore.isHeld (runStore.ts:146) probes liveness by taking that lock for
  // a moment, which `runs list` and the explorer's Runs group do for every running-status run. A
  // revert that meets a probe is refused with "is under way in another window" although nothing
  // runs: 47 times in 50 on the test machine when both start together. resume uses
  // withRunLockPatiently for exactly this; revert should too.
  test('a revert that meets a liveness probe of the same run is not refused', async () => {
    const ws = await tempDir();
    const id = runId(52);
    await plantRun(ws, id, runJson(id, { status: 'running' }));
    const d = diskRun(ws, []);
    let refused = 0;
    for (let i = 0; i < 10; i++) {
      const [, result] = await Promise.all([d.runs.isHeld(id), revertRun(d.store, d.runs, id, sha256, ws)]);
      if (!result.ok) refused++;
    }
    assert.equal(refused, 0, `${refused} of 10 reverts were refused as "under way"`);
  });

  // edit_file and write_file read the file (readBefore), record it (beforeChange, which saves
  // changes.json) and only then write it whole (writeChange, writeFile.ts:37-42), with no check
  // that the file is still what was read. Two runs at once on one file (found by the test above
  // when it wrote one file from both runs: 2 failures in 6 rounds) lose an edit silently: B's edit
  // of the old text replaces A's edit, B's record says the file held 'original' before it, and
  // reverting B then also wipes A's change while A's record still lists it as done. Fix: just
  // before the write, read the file again and refuse (an error result: "changed meanwhile, read
  // it again") when its hash differs from `before`; or serialise read-record-write per real path
  // across runs (a lock per path in .groundwork/locks).
  test("an edit is not written over another run's change made since it read the file", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, 'shared.txt'), 'alpha\nbeta\n');
    // Run A's edit lands while run B records its own change, between B's read and B's write.
    let interfered = false;
    const b = diskRun(
      ws,
      [
        { tools: [{ name: 'edit_file', input: { path: 'shared.txt', old_text: 'beta', new_text: 'BETA' } }] },
        { text: 'B done' },
      ],
      {
        wrapFs: (fs) => ({
          ...fs,
          read: fs.read.bind(fs),
          readNewestLines: fs.readNewestLines.bind(fs),
          appendRecord: fs.appendRecord.bind(fs),
          list: fs.list.bind(fs),
          info: fs.info.bind(fs),
          realpath: fs.realpath.bind(fs),
          remove: fs.remove.bind(fs),
          rename: fs.rename.bind(fs),
          withLock: fs.withLock.bind(fs),
          async writeAtomic(path, data, mode) {
            if (!interfered && path.endsWith('/changes.json')) {
              interfered = true;
              await writeFile(join(ws, 'shared.txt'), 'ALPHA\nbeta\n');
            }
            return fs.writeAtomic(path, data, mode);
          },
        }),
      },
    );
    await b.runner.start({ role: DEVELOPER, task: 'B', root: ws }, signal(), () => undefined);
    assert.ok(interfered);
    const text = await readFile(join(ws, 'shared.txt'), 'utf8');
    assert.ok(text.includes('ALPHA'), `the other run's edit was lost: ${JSON.stringify(text)}`);
  });

  // ChangeLog.beforeChange (src/core/run/changesFile.ts:152) returns at once for a path it already
  // lists, so the hash of the bytes about to be written is recorded only for a path's FIRST change.
  // A run killed between a later write of the same file and its afterChange leaves a file whose
  // hash is neither before nor after: Revert Run calls it "changed outside the run" and refuses,
  // though the commit says a kill there "is still reverted". Fix: on a later beforeChange, keep the
  // pending hash too (e.g. `pendingSha256`), and let revert accept afterSha256 or pendingSha256.
  test(
    'a run killed between a second write of a file and its record is still reverted',
    { todo: "known leftover: only a path's first change records the bytes about to be written" },
    async () => {
      const ws = await tempDir();
      await writeFile(join(ws, 'a.txt'), 'original\n');
      const d = diskRun(ws, []);
      const run = await d.runs.create(
        {
          role: 'build-developer',
          task: 't',
          root: '.',
          status: 'running',
          turns: 1,
          startedAt: new Date().toISOString(),
          origin: 'cli',
        },
        () => 'beef',
        Date.now(),
      );
      const log = new ChangeLog(d.store, run.id, sha256);
      await log.beforeChange('a.txt', utf8('original\n'), utf8('one\n'));
      await writeFile(join(ws, 'a.txt'), 'one\n');
      await log.afterChange('a.txt', utf8('one\n'));
      await log.beforeChange('a.txt', utf8('one\n'), utf8('two\n'));
      await writeFile(join(ws, 'a.txt'), 'two\n');
      // Killed here: no afterChange.
      const result = await revertRun(d.store, d.runs, run.id, sha256, ws);
      assert.ok(result.ok, result.ok ? '' : result.problem);
      assert.equal(await readFile(join(ws, 'a.txt'), 'utf8'), 'original\n');
    },
  );

  // AgentRunner.resume (src/core/run/agentRun.ts:109-110) refuses only a transcript too large to
  // read; lines that are damaged (not JSON, or refused by parseTranscriptRecord) are dropped
  // silently, and resumeMessages then drops the turns around them, so the model continues a
  // conversation with holes (it no longer knows it wrote a file) and nobody is told. The
  // architecture's rule is "a damaged one is reported, never half-trusted". Fix: refuse (or at
  // least emit a notice naming the lines) when problems other than a torn last line exist.
  test('a resume over a transcript with a damaged line says so (refused, or a notice)', async () => {
    const ws = await tempDir();
    const id = runId(53);
    const lines = [
      message('user', 'Write a.txt, then b.txt'),
      message(
        'assistant',
        [{ type: 'tool_use', id: 't1', name: 'write_file', input: { path: 'a.txt', content: 'a' } }],
        1,
      ).replace('"turn":1', '"turn":"one"'),
      message('user', [{ type: 'tool_result', toolUseId: 't1', content: 'Wrote a.txt' }]),
      message(
        'assistant',
        [{ type: 'tool_use', id: 't2', name: 'write_file', input: { path: 'b.txt', content: 'b' } }],
        2,
      ),
      message('user', [{ type: 'tool_result', toolUseId: 't2', content: 'Wrote b.txt' }]),
    ];
    await plantRun(ws, id, runJson(id), { 'transcript.jsonl': `${lines.join('\n')}\n` });
    const d = diskRun(ws, [{ text: 'Done.' }]);
    const outcome = await d.runner.resume(id, DEVELOPER, signal(), (e) => d.events.push(e)).catch((err: Error) => err);
    const told =
      outcome instanceof RunRefusedError || d.events.some((e) => e.type === 'notice' && /transcript/i.test(e.text));
    assert.ok(told, 'the damaged line was dropped silently');
  });
});

// The transcript's text is what the model is sent: confirm it is the file's, not something else.
test('fixtures: a planted transcript line is read back by the run store', async () => {
  const ws = await tempDir();
  const id = runId(54);
  await plantRun(ws, id, runJson(id), { 'transcript.jsonl': `${message('user', 'hello')}\n` });
  const d = diskRun(ws, []);
  const { records, problems } = await d.runs.transcript(id).readAll();
  assert.deepEqual(problems, []);
  assert.equal(records.length, 1);
  assert.ok((await readFile(join(ws, '.groundwork/runs', id, 'transcript.jsonl'), 'utf8')).includes('hello'));
});
