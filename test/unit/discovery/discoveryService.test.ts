// DiscoveryService over an in-memory workspace and a scripted model: whole conversations, the
// round file after each turn, the saved brief, expiry, cancel, failures and retry, the cap.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AuditLog } from '../../../src/core/audit/auditLog';
import { DiscoveryService } from '../../../src/core/discovery/discoveryService';
import { DiscoveryError } from '../../../src/core/discovery/discoveryTypes';
import type { DiscoveryOutcome, TurnOptions } from '../../../src/core/discovery/discoveryTypes';
import { LlmError } from '../../../src/core/llm/llmClient';
import type { LlmClient } from '../../../src/core/llm/llmClient';
import { parseRoleFile } from '../../../src/core/roles/roleFile';
import type { Role } from '../../../src/core/roles/roleSchema';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import type { Turn } from '../../support/scriptedModel';
import { discoveryModel, overloaded, USAGE } from './scriptedLlm';
import { AUDIT_FILE } from '../../../src/core/plan/layout';

const root = join(__dirname, '..', '..', '..');
const parsedRole = parseRoleFile(
  'roles/build-discovery.md',
  readFileSync(join(root, 'roles', 'build-discovery.md'), 'utf8'),
);
if (parsedRole.role === undefined) throw new Error('roles/build-discovery.md does not load');
const ROLE: Role = parsedRole.role;

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const SEC0 = T0 / 1000;
const MIN = 60_000;

const Q1 =
  'DISCOVERY_QUESTIONS\nBefore building, a few questions:\n1. Who will use it?\n2. What must it do first?\n3. Web or phone?';
const Q2 = 'DISCOVERY_QUESTIONS\n1. Do deals move through stages?\n2. Any email integration?';
const Q3 = 'DISCOVERY_QUESTIONS\n1. How many contacts?';
const BRIEF = [
  'DISCOVERY_COMPLETE',
  'IDEA_BRIEF:',
  'One-line summary: A CRM for a five-person real estate team',
  'Problem: Leads get lost in spreadsheets.',
  'Users: Five agents, not technical.',
  'MVP scope: Contacts; deals with stages.',
  'Technology: A web app.',
  'Out of scope: Email integration.',
  'Key decisions: Web only (default).',
  'Constraints: none mentioned',
].join('\n');
const SPECIFIC = 'build a Rust CLI that tracks Bitcoin prices via CoinGecko and stores them in SQLite';

function setup(script: Turn[], ttlMinutes = 30) {
  const clock = new FakeClock(T0);
  const ws = new MemoryWorkspace();
  const llm = discoveryModel(script);
  const service = new DiscoveryService({ store: ws.store, llm, clock, role: async () => ROLE, ttlMinutes });
  const audit = AuditLog.of(ws.store, clock);
  const opts = (extra: Partial<TurnOptions> = {}): TurnOptions => ({
    lang: 'en',
    signal: new AbortController().signal,
    ...extra,
  });
  const roundFile = (session = 's1') => ws.fs.text(ws.path(`discovery/${session}.md`));
  const auditKinds = async () => (await audit.read()).records.map((r) => `${r.kind} ${r.status}`);
  return { clock, ws, llm, service, audit, opts, roundFile, auditKinds };
}

function expectKind<K extends DiscoveryOutcome['kind']>(
  outcome: DiscoveryOutcome,
  kind: K,
): Extract<DiscoveryOutcome, { kind: K }> {
  assert.equal(outcome.kind, kind, JSON.stringify(outcome).slice(0, 400));
  return outcome as Extract<DiscoveryOutcome, { kind: K }>;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('DiscoveryService: a vague request', () => {
  test('questions → answers → round 2 → answers → brief, saved with the original request verbatim', async () => {
    const { service, opts, roundFile, clock, llm, ws, auditKinds } = setup([
      { text: Q1 },
      { text: Q2 },
      { text: BRIEF },
    ]);

    const first = await service.handle('s1', 'build me a CRM', opts());
    const q = expectKind(first.outcome, 'questions');
    assert.deepEqual(q.questions, ['Who will use it?', 'What must it do first?', 'Web or phone?']);
    assert.equal(q.view.round, 1);
    assert.equal(q.view.state, 'awaiting-answers');
    assert.equal(q.view.rounds[0]!.intro, 'Before building, a few questions:');
    assert.equal(q.view.file, '.groundwork/discovery/s1.md');
    assert.match(q.message, /^Before I start building/);
    assert.ok(q.message.includes('1. Who will use it?'));
    const afterRound1 = `# Discovery Session

CREATED: ${SEC0}
ROUND: 1
ORIGINAL_REQUEST: build me a CRM

## Round 1
### Agent Questions
Before building, a few questions:
1. Who will use it?
2. What must it do first?
3. Web or phone?
`;
    assert.equal(roundFile(), afterRound1);

    clock.advance(5 * MIN);
    const second = await service.handle('s1', 'My real estate team.\nContacts and deals.', opts());
    const q2 = expectKind(second.outcome, 'questions');
    assert.equal(q2.view.round, 2);
    assert.match(q2.message, /\(2\/3\)/);
    const afterRound2 = `${afterRound1.replace('ROUND: 1', 'ROUND: 2')}
### User Response
My real estate team.
Contacts and deals.

## Round 2
### Agent Questions
1. Do deals move through stages?
2. Any email integration?
`;
    assert.equal(roundFile(), afterRound2);

    clock.advance(5 * MIN);
    const third = await service.handle('s1', 'Yes, three stages. No email.', opts());
    const done = expectKind(third.outcome, 'complete');
    assert.equal(roundFile(), undefined, 'the round file is deleted on completion');
    assert.equal(done.brief.summary, 'A CRM for a five-person real estate team');
    assert.equal(done.brief.mvpScope, 'Contacts; deals with stages.');
    assert.equal(done.originalRequest, 'build me a CRM');
    assert.equal(done.rounds, 2);
    assert.deepEqual(
      done.transcript.map((r) => [r.round, r.questions.length, r.answer]),
      [
        [1, 3, 'My real estate team.\nContacts and deals.'],
        [2, 2, 'Yes, three stages. No email.'],
      ],
    );
    assert.match(done.message, /^Got it\. Here is the Idea Brief:\n\nOne-line summary: A CRM/);

    // Each round's call: the role's system prompt, the complex tier, the earlier turns as a stable prefix.
    assert.equal(llm.requests.length, 3);
    for (const r of llm.requests) {
      assert.equal(r.system, ROLE.prompt);
      assert.deepEqual(r.model, { tier: 'complex' });
    }
    assert.deepEqual(
      llm.requests.map((r) => [r.messages.length, r.stablePrefix]),
      [
        [1, 0],
        [3, 2],
        [5, 4],
      ],
    );
    assert.deepEqual(llm.requests[2]!.messages.slice(0, 3), llm.requests[1]!.messages);

    const saved = await service.saveBrief(done);
    assert.deepEqual(saved, {
      slug: 'a-crm-for-a-five-person-real-estate-team',
      path: '.groundwork/plans/a-crm-for-a-five-person-real-estate-team/idea-brief.md',
    });
    const file = ws.fs.text(ws.path('plans/a-crm-for-a-five-person-real-estate-team/idea-brief.md'))!;
    assert.ok(file.includes('## Original request\n\n```text\nbuild me a CRM\n```'), file);
    assert.ok(file.includes('## MVP scope\n\nContacts; deals with stages.'));
    assert.ok(file.includes('### Round 2'));
    assert.ok(file.includes('> Yes, three stages. No email.'));

    assert.deepEqual(await auditKinds(), [
      'discovery.start ok',
      'discovery.round ok',
      'discovery.round ok',
      'discovery.complete ok',
    ]);
  });

  test('three rounds of questions, then the FINAL call: its questions are taken as the brief', async () => {
    const stubborn = 'DISCOVERY_QUESTIONS\nOne-line summary: A CRM\n1. Anything else?';
    const { service, opts, roundFile, llm } = setup([{ text: Q1 }, { text: Q2 }, { text: Q3 }, { text: stubborn }]);
    expectKind((await service.handle('s1', 'build me a CRM', opts())).outcome, 'questions');
    expectKind((await service.handle('s1', 'agents', opts())).outcome, 'questions');
    const r3 = expectKind((await service.handle('s1', 'stages', opts())).outcome, 'questions');
    assert.equal(r3.view.round, 3);
    assert.match(r3.message, /\(3\/3\)/);
    assert.match(roundFile()!, /^ROUND: 3$/m);
    const done = expectKind((await service.handle('s1', 'about 500', opts())).outcome, 'complete');
    assert.equal(done.brief.text, 'One-line summary: A CRM\n1. Anything else?');
    assert.equal(done.brief.summary, 'A CRM\n1. Anything else?');
    assert.equal(done.rounds, 3);
    assert.equal(roundFile(), undefined);
    const finalPrompt = llm.requests[3]!.messages.at(-1)!.content as string;
    assert.ok(finalPrompt.includes('This is the FINAL round.'));
    assert.ok(!(llm.requests[2]!.messages.at(-1)!.content as string).includes('FINAL'));
  });

  test('onText streams the reply without the marker lines', async () => {
    const { service, opts } = setup([{ text: Q1, chunks: 7 }]);
    let streamed = '';
    await service.handle('s1', 'build me a CRM', opts({ onText: (t) => (streamed += t) }));
    assert.equal(
      streamed,
      'Before building, a few questions:\n1. Who will use it?\n2. What must it do first?\n3. Web or phone?',
    );
  });

  test('usage, model and cost come back with each turn, and go into the audit log', async () => {
    const { service, opts, audit } = setup([{ text: Q1, usage: { ...USAGE, cacheReadTokens: 2000 } }]);
    const result = await service.handle('s1', 'build me a CRM', opts());
    assert.deepEqual(result.usage, { ...USAGE, cacheReadTokens: 2000 });
    assert.equal(result.model, 'claude-sonnet-4-6');
    assert.ok(result.costUsd !== undefined && result.costUsd > 0);
    const [start] = (await audit.read()).records;
    assert.equal(start!.input, '[DISCOVERY:s1] build me a CRM');
    assert.deepEqual(start!.usage, { ...USAGE, cacheReadTokens: 2000 });
    assert.equal(start!.costUsd, result.costUsd);
  });

  test('a reloaded window (a new service) continues from the round file', async () => {
    const { service, opts, ws, clock, llm } = setup([{ text: Q1 }, { text: BRIEF }]);
    await service.handle('s1', 'build me a CRM', opts());
    const again = new DiscoveryService({ store: ws.store, llm, clock, role: async () => ROLE, ttlMinutes: 30 });
    const view = await again.view('s1');
    assert.equal(view?.state, 'awaiting-answers');
    assert.equal(view?.rounds[0]!.questions.length, 3);
    assert.equal(view?.expiresAt, T0 + 30 * MIN);
    expectKind((await again.handle('s1', 'agents', opts())).outcome, 'complete');
  });

  test('the lazy model factory is called once, on the first model call', async () => {
    const clock = new FakeClock(T0);
    const ws = new MemoryWorkspace();
    const llm = discoveryModel([{ text: Q1 }, { text: BRIEF }]);
    let made = 0;
    const service = new DiscoveryService({
      store: ws.store,
      llm: async (): Promise<LlmClient> => {
        made++;
        return llm;
      },
      clock,
      role: async () => ROLE,
      ttlMinutes: 30,
    });
    expectKind(
      (await service.handle('s1', 'hello', { lang: 'en', signal: new AbortController().signal })).outcome,
      'not-a-build',
    );
    assert.equal(made, 0);
    await service.handle('s1', 'build me a CRM', { lang: 'en', signal: new AbortController().signal });
    await service.handle('s1', 'agents', { lang: 'en', signal: new AbortController().signal });
    assert.equal(made, 1);
  });
});

describe('DiscoveryService: a specific request', () => {
  test('the brief in one turn, and no round file left behind', async () => {
    const { service, opts, ws, auditKinds } = setup([{ text: BRIEF }]);
    const result = await service.handle('s1', SPECIFIC, opts());
    const done = expectKind(result.outcome, 'complete');
    assert.equal(done.originalRequest, SPECIFIC);
    assert.deepEqual(done.transcript, []);
    assert.equal(done.rounds, 0);
    assert.deepEqual(
      ws.fs.paths().filter((p) => p.includes('/discovery')),
      [],
    );
    assert.deepEqual(await auditKinds(), ['discovery.start ok', 'discovery.complete ok']);
  });

  test('a reply with no markers becomes the brief', async () => {
    const { service, opts } = setup([{ text: 'A Bitcoin price tracker in Rust.\nProblem: missed moves.' }]);
    const done = expectKind((await service.handle('s1', SPECIFIC, opts())).outcome, 'complete');
    assert.equal(done.brief.text, 'A Bitcoin price tracker in Rust.\nProblem: missed moves.');
    assert.equal(done.brief.problem, 'missed moves.');
  });

  test('text that is not a build request gets no model call, unless forced', async () => {
    const { service, opts, llm } = setup([{ text: Q1 }]);
    const not = expectKind((await service.handle('s1', 'what can you do?', opts())).outcome, 'not-a-build');
    assert.match(not.message, /Idea Brief/);
    assert.equal(llm.requests.length, 0);
    expectKind((await service.handle('s1', 'a CRM for realtors', opts({ force: true }))).outcome, 'questions');
    assert.equal(llm.requests.length, 1);
  });

  test('messages are localized', async () => {
    const { service, opts } = setup([{ text: Q1 }]);
    const q = expectKind((await service.handle('s1', 'construye un CRM', opts({ lang: 'es' }))).outcome, 'questions');
    assert.match(q.message, /^Antes de empezar a construir/);
    assert.match(q.message, /\(1\/3\)/);
  });
});

describe('DiscoveryService: cancel', () => {
  test('a cancel word removes the session', async () => {
    const { service, opts, roundFile, llm, auditKinds } = setup([{ text: Q1 }]);
    await service.handle('s1', 'build me a CRM', opts());
    const result = await service.handle('s1', 'Nein!', opts({ lang: 'de' }));
    const c = expectKind(result.outcome, 'cancelled');
    assert.equal(c.message, 'Discovery abgebrochen.');
    assert.equal(roundFile(), undefined);
    assert.equal(llm.requests.length, 1);
    assert.deepEqual(await auditKinds(), ['discovery.start ok', 'discovery.cancel error']);
  });

  test('the Cancel button: cancel() removes the session; none → undefined', async () => {
    const { service, opts, roundFile } = setup([{ text: Q1 }]);
    await service.handle('s1', 'build me a CRM', opts());
    assert.deepEqual(await service.cancel('s1', 'fr'), { message: 'Découverte annulée.' });
    assert.equal(roundFile(), undefined);
    assert.equal(await service.cancel('s1', 'en'), undefined);
    assert.equal(await service.view('s1'), undefined);
  });

  test('"no idea…" is an answer, not a cancel', async () => {
    const { service, opts } = setup([{ text: Q1 }, { text: Q2 }]);
    await service.handle('s1', 'build me a CRM', opts());
    expectKind((await service.handle('s1', 'no idea what a CRM needs', opts())).outcome, 'questions');
  });

  test('a damaged round file: handle says so, cancel removes it', async () => {
    const { service, opts, ws, roundFile } = setup([]);
    ws.plant('discovery/s1.md', ['not a session']);
    const err = await rejection(service.handle('s1', 'hello', opts()));
    assert.ok(err instanceof DiscoveryError && err.kind === 'corrupt', String(err));
    assert.match((err as Error).message, /\.groundwork\/discovery\/s1\.md is not a discovery session/);
    assert.deepEqual(await service.cancel('s1', 'en'), { message: 'Discovery cancelled.' });
    assert.equal(roundFile(), undefined);
  });
});

describe('DiscoveryService: TTL (30 minutes by default)', () => {
  /** A session created at T0, with round 1 asked, planted as another window would have left it. */
  function planted(minutesLater: number, script: Turn[]) {
    const s = setup(script);
    s.ws.fs.writeRaw(
      s.ws.path('discovery/s1.md'),
      `# Discovery Session\n\nCREATED: ${SEC0}\nROUND: 1\nORIGINAL_REQUEST: build me a CRM\n\n## Round 1\n### Agent Questions\n1. Who?\n`,
    );
    s.clock.time = T0 + minutesLater * MIN;
    return s;
  }

  test('at 29 minutes the session continues', async () => {
    const { service, opts, roundFile } = planted(29, [{ text: Q2 }]);
    const result = await service.handle('s1', 'my team', opts());
    expectKind(result.outcome, 'questions');
    assert.equal(result.expiredMessage, undefined);
    assert.match(roundFile()!, /### User Response\nmy team\n/);
  });

  test('at 31 minutes it expired: reported, removed, and the message handled fresh', async () => {
    const { service, opts, roundFile, llm, auditKinds } = planted(31, []);
    const result = await service.handle('s1', 'my team', opts());
    assert.equal(
      result.expiredMessage,
      'The discovery session expired. Send your build request again if you want to continue.',
    );
    expectKind(result.outcome, 'not-a-build');
    assert.equal(roundFile(), undefined);
    assert.equal(llm.requests.length, 0);
    assert.deepEqual(await auditKinds(), ['discovery.expire error']);
  });

  test('at 31 minutes a new build request starts a new session', async () => {
    const { service, opts, roundFile } = planted(31, [{ text: Q1 }]);
    const result = await service.handle('s1', 'build me a shop', opts({ lang: 'it' }));
    assert.equal(
      result.expiredMessage,
      'La sessione di scoperta è scaduta. Invia di nuovo la tua richiesta di costruzione se vuoi continuare.',
    );
    const q = expectKind(result.outcome, 'questions');
    assert.equal(q.view.originalRequest, 'build me a shop');
    assert.match(roundFile()!, new RegExp(`CREATED: ${SEC0 + 31 * 60}\n`));
  });

  test('view() of an expired session removes it', async () => {
    const { service, roundFile, auditKinds } = planted(31, []);
    assert.equal(await service.view('s1'), undefined);
    assert.equal(roundFile(), undefined);
    assert.deepEqual(await auditKinds(), ['discovery.expire error']);
  });

  test('the TTL setting is read each turn', async () => {
    const clock = new FakeClock(T0);
    const ws = new MemoryWorkspace();
    let minutes = 30;
    const service = new DiscoveryService({
      store: ws.store,
      llm: discoveryModel([]),
      clock,
      role: async () => ROLE,
      ttlMinutes: () => minutes,
    });
    ws.fs.writeRaw(
      ws.path('discovery/s1.md'),
      `# Discovery Session\n\nCREATED: ${SEC0}\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 1\n### Agent Questions\n1. Who?\n`,
    );
    clock.time = T0 + 10 * MIN;
    assert.ok(await service.view('s1'));
    minutes = 5;
    assert.equal(await service.view('s1'), undefined);
  });

  test('cleanupExpired removes only round files older than the TTL', async () => {
    const { service, ws, clock } = setup([]);
    const file = (created: number) =>
      `# Discovery Session\n\nCREATED: ${created}\nROUND: 1\nORIGINAL_REQUEST: x\n\n## Round 1\n### Agent Questions\nq\n`;
    ws.fs.writeRaw(ws.path('discovery/old.md'), file(SEC0));
    ws.fs.writeRaw(ws.path('discovery/fresh.md'), file(SEC0 + 20 * 60));
    ws.fs.writeRaw(ws.path('discovery/notes.txt'), 'keep');
    ws.fs.writeRaw(ws.path('discovery/broken.md'), 'not a session');
    clock.time = T0 + 45 * MIN;
    assert.deepEqual(await service.cleanupExpired(), ['old']);
    assert.deepEqual(
      ws.fs
        .paths()
        .filter((p) => p.includes('/discovery/'))
        .map((p) => p.slice(p.lastIndexOf('/') + 1)),
      ['broken.md', 'fresh.md', 'notes.txt'],
    );
    assert.deepEqual(await service.cleanupExpired(), []);
  });

  test('cleanupExpired with no discovery folder', async () => {
    const { service } = setup([]);
    assert.deepEqual(await service.cleanupExpired(), []);
  });
});

describe('DiscoveryService: model failures, stop and retry', () => {
  test('a model error propagates, keeps the saved answer, and retry completes without a duplicate answer', async () => {
    const { service, opts, roundFile, llm, auditKinds } = setup([
      { text: Q1 },
      { error: overloaded() },
      { text: BRIEF },
    ]);
    await service.handle('s1', 'build me a CRM', opts());
    const err = await rejection(service.handle('s1', 'my team', opts()));
    assert.ok(err instanceof LlmError && err.kind === 'overloaded');
    assert.match(roundFile()!, /### User Response\nmy team\n$/);
    const view = await service.view('s1');
    assert.equal(view?.state, 'answer-pending');
    assert.equal(view?.rounds[0]!.answer, 'my team');

    const done = expectKind((await service.retry('s1', opts())).outcome, 'complete');
    assert.equal(done.transcript[0]!.answer, 'my team');
    assert.equal(roundFile(), undefined);
    // The retried call is the same request as the failed one: the answer once.
    assert.deepEqual(llm.requests[2], llm.requests[1]);
    const last = llm.requests[2]!.messages.at(-1)!.content as string;
    assert.equal(last.split('my team').length - 1, 1);
    assert.deepEqual(await auditKinds(), [
      'discovery.start ok',
      'discovery.round error',
      'discovery.round ok',
      'discovery.complete ok',
    ]);
  });

  test('a failure on the first message: nothing on disk, retry re-sends it', async () => {
    const { service, opts, roundFile, auditKinds } = setup([{ error: overloaded() }, { text: Q1 }]);
    const err = await rejection(service.handle('s1', 'build me a CRM', opts()));
    assert.ok(err instanceof LlmError);
    assert.equal(roundFile(), undefined);
    assert.equal(await service.view('s1'), undefined);
    const q = expectKind((await service.retry('s1', opts())).outcome, 'questions');
    assert.equal(q.view.originalRequest, 'build me a CRM');
    assert.deepEqual(await auditKinds(), ['discovery.start error', 'discovery.start ok']);
  });

  test('retry with nothing to retry is a DiscoveryError', async () => {
    const { service, opts } = setup([{ text: Q1 }]);
    const none = await rejection(service.retry('s1', opts()));
    assert.ok(none instanceof DiscoveryError && none.kind === 'nothing-to-retry');
    await service.handle('s1', 'build me a CRM', opts());
    const waiting = await rejection(service.retry('s1', opts()));
    assert.ok(waiting instanceof DiscoveryError && waiting.kind === 'nothing-to-retry');
  });

  test('stopping through the signal keeps the answer (answer-pending); retry continues', async () => {
    const { service, opts, roundFile } = setup([{ text: Q1 }, { hang: 'Thinking' }, { text: Q2 }]);
    await service.handle('s1', 'build me a CRM', opts());
    const controller = new AbortController();
    let streamed = '';
    // Stopped once the model has said something, as a person presses Stop while it streams.
    const onText = (t: string) => ((streamed += t), streamed === 'Thinking' && controller.abort());
    const turn = service.handle('s1', 'my team', opts({ signal: controller.signal, onText }));
    const stopped = expectKind((await turn).outcome, 'stopped');
    assert.equal(stopped.view?.state, 'answer-pending');
    assert.equal(streamed, 'Thinking');
    assert.match(roundFile()!, /### User Response\nmy team\n$/);
    expectKind((await service.retry('s1', opts())).outcome, 'questions');
    assert.match(roundFile()!, /## Round 2/);
  });

  test('a second turn of the same session while one runs is refused', async () => {
    const { service, opts } = setup([{ hang: '' }]);
    const controller = new AbortController();
    const first = service.handle('s1', 'build me a CRM', opts({ signal: controller.signal }));
    const err = await rejection(service.handle('s1', 'build me a CRM', opts()));
    assert.ok(err instanceof DiscoveryError && err.kind === 'busy');
    controller.abort();
    expectKind((await first).outcome, 'stopped');
  });

  test('another window changing the round file during the model call is detected', async () => {
    const clock = new FakeClock(T0);
    const ws = new MemoryWorkspace();
    const scripted = discoveryModel([{ text: Q1 }, { text: Q2 }]);
    let calls = 0;
    // The second call rewrites the file while the model "thinks", as another window would.
    const llm: LlmClient = {
      stream: (request, signal) => {
        if (++calls === 2) ws.fs.writeRaw(ws.path('discovery/s1.md'), `${ws.fs.text(ws.path('discovery/s1.md'))}\n`);
        return scripted.stream(request, signal);
      },
    };
    const service = new DiscoveryService({ store: ws.store, llm, clock, role: async () => ROLE, ttlMinutes: 30 });
    const opts = { lang: 'en' as const, signal: new AbortController().signal };
    await service.handle('s1', 'build me a CRM', opts);
    const err = await rejection(service.handle('s1', 'my team', opts));
    assert.ok(err instanceof DiscoveryError && err.kind === 'busy', String(err));
    assert.match((err as Error).message, /changed elsewhere/);
    assert.ok(
      !ws.fs.text(ws.path('discovery/s1.md'))!.includes('## Round 2'),
      "the other window's file is not overwritten",
    );
  });
});

describe('DiscoveryService: bad input and long texts', () => {
  test('a 100 KB answer: capped in the prompt with the marker, kept whole in the round file, with a notice', async () => {
    const { service, opts, roundFile, llm } = setup([{ text: Q1 }, { text: Q2 }]);
    await service.handle('s1', 'build me a CRM', opts());
    const big = `${'Lorem ipsum dolor sit amet. '.repeat(3700)}THE END`;
    assert.ok(big.length > 100_000);
    const result = await service.handle('s1', big, opts());
    expectKind(result.outcome, 'questions');
    const prompt = llm.requests[1]!.messages.at(-1)!.content as string;
    assert.ok(prompt.includes('…[truncated, see .groundwork/discovery/s1.md, Round 1 User Response]'));
    assert.ok(!prompt.includes('THE END'));
    assert.ok(prompt.length < 10_000);
    assert.ok(roundFile()!.includes(`### User Response\n${big}\n`), 'the whole answer is in the round file');
    assert.equal(result.capped?.originalBytes, big.length);
    assert.equal(result.capped?.keptAt, '.groundwork/discovery/s1.md');
    assert.ok(result.capped!.sentBytes <= 8 * 1024);
    assert.match(result.capped!.message, /the model saw only its first 8 KB.*\.groundwork\/discovery\/s1\.md/);
    const view = await service.view('s1');
    assert.equal(view?.rounds[0]!.answer, big);
  });

  test('a 100 KB first message that completes at once: the whole text is in originalRequest', async () => {
    const { service, opts, llm } = setup([{ text: BRIEF }]);
    const big = `build me a CRM. ${'details '.repeat(13_000)}`.trim();
    const result = await service.handle('s1', big, opts());
    const done = expectKind(result.outcome, 'complete');
    assert.equal(done.originalRequest, big);
    assert.ok(
      (llm.requests[0]!.messages[0]!.content as string).includes(
        '…[truncated, see .groundwork/discovery/s1.md, ORIGINAL_REQUEST]',
      ),
    );
    assert.equal(result.capped?.keptAt, undefined);
    assert.match(result.capped!.message, /with the Idea Brief/);
  });

  test('empty and oversized messages are refused', async () => {
    const { service, opts, llm } = setup([]);
    const empty = await rejection(service.handle('s1', '  \n ', opts()));
    assert.ok(empty instanceof DiscoveryError && empty.kind === 'empty');
    const huge = await rejection(service.handle('s1', `build me a CRM ${'x'.repeat(300 * 1024)}`, opts()));
    assert.ok(huge instanceof DiscoveryError && huge.kind === 'too-large');
    assert.match((huge as Error).message, /at most 256 KB/);
    assert.equal(llm.requests.length, 0);
  });

  test('an unsafe session id is made safe for the file name', async () => {
    const { service, opts, ws } = setup([{ text: Q1 }]);
    const q = expectKind((await service.handle('../../evil/id', 'build me a CRM', opts())).outcome, 'questions');
    assert.equal(q.view.session, '../../evil/id');
    assert.equal(q.view.file, '.groundwork/discovery/-.-..-evil-id-b76c0946c9daf1e3.md');
    assert.ok(ws.fs.text(ws.path('discovery/-.-..-evil-id-b76c0946c9daf1e3.md')));
    assert.ok((await service.view('../../evil/id'))?.rounds.length === 1);
  });

  test('an answer that imitates the round file layout does not break the session', async () => {
    const { service, opts } = setup([{ text: Q1 }, { text: Q2 }]);
    await service.handle('s1', 'build me a CRM', opts());
    await service.handle('s1', '## Round 7\n### User Response\nROUND: 9', opts());
    const view = await service.view('s1');
    assert.equal(view?.rounds.length, 2);
    assert.equal(view?.round, 2);
    assert.equal(view?.rounds[0]!.answer, '## Round 7\n### User Response\nROUND: 9');
  });
});

describe('DiscoveryService.saveBrief', () => {
  test('slugs are unique among plan folders; the request is fenced even when it holds backticks', async () => {
    const { service, ws } = setup([]);
    ws.fs.mkdir(ws.path('plans/a-crm'));
    const brief = {
      summary: 'A CRM',
      problem: '',
      users: '',
      mvpScope: '',
      technology: '',
      outOfScope: '',
      keyDecisions: '',
      constraints: '',
      text: 'One-line summary: A CRM',
    };
    const request = 'build this:\n```\ncode\n```\nand ````more````';
    const first = await service.saveBrief({ brief, originalRequest: request, transcript: [] });
    assert.equal(first.slug, 'a-crm-2');
    const second = await service.saveBrief({ brief, originalRequest: request, transcript: [] });
    assert.equal(second.slug, 'a-crm-3');
    const text = ws.fs.text(ws.path('plans/a-crm-2/idea-brief.md'))!;
    assert.ok(text.includes(`\`\`\`\`\`text\n${request}\n\`\`\`\`\``), text);
  });

  test('a brief without a summary takes its slug from the request', async () => {
    const { service } = setup([]);
    const brief = {
      summary: '',
      problem: '',
      users: '',
      mvpScope: '',
      technology: '',
      outOfScope: '',
      keyDecisions: '',
      constraints: '',
      text: '',
    };
    const saved = await service.saveBrief({ brief, originalRequest: 'Создай CRM', transcript: [] });
    assert.equal(saved.slug, 'sozdai-crm');
  });
});

describe('audit entries', () => {
  test('each carries [DISCOVERY:<session>] and its status (docs/discovery.md, "Audit entries")', async () => {
    const { service, opts, audit } = setup([{ text: Q1 }]);
    await service.handle('chat 42', 'build me a CRM', opts());
    await service.handle('chat 42', 'cancel', opts());
    const records = (await audit.read()).records;
    assert.deepEqual(
      records.map((r) => [r.kind, r.status, r.input]),
      [
        ['discovery.start', 'ok', '[DISCOVERY:chat 42] build me a CRM'],
        ['discovery.cancel', 'error', '[DISCOVERY:chat 42] build me a CRM'],
      ],
    );
    assert.equal(records[0]!.timestamp, '2025-01-01T12:00:00.000Z');
  });

  test('the audit file is audit.jsonl', () => {
    assert.equal(AUDIT_FILE, 'audit.jsonl');
  });
});
