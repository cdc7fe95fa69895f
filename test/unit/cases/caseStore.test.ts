import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256 } from '../../support/sha256';
import { CaseInputError, CaseNotFoundError, CaseStore } from '../../../src/core/cases/caseStore';
import { CaseTransitionError } from '../../../src/core/cases/caseActions';
import { addCase, casesSetup, line } from './casesHarness';

const COUNTERS = 'metrics/counters.json';

describe('adding cases', () => {
  test('ids are disc-001, disc-002… and counters.json holds the last one', async () => {
    const { store, ws, lines } = casesSetup();
    const a = await addCase(store, 'Tests use vitest, not jest', {
      scope: 'global',
      sourceTaskId: 'task-020',
      sourceAgentId: 'developer',
    });
    const b = await addCase(store, 'This hook requires cleanup', { scope: 'local' });
    assert.deepEqual([a.id, b.id], ['disc-001', 'disc-002']);
    assert.equal(ws.fs.text(ws.path(COUNTERS)), '{\n  "discovery": 2\n}\n');
    assert.equal(lines().length, 2);
    assert.deepEqual(JSON.parse(lines()[0]!), {
      id: 'disc-001',
      type: 'discovery',
      status: 'active',
      content: 'Tests use vitest, not jest',
      parentId: 'task-020',
      metadata: {
        scope: 'global',
        sourceTaskId: 'task-020',
        sourceAgentId: 'developer',
        impact: 'medium',
        category: 'Architecture',
        validated: false,
        appliedTo: [],
        supersededBy: null,
      },
      createdAt: '2025-01-31T09:15:00.000Z',
      validatedAt: null,
      updatedAt: '2025-01-31T09:15:00.000Z',
    });
  });

  test('past 999 the id grows a digit', async () => {
    const { store, ws } = casesSetup();
    ws.plant(COUNTERS, ['{"discovery": 998, "ava": 5, "echo": 47}']);
    assert.equal((await addCase(store, 'one')).id, 'disc-999');
    assert.equal((await addCase(store, 'two')).id, 'disc-1000');
    assert.equal((await addCase(store, 'three')).id, 'disc-1001');
    assert.deepEqual(JSON.parse(ws.fs.text(ws.path(COUNTERS))!), { ava: 5, discovery: 1001, echo: 47 });
  });

  test('a counters.json rolled back (a git checkout) never gives an id again', async () => {
    const { store, ws } = casesSetup();
    for (let i = 0; i < 5; i++) await addCase(store, `learning ${i}`);
    ws.plant(COUNTERS, ['{"discovery": 1}']);
    assert.equal((await addCase(store, 'after the rollback')).id, 'disc-006');
    ws.fs.writeRaw(ws.path(COUNTERS), 'not json at all');
    assert.equal((await addCase(store, 'after the damage')).id, 'disc-007');
    await ws.store.remove(COUNTERS);
    const fresh = new CaseStore(ws.store, { now: () => 0 }, sha256);
    assert.equal((await addCase(fresh, 'after its loss, in another window')).id, 'disc-008');
    assert.equal(JSON.parse(ws.fs.text(ws.path(COUNTERS))!).discovery, 8);
  });

  test('a hostile counters.json (huge, or holding junk) neither stops adding nor lowers the next id', async () => {
    const { store, ws } = casesSetup();
    await addCase(store, 'one');
    ws.plant(COUNTERS, [`{"discovery": -5, "__proto__": 7, "echo": 47, "x": ${'9'.repeat(30)}}`]);
    assert.match((await store.readCounters()).problem ?? '', /"discovery", "__proto__", "x" are not a whole number/);
    assert.equal((await addCase(store, 'two')).id, 'disc-002');
    ws.fs.writeRaw(ws.path(COUNTERS), `{"discovery": 1, "pad": "${'x'.repeat(100_000)}"}`);
    assert.equal((await addCase(store, 'three')).id, 'disc-003');
    assert.deepEqual(JSON.parse(ws.fs.text(ws.path(COUNTERS))!), { discovery: 3 });
  });

  test('a burst added at once: one id each, a repeat inside it is a duplicate, one counters write', async () => {
    const { store, ws } = casesSetup();
    const draft = (content: string) => ({
      content,
      scope: 'global' as const,
      impact: 'low' as const,
      category: 'API' as const,
    });
    const results = await store.addMany([draft('a'), draft('b'), draft(' A '), draft('c')], { dedup: true });
    assert.deepEqual(
      results.map((r) => [r.duplicate, r.case.id]),
      [
        [false, 'disc-001'],
        [false, 'disc-002'],
        [true, 'disc-001'],
        [false, 'disc-003'],
      ],
    );
    assert.deepEqual(JSON.parse(ws.fs.text(ws.path(COUNTERS))!), { discovery: 3, discoveryDuplicates: 1 });
    await assert.rejects(
      store.addMany([draft('d'), draft('')]),
      /The discovery \(report 2 of 2\) was not added: the content is empty/,
    );
    assert.equal((await store.load()).cases.length, 3, 'none of a refused burst is stored');
  });

  test('the id of a damaged line is not given again either', async () => {
    const { store, ws } = casesSetup();
    ws.plant('cases.jsonl', [line('disc-001'), '{"id":"disc-040","type":"discovery","status":"???"}']);
    assert.equal((await addCase(store, 'new')).id, 'disc-041');
  });

  test('two windows adding at once get distinct ids', async () => {
    const { ws, clock } = casesSetup();
    const one = new CaseStore(ws.store, clock, sha256);
    const two = new CaseStore(ws.store, clock, sha256);
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) => addCase(i % 2 ? one : two, `learning number ${i}`)),
    );
    assert.equal(new Set(made.map((c) => c.id)).size, 40);
    const { cases, problems } = await new CaseStore(ws.store, clock, sha256).load();
    assert.equal(cases.length, 40);
    assert.deepEqual(problems, []);
  });

  test('a draft it cannot store is refused with what to change, and nothing is written', async () => {
    const { store, ws } = casesSetup();
    await assert.rejects(store.add({ content: ' ', scope: 'global', impact: 'low', category: 'API' }), (e: unknown) => {
      assert.ok(e instanceof CaseInputError);
      assert.match(e.message, /^The discovery was not added: the content is empty; say what was learned\.$/);
      return true;
    });
    await assert.rejects(
      store.add({ content: 'x', scope: 'team' as never, impact: 'low', category: 'API' }),
      /the scope must be local or global \(got "team"\)/,
    );
    await assert.rejects(
      store.add({ content: 'x', scope: 'local', impact: 'urgent' as never, category: 'API' }),
      /the impact must be one of low, medium, high, critical/,
    );
    await assert.rejects(
      store.add({ content: 'x', scope: 'local', impact: 'low', category: 'API', sourceAgentId: 'a\nb' }),
      /the agent holds a control character/,
    );
    assert.equal(ws.fs.text(ws.path('cases.jsonl')), undefined);
    assert.equal(ws.fs.text(ws.path(COUNTERS)), undefined);
  });
});

describe('changing cases', () => {
  test('a change appends the whole new line, and the last line for an id wins', async () => {
    const { store, lines, clock } = casesSetup();
    const c = await addCase(store, 'Auth token expires after 1 hour');
    clock.advance(60_000);
    await store.apply(c.id, { kind: 'validate' });
    assert.equal(lines().length, 2);
    const last = JSON.parse(lines()[1]!);
    assert.equal(last.id, c.id);
    assert.equal(last.metadata.validated, true);
    assert.equal(last.validatedAt, '2025-01-31T09:16:00.000Z');
    const reloaded = (await new CaseStore(casesSetup().ws.store, clock, sha256).load()).cases;
    assert.deepEqual(reloaded, [], 'another workspace sees nothing');
    const [only] = (await store.load()).cases;
    assert.equal(only?.metadata.validated, true);
  });

  test('a planted file with several lines per id reads as the last of each', async () => {
    const { store, ws } = casesSetup();
    ws.plant('cases.jsonl', [
      line('disc-002', { content: 'old' }),
      line('disc-001'),
      line('disc-002', { content: 'new' }),
    ]);
    const { cases } = await store.load();
    assert.deepEqual(
      cases.map((c) => [c.id, c.content]),
      [
        ['disc-001', 'learning disc-001'],
        ['disc-002', 'new'],
      ],
    );
  });

  test('an unknown id and a refused transition say why, and write nothing', async () => {
    const { store, lines } = casesSetup();
    const c = await addCase(store, 'learning');
    await assert.rejects(
      store.apply('disc-404', { kind: 'promote' }),
      (e: unknown) => e instanceof CaseNotFoundError && /There is no discovery case disc-404/.test(e.message),
    );
    await assert.rejects(
      store.apply(c.id, { kind: 'resurrect' }),
      (e: unknown) =>
        e instanceof CaseTransitionError &&
        e.message === 'disc-001 is active; only an archived case can be resurrected.',
    );
    assert.equal(lines().length, 1);
  });

  test('the file is compacted atomically once past twice its live size', async () => {
    const { store, ws, lines } = casesSetup();
    const a = await addCase(store, 'first learning');
    const b = await addCase(store, 'second learning');
    await store.apply(a.id, { kind: 'edit', content: 'first learning, edited' });
    assert.equal(lines().length, 3, 'not yet past twice the live size');
    await store.apply(a.id, { kind: 'edit', content: 'first learning, edited again' });
    await store.apply(b.id, { kind: 'edit', content: 'second learning, edited' });
    const after = lines();
    assert.ok(after.length < 5, `compacted to ${after.length} lines`);
    const { cases, problems } = await new CaseStore(ws.store, { now: () => 0 }, sha256).load();
    assert.deepEqual(
      cases.map((c) => c.content),
      ['first learning, edited again', 'second learning, edited'],
    );
    assert.deepEqual(problems, []);
    assert.equal((await addCase(store, 'third')).id, 'disc-003');
  });
});

describe('a hostile or damaged cases.jsonl', () => {
  test('each bad line is a problem with its line number; the rest load', async () => {
    const { store, ws } = casesSetup();
    ws.plant('cases.jsonl', [
      line('disc-001'),
      '{"id": "disc-002", "type": "discovery"',
      line('disc-003', { status: 'pwned' }),
      '[1,2,3]',
      line('disc-004', { metadata: { scope: 'everyone' } }),
      '',
      line('disc-005', { content: '<img src=x onerror=alert(1)>' }),
    ]);
    const { cases, problems } = await store.load();
    assert.deepEqual(
      cases.map((c) => c.id),
      ['disc-001', 'disc-005'],
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.reason.replace(/ \(.*$/, '')]),
      [
        [2, 'not valid JSON'],
        [3, 'field status "pwned" is not one of active, outdated, archived, deleted'],
        [4, 'it is not a JSON object'],
        [5, 'field metadata.scope "everyone" is not local or global'],
      ],
    );
  });

  test('bad lines survive a compaction, still reported', async () => {
    const { store, ws, lines } = casesSetup();
    ws.plant('cases.jsonl', [line('disc-001'), 'garbage']);
    for (let i = 0; i < 6; i++) await store.apply('disc-001', { kind: 'edit', content: `edit ${i}` });
    assert.ok(lines().includes('garbage'));
    const { cases, problems } = await new CaseStore(ws.store, { now: () => 0 }, sha256).load();
    assert.equal(cases[0]?.content, 'edit 5');
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.excerpt, 'garbage');
  });

  test('a torn last line (a writer killed mid-line) is reported, then set aside by the next change', async () => {
    const { store, ws, lines } = casesSetup();
    ws.plant('cases.jsonl', [line('disc-001')]);
    ws.appendRaw('cases.jsonl', '{"id":"disc-002","ty');
    const first = await store.load();
    assert.equal(first.cases.length, 1);
    assert.match(first.problems[0]?.reason ?? '', /torn last line/);
    const added = await addCase(store, 'after the crash');
    assert.equal(added.id, 'disc-003', 'the torn id is not reused');
    assert.equal(lines().length, 2);
    assert.deepEqual((await store.load()).problems, []);
  });

  test('a file changed by another program is read again', async () => {
    const { store, ws } = casesSetup();
    await addCase(store, 'mine');
    assert.equal((await store.load()).cases.length, 1);
    ws.appendRaw('cases.jsonl', `${line('disc-007', { content: 'theirs' })}\n`);
    assert.deepEqual(
      (await store.load()).cases.map((c) => c.id),
      ['disc-001', 'disc-007'],
    );
    assert.equal((await addCase(store, 'next')).id, 'disc-008');
  });
});
