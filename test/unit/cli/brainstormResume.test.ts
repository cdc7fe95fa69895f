// `groundwork brainstorm` when a run does not get to the end: a failed model call, the end of
// stdin mid-round, Ctrl-C; then --resume, --restart, --discard and --list; and the refusals that
// keep it from hanging (--unattended, empty stdin). The same refusals timed on the built CLI:
// test/stress/cli/brainstormBuiltCli.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { brainstorm as brainstormCommand } from '../../../src/cli/commands/brainstorm';
import { createNodeDeps } from '../../../src/cli/nodeDeps';
import type { CliTerminal } from '../../../src/cli/terminal';
import { runCli } from '../../../src/cli/runCli';
import { reply, type ScriptedModelServer } from '../../support/scriptedModelServer';
import { until } from '../../support/until';
import {
  SHOWN_1,
  SLUG,
  TOPIC,
  followUp,
  inquisitor,
  inquisitors,
  planPath,
  readContext,
  readSession,
  runBrainstorm,
  summarize,
  type TerminalOptions,
  useScriptedWorkspace,
} from './brainstormHarness';
import type { CliRun } from '../../support/processes';

const RESUME_HINT = `run 'groundwork --workspace `;

describe('groundwork brainstorm: failures, resume, discard, list (in-process)', () => {
  let server: ScriptedModelServer;
  let ws: string;
  let env: Record<string, string | undefined>;

  useScriptedWorkspace((s) => ({ server, ws, env } = s));

  const brainstorm = (
    argv: string[],
    options: TerminalOptions & { env?: Record<string, string | undefined> } = {},
  ): Promise<CliRun> => runBrainstorm(ws, options.env ?? env, argv, options);
  const resumeHint = (r: CliRun, slug = SLUG) =>
    assert.ok(r.stderr.includes(RESUME_HINT) && r.stderr.includes(`brainstorm --resume ${slug}'`), r.stderr);

  test('the follow-up fails (500, no retries left): exit 1, kept at failed; --resume asks round 2 only', async () => {
    server.add(
      ...inquisitors(),
      // The first attempt and the SDK's three retries.
      followUp(reply.error(500, { message: 'scripted outage', retryAfterMs: 1 }), {
        name: 'failing follow-up',
        times: 4,
      }),
      followUp(),
      summarize(),
    );
    const failed = await brainstorm([TOPIC], { stdin: 'the accountant\nskip\nCSV\n/more\nnever read\n' });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stdout, /^Round 1 /);
    assert.match(failed.stderr, /The Anthropic API failed \(500: scripted outage, still after 4 attempts\)/);
    resumeHint(failed);
    assert.match(failed.stderr, /kept at round 1; .* to retry/);
    const kept = await readSession(ws);
    assert.equal(kept.phase.kind, 'failed');
    assert.equal(kept.rounds[0]?.answers?.length, 4);

    const resumed = await brainstorm(['--resume', SLUG], { stdin: 'a login each\nfifty thousand\n' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /^Round 2 of at most 5/);
    for (const q of SHOWN_1) assert.ok(!resumed.stdout.includes(q), `round 1 is not asked again: ${q}`);
    const ctx = await readContext(ws);
    assert.deepEqual(
      ctx.questions.map((q) => [q.round, q.answer ?? null]),
      // Round 1 in the order merged (priority, then angle); it was shown grouped by angle.
      [
        [1, 'the accountant'],
        [1, 'CSV'],
        [1, null],
        [1, null],
        [2, 'a login each'],
        [2, 'fifty thousand'],
      ],
    );
    assert.equal(server.requests.filter((q) => q.rule?.startsWith('inquisitor')).length, 3, 'the inquisitors ran once');
    assert.deepEqual(server.pending(), []);
  });

  test('the summary stream is cut off: exit 1; --resume with empty stdin writes the summary (no answers needed)', async () => {
    server.add(
      ...inquisitors(),
      summarize(
        reply.text(['{"summary":{"topic":"x",', '"key_insights":[]}}'], { fail: { mode: 'drop', afterDeltas: 1 } }),
      ),
      summarize(),
    );
    const failed = await brainstorm([TOPIC], { stdin: 'a\nb\nc\nd\n' });
    assert.equal(failed.code, 1, failed.stderr);
    resumeHint(failed);
    assert.deepEqual((await readSession(ws)).phase.kind, 'failed');
    assert.equal(existsSync(planPath(ws, SLUG, '00-brainstorming.md')), false);

    const resumed = await brainstorm(['--resume', SLUG]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /^Brainstorm complete after 1 round/);
    assert.ok(existsSync(planPath(ws, SLUG, '.brainstorm-complete')));
    const again = await brainstorm(['--resume', SLUG]);
    assert.equal(again.code, 2);
    assert.match(
      again.stderr,
      /is complete: read \.groundwork\/plans\/let-customers-export-their-invoices\/00-brainstorming\.md/,
    );
  });

  test('end of stdin mid-round: nothing sent, kept, exit 2; --resume shows the same questions and continues', async () => {
    server.add(...inquisitors(), summarize());
    const cut = await brainstorm([TOPIC], { stdin: 'the accountant\nskip\n' });
    assert.equal(cut.code, 2, cut.stderr);
    assert.match(cut.stderr, /no answers on stdin/);
    resumeHint(cut);
    const kept = await readSession(ws);
    assert.equal(kept.phase.kind, 'answering');
    assert.equal(kept.rounds[0]?.answers, undefined, 'the answers were not sent');
    assert.equal(server.requests.length, 3);

    const resumed = await brainstorm(['--resume', SLUG], { stdin: 'the accountant\n\nCSV\nnothing\n' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.ok(resumed.stdout.startsWith(`${cut.stdout}Brainstorm complete`), 'the same questions, then the summary');
    assert.equal(server.requests.length, 4, 'no inquisitor asked again');
    assert.equal((await readContext(ws)).questions.filter((q) => !q.skipped).length, 3);
  });

  test('Ctrl-C during the follow-up: exit 130, kept; during the wait for an answer: exit 130, kept', async () => {
    server.add(
      ...inquisitors(),
      followUp(reply.text('{"questions":[]}', { headerDelayMs: 10_000 }), { name: 'slow follow-up' }),
      followUp(),
    );
    const stopped = await brainstorm([TOPIC], {
      stdin: 'a\nb\nc\n/more\n',
      onInterrupt: (fire) =>
        void until('the slow follow-up', () =>
          server.requests.some((q) => q.rule === 'slow follow-up') ? true : undefined,
        ).then(fire),
    });
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.match(stopped.stderr, /Stopped\. The brainstorm let-customers-export-their-invoices is kept at round 1/);
    resumeHint(stopped);
    assert.equal((await readSession(ws)).phase.kind, 'following-up');

    // Now waiting for round 2's first answer on a terminal that never ends.
    const stdin = new PassThrough();
    let out = '';
    let err = '';
    const io = { stdout: (s: string) => void (out += s), stderr: (s: string) => void (err += s), env, cwd: ws };
    const onTerminal: CliTerminal = {
      stdin: () => stdin,
      stdinIsTTY: () => true,
      stderrIsTTY: () => false,
      onInterrupt: (fire) => {
        void until('the round 2 prompt', () => (err.includes('Answer 1/2') ? true : undefined)).then(fire);
        return () => undefined;
      },
      onTerminate: () => () => undefined,
    };
    const code = await runCli(
      ['--workspace', ws, 'brainstorm', '--resume', SLUG],
      io,
      { ...createNodeDeps(), terminal: onTerminal },
      [brainstormCommand],
    );
    assert.equal(code, 130, err);
    assert.match(out, /^Round 2 of at most 5/);
    assert.match(err, /Stopped\. The brainstorm let-customers-export-their-invoices is kept at round 2/);
    assert.equal((await readSession(ws)).phase.kind, 'answering');
  });

  test('no inquisitor asks anything: exit 1 with what each did; --resume runs them again', async () => {
    server.add(
      inquisitor('ux', 'no'),
      inquisitor('technical', '{"questions":[]}'),
      inquisitor('edge-cases', ''),
      ...inquisitors(),
      summarize(),
    );
    const failed = await brainstorm([TOPIC], { stdin: 'a\n' });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /None of the three inquisitors asked a usable question \(ux: parse_error/);
    resumeHint(failed);
    const resumed = await brainstorm(['--resume', SLUG], { stdin: 'a\nb\nc\nd\n' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /^Round 1 of at most 5 \(let-customers-export-their-invoices\): 4 questions/);
  });

  test('--resume --restart starts again from round 1; --list shows unfinished ones; --discard removes one', async () => {
    server.add(...inquisitors(), ...inquisitors(), ...inquisitors());
    assert.equal((await brainstorm([TOPIC], { stdin: 'a\n' })).code, 2);
    assert.equal((await brainstorm(['Offline mode for the app', '--slug', 'offline'], { stdin: 'a\n' })).code, 2);

    const list = await brainstorm(['--list']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      list.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/ {2,}/)),
      [
        ['offline', 'round 1', 'answering', 'Offline mode for the app'],
        [SLUG, 'round 1', 'answering', TOPIC],
      ],
      'newest first',
    );
    const json = JSON.parse((await brainstorm(['--list', '--json'])).stdout) as {
      event: string;
      brainstorms: { slug: string; phase: string }[];
    };
    assert.deepEqual(json.brainstorms.map((b) => [b.slug, b.phase]).sort(), [
      ['let-customers-export-their-invoices', 'answering'],
      ['offline', 'answering'],
    ]);

    const restarted = await brainstorm(['--resume', 'offline', '--restart'], { stdin: '' });
    assert.equal(restarted.code, 2, 'empty stdin is refused before the inquisitors are asked again');
    const again = await brainstorm(['--resume', 'offline', '--restart'], { stdin: 'x\n' });
    assert.equal(again.code, 2, again.stderr);
    assert.equal(server.requests.length, 9, 'the inquisitors were asked again');

    const discarded = await brainstorm(['--discard', 'offline']);
    assert.equal(discarded.code, 0, discarded.stderr);
    assert.equal(discarded.stdout, 'Discarded the brainstorm offline (.groundwork/plans/offline)\n');
    assert.equal(existsSync(planPath(ws, 'offline')), false);
    const viaResume = await brainstorm(['--resume', SLUG, '--discard', '--json']);
    assert.deepEqual(JSON.parse(viaResume.stdout), { event: 'discarded', slug: SLUG });
    assert.equal((await brainstorm(['--list'])).stdout, 'no unfinished brainstorms\n');
    assert.equal((await brainstorm(['--discard', 'offline'])).code, 2);
  });

  test("bad slugs for --resume and --discard exit 2 with the core's message, before any model call", async () => {
    await mkdir(join(ws, '.groundwork/plans/real'), { recursive: true });
    await symlink(join(ws, '.groundwork/plans/real'), join(ws, '.groundwork/plans/linked'));
    const cases: [string, RegExp][] = [
      ['../x', /"\.\.\/x" is not a plan name: a plan name is 1 to 64 characters/],
      ['/abs', /"\/abs" is not a plan name/],
      ['Foo', /"Foo" is not a plan name.*e\.g\. "foo"/],
      ['linked', /Refused to use \.groundwork\/plans\/linked: it is a symbolic link, not a plan folder/],
      ['missing', /There is no plan \.groundwork\/plans\/missing/],
    ];
    for (const [slug, expected] of cases) {
      for (const argv of [
        ['--resume', slug],
        ['--discard', slug],
      ]) {
        const r = await brainstorm(argv, { stdin: 'a\n' });
        assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, expected);
        assert.equal(r.stdout, '');
      }
    }
    const badNew = await brainstorm([TOPIC, '--slug', '../x'], { stdin: 'a\n' });
    assert.equal(badNew.code, 2);
    assert.match(badNew.stderr, /is not a plan name/);
    assert.equal(server.requests.length, 0);
  });

  test('bad usage and empty stdin exit 2 and call no model', async () => {
    const cases: [string[], RegExp, Record<string, string | undefined>?, string?][] = [
      [[], /brainstorm needs a topic/],
      [['--restart', TOPIC], /--restart goes with --resume SLUG/],
      [['--rounds', '0', TOPIC], /--rounds must be a whole number from 1 to 20, not '0'/],
      [['--max-rounds', 'many', TOPIC], /--max-rounds must be a whole number/],
      [['--rounds', '4', '--max-rounds', '2', TOPIC], /minimum number of rounds \(4\) is more than the maximum \(2\)/],
      [['--resume', SLUG, 'a topic'], /--resume takes no topic/],
      [['--resume', SLUG, '--rounds', '2'], /--rounds is for a new brainstorm/],
      [['--list', TOPIC], /--list takes no topic/],
      [['--discard'], /--discard needs the slug/],
      [
        [TOPIC],
        /GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS must be a positive number/,
        { GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS: '-1' },
      ],
      [
        [TOPIC],
        /GROUNDWORK_BRAINSTORM_CONCURRENCY must be a positive whole number/,
        { GROUNDWORK_BRAINSTORM_CONCURRENCY: '1.5' },
      ],
      [[TOPIC], /set ANTHROPIC_API_KEY/, { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }],
      [[TOPIC], /no answers on stdin: it is not a terminal and it is empty/, {}, ''],
      [[TOPIC, '--unattended'], /a brainstorm needs someone to answer its questions, so it does not run --unattended/],
    ];
    for (const [argv, expected, extra = {}, stdin = 'an answer\n'] of cases) {
      const r = await brainstorm(argv, { env: { ...env, ...extra }, stdin });
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, expected);
    }
    assert.equal(server.requests.length, 0);
    assert.equal(existsSync(join(ws, '.groundwork/plans')), false, 'nothing was started');
  });
});
