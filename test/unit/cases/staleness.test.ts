import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { archiveTask, archiveUnreviewedOutdated } from '../../../src/core/cases/archival';
import { checkContradictions, checkFileStaleness } from '../../../src/core/cases/staleness';
import type { GitCommit, GitLogPort, GitLogResult } from '../../../src/core/cases/staleness';
import { DAY, addCase, casesSetup } from './casesHarness';

/** A git log that answers from a list of commits, recording what it was asked. */
class FakeGit implements GitLogPort {
  asked: { paths: readonly string[]; since: string }[] = [];
  constructor(
    private readonly commits: GitCommit[],
    private readonly failure?: string,
  ) {}
  async commitsTouching(paths: readonly string[], since: string): Promise<GitLogResult> {
    this.asked.push({ paths, since });
    if (this.failure !== undefined) return { ok: false, reason: this.failure };
    return { ok: true, commits: this.commits.filter((c) => c.date >= since) };
  }
}

const commit = (hash: string, date: string, files: string[]): GitCommit => ({
  hash,
  date,
  subject: `change ${hash}`,
  files,
});

describe('file staleness', () => {
  test('a case naming a file a later commit changed is marked outdated, naming the first such commit', async () => {
    const { store, clock } = casesSetup();
    const auth = await addCase(store, 'Login lives in src/auth.ts and uses bcrypt');
    const other = await addCase(store, 'Routes live in `src/routes/`');
    const prose = await addCase(store, 'Tests use vitest');
    clock.advance(DAY);
    const git = new FakeGit([
      commit('c'.repeat(40), '2025-02-03T00:00:00Z', ['src/auth.ts']),
      commit('b'.repeat(40), '2025-02-02T00:00:00Z', ['src/auth.ts', 'README.md']),
      commit('a'.repeat(40), '2025-01-01T00:00:00Z', ['src/auth.ts']),
    ]);
    const result = await checkFileStaleness(store, git);
    assert.deepEqual(result, { findings: [{ id: auth.id, commit: 'b'.repeat(40), files: ['src/auth.ts'] }] });
    assert.deepEqual(
      git.asked.map((a) => [a.paths, a.since]),
      [
        [['src/auth.ts'], auth.createdAt],
        [['src/routes/'], other.createdAt],
      ],
      'a case without a path costs no git call',
    );
    const stored = await store.get(auth.id);
    assert.deepEqual(
      [stored?.status, stored?.metadata.outdatedCommit, stored?.metadata.outdatedReason],
      ['outdated', 'b'.repeat(40), 'affected files modified'],
    );
    assert.equal((await store.get(prose.id))?.status, 'active');
  });

  test('after validation only commits since then count', async () => {
    const { store, clock } = casesSetup();
    const c = await addCase(store, 'src/auth.ts hashes with bcrypt');
    clock.advance(2 * DAY);
    await store.apply(c.id, { kind: 'validate' });
    const git = new FakeGit([commit('b'.repeat(40), '2025-02-01T00:00:00Z', ['src/auth.ts'])]);
    assert.deepEqual(await checkFileStaleness(store, git), { findings: [] });
    assert.equal(git.asked[0]?.since, '2025-02-02T09:15:00.000Z');
  });

  test('without git the check is skipped with the reason, and nothing changes', async () => {
    const { store } = casesSetup();
    await addCase(store, 'src/auth.ts hashes with bcrypt');
    const result = await checkFileStaleness(
      store,
      new FakeGit([], 'git is not installed (or not on the PATH), so cases are not checked against commits.'),
    );
    assert.deepEqual(result, {
      findings: [],
      skipped: 'git is not installed (or not on the PATH), so cases are not checked against commits.',
    });
    assert.equal((await store.load()).cases[0]?.status, 'active');
  });

  test('a case validated while git was asked is left as the person set it', async () => {
    const { store } = casesSetup();
    const c = await addCase(store, 'src/auth.ts hashes with bcrypt');
    const git: GitLogPort = {
      async commitsTouching() {
        await store.apply(c.id, { kind: 'validate' });
        return { ok: true, commits: [commit('d'.repeat(40), '2030-01-01T00:00:00Z', ['src/auth.ts'])] };
      },
    };
    assert.deepEqual(await checkFileStaleness(store, git), { findings: [] });
    assert.equal((await store.get(c.id))?.status, 'active');
  });
});

describe('contradictions', () => {
  test('a newer contradicting case supersedes the older; unrelated and local-vs-global ones are left alone', async () => {
    const { store, clock } = casesSetup();
    const older = await addCase(store, 'Use axios for HTTP calls in src/api.ts');
    const unrelated = await addCase(store, 'Database migrations live in db/migrations');
    const localNote = await addCase(store, 'Don’t use axios in src/api.ts', { scope: 'local', sourceAgentId: 'qa' });
    clock.advance(1000);
    const newer = await addCase(store, 'Don’t use axios in src/api.ts; use fetch');
    assert.deepEqual(await checkContradictions(store, newer), [{ id: older.id, supersededBy: newer.id }]);
    const stored = await store.get(older.id);
    assert.deepEqual(
      [stored?.status, stored?.metadata.supersededBy, stored?.metadata.outdatedReason],
      ['outdated', newer.id, 'superseded by newer discovery'],
    );
    assert.equal((await store.get(unrelated.id))?.status, 'active');
    assert.equal((await store.get(localNote.id))?.status, 'active');
  });

  test('the periodic check compares every pair, and the newest contradicting case wins', async () => {
    const { store, clock } = casesSetup();
    const a = await addCase(store, 'Always run the seed script before the auth tests');
    clock.advance(1000);
    await addCase(store, 'Never run the seed script before the auth tests');
    clock.advance(1000);
    const c = await addCase(store, 'Never run the seed script before the auth tests; the fixture does it');
    const result = await checkContradictions(store);
    assert.deepEqual(
      result.find((s) => s.id === a.id),
      { id: a.id, supersededBy: c.id },
    );
    assert.equal((await store.get(c.id))?.status, 'active');
  });
});

describe('archival', () => {
  test('archiveTask archives a finished task’s active local cases, not its global ones', async () => {
    const { store } = casesSetup();
    const local = await addCase(store, 'local note', { scope: 'local', sourceTaskId: 'build-7' });
    const global = await addCase(store, 'global learning', { scope: 'global', sourceTaskId: 'build-7' });
    const elsewhere = await addCase(store, 'other task', { scope: 'local', sourceTaskId: 'build-8' });
    const archived = await archiveTask(store, 'build-7');
    assert.deepEqual(
      archived.map((c) => [c.id, c.status, c.metadata.archivedReason]),
      [[local.id, 'archived', 'parent_task_completed']],
    );
    assert.equal((await store.get(global.id))?.status, 'active');
    assert.equal((await store.get(elsewhere.id))?.status, 'active');
    assert.deepEqual(await archiveTask(store, 'build-7'), [], 'twice is nothing more');
  });

  test('outdated cases unreviewed for N days are archived; reviewed or younger ones stay', async () => {
    const { store, clock } = casesSetup();
    const old = await addCase(store, 'old');
    const young = await addCase(store, 'young');
    await store.apply(old.id, { kind: 'outdated' });
    clock.advance(5 * DAY);
    await store.apply(young.id, { kind: 'outdated' });
    clock.advance(2 * DAY);
    const archived = await archiveUnreviewedOutdated(store, 7);
    assert.deepEqual(
      archived.map((c) => [c.id, c.metadata.archivedReason]),
      [[old.id, 'outdated_unreviewed']],
    );
    assert.equal((await store.get(young.id))?.status, 'outdated');
    await assert.rejects(archiveUnreviewedOutdated(store, 0), RangeError);
  });
});
