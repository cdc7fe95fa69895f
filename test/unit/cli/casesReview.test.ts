// `groundwork cases` review actions, edit, check-outdated, views, metrics and archive-task through
// the real CLI dispatcher and the real CaseService, over the in-memory workspace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GitCommit, GitLogPort, GitLogResult } from '../../../src/core/cases/staleness';
import { line } from '../cases/casesHarness';
import { harness } from './cliHarness';
import type { Harness } from './cliHarness';
import type { CliRun } from '../../support/processes';

const DAY = 24 * 60 * 60 * 1000;

/** A git log answering from a list of commits (or failing with a reason), counting the questions. */
class FakeGit implements GitLogPort {
  asked = 0;
  constructor(
    private readonly commits: GitCommit[],
    private readonly failure?: string,
  ) {}
  async commitsTouching(): Promise<GitLogResult> {
    this.asked++;
    return this.failure !== undefined ? { ok: false, reason: this.failure } : { ok: true, commits: this.commits };
  }
}

async function stored(
  h: Harness,
  id: string,
): Promise<{ status: string; content: string; metadata: Record<string, unknown> }> {
  const list = JSON.parse((await h.run('cases', 'list', '--json')).stdout) as {
    id: string;
    status: string;
    content: string;
    metadata: Record<string, unknown>;
  }[];
  const found = list.find((c) => c.id === id);
  assert.ok(found, `${id} is stored`);
  return found;
}

async function add(h: Harness, scope: string, content: string, ...more: string[]): Promise<string> {
  const r = await h.run('cases', 'add', '--scope', scope, '--content', content, ...more);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

/** A refusal: exit 2, nothing on stdout, one line saying why (no usage hint: the usage was right). */
function assertRefused(r: CliRun, why: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, why);
  assert.doesNotMatch(r.stderr, /for usage/);
}

describe('groundwork cases review actions', () => {
  test('a local case through the whole diagram: validate, outdated, delete, archive, resurrect, promote', async () => {
    const h = harness();
    const id = await add(h, 'local', 'The deploy script needs bash 5', '--agent', 'developer');
    const step = async (word: string, expected: string) => {
      h.clock.advance(1000);
      const r = await h.run('cases', word, id);
      assert.deepEqual(r, { code: 0, stdout: `${expected}\n`, stderr: '' }, word);
    };
    await step('validate', 'disc-001 validated (now active, local)');
    assert.equal((await stored(h, id)).metadata['validated'], true);
    await step('outdated', 'disc-001 marked outdated (now outdated, local)');
    assert.equal((await stored(h, id)).metadata['outdatedReason'], 'marked by user');
    await step('delete', 'disc-001 deleted (now deleted, local)');
    await step('archive', 'disc-001 archived (now archived, local)');
    assert.equal((await stored(h, id)).metadata['archivedReason'], 'user');
    await step('resurrect', 'disc-001 resurrected (now active, local)');
    assert.equal((await stored(h, id)).metadata['resurrectedBy'], 'user');
    await step('promote', 'disc-001 promoted (now active, global)');
    assert.match(
      h.ws.fs.text(h.ws.path('discoveries.md')) ?? '',
      /- \[disc-001\] The deploy script needs bash 5/,
      'the global view follows',
    );
    const json = await h.run('cases', 'validate', id, '--json');
    assert.equal(JSON.parse(json.stdout).status, 'active');
  });

  test('transitions the diagram does not allow exit 2 with the reason and change nothing', async () => {
    const h = harness();
    const active = await add(h, 'global', 'All API calls go through the gateway');
    const before = await stored(h, active);
    assertRefused(
      await h.run('cases', 'resurrect', active),
      /^groundwork: disc-001 is active; only an archived case can be resurrected\.$/m,
    );
    assertRefused(
      await h.run('cases', 'delete', active),
      /^groundwork: disc-001 is active; only an outdated case can be deleted\. Mark it outdated first, then delete it\.$/m,
    );
    assertRefused(await h.run('cases', 'promote', active), /^groundwork: disc-001 is global already\.$/m);
    assert.deepEqual(await stored(h, active), before, 'a refusal changes nothing');
    assert.equal((await h.run('cases', 'outdated', active)).code, 0);
    assertRefused(
      await h.run('cases', 'outdated', active),
      /disc-001 is marked outdated already; validate it if it still holds, or delete it/,
    );
    assert.equal((await h.run('cases', 'archive', active)).code, 0);
    assertRefused(await h.run('cases', 'archive', active), /disc-001 is archived already/);
    assertRefused(await h.run('cases', 'validate', active), /disc-001 is archived; resurrect it first/);
    assert.equal((await stored(h, active)).status, 'archived');
  });

  test('an unknown id exits 1 with the store’s sentence; a malformed one is a usage error', async () => {
    const h = harness();
    await add(h, 'global', 'Caches are keyed by path');
    const missing = await h.run('cases', 'validate', 'disc-042');
    assert.deepEqual(missing, {
      code: 1,
      stdout: '',
      stderr: 'groundwork: There is no discovery case disc-042 in .groundwork/cases.jsonl\n',
    });
    for (const bad of ['42', 'disc-42', 'disc-0042', 'DISC-001', '\u001b[2J']) {
      const r = await h.run('cases', 'archive', bad);
      assert.equal(r.code, 2, bad);
      assert.match(
        r.stderr,
        /is not a case id; ids look like disc-007 \(see groundwork cases list\)\. Run 'groundwork help cases archive' for usage\./,
      );
      assert.ok(!r.stderr.includes('\u001b'));
    }
    assert.match((await h.run('cases', 'promote')).stderr, /cases promote needs a case id/);
    assert.match((await h.run('cases', 'promote', 'disc-001', 'disc-002')).stderr, /unexpected argument 'disc-002'/);
  });
});

describe('groundwork cases edit', () => {
  test('replaces the content; an outdated case is active again; the view follows', async () => {
    const h = harness();
    const id = await add(h, 'global', 'Sessions last one hour');
    assert.equal((await h.run('cases', 'outdated', id)).code, 0);
    h.clock.advance(1000);
    const r = await h.run('cases', 'edit', id, '--content', '  Sessions last two hours ');
    assert.deepEqual(r, { code: 0, stdout: 'disc-001 edited (now active, global)\n', stderr: '' });
    const c = await stored(h, id);
    assert.equal(c.content, 'Sessions last two hours');
    assert.equal(c.metadata['outdatedReason'], undefined);
    assert.match(h.ws.fs.text(h.ws.path('discoveries.md')) ?? '', /- \[disc-001\] Sessions last two hours/);
    assert.deepEqual(await h.run('cases', 'edit', id, '--content', 'Sessions last two hours'), {
      code: 0,
      stdout: 'disc-001 unchanged: it says this already (now active, global)\n',
      stderr: '',
    });
  });

  test('refusals: no --content, empty content, an archived case', async () => {
    const h = harness();
    const id = await add(h, 'global', 'Sessions last one hour');
    const none = await h.run('cases', 'edit', id);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /cases edit needs --content/);
    assertRefused(
      await h.run('cases', 'edit', id, '--content', ' \n '),
      /disc-001 was not changed: the content is empty/,
    );
    await h.run('cases', 'archive', id);
    assertRefused(
      await h.run('cases', 'edit', id, '--content', 'Sessions last a day'),
      /disc-001 is archived, so its content cannot be edited; resurrect it first/,
    );
    assert.equal((await stored(h, id)).content, 'Sessions last one hour');
  });
});

describe('groundwork cases check-outdated', () => {
  const commit = (hash: string, date: string, files: string[]): GitCommit => ({ hash, date, subject: 'change', files });

  test('prints each case a commit made outdated, each superseded one, and each archived one', async () => {
    const git = new FakeGit([commit('abc1234def5678', '2025-02-01T00:00:00Z', ['src/auth.ts'])]);
    const h = harness({ git: async () => git });
    h.ws.plant('cases.jsonl', [
      line('disc-001', { content: 'Login lives in src/auth.ts and uses bcrypt' }),
      line('disc-002', { content: 'Use axios for HTTP calls in src/api.ts' }),
      line('disc-003', {
        content: 'Don’t use axios in src/api.ts; use fetch',
        createdAt: '2025-01-31T09:16:00.000Z',
        updatedAt: '2025-01-31T09:16:00.000Z',
      }),
      line('disc-004', {
        status: 'outdated',
        content: 'The old cache lived in memory',
        metadata: { outdatedAt: '2025-01-20T00:00:00.000Z', outdatedReason: 'marked by user' },
        updatedAt: '2025-01-20T00:00:00.000Z',
      }),
    ]);
    h.clock.advance(DAY);
    const r = await h.run('cases', 'check-outdated');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      'disc-001 outdated: src/auth.ts changed in abc1234',
      'disc-002 outdated: superseded by disc-003',
      'disc-004 archived: outdated and unreviewed for 7 days or more',
    ]);
    assert.equal((await stored(h, 'disc-001')).metadata['outdatedCommit'], 'abc1234def5678');
    assert.equal((await stored(h, 'disc-004')).status, 'archived');
    const again = await h.run('cases', 'check-outdated');
    assert.deepEqual(again, { code: 0, stdout: '', stderr: 'groundwork: no discovery case changed\n' });
  });

  test('--archive-after-days; --json', async () => {
    const h = harness({ git: async () => new FakeGit([]) });
    h.ws.plant('cases.jsonl', [
      line('disc-001', {
        status: 'outdated',
        metadata: { outdatedAt: '2025-01-31T09:15:00.000Z', outdatedReason: 'marked by user' },
      }),
    ]);
    h.clock.advance(10 * DAY);
    const kept = await h.run('cases', 'check-outdated', '--archive-after-days', '30', '--json');
    assert.equal(kept.code, 0, kept.stderr);
    assert.deepEqual(JSON.parse(kept.stdout), { findings: [], superseded: [], archived: [] });
    const gone = await h.run('cases', 'check-outdated', '--archive-after-days', '10', '--json');
    const report = JSON.parse(gone.stdout);
    assert.deepEqual(
      report.archived.map((c: { id: string; status: string; metadata: { archivedReason: string } }) => [
        c.id,
        c.status,
        c.metadata.archivedReason,
      ]),
      [['disc-001', 'archived', 'outdated_unreviewed']],
    );
  });

  test('without git the file check is skipped, said once on stderr; the rest still runs, exit 0', async () => {
    const git = new FakeGit(
      [],
      'The workspace folder is not a git repository, so cases are not checked against commits.',
    );
    const h = harness({ git: async () => git });
    h.ws.plant('cases.jsonl', [
      line('disc-001', { content: 'src/a.ts exports the parser' }),
      line('disc-002', { content: 'src/b.ts opens the pool' }),
    ]);
    const r = await h.run('cases', 'check-outdated');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      'groundwork: The workspace folder is not a git repository, so cases are not checked against commits.\ngroundwork: no discovery case changed\n',
    );
    assert.equal(git.asked, 1, 'git is not asked again once it failed');
  });

  for (const bad of ['0', '-1', '1.5', 'seven', '']) {
    test(`--archive-after-days '${bad}' is a usage error`, async () => {
      const r = await harness({ git: async () => new FakeGit([]) }).run(
        'cases',
        'check-outdated',
        `--archive-after-days=${bad}`,
      );
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--archive-after-days must be a whole number of days from 1/);
    });
  }
});

describe('groundwork cases views, metrics, archive-task', () => {
  test('views rewrites discoveries.md when it differs from the store and prints it', async () => {
    const h = harness();
    await add(h, 'global', 'All API calls go through the gateway');
    h.ws.plant('discoveries.md', ['# hand edited']);
    const r = await h.run('cases', 'views');
    assert.deepEqual(r, { code: 0, stdout: '.groundwork/discoveries.md\n', stderr: '' });
    assert.match(
      h.ws.fs.text(h.ws.path('discoveries.md')) ?? '',
      /^# Project Discoveries\n[\s\S]*- \[disc-001\] All API calls go through the gateway/,
    );
    assert.deepEqual(await h.run('cases', 'views'), {
      code: 0,
      stdout: '',
      stderr: 'groundwork: the views are up to date\n',
    });
    const json = await h.run('cases', 'views', '--json');
    assert.deepEqual(JSON.parse(json.stdout), { written: [], skipped: [] });
  });

  test('metrics --json has every metric; without --json, readable lines', async () => {
    const h = harness();
    await add(h, 'global', 'Auth tokens expire after one hour', '--task', 'build-1', '--impact', 'critical');
    await add(h, 'local', 'Tests use vitest, not jest', '--agent', 'developer', '--task', 'build-1', '--impact', 'low');
    await add(h, 'local', 'Database migrations live in db/migrations', '--task', 'run-2', '--impact', 'high');
    await add(h, 'local', 'tests use VITEST, not jest');
    await h.run('cases', 'validate', 'disc-001');
    await h.run('cases', 'outdated', 'disc-003');
    const r = await h.run('cases', 'metrics', '--json');
    assert.equal(r.code, 0, r.stderr);
    const m = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(m), [
      'total',
      'byStatus',
      'byScope',
      'duplicatesPrevented',
      'sourceTasks',
      'injectedPerPrompt',
      'byImpact',
      'validationRate',
      'outdatedRate',
    ]);
    assert.equal(m.total, 3);
    assert.deepEqual(m.byStatus, { active: 2, outdated: 1, archived: 0, deleted: 0 });
    assert.deepEqual(m.byScope, { local: 2, global: 1 });
    assert.equal(m.duplicatesPrevented, 1);
    assert.deepEqual(m.sourceTasks, [
      { taskId: 'build-1', cases: 2 },
      { taskId: 'run-2', cases: 1 },
    ]);
    assert.deepEqual(m.injectedPerPrompt, { global: 1, local: 1 });
    assert.deepEqual(m.byImpact, { low: 1, medium: 0, high: 1, critical: 1 });
    assert.equal(m.validationRate, 0.333);
    assert.equal(m.outdatedRate, 0.333);

    const text = await h.run('cases', 'metrics');
    assert.equal(text.code, 0);
    assert.equal(text.stderr, '');
    const lines = text.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'Discovery cases: 3');
    assert.ok(lines.includes('  by status: 2 active, 1 outdated, 0 archived, 0 deleted'), text.stdout);
    assert.ok(lines.includes('Duplicates prevented: 1'));
    assert.ok(lines.includes('Source tasks: build-1 (2), run-2 (1)'));
    assert.ok(lines.includes('Validation rate: 33.3%'));
    assert.ok(lines.includes('Outdated rate: 33.3%'));
  });

  test('archive-task archives the task’s active local cases and prints their ids; its global ones stay', async () => {
    const h = harness();
    await add(h, 'local', 'The fixture server listens on port 4010', '--task', 'build-7');
    await add(h, 'global', 'The public API is versioned under /v2', '--task', 'build-7');
    await add(h, 'local', 'Snapshots are updated with -u', '--task', 'build-7');
    await add(h, 'local', 'Lint runs before the tests', '--task', 'build-8');
    const r = await h.run('cases', 'archive-task', 'build-7');
    assert.deepEqual(r, { code: 0, stdout: 'disc-001\ndisc-003\n', stderr: '' });
    assert.deepEqual(
      await Promise.all(
        ['disc-001', 'disc-002', 'disc-003', 'disc-004'].map(async (id) => (await stored(h, id)).status),
      ),
      ['archived', 'active', 'archived', 'active'],
    );
    assert.equal((await stored(h, 'disc-001')).metadata['archivedReason'], 'parent_task_completed');
    assert.deepEqual(await h.run('cases', 'archive-task', 'build-7'), {
      code: 0,
      stdout: '',
      stderr: "groundwork: no active local case was learned in 'build-7'; nothing archived\n",
    });
    assert.deepEqual(
      JSON.parse((await h.run('cases', 'archive-task', 'build-8', '--json')).stdout).map((c: { id: string }) => c.id),
      ['disc-004'],
    );
    const bad = await h.run('cases', 'archive-task', 'a\u001bb');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /the task id holds a control character/);
  });
});
