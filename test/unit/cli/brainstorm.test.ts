// `groundwork brainstorm` against the scripted model server through the real SDK, in-process on
// real temporary workspaces: round 1's inquisitors in parallel, answers from stdin (skip,
// /summarize, /more), the artifacts, the prompt tokens of each round. Resuming, refusals and the
// built CLI are in brainstormResume.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { reply, type MessagesBody, type ScriptedModelServer } from '../../support/scriptedModelServer';
import {
  FOLLOW_UP,
  SHOWN_1,
  SLUG,
  TOPIC,
  auditTokens,
  bodyText,
  followUp,
  inquisitor,
  inquisitors,
  planPath,
  readContext,
  runBrainstorm,
  summarize,
  type TerminalOptions,
  useScriptedWorkspace,
} from './brainstormHarness';
import type { CliRun } from '../../support/processes';

describe('groundwork brainstorm (in-process, scripted model server)', () => {
  let server: ScriptedModelServer;
  let ws: string;
  let env: Record<string, string | undefined>;

  useScriptedWorkspace((s) => ({ server, ws, env } = s));

  const brainstorm = (
    argv: string[],
    options: TerminalOptions & { env?: Record<string, string | undefined> } = {},
  ): Promise<CliRun> => runBrainstorm(ws, options.env ?? env, argv, options);
  const bodies = (rule: string) => server.requests.filter((r) => r.rule === rule).map((r) => r.body as MessagesBody);

  test('round 1: the three inquisitors are in flight at the same time', async (t) => {
    server.add(...inquisitors({ headerDelayMs: 1000 }), summarize());
    const r = await brainstorm([TOPIC], { stdin: 'the accountant\n\nCSV\nskip\n' });
    assert.equal(r.code, 0, r.stderr);

    const round1 = server.requests.filter((q) => q.rule?.startsWith('inquisitor'));
    assert.equal(round1.length, 3);
    for (const a of round1) {
      for (const b of round1)
        assert.ok(
          a.receivedAt < b.finishedAt! && b.receivedAt < a.finishedAt!,
          `requests #${a.seq} and #${b.seq} overlap`,
        );
    }
    const wall = Math.max(...round1.map((q) => q.finishedAt!)) - Math.min(...round1.map((q) => q.receivedAt));
    t.diagnostic(`round 1 wall time with each inquisitor delayed 1000 ms: ${wall.toFixed(0)} ms`);
    console.log(`brainstorm round 1 wall time (3 inquisitors, each delayed 1000 ms): ${wall.toFixed(0)} ms`);
    assert.ok(wall < 2000, `round 1 took ${wall.toFixed(0)} ms; the inquisitors ran one after another`);
    assert.match(r.stderr, /ux: asking…[\s\S]*ux: success/);
    assert.match(r.stderr, /round 1: 4 questions \(ux 2, technical 1, edge-cases 1\)/);
  });

  test('GROUNDWORK_BRAINSTORM_CONCURRENCY=1 runs the inquisitors one at a time', async () => {
    server.add(...inquisitors({ headerDelayMs: 200 }), summarize());
    const r = await brainstorm([TOPIC], {
      stdin: 'a\nb\nc\nd\n',
      env: { ...env, GROUNDWORK_BRAINSTORM_CONCURRENCY: '1' },
    });
    assert.equal(r.code, 0, r.stderr);
    const [a, b, c] = server.requests.filter((q) => q.rule?.startsWith('inquisitor'));
    assert.ok(a!.finishedAt! <= b!.receivedAt && b!.finishedAt! <= c!.receivedAt, 'one after another');
  });

  test('one inquisitor answers garbage: its status is parse_error and the brainstorm goes on', async () => {
    server.add(
      inquisitor('ux'),
      inquisitor('technical'),
      inquisitor('edge-cases', 'Sure! Here are my thoughts: {"questions": [ oops'),
      summarize(),
    );
    const r = await brainstorm([TOPIC], { stdin: 'the accountant\n\nCSV\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /edge-cases: parse_error\n/);
    assert.match(r.stderr, /round 1: 3 questions \(ux 2, technical 1\); edge-cases: parse_error \(/);
    assert.match(r.stdout, /: 3 questions\n/);
    const ctx = await readContext(ws);
    assert.deepEqual(ctx.inquisitorStatus, { ux: 'success', technical: 'success', 'edge-cases': 'parse_error' });
    assert.ok(existsSync(planPath(ws, SLUG, '.brainstorm-complete')));
  });

  test('answer, skip, answer, /summarize: the context file records them; the coordinator sees only the answers, as data', async () => {
    server.add(...inquisitors(), summarize());
    // Shown in angle order: ux (2), technical, edge-cases.
    const r = await brainstorm([TOPIC], {
      stdin: 'The accountant, at month end\n  SKIP  \nCSV only\n/summarize\nnever read\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Round 1 of at most 5 \(let-customers-export-their-invoices\): 4 questions\n\nUX\n {2}1\. \(priority 1\) Who exports the invoices, the owner or the accountant\?\n {2}2\. \(priority 2\) Where would someone look/,
    );
    assert.match(
      r.stdout,
      /\nTechnical\n {2}3\. \(priority 1\) Which file formats must the export write\?\n\nEdge cases\n {2}4\. \(priority 2\) What should happen/,
    );
    assert.equal(r.stderr.includes('Answer 1/'), false, 'no prompts when stdin is not a terminal');

    const ctx = await readContext(ws);
    assert.deepEqual(ctx.inquisitorStatus, { ux: 'success', technical: 'success', 'edge-cases': 'success' });
    assert.equal(ctx.rounds, 1);
    const byText = new Map(ctx.questions.map((q) => [q.text, q]));
    assert.deepEqual(byText.get(SHOWN_1[0]!), {
      round: 1,
      angle: 'ux',
      priority: 1,
      text: SHOWN_1[0],
      answer: 'The accountant, at month end',
      skipped: false,
    });
    assert.deepEqual(byText.get(SHOWN_1[1]!), { round: 1, angle: 'ux', priority: 2, text: SHOWN_1[1], skipped: true });
    assert.deepEqual(byText.get(SHOWN_1[2]!), {
      round: 1,
      angle: 'technical',
      priority: 1,
      text: SHOWN_1[2],
      answer: 'CSV only',
      skipped: false,
    });
    assert.deepEqual(
      byText.get(SHOWN_1[3]!),
      { round: 1, angle: 'edge-cases', priority: 2, text: SHOWN_1[3], skipped: true },
      'unanswered after /summarize',
    );
    assert.deepEqual(ctx.summary.decisions, ['CSV only: the accountants asked use CSV (technical, round 1)']);

    const [body] = bodies('summarize');
    const prompt = body!.messages
      .map((m) => (typeof m.content === 'string' ? m.content : bodyText(m.content)))
      .join('\n');
    assert.match(
      prompt,
      /<untrusted-data boundary="[0-9a-f]+" source="user answer">\nThe accountant, at month end\n<\/untrusted-data/,
    );
    assert.match(prompt, /<untrusted-data boundary="[0-9a-f]+" source="user answer">\nCSV only\n<\/untrusted-data/);
    assert.equal(prompt.match(/source="user answer"/g)?.length, 2, 'two answer blocks: the skipped ones have none');
    assert.equal(prompt.match(/\[skipped by user\]/g)?.length, 2);
    assert.ok(!/SKIP|\/summarize|never read/.test(prompt), 'nothing of the skip words or the lines after /summarize');

    for (const file of [
      'rounds/round-1.md',
      '00-brainstorming.md',
      '00-brainstorming.context.md',
      '.brainstorm-complete',
    ]) {
      assert.ok(existsSync(planPath(ws, SLUG, file)), file);
    }
    assert.match(
      r.stdout,
      /Brainstorm complete after 1 round: Accountants export a period of invoices as CSV\n\nKey insights:\n {2}- Accountants, not owners, do most exports\nDecisions:\n {2}- CSV only/,
    );
    assert.match(r.stdout, /Open questions:\n {2}- Which time zone decides the period of an invoice\?\n/);
    assert.ok(
      r.stdout.endsWith(
        `Saved .groundwork/plans/${SLUG}/00-brainstorming.md\n  and .groundwork/plans/${SLUG}/00-brainstorming.context.md\n`,
      ),
      r.stdout,
    );
  });

  test('two rounds with /more: the follow-up questions are round 2; the prompt tokens of each round', async (t) => {
    server.add(...inquisitors(), followUp(), summarize());
    const r = await brainstorm([TOPIC, '--slug', 'invoices'], {
      stdin: 'the accountant\nin the list\n/more\nabout 50000\nyes\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Round 2 of at most 5 \(invoices\): 2 questions\n\nEdge cases\n {2}1\. \(priority 1\) Does the accountant need a login of their own\?/,
    );
    assert.match(r.stderr, /reading your answers…[\s\S]*writing the summary…/);
    assert.ok(existsSync(planPath(ws, 'invoices', 'rounds/round-2.md')));
    const ctx = await readContext(ws, 'invoices');
    assert.equal(ctx.rounds, 2);
    const round2 = ctx.questions.filter((q) => q.round === 2);
    assert.deepEqual(
      round2.map((q) => [q.text, q.answer]),
      [
        [FOLLOW_UP[0]![0], 'about 50000'],
        [FOLLOW_UP[1]![0], 'yes'],
      ],
    );
    assert.ok(bodyText(bodies('summarize')[0]).includes('about 50000'));

    // Release-note numbers: the prompt tokens of each round, from the audit log.
    const tokens = await auditTokens(ws);
    const sum = (kind: string) => tokens.filter((e) => e.kind === kind).reduce((n, e) => n + e.inputTokens, 0);
    const inquisitorCalls = tokens.filter((e) => e.kind === 'brainstorm.inquisitor');
    assert.equal(inquisitorCalls.length, 3);
    const lines = [
      `round 1 (3 inquisitors): ${sum('brainstorm.inquisitor')} prompt tokens (${inquisitorCalls.map((e) => e.inputTokens).join(' + ')})`,
      `round 2 (coordinator follow-up): ${sum('brainstorm.follow-up')} prompt tokens`,
      `summary (coordinator): ${sum('brainstorm.summarize')} prompt tokens`,
    ];
    for (const line of lines) {
      t.diagnostic(line);
      console.log(`brainstorm tokens: ${line}`);
    }
    assert.ok(
      sum('brainstorm.follow-up') > 0 && sum('brainstorm.summarize') > sum('brainstorm.follow-up'),
      'the summary sees more rounds than the follow-up',
    );
  });

  test('--rounds 2: without a terminal round 2 follows without /more, then the summary', async () => {
    server.add(...inquisitors(), followUp(), summarize());
    const r = await brainstorm([TOPIC, '--rounds', '2'], { stdin: 'a\nb\nc\nd\ne\nf\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await readContext(ws)).rounds, 2);
    assert.deepEqual(server.pending(), []);
  });

  test('--max-rounds 1: /more is overruled with a notice and the summary written', async () => {
    server.add(...inquisitors(), summarize());
    const r = await brainstorm([TOPIC, '--max-rounds', '1'], { stdin: 'a\n/more\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /limited to 1 rounds, so it is summarized now/);
    assert.match(r.stdout, /Round 1 of at most 1/);
  });

  test('an inquisitor past GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS is recorded as timeout; the others go on', async () => {
    server.add(
      inquisitor('ux'),
      inquisitor('technical'),
      inquisitor('edge-cases', reply.text('{"questions":[]}', { headerDelayMs: 3000 })),
      summarize(),
    );
    const started = Date.now();
    const r = await brainstorm([TOPIC], {
      stdin: 'a\nb\nc\n',
      env: { ...env, GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS: '0.5' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Date.now() - started < 2500, 'the slow inquisitor was not waited for');
    assert.match(r.stderr, /edge-cases: timeout \(no reply within/);
    assert.equal((await readContext(ws)).inquisitorStatus['edge-cases'], 'timeout');
  });

  test("on a terminal: a prompt per answer and the choice of /more or /summarize on stderr; the coordinator's text dimmed", async () => {
    server.add(
      ...inquisitors(),
      followUp(
        reply.text([
          '{"questions":[{"text":"Does the accountant',
          ' need a login of their own?","angle":"ux","priority":1}]}',
        ]),
      ),
      summarize(),
    );
    const r = await brainstorm([TOPIC], {
      stdin: 'a\nb\nc\nd\nnonsense\n/more\nyes\n\n',
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    assert.equal(r.code, 0, r.stderr);
    for (let k = 1; k <= 4; k++)
      assert.ok(r.stderr.includes(`Answer ${k}/4 (skip, /summarize, /more): `), `prompt ${k}`);
    assert.equal(
      r.stderr.match(/Next: \/more for follow-up questions, \/summarize to finish \[\/summarize\]: /g)?.length,
      3,
      'asked again after nonsense; after round 2 an empty line summarizes',
    );
    assert.match(r.stderr, /\x1b\[2m\{"questions":\[\{"text":"Does the accountant\x1b\[22m/);
    assert.ok(!r.stdout.includes('\x1b'), 'no escapes on stdout');
    assert.equal((await readContext(ws)).rounds, 2);
  });

  test('--json: one object per event; untrusted text escaped', async () => {
    server.add(
      inquisitor(
        'ux',
        JSON.stringify({ questions: [{ text: 'Who exports \u202ethe invoices?', angle: 'ux', priority: 1 }] }),
      ),
      inquisitor('technical'),
      inquisitor('edge-cases'),
      summarize(),
    );
    const r = await brainstorm(['--json', TOPIC], { stdin: 'a\nb\nc\n' });
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      events.map((e) => e['event']),
      ['questions', 'complete'],
    );
    const q = events[0] as {
      slug: string;
      round: number;
      maxRounds: number;
      questions: { number: number; angle: string; priority: number; text: string }[];
    };
    assert.equal(q.slug, SLUG);
    assert.deepEqual(
      q.questions.map((x) => [x.number, x.angle]),
      [
        [1, 'ux'],
        [2, 'technical'],
        [3, 'edge-cases'],
      ],
    );
    assert.ok(r.stdout.includes('\\u202e'), 'the bidi override is escaped');
    const done = events[1] as {
      paths: { document: string; context: string };
      summary: { decisions: string[] };
      rounds: number;
    };
    assert.deepEqual(done.paths, {
      document: `.groundwork/plans/${SLUG}/00-brainstorming.md`,
      context: `.groundwork/plans/${SLUG}/00-brainstorming.context.md`,
    });
    assert.equal(done.rounds, 1);
    assert.deepEqual(done.summary.decisions, ['CSV only: the accountants asked use CSV (technical, round 1)']);
  });

  test('help: the answer words, --json events, the environment and the exit codes', async () => {
    const r = await brainstorm(['--help']);
    assert.equal(r.code, 0);
    for (const text of [
      'skip, or an empty line',
      '/summarize',
      '/more',
      '"event": "questions"',
      'GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS',
      'GROUNDWORK_BRAINSTORM_CONCURRENCY',
      '--unattended',
      '130 stopped',
    ]) {
      assert.ok(r.stdout.includes(text), text);
    }
    assert.equal(server.requests.length, 0);
  });
});
