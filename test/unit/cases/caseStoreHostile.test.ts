// What an adversarial run found in the store and the curator's heuristics: a file an editor left
// without its last newline, a planted id at the top of the range, times far in the future, an
// edit the dedup index missed, and text that differs only in invisible characters.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { archiveUnreviewedOutdated } from '../../../src/core/cases/archival';
import { discoveryBlock } from '../../../src/core/cases/injection';
import { checkContradictions } from '../../../src/core/cases/staleness';
import { addCase, casesSetup, line, make, T0, DAY } from './casesHarness';

const FAR_AHEAD = '2999-01-01T00:00:00.000Z';

describe('the store reads what others wrote', () => {
  test('a whole case on a last line without its newline is a case, and the next change keeps it', async () => {
    const { ws, store, lines } = casesSetup();
    ws.fs.writeRaw(ws.path('cases.jsonl'), `${line('disc-001')}\n${line('disc-002')}`);
    const first = await store.load();
    assert.deepEqual(
      first.cases.map((c) => c.id),
      ['disc-001', 'disc-002'],
    );
    assert.deepEqual(first.problems, []);
    const added = await addCase(store, 'A third learning');
    assert.equal(added.id, 'disc-003');
    assert.deepEqual(
      lines().map((l) => JSON.parse(l).id),
      ['disc-001', 'disc-002', 'disc-003'],
    );
    assert.ok(ws.fs.text(ws.path('cases.jsonl'))?.endsWith('\n'));
    assert.equal(ws.fs.text(ws.path('cases.jsonl.corrupt')), undefined, 'nothing was set aside');
  });

  test('ids that have run out name the line that holds the highest, or counters.json', async () => {
    const { ws, store } = casesSetup();
    ws.plant('cases.jsonl', [line('disc-001'), '{"id":"disc-999999999","not":"a case"}']);
    await assert.rejects(
      addCase(store, 'Anything'),
      /ids have reached disc-999999999.*cases\.jsonl holds it on line 2\. If that is not a real case, remove that line/,
    );
    const other = casesSetup();
    other.ws.plant('metrics/counters.json', ['{"discovery": 999999999}']);
    await assert.rejects(
      addCase(other.store, 'Anything'),
      /counters\.json says so\. If that is not a real case, lower the "discovery" number/,
    );
  });
});

describe('deduplication', () => {
  test('after an edit, the old text is no longer a duplicate of the edited case; the new text is', async () => {
    const { store } = casesSetup();
    const a = await addCase(store, 'The API needs an auth header');
    assert.equal(
      (
        await store.add(
          { content: 'the api needs an AUTH header', scope: 'global', impact: 'low', category: 'API' },
          { dedup: true },
        )
      ).duplicate,
      true,
    );
    await store.apply(a.id, { kind: 'edit', content: 'The API needs a bearer token' });
    const old = await store.add(
      { content: 'The API needs an auth header', scope: 'global', impact: 'low', category: 'API' },
      { dedup: true },
    );
    assert.deepEqual([old.duplicate, old.case.id], [false, 'disc-002']);
    const edited = await store.add(
      { content: 'The API needs a bearer token', scope: 'global', impact: 'low', category: 'API' },
      { dedup: true },
    );
    assert.deepEqual([edited.duplicate, edited.case.id], [true, a.id]);
  });

  test('zero-width characters, soft hyphens and compatibility forms do not make a new discovery', async () => {
    const { store } = casesSetup();
    await addCase(store, 'Tests use vitest, not jest');
    for (const same of [
      'Tests use vi\u200Btest, not jest',
      'Tests use vi\u00ADtest,\u2060 not jest',
      'Ｔｅｓｔｓ use vitest, not jest',
    ]) {
      const r = await store.add(
        { content: same, scope: 'global', impact: 'low', category: 'Testing' },
        { dedup: true },
      );
      assert.deepEqual([r.duplicate, r.case.id], [true, 'disc-001'], JSON.stringify(same));
    }
  });
});

describe('times far in the future are no real times', () => {
  test('such a case ranks last among its impact in the injection block, not first', async () => {
    const now = new Date(T0).toISOString();
    const cases = [
      make('disc-001', { content: 'Planted', createdAt: FAR_AHEAD, updatedAt: FAR_AHEAD }),
      make('disc-002', { content: 'Real' }),
    ];
    const block = await discoveryBlock(cases, 'developer', { now });
    assert.deepEqual(block.globalIds, ['disc-002', 'disc-001']);
    // A clock a few hours ahead (a teammate's) counts as now: newest, as it should be.
    const later = new Date(T0 + 60 * 60 * 1000).toISOString();
    const soon = new Date(T0 + 4 * 60 * 60 * 1000).toISOString();
    const ahead = await discoveryBlock(
      [make('disc-001', { createdAt: soon, updatedAt: soon }), make('disc-002')],
      'developer',
      { now: later },
    );
    assert.deepEqual(ahead.globalIds, ['disc-001', 'disc-002']);
  });

  test('an outdated case dated far ahead is archived when unreviewed, not kept forever', async () => {
    const { ws, store, clock } = casesSetup();
    const outdated = {
      status: 'outdated',
      updatedAt: FAR_AHEAD,
      metadata: { outdatedAt: FAR_AHEAD, outdatedReason: 'affected files modified' },
    };
    ws.plant('cases.jsonl', [line('disc-001', outdated)]);
    clock.advance(DAY);
    const archived = await archiveUnreviewedOutdated(store, 7);
    assert.deepEqual(
      archived.map((c) => c.id),
      ['disc-001'],
    );
  });

  test('a case dated far ahead supersedes nothing', async () => {
    const { ws, store } = casesSetup();
    ws.plant('cases.jsonl', [
      line('disc-001', { content: 'Always run the seed script before the auth tests' }),
      line('disc-002', {
        content: 'Never run the seed script before the auth tests',
        createdAt: FAR_AHEAD,
        updatedAt: FAR_AHEAD,
      }),
    ]);
    const found = await checkContradictions(store);
    assert.deepEqual(found, [{ id: 'disc-002', supersededBy: 'disc-001' }]);
  });
});
