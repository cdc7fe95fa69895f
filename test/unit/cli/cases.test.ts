// `groundwork cases list|add` through the real CLI dispatcher and the real CaseService, over the
// in-memory workspace: what a person sees on stdout and stderr, and what lands in .groundwork/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCase } from '../../../src/core/cases/caseRecord';
import { caseJson, line } from '../cases/casesHarness';
import { harness } from './cliHarness';
import type { CliRun } from '../../support/processes';

const ESC = '\u001b';

function assertUsage(r: CliRun, message: RegExp, topic: string): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, message);
  assert.ok(r.stderr.includes(`Run 'groundwork help ${topic}' for usage.`), r.stderr);
}

describe('groundwork cases add', () => {
  test('prints the new id; the case, the journal entry and the global view follow', async () => {
    const h = harness();
    const r = await h.run(
      'cases',
      'add',
      '--scope',
      'global',
      '--content',
      'All API calls go through the gateway in src/api/gateway.ts',
    );
    assert.deepEqual(r, { code: 0, stdout: 'disc-001\n', stderr: '' });
    const second = await h.run(
      'cases',
      'add',
      '--scope',
      'local',
      '--content',
      'The deploy script needs bash 5',
      '--agent',
      'developer',
      '--task',
      'build-3',
      '--impact',
      'low',
    );
    assert.deepEqual(second, { code: 0, stdout: 'disc-002\n', stderr: '' });

    const [one, two] = (h.ws.lines('cases.jsonl') ?? []).map((l) => JSON.parse(l));
    assert.equal(one.id, 'disc-001');
    assert.equal(one.metadata.scope, 'global');
    assert.deepEqual(
      [two.id, two.parentId, two.metadata.sourceAgentId, two.metadata.impact],
      ['disc-002', 'build-3', 'developer', 'low'],
    );
    const journal = (h.ws.lines('discoveries.jsonl') ?? []).map((l) => JSON.parse(l));
    assert.deepEqual(
      journal.map((e) => [e.title, e.scope, e.agent, e.task]),
      [
        ['All API calls go through the gateway in src/api/gateway.ts', 'global', undefined, undefined],
        ['The deploy script needs bash 5', 'local', 'developer', 'build-3'],
      ],
    );
    assert.match(
      h.ws.fs.text(h.ws.path('discoveries.md')) ?? '',
      /- \[disc-001\] All API calls go through the gateway/,
    );
    assert.match(
      h.ws.fs.text(h.ws.path('agents/developer/discoveries.md')) ?? '',
      /- \[disc-002\] The deploy script needs bash 5/,
    );
  });

  test('the same content in other case and spacing is a duplicate: the same id, nothing stored', async () => {
    const h = harness();
    assert.equal(
      (await h.run('cases', 'add', '--scope', 'global', '--content', 'Use the gateway for API calls')).stdout,
      'disc-001\n',
    );
    const again = await h.run('cases', 'add', '--scope', 'local', '--content', '  USE the   gateway\nfor api CALLS ');
    assert.deepEqual(again, { code: 0, stdout: 'disc-001 duplicate\n', stderr: '' });
    assert.equal(h.ws.lines('cases.jsonl')?.length, 1);
    assert.equal(h.ws.lines('discoveries.jsonl')?.length, 1, 'a duplicate is not journalled again');
    const json = await h.run(
      'cases',
      'add',
      '--scope',
      'global',
      '--content',
      'use the gateway for API calls',
      '--json',
    );
    assert.equal(json.code, 0, json.stderr);
    const out = JSON.parse(json.stdout);
    assert.equal(out.duplicate, true);
    assert.equal(out.id, 'disc-001');
    const metrics = JSON.parse((await h.run('cases', 'metrics', '--json')).stdout);
    assert.equal(metrics.duplicatesPrevented, 2);
  });

  test('--json prints the stored case, readable back by parseCase, with "duplicate": false', async () => {
    const h = harness();
    const r = await h.run(
      'cases',
      'add',
      '--json',
      '--scope',
      'global',
      '--content',
      'Migrations live in db/migrations',
      '--impact',
      'high',
    );
    assert.equal(r.code, 0, r.stderr);
    const { duplicate, superseded, ...rest } = JSON.parse(r.stdout);
    assert.equal(duplicate, false);
    assert.deepEqual(superseded, []);
    const parsed = parseCase(rest);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(rest, JSON.parse(h.ws.lines('cases.jsonl')?.[0] ?? ''));
    assert.equal(rest.metadata.impact, 'high');
  });

  test('names the older cases a new one contradicts (now superseded by it) on stderr, and in --json', async () => {
    const h = harness();
    const first = await h.run(
      'cases',
      'add',
      '--scope',
      'global',
      '--content',
      'Always run the seed script before the auth tests',
    );
    assert.equal(first.stdout, 'disc-001\n');
    const r = await h.run(
      'cases',
      'add',
      '--scope',
      'global',
      '--content',
      'Never run the seed script before the auth tests',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'disc-002\n');
    assert.match(r.stderr, /disc-002 says otherwise than disc-001: marked outdated, superseded by disc-002\./);
    const j = await h.run(
      'cases',
      'add',
      '--json',
      '--scope',
      'global',
      '--content',
      'Always run the seed script before the auth tests, once',
    );
    assert.deepEqual(JSON.parse(j.stdout).superseded, ['disc-002']);
  });

  const refused: [string, string[], RegExp][] = [
    ['no --scope', ['--content', 'x'], /cases add needs --scope local or global/],
    ['no --content', ['--scope', 'local'], /cases add needs --content/],
    ['a bad scope', ['--scope', 'team', '--content', 'x'], /--scope must be local or global, not 'team'/],
    [
      'a bad impact',
      ['--scope', 'local', '--content', 'x', '--impact', 'huge'],
      /--impact must be one of low, medium, high, critical, not 'huge'/,
    ],
    ['empty content', ['--scope', 'local', '--content', '   '], /The discovery was not added: the content is empty/],
    [
      'content over the limit',
      ['--scope', 'local', '--content', 'x'.repeat(8001)],
      /the content is 8001 characters; the limit is 8000/,
    ],
    [
      'a task with a line break',
      ['--scope', 'local', '--content', 'x', '--task', 'a\nb'],
      /the task holds a control character/,
    ],
  ];
  for (const [name, args, message] of refused) {
    test(`${name}: exit 2, nothing stored`, async () => {
      const h = harness();
      assertUsage(await h.run('cases', 'add', ...args), message, 'cases add');
      assert.equal(h.ws.lines('cases.jsonl'), undefined);
      assert.equal(h.ws.lines('discoveries.jsonl'), undefined);
    });
  }

  test('a view that cannot be written: the id is printed, the failure said, exit 1', async () => {
    const h = harness();
    h.ws.fs.failOn = (op, path) =>
      op === 'writeAtomic' && path.endsWith('/discoveries.md') ? new Error('no space left on device') : undefined;
    const r = await h.run('cases', 'add', '--scope', 'global', '--content', 'Caches are keyed by path');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'disc-001\n');
    assert.match(
      r.stderr,
      /^groundwork: the discovery views in \.groundwork\/ could not be rewritten \(.*no space left on device.*\); run 'groundwork cases views' to try again\n$/,
    );
    assert.equal(h.ws.lines('cases.jsonl')?.length, 1, 'the case itself is stored');
  });
});

describe('groundwork cases list', () => {
  async function three() {
    const h = harness();
    await h.run('cases', 'add', '--scope', 'global', '--content', 'All API calls go through the gateway');
    await h.run('cases', 'add', '--scope', 'local', '--agent', 'developer', '--content', 'Tests use vitest, not jest');
    await h.run('cases', 'add', '--scope', 'local', '--content', 'Database migrations live in db/migrations');
    await h.run('cases', 'outdated', 'disc-003');
    return h;
  }

  test('one readable line per case: id, status, scope, impact, category, content', async () => {
    const h = await three();
    const r = await h.run('cases', 'list');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const rows = r.stdout.trimEnd().split('\n');
    assert.equal(rows.length, 3);
    assert.match(rows[0] ?? '', /^disc-001 {2}active {4}global {2}\w+ +\w+ +All API calls go through the gateway$/);
    assert.match(rows[1] ?? '', /^disc-002 {2}active {4}local {3}\w+ +Testing +Tests use vitest, not jest$/);
    assert.match(rows[2] ?? '', /^disc-003 {2}outdated {2}local /);
  });

  test('--json is an array of cases in the line format, each readable back by parseCase', async () => {
    const h = await three();
    const r = await h.run('cases', 'list', '--json');
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout) as unknown[];
    assert.ok(Array.isArray(list));
    assert.equal(list.length, 3);
    for (const c of list) assert.ok(parseCase(c).ok, JSON.stringify(c));
    assert.deepEqual(
      list.map((c) => (c as { id: string; status: string }).status),
      ['active', 'active', 'outdated'],
    );
  });

  test('--status and --scope filter, together too', async () => {
    const h = await three();
    const ids = async (...args: string[]) =>
      (JSON.parse((await h.run('cases', 'list', '--json', ...args)).stdout) as { id: string }[]).map((c) => c.id);
    assert.deepEqual(await ids('--status', 'active'), ['disc-001', 'disc-002']);
    assert.deepEqual(await ids('--scope', 'local'), ['disc-002', 'disc-003']);
    assert.deepEqual(await ids('--scope', 'local', '--status', 'outdated'), ['disc-003']);
    assert.deepEqual(await ids('--status', 'archived'), []);
    assert.equal((await h.run('cases', 'list', '--status', 'deleted')).stdout, 'No discovery case matches.\n');
  });

  test('an empty store', async () => {
    const h = harness();
    assert.deepEqual(await h.run('cases', 'list'), { code: 0, stdout: 'No discovery cases yet.\n', stderr: '' });
    assert.deepEqual(await h.run('cases', 'list', '--json'), { code: 0, stdout: '[]\n', stderr: '' });
    assert.equal(h.ws.fs.text(h.ws.path('cases.jsonl')), undefined, 'listing creates nothing');
  });

  test('bad filters: exit 2 naming the allowed values', async () => {
    assertUsage(
      await harness().run('cases', 'list', '--status', 'stale'),
      /--status must be one of active, outdated, archived, deleted, not 'stale'/,
      'cases list',
    );
    assertUsage(
      await harness().run('cases', 'list', '--scope', 'team'),
      /--scope must be local or global, not 'team'/,
      'cases list',
    );
    assertUsage(
      await harness().run('cases', 'list', `--status=${ESC}[2J`),
      /--status must be one of .*, not '\\x1b\[2J'/,
      'cases list',
    );
  });

  test('a hostile cases.jsonl: the good cases listed, the bad lines reported with their numbers, no raw escape printed', async () => {
    const h = harness();
    h.ws.plant('cases.jsonl', [
      line('disc-001', { content: 'Routes live in src/routes' }),
      'this is not json',
      line('disc-002', { content: `Clear the screen ${ESC}[2J${ESC}]0;pwned${ESC}\\ and beep\u0007 then\nnewline` }),
      `{"id":"disc-003","content":"raw ${ESC}[31m red"}`,
      JSON.stringify(caseJson('disc-004', { status: `${ESC}[2Jbogus` })),
      line('disc-005', { content: 'Right-to-left \u202e override', metadata: { scope: 'local' } }),
    ]);
    const r = await h.run('cases', 'list');
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n');
    assert.deepEqual(
      rows.map((row) => row.slice(0, 8)),
      ['disc-001', 'disc-002', 'disc-005'],
    );
    assert.ok(rows[1]?.includes('Clear the screen \\x1b[2J\\x1b]0;pwned\\x1b\\ and beep\\x07 then newline'), rows[1]);
    assert.ok(rows[2]?.includes('Right-to-left \\u202e override'), rows[2]);
    assert.match(r.stderr, /^groundwork: warning: \.groundwork\/cases\.jsonl:2: skipped, not valid JSON/m);
    assert.match(r.stderr, /^groundwork: warning: \.groundwork\/cases\.jsonl:4: skipped, /m);
    assert.match(
      r.stderr,
      /^groundwork: warning: \.groundwork\/cases\.jsonl:5: skipped, field status .* is not one of active, outdated, archived, deleted/m,
    );
    assert.match(
      r.stderr,
      /3 lines of \.groundwork\/cases\.jsonl could not be read; every valid record was still used/,
    );
    for (const out of [r.stdout, r.stderr])
      assert.doesNotMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);

    const json = await h.run('cases', 'list', '--json');
    assert.equal(json.code, 0);
    assert.deepEqual(
      (JSON.parse(json.stdout) as { id: string; content: string }[]).map((c) => c.id),
      ['disc-001', 'disc-002', 'disc-005'],
    );
    assert.ok(!json.stdout.includes(ESC) && !json.stdout.includes('\u202e'), 'JSON escapes them too');
    assert.equal(
      (JSON.parse(json.stdout) as { content: string }[])[1]?.content.includes(`${ESC}[2J`),
      true,
      'the JSON still holds the exact content',
    );
    assert.match(json.stderr, /cases\.jsonl:2: skipped/);

    // The next id skips every number a line names, bad ones included.
    assert.equal((await h.run('cases', 'add', '--scope', 'global', '--content', 'A new one')).stdout, 'disc-006\n');
  });
});

describe('groundwork cases help', () => {
  test('cases --help lists every subcommand; each has its own help', async () => {
    const h = harness();
    const g = await h.run('cases', '--help');
    assert.equal(g.code, 0);
    assert.match(g.stdout, /Commands under 'cases'/);
    for (const sub of [
      'list',
      'add',
      'edit',
      'promote',
      'validate',
      'outdated',
      'archive',
      'resurrect',
      'delete',
      'check-outdated',
      'views',
      'metrics',
      'archive-task',
    ]) {
      assert.ok(g.stdout.includes(`groundwork cases ${sub} `), sub);
      const one = await h.run('help', 'cases', sub);
      assert.equal(one.code, 0);
      assert.match(one.stdout, new RegExp(`^Usage: groundwork cases ${sub} `));
    }
    assert.match(
      (await h.run('cases', 'add', '--help')).stdout,
      /^Usage: groundwork cases add --scope local\|global --content TEXT/,
    );
    assert.ok((await h.run('help')).stdout.includes('cases check-outdated'));
    assert.deepEqual(h.opened, [], 'help opens no workspace');
  });

  test('cases alone, or an unknown subcommand: exit 2 naming the subcommands', async () => {
    const r = await harness().run('cases');
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /'cases' needs a subcommand: list, add, edit, promote, validate, outdated, archive, resurrect, delete, check-outdated, views, metrics, archive-task/,
    );
    assert.match((await harness().run('cases', 'purge')).stderr, /unknown cases subcommand 'purge'/);
  });
});
