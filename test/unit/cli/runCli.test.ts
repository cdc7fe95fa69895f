import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import type { WorkspaceStore } from '../../../src/core/storage/workspaceStore';
import { T0, harness } from './cliHarness';

const pkgVersion = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string }
).version;

function assertUsageError(r: { code: number; stdout: string; stderr: string }, message: RegExp, topic = '') {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.match(lines[0] ?? '', message);
  assert.ok(r.stderr.includes(`Run 'groundwork help${topic}' for usage.`), r.stderr);
}

describe('CLI: help and version', () => {
  test('--version prints the package version', async () => {
    const r = await harness().run('--version');
    assert.deepEqual(r, { code: 0, stdout: `${pkgVersion}\n`, stderr: '' });
  });

  test('help, --help and -h list every command', async () => {
    const h = harness();
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const r = await h.run(...argv);
      assert.equal(r.code, 0);
      for (const c of [
        'journal append',
        'journal list',
        'sleep list',
        'help [COMMAND]',
        '--workspace DIR',
        'Exit codes',
      ]) {
        assert.ok(r.stdout.includes(c), `${argv.join(' ')} mentions ${c}`);
      }
    }
  });

  test('help for a command, a group, and a command with --help', async () => {
    const h = harness();
    const a = await h.run('help', 'journal', 'append');
    assert.equal(a.code, 0);
    assert.match(a.stdout, /^Usage: groundwork journal append --title T --description D/);
    const b = await h.run('journal', 'append', '--help');
    assert.equal(b.stdout, a.stdout);
    const g = await h.run('journal', '--help');
    assert.equal(g.code, 0);
    assert.match(g.stdout, /Commands under 'journal'/);
    assert.deepEqual(h.opened, [], 'help opens no workspace');
  });

  test('no command: help on stderr, exit 2', async () => {
    const r = await harness().run();
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Usage: groundwork/);
    assert.match(r.stderr, /no command given/);
  });
});

describe('CLI: bad usage exits 2 with one line and a hint', () => {
  const cases: [string, string[], RegExp, string][] = [
    ['unknown command', ['frobnicate'], /^groundwork: unknown command 'frobnicate'/, ''],
    ['group without subcommand', ['journal'], /'journal' needs a subcommand: append, list/, ' journal'],
    [
      'unknown subcommand',
      ['journal', 'delete'],
      /unknown journal subcommand 'delete'; expected one of: append, list/,
      ' journal',
    ],
    ['unknown flag', ['journal', 'list', '--frob'], /unknown option '--frob'/, ' journal list'],
    ['option of another command', ['journal', 'list', '--title', 'x'], /unknown option '--title'/, ' journal list'],
    [
      'missing option value',
      ['journal', 'append', '--title'],
      /option '--title <value>' argument missing/,
      ' journal append',
    ],
    [
      'value for a boolean',
      ['journal', 'list', '--json=yes'],
      /option '--json' does not take an argument/,
      ' journal list',
    ],
    ['extra argument', ['journal', 'list', 'extra'], /unexpected argument 'extra'/, ' journal list'],
    ['missing title', ['journal', 'append', '--description', 'd'], /journal append needs --title/, ' journal append'],
    [
      'missing description',
      ['journal', 'append', '--title', 't'],
      /journal append needs --description/,
      ' journal append',
    ],
    [
      'bad scope',
      ['journal', 'append', '--title', 't', '--description', 'd', '--scope', 'team'],
      /--scope must be local or global, not 'team'/,
      ' journal append',
    ],
    ['empty title', ['journal', 'append', '--title', '', '--description', 'd'], /title is empty/, ' journal append'],
    ['help for nothing', ['help', 'nope'], /no help for 'nope'/, ''],
  ];
  for (const [name, argv, message, topic] of cases) {
    test(name, async () => {
      const h = harness();
      assertUsageError(await h.run(...argv), message, topic);
      assert.equal(h.ws.lines('discoveries.jsonl'), undefined, 'nothing written');
    });
  }

  // Node refuses an option value that starts with '-' as "ambiguous"; the hint must survive.
  const dashValues: [string, string[], string][] = [
    [
      'a description starting with a dash',
      ['--title', 't', '--description', '- fixed X'],
      "option '--description' is followed by '- fixed X', which starts with '-' and so is not taken as its value; if it is the value, join the two with '=': '--description=- fixed X'",
    ],
    [
      'a title that looks like a short option',
      ['--description', 'y', '--title', '-h'],
      "option '--title' is followed by '-h', which starts with '-' and so is not taken as its value; if it is the value, join the two with '=': '--title=-h'",
    ],
    [
      'a value that holds a quote',
      ['--title', "-1 isn't found", '--description', 'd'],
      `join the two with '=': "--title=-1 isn't found"`,
    ],
    [
      'a forgotten value before a flag',
      ['--title', 'x', '--description', '--version'],
      "option '--description' is followed by '--version'",
    ],
  ];
  for (const [name, args, hint] of dashValues) {
    test(`${name}: the refusal says how to give it`, async () => {
      const h = harness();
      const r = await h.run('journal', 'append', ...args);
      assertUsageError(r, /^groundwork: option '--\w+' is followed by /, ' journal append');
      assert.ok(r.stderr.includes(hint), r.stderr);
      assert.equal(h.ws.lines('discoveries.jsonl'), undefined, 'nothing written');
    });
  }

  test('a value starting with a dash is taken when joined with =', async () => {
    const h = harness();
    const r = await h.run('journal', 'append', '--title=-1 is returned on error', '--description=- fixed X');
    assert.equal(r.code, 0, r.stderr);
    const [entry] = JSON.parse((await h.run('journal', 'list', '--json')).stdout);
    assert.deepEqual([entry.title, entry.description], ['-1 is returned on error', '- fixed X']);
  });

  test('a description over 8 KB is refused with what to do', async () => {
    const r = await harness().run('journal', 'append', '--title', 't', '--description', 'x'.repeat(9000));
    assertUsageError(r, /description is 9000 bytes; the limit is 8192 bytes \(8 KB\)\. Shorten it/, ' journal append');
  });

  test('--workspace on a missing folder', async () => {
    const h = harness();
    const r = await h.run('--workspace', 'nowhere', 'journal', 'list');
    assertUsageError(
      r,
      /the workspace folder '\/ws\/nowhere' does not exist or is not a folder; pass an existing folder with --workspace/,
    );
    assert.deepEqual(h.opened, []);
  });

  test('an empty --workspace', async () => {
    assertUsageError(await harness().run('journal', 'list', '--workspace='), /--workspace is empty/);
  });
});

describe('CLI: journal', () => {
  test('append then list --json round trips', async () => {
    const h = harness();
    const a = await h.run(
      'journal',
      'append',
      '--title',
      'Cache is per window',
      '--description',
      'Not shared.',
      '--scope',
      'global',
      '--agent',
      'architect',
      '--task',
      'p1',
    );
    assert.deepEqual(a, {
      code: 0,
      stdout: 'Added to .groundwork/discoveries.jsonl: Cache is per window\n',
      stderr: '',
    });
    h.clock.advance(60_000);
    await h.run('journal', 'append', '--title', 'Second', '--description', '');
    const l = await h.run('journal', 'list', '--json');
    assert.equal(l.code, 0);
    assert.equal(l.stderr, '');
    assert.deepEqual(JSON.parse(l.stdout), [
      {
        timestamp: '2025-01-31T09:15:00.000Z',
        title: 'Cache is per window',
        description: 'Not shared.',
        scope: 'global',
        agent: 'architect',
        task: 'p1',
      },
      { timestamp: '2025-01-31T09:16:00.000Z', title: 'Second', description: '' },
    ]);
    assert.deepEqual(h.opened, ['/ws', '/ws', '/ws']);
  });

  test('global options go before or after the command', async () => {
    const h = harness();
    const a = await h.run('--workspace', '/other', '--json', 'journal', 'append', '--title', 't', '--description', 'd');
    assert.equal(a.code, 0);
    assert.deepEqual(JSON.parse(a.stdout), { timestamp: '2025-01-31T09:15:00.000Z', title: 't', description: 'd' });
    const l = await h.run('journal', 'list', '--workspace', '/other', '--json');
    assert.equal(JSON.parse(l.stdout).length, 1);
    assert.deepEqual(h.opened, ['/other', '/other']);
  });

  test('an option value that looks like a command word is a value', async () => {
    const h = harness();
    const r = await h.run('journal', 'append', '--title', 'list', '--description', 'journal');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse((await h.run('journal', 'list', '--json')).stdout)[0].title, 'list');
  });

  test('human list: one block per entry with time, title, description and labels', async () => {
    const h = harness();
    await h.run('journal', 'append', '--title', 'First', '--description', 'line one\nline two');
    h.clock.advance(1000);
    await h.run('journal', 'append', '--title', 'Second', '--description', '', '--agent', 'qa');
    const r = await h.run('journal', 'list');
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      '2025-01-31 09:15:00 UTC  First\n    line one\n    line two\n\n2025-01-31 09:15:01 UTC  Second\n    [agent: qa]\n',
    );
  });

  test('an empty journal says so', async () => {
    const r = await harness().run('journal', 'list');
    assert.deepEqual(r, { code: 0, stdout: 'The journal is empty.\n', stderr: '' });
    assert.deepEqual(JSON.parse((await harness().run('journal', 'list', '--json')).stdout), []);
  });

  test('corrupt lines: valid entries printed, bad ones on stderr with line numbers, exit 0', async () => {
    const h = harness();
    const good = (t: string) => JSON.stringify({ timestamp: new Date(T0).toISOString(), title: t, description: '' });
    h.ws.plant('discoveries.jsonl', [good('a'), '{oops', good('b'), '{"title":"x"}']);
    const r = await h.run('journal', 'list', '--json');
    assert.equal(r.code, 0);
    assert.deepEqual(
      JSON.parse(r.stdout).map((e: { title: string }) => e.title),
      ['a', 'b'],
    );
    assert.match(
      r.stderr,
      /\.groundwork\/discoveries\.jsonl:2: skipped, not valid JSON \(.*\); the line starts: \{oops/,
    );
    assert.match(r.stderr, /discoveries\.jsonl:4: skipped, missing field timestamp;/);
    assert.match(
      r.stderr,
      /2 lines of \.groundwork\/discoveries\.jsonl could not be read; every valid record was still used/,
    );
  });

  test('a journal over its read cap lists its newest entries and says once what was left out', async () => {
    const h = harness({}, new MemoryWorkspace({ maxJsonlBytes: 300 }));
    for (let i = 1; i <= 10; i++) await h.run('journal', 'append', '--title', `t${i}`, '--description', 'x'.repeat(40));
    const r = await h.run('journal', 'list', '--json');
    assert.equal(r.code, 0);
    const titles = JSON.parse(r.stdout).map((e: { title: string }) => e.title);
    assert.ok(titles.length > 0 && titles.length < 10);
    assert.equal(titles.at(-1), 't10');
    const unread = 10 - titles.length;
    assert.equal(
      r.stderr,
      'groundwork: warning: .groundwork/discoveries.jsonl: the file is 1.1 KiB; ' +
        `only its newest 300 bytes were read (its first ${unread} lines are kept in the file but not shown)\n`,
    );
  });

  test('unsafe values are stored escaped and printed without raw control characters', async () => {
    const h = harness();
    const title = 'He said "hi"\nthen \u001b[2J\u001b[31mcleared\u009b the screen \u202eevil';
    const description = 'para 1\n\u001b]0;owned\u0007\r\npara 2';
    const a = await h.run('journal', 'append', '--title', title, '--description', description, '--agent', 'a\u001bb');
    assert.equal(a.code, 0, a.stderr);
    const lines = h.ws.lines('discoveries.jsonl') ?? [];
    assert.equal(lines.length, 1);
    assert.doesNotMatch(lines[0] ?? '', /[\n\r\u001b\u0007]/);
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;
    assert.doesNotMatch(a.stdout, raw);
    const human = await h.run('journal', 'list');
    assert.doesNotMatch(human.stdout, raw);
    assert.match(human.stdout, /He said "hi"\\nthen \\x1b\[2J\\x1b\[31mcleared\\x9b the screen \\u202eevil/);
    assert.match(human.stdout, /\n {4}para 1\n {4}\\x1b\]0;owned\\x07\n {4}para 2\n/);
    assert.match(human.stdout, /\[agent: a\\x1bb\]/);
    const json = await h.run('journal', 'list', '--json');
    assert.doesNotMatch(json.stdout, raw);
    assert.equal(JSON.parse(json.stdout)[0].title, title);
  });

  test('a failing store exits 1 with its message', async () => {
    // Only the part the journal reaches.
    const failing = {
      log: () => ({
        append: async () => {},
        readAll: async () => {
          throw new Error("Cannot read '.groundwork/discoveries.jsonl': permission denied.\nFix the permissions.");
        },
      }),
    };
    const h = harness({ openStore: () => failing as unknown as WorkspaceStore });
    const r = await h.run('journal', 'list');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      "groundwork: Cannot read '.groundwork/discoveries.jsonl': permission denied. Fix the permissions\n",
    );
  });
});

describe('CLI: sleep list', () => {
  const started = (agent: string, mode: object, at: number, max: number) =>
    JSON.stringify({ event: 'started', agent, mode, startedAt: at, maxDurationMs: max });

  test('no sleepers', async () => {
    assert.deepEqual(await harness().run('sleep', 'list'), { code: 0, stdout: 'No agent is asleep.\n', stderr: '' });
  });

  test('lists current sleepers, human and JSON, and reports bad lines', async () => {
    const h = harness();
    h.ws.plant('sleep.jsonl', [
      started('builder', { kind: 'timer', durationMs: 300_000 }, T0, 300_000),
      started('lead', { kind: 'event', target: { type: 'agent', id: 'builder' } }, T0, 60_000),
      'garbage',
      started('qa', { kind: 'manual' }, T0, 600_000),
      JSON.stringify({ event: 'woken', agent: 'qa', reason: 'user', at: T0 + 1 }),
    ]);
    h.clock.advance(90_000);
    const r = await h.run('sleep', 'list');
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      'builder  3m 30s  (since 2025-01-31 09:15:00 UTC)\n' +
        'lead     Overdue by 30s  (since 2025-01-31 09:15:00 UTC)\n',
    );
    assert.match(r.stderr, /\.groundwork\/sleep\.jsonl:3: skipped, not valid JSON \(.*\); the line starts: garbage/);
    const j = await h.run('sleep', 'list', '--json');
    assert.deepEqual(JSON.parse(j.stdout), [
      {
        agent: 'builder',
        mode: { kind: 'timer', durationMs: 300_000 },
        startedAt: '2025-01-31T09:15:00.000Z',
        maxDurationMs: 300_000,
        remainingMs: 210_000,
        expired: false,
        status: '3m 30s',
      },
      {
        agent: 'lead',
        mode: { kind: 'event', target: { type: 'agent', id: 'builder' } },
        startedAt: '2025-01-31T09:15:00.000Z',
        maxDurationMs: 60_000,
        remainingMs: 0,
        expired: true,
        status: 'Overdue by 30s',
      },
    ]);
  });

  test('a line whose time a Date cannot hold is reported, and the other sleepers are listed', async () => {
    const h = harness();
    h.ws.plant('sleep.jsonl', [
      started('good', { kind: 'manual' }, T0, 600_000),
      started('far', { kind: 'manual' }, 1e16, 1000),
    ]);
    const warning =
      /^groundwork: warning: \.groundwork\/sleep\.jsonl:2: skipped, startedAt must be a whole number of milliseconds from 0 to 8\.64e15;/;
    const text = await h.run('sleep', 'list');
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, 'good  Manual pause  (since 2025-01-31 09:15:00 UTC)\n');
    assert.match(text.stderr, warning);
    const json = await h.run('sleep', 'list', '--json');
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(
      JSON.parse(json.stdout).map((s: { agent: string }) => s.agent),
      ['good'],
    );
    assert.match(json.stderr, warning);
  });
});
