// What an adversarial run found in the brainstorm service: damaged sessions that could be neither
// listed, discarded nor restarted; two answers to one round at once (the second paid for a call
// again and lost its answers); 10 MB answers kept whole; topics of invisible characters; a link in
// place of the audit log found only after the plan folder was made.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrainstormError } from '../../../src/core/brainstorm/brainstormTypes';
import type { BrainstormProgress } from '../../../src/core/brainstorm/brainstormTypes';
import { StorageError } from '../../../src/core/storage/storageError';
import { until } from '../../support/until';
import { SUMMARY, answers, inquisitors, run, setup } from './brainstormBench';

const DAMAGED = ['garbage {', '{"version":1,"slug":"invoice-export","topic":"Invoice export","createdAt":1', 'null'];

describe('brainstorm service: a damaged session file', () => {
  for (const text of DAMAGED) {
    it(`is listed as damaged with why, discarded with its files set aside, and restarted (${JSON.stringify(text).slice(0, 30)})`, async () => {
      const { ws, llm, service } = setup(inquisitors(1));
      const a = await service.start('Invoice export', { slug: 'invoice-export' }, run());
      ws.fs.writeRaw(ws.path(`plans/${a.slug}/.brainstorm.json`), text);
      ws.fs.writeRaw(ws.path(`plans/${a.slug}/notes.md`), 'my notes');

      const [listed] = await service.unfinished();
      assert.equal(listed?.slug, 'invoice-export');
      assert.equal(listed?.phase, 'damaged');
      assert.match(listed?.damaged ?? '', /\.brainstorm\.json is damaged/);

      const discarded = await service.discard(a.slug);
      assert.match(discarded.keptIn ?? '', /^\.groundwork\/plans\/invoice-export\/\.damaged-\d{4}-\d\d-\d\dT/);
      const kept = ws.fs.paths().filter((p) => p.includes('.damaged-'));
      assert.ok(
        kept.some((p) => p.endsWith('/notes.md')) && kept.some((p) => p.endsWith('/.brainstorm.json')),
        'nothing is lost',
      );
      assert.ok(kept.some((p) => p.endsWith('/rounds/round-1.md')));
      assert.deepEqual(await service.unfinished(), [], 'a discarded one is no longer listed');

      // A new brainstorm may take the name again; what was set aside stays.
      const before = llm.requests.length;
      const again = await service.start('Invoice export, again', { slug: 'invoice-export' }, run());
      assert.equal(again.phase.kind, 'answering');
      assert.equal(llm.requests.length, before + 3);
      assert.ok(ws.fs.paths().some((p) => p.endsWith('/notes.md') && p.includes('.damaged-')));
    });
  }

  it('restarts on the topic still readable in the damaged file, its old files set aside', async () => {
    const { ws, service } = setup(inquisitors(1));
    const a = await service.start('Invoice export', {}, run());
    ws.fs.writeRaw(
      ws.path(`plans/${a.slug}/.brainstorm.json`),
      JSON.stringify({ version: 1, topic: 'Invoice export', minRounds: 2, maxRounds: 3, rounds: 'broken' }),
    );
    const restarted = await service.restart(a.slug, run());
    assert.equal(restarted.topic, 'Invoice export');
    assert.deepEqual(
      [restarted.minRounds, restarted.maxRounds, restarted.phase.kind, restarted.rounds.length],
      [2, 3, 'answering', 1],
    );
    assert.ok(ws.fs.paths().some((p) => /\.damaged-[^/]+\/\.brainstorm\.json$/.test(p)));
  });

  it('refuses to restart one whose topic is lost, saying how to go on, and changes nothing', async () => {
    const { ws, llm, service } = setup(inquisitors(1));
    const a = await service.start('Invoice export', {}, run());
    ws.fs.writeRaw(ws.path(`plans/${a.slug}/.brainstorm.json`), 'garbage');
    const files = ws.fs.paths();
    const calls = llm.requests.length;
    await assert.rejects(
      service.restart(a.slug, run()),
      (e: unknown) =>
        e instanceof BrainstormError &&
        e.kind === 'corrupt' &&
        /topic cannot be read.*discard it.*same name/.test(e.message),
    );
    assert.deepEqual(ws.fs.paths(), files);
    assert.equal(llm.requests.length, calls);
  });

  it('keeps what an earlier discard set aside when the brainstorm that took its name is discarded', async () => {
    const { ws, service } = setup(inquisitors(1));
    const a = await service.start('Invoice export', { slug: 'invoice-export' }, run());
    ws.fs.writeRaw(ws.path(`plans/${a.slug}/.brainstorm.json`), 'null');
    await service.discard(a.slug);
    await service.start('Invoice export, again', { slug: 'invoice-export' }, run());
    const again = await service.discard(a.slug);
    assert.equal(again.damaged, undefined);
    assert.match(again.keptIn ?? '', /\.damaged-/);
    const left = ws.fs.paths().filter((p) => p.includes('/plans/invoice-export/'));
    assert.ok(left.length > 0 && left.every((p) => p.includes('/.damaged-')), left.join('\n'));
    assert.ok(left.some((p) => p.endsWith('/.damaged-2026-11-21T09-00-00-000Z/.brainstorm.json')));
  });

  it('sets aside links in the folder as links (dangling, or leading out), never what they point to', async () => {
    const { ws, service } = setup(inquisitors(1));
    const a = await service.start('Invoice export', {}, run());
    ws.fs.writeRaw(ws.path(`plans/${a.slug}/.brainstorm.json`), 'null');
    ws.fs.symlink(ws.path(`plans/${a.slug}/dangling`), '/nonexistent');
    ws.fs.writeRaw('/outside/victim.txt', 'keep me');
    ws.fs.symlink(ws.path(`plans/${a.slug}/rounds-out`), '/outside');
    ws.fs.symlink(ws.path(`plans/${a.slug}/zz-session-link`), '/outside/victim.txt');
    const { keptIn } = await service.discard(a.slug);
    assert.ok(keptIn);
    const names = await ws.store.list(`plans/${a.slug}`);
    assert.deepEqual(
      names.filter((n) => !n.startsWith('.damaged-')),
      [],
    );
    assert.equal(ws.fs.text('/outside/victim.txt'), 'keep me');
    assert.deepEqual(await service.unfinished(), []);
  });

  it('a session file that is a link out is listed as damaged, and discarded by moving the link', async () => {
    const { ws, service } = setup(inquisitors(1));
    const a = await service.start('Invoice export', {}, run());
    ws.fs.writeRaw('/outside/secret.json', '{"not":"yours"}');
    await ws.store.remove(`plans/${a.slug}/.brainstorm.json`);
    ws.fs.symlink(ws.path(`plans/${a.slug}/.brainstorm.json`), '/outside/secret.json');
    const [listed] = await service.unfinished();
    assert.equal(listed?.phase, 'damaged');
    await assert.rejects(service.restart(a.slug, run()), /topic cannot be read/);
    assert.ok((await service.discard(a.slug)).damaged);
    assert.equal(ws.fs.text('/outside/secret.json'), '{"not":"yours"}');
    assert.deepEqual(await service.unfinished(), []);
  });

  it('treats a folder or a FIFO in place of the session file as damaged', async () => {
    const { ws, service } = setup(inquisitors(1));
    const a = await service.start('Invoice export', {}, run());
    await ws.store.remove(`plans/${a.slug}/.brainstorm.json`);
    ws.fs.mkdir(ws.path(`plans/${a.slug}/.brainstorm.json`));
    await assert.rejects(
      service.load(a.slug),
      (e: unknown) =>
        e instanceof BrainstormError && e.kind === 'corrupt' && /it is a directory, not a file/.test(e.message),
    );
    assert.equal((await service.discard(a.slug)).keptIn !== undefined, true);
  });
});

describe('brainstorm service: one step at a time, across windows', () => {
  it('refuses a second answer to the round while the first one’s summary call runs: no second call, its answers kept', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { ws, llm, service } = setup({
      ...inquisitors(1),
      'brainstorm-coordinator': async () => (await gate, SUMMARY),
    });
    const s = await service.start('Invoice export', { maxRounds: 1 }, run());
    const n = s.rounds[0]!.questions.length;
    const first = service.answer(
      s.slug,
      answers(...Array.from({ length: n }, () => 'first window')),
      'summarize',
      run(),
    );
    await until('the summary call', () => (llm.requests.length === 4 ? true : undefined), 5_000);
    // Another window: its own service on the same workspace (the busy set of the first is not shared).
    const other = setup(inquisitors(1), { ws });
    await assert.rejects(
      other.service.answer(s.slug, answers(...Array.from({ length: n }, () => 'second window')), 'summarize', run()),
      (e: unknown) =>
        e instanceof BrainstormError &&
        e.kind === 'busy' &&
        /answers are kept in \.groundwork\/plans\/invoice-export\/\.workers\/user\.ndjson/.test(e.message),
    );
    await assert.rejects(
      other.service.resume(s.slug, run()),
      (e: unknown) => e instanceof BrainstormError && e.kind === 'busy',
    );
    assert.equal(llm.requests.length + other.llm.requests.length, 4, 'no duplicate summary request');
    release();
    assert.equal((await first).phase.kind, 'complete');
    const log = ws.lines(`plans/${s.slug}/.workers/user.ndjson`)!.map((l) => JSON.parse(l) as { answers: string[] });
    assert.deepEqual(
      log.map((r) => r.answers[0]),
      ['first window', 'second window'],
    );
  });

  it('refuses an answer to a round that is already answered before any model call, and keeps the answers typed', async () => {
    const { ws, llm, service } = setup({ ...inquisitors(1), 'brainstorm-coordinator': () => SUMMARY });
    const s = await service.start('Invoice export', { maxRounds: 1 }, run());
    const all = (text: string) => answers(...s.rounds[0]!.questions.map(() => text));
    await service.answer(s.slug, all('first'), 'summarize', run());
    const calls = llm.requests.length;
    await assert.rejects(
      service.answer(s.slug, all('late'), 'summarize', run()),
      (e: unknown) => e instanceof BrainstormError && e.kind === 'complete',
    );
    assert.equal(llm.requests.length, calls);
    assert.equal(ws.lines(`plans/${s.slug}/.workers/user.ndjson`)!.length, 2);
  });
});

describe('brainstorm service: input caps', () => {
  it('keeps at most 256 KB of a 10 MB answer, says so, and sends the model 8 KB of it', async () => {
    const { ws, llm, service } = setup({ ...inquisitors(1), 'brainstorm-coordinator': () => SUMMARY });
    const s = await service.start('Invoice export', { maxRounds: 1 }, run());
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const progress: BrainstormProgress[] = [];
    await service.answer(
      s.slug,
      answers(huge, ...s.rounds[0]!.questions.slice(1).map(() => null)),
      'summarize',
      run(progress),
    );
    const log = ws.fs.text(ws.path(`plans/${s.slug}/.workers/user.ndjson`))!;
    assert.ok(log.length < 300 * 1024, `user.ndjson is ${log.length} bytes`);
    assert.ok(
      progress.some((p) => p.kind === 'notice' && /Answer 1 is 10240 KB; its first 256 KB are kept/.test(p.text)),
    );
    assert.ok(JSON.stringify(llm.requests.at(-1)).length < 40 * 1024);
  });

  it('refuses a topic of invisible characters before any call, and treats such an answer as skipped', async () => {
    const { ws, llm, service } = setup({ ...inquisitors(1), 'brainstorm-coordinator': () => SUMMARY });
    for (const topic of ['\u200b\u200d\u2066\u202e \ufeff', '\u3164', '\u2800 \u115f']) {
      await assert.rejects(
        service.start(topic, {}, run()),
        (e: unknown) =>
          e instanceof BrainstormError && e.kind === 'invalid' && /only invisible characters/.test(e.message),
      );
    }
    assert.equal(llm.requests.length, 0);
    assert.deepEqual(
      ws.fs.paths().filter((p) => p.includes('/plans/')),
      [],
    );
    const s = await service.start('Invoice export', { maxRounds: 1 }, run());
    const done = await service.answer(
      s.slug,
      answers(...s.rounds[0]!.questions.map(() => '\u200b\u200b')),
      'summarize',
      run(),
    );
    assert.ok(done.rounds[0]!.answers!.every((a) => a.kind === 'skipped'));
  });
});

describe('brainstorm service: what it will write is checked before it creates anything', () => {
  it('refuses when the audit log is a link out of the workspace, and leaves no plan folder behind', async () => {
    const { ws, llm, service } = setup(inquisitors(1));
    ws.fs.symlink(ws.path('audit.jsonl'), '/elsewhere/audit.jsonl');
    await assert.rejects(
      service.start('Invoice export', {}, run()),
      (e: unknown) => e instanceof StorageError && e.code === 'unsafe-path' && /audit\.jsonl/.test(e.message),
    );
    assert.equal(llm.requests.length, 0);
    assert.deepEqual(
      ws.fs.paths().filter((p) => p.includes('/plans')),
      [],
    );
  });

  it('refuses when a folder stands where the audit log goes', async () => {
    const { ws, service } = setup(inquisitors(1));
    ws.fs.mkdir(ws.path('audit.jsonl'));
    await assert.rejects(
      service.start('Invoice export', {}, run()),
      /Refused to write '\.groundwork\/audit\.jsonl': it is a directory/,
    );
    assert.deepEqual(
      ws.fs.paths().filter((p) => p.includes('/plans')),
      [],
    );
  });
});
