// The discovery controller's routing, with a scripted DiscoveryApi and fake ports (no VS Code):
// what each message and each turn's outcome does to the slice, what it streams, how often it says
// the slice changed, and what Restricted Mode refuses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  DiscoveryApi,
  DiscoveryView,
  TurnOptions,
  TurnResult,
} from '../../../../src/core/discovery/discoveryTypes';
import { DiscoveryError } from '../../../../src/core/discovery/discoveryTypes';
import type { DiscoveryPanelView } from '../../../../src/shared/protocol/discovery';
import {
  DiscoveryController,
  type DiscoveryGate,
  type DiscoveryPorts,
} from '../../../../src/vscode/discovery/discoveryController';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import type { StreamChunk } from '../../../../src/vscode/panel/panelParts';
import type { PendingBrief, PendingRead } from '../../../../src/vscode/discovery/pendingBrief';
import { FIELDS, sessionView } from '../../discovery/sessionView';

type Turn = (text: string | undefined, options: TurnOptions) => Promise<TurnResult>;

class Fixture {
  readonly turns: Turn[] = [];
  readonly calls: string[] = [];
  saved: DiscoveryView | undefined;
  pending: PendingRead = { kind: 'none' };
  written: Array<PendingBrief | undefined> = [];
  trusted = true;
  refused: DiscoveryGate[] = [];
  readonly said: string[] = [];
  readonly failures: string[] = [];
  readonly active: boolean[] = [];
  readonly opened: string[] = [];
  readonly brainstormed: Array<{ slug: string; topic: string }> = [];
  readonly built: string[] = [];
  readonly trust = new Emitter<void>();
  readonly chunks: StreamChunk[] = [];
  changes = 0;
  readonly controller: DiscoveryController;

  constructor() {
    const next = async (text: string | undefined, options: TurnOptions) => {
      const turn = this.turns.shift();
      if (!turn) throw new Error('no scripted turn left');
      return turn(text, options);
    };
    const service: DiscoveryApi = {
      handle: (session, text, options) => (
        this.calls.push(`handle ${session} ${options.force ? 'force ' : ''}${JSON.stringify(text)}`),
        next(text, options)
      ),
      retry: (session, options) => (this.calls.push(`retry ${session}`), next(undefined, options)),
      cancel: async (session) => (this.calls.push(`cancel ${session}`), { message: 'Discovery cancelled.' }),
      view: async () => this.saved,
      saveBrief: async (b) => (
        this.calls.push(`save ${b.brief.summary}`),
        { slug: 'a-crm', path: '.groundwork/plans/a-crm/idea-brief.md' }
      ),
      cleanupExpired: async () => [],
    };
    const ports: DiscoveryPorts = {
      service: async () => service,
      pending: {
        read: async () => this.pending,
        write: async (brief) => {
          this.written.push(brief);
          this.pending = brief ? { kind: 'ok', brief } : { kind: 'none' };
        },
      },
      peek: async () => (this.saved ? { kind: 'live', view: this.saved } : { kind: 'none' }),
      trusted: () => this.trusted,
      onTrustGranted: this.trust.event,
      window: {
        allows: (action) => (this.trusted ? true : (this.refused.push(action), false)),
        setActive: (a) => this.active.push(a),
        say: (m) => this.said.push(m),
        couldNotStart: (m) => this.failures.push(m),
        language: () => 'en',
        noAnswer: () => '(no answer)',
      },
      log: { info: () => undefined, warn: () => undefined },
      open: async (rel) => void this.opened.push(rel),
      brainstorm: async (plan) => void this.brainstormed.push(plan),
      build: async (source) => void this.built.push(source.path),
    };
    this.controller = new DiscoveryController(ports);
    this.controller.onDidChange(() => this.changes++);
    this.controller.onDidStream((c) => this.chunks.push(c));
  }

  get state(): DiscoveryPanelView {
    return this.controller.state;
  }
}

const questions = (v: DiscoveryView, message = 'A few questions first:'): TurnResult => ({
  outcome: { kind: 'questions', view: v, questions: v.rounds.at(-1)!.questions, message },
});

describe('DiscoveryController: a turn', () => {
  test('a new request runs, streams its text and tool calls, and ends with the questions: two changes, not one per chunk', async () => {
    const f = new Fixture();
    await f.controller.restore();
    f.changes = 0;
    let seenWhileRunning: DiscoveryPanelView | undefined;
    f.turns.push(async (_text, options) => {
      seenWhileRunning = f.state;
      options.onTool?.({ id: 't1', tool: 'read_file', target: 'README.md', status: 'running' });
      options.onText?.('Who ');
      options.onText?.('uses it?');
      options.onTool?.({ id: 't1', tool: 'read_file', target: 'README.md', status: 'done' });
      f.saved = sessionView();
      return questions(f.saved);
    });
    await f.controller.handle({ type: 'discovery.send', text: 'build me a CRM' });
    assert.equal(seenWhileRunning?.status, 'running');
    assert.deepEqual(f.calls, ['handle panel "build me a CRM"']);
    assert.deepEqual(f.chunks, [
      {
        stream: 'discovery:panel',
        kind: 'tool',
        line: { id: 't1', kind: 'read', tool: 'read_file', target: 'README.md', status: 'running' },
      },
      { stream: 'discovery:panel', kind: 'text', at: 0, text: 'Who ' },
      { stream: 'discovery:panel', kind: 'text', at: 4, text: 'uses it?' },
      {
        stream: 'discovery:panel',
        kind: 'tool',
        line: { id: 't1', kind: 'read', tool: 'read_file', target: 'README.md', status: 'done' },
      },
    ]);
    assert.equal(f.changes, 2, 'running, then the questions');
    assert.equal(f.state.status, 'questions');
    if (f.state.status === 'questions') {
      assert.deepEqual(f.state.questions, ['Who?', 'Where?']);
      assert.equal(f.state.message, 'A few questions first:');
    }
    assert.deepEqual(f.active, [true]);
  });

  test('"Discover This Idea" forces a start; the answers go as one message, a skipped one said as such', async () => {
    const f = new Fixture();
    f.turns.push(async () => questions((f.saved = sessionView())));
    await f.controller.handle({ type: 'discovery.start', text: 'a note app' });
    f.turns.push(async () => questions((f.saved = sessionView({ round: 2 }))));
    await f.controller.handle({ type: 'discovery.answer', answers: ['Bakers', ' '], extra: 'On a phone' });
    assert.deepEqual(f.calls, [
      'handle panel force "a note app"',
      'handle panel "1. Bakers\\n2. (no answer)\\n\\nOn a phone"',
    ]);
  });

  test('the running view shows the next round while the answers are read', async () => {
    const f = new Fixture();
    f.saved = sessionView();
    await f.controller.restore();
    let round: number | undefined;
    f.turns.push(async () => {
      round = f.state.status === 'running' ? f.state.round : undefined;
      return questions((f.saved = sessionView({ round: 2 })));
    });
    await f.controller.handle({ type: 'discovery.answer', answers: ['a', 'b'], extra: '' });
    assert.equal(round, 2);
  });

  test('a retried model call says so while it waits, and the text that follows clears it', async () => {
    const f = new Fixture();
    const seen: unknown[] = [];
    f.turns.push(async (_t, options) => {
      options.onRetry?.({ type: 'retry', attempt: 2, of: 3, delayMs: 10, reason: 'overloaded' });
      seen.push(f.state.status === 'running' ? f.state.retry : 'not running');
      options.onText?.('x');
      seen.push(f.state.status === 'running' ? f.state.retry : 'not running');
      return questions((f.saved = sessionView()));
    });
    await f.controller.send('build me a CRM', false);
    assert.deepEqual(seen, [{ attempt: 2, of: 3 }, undefined]);
  });

  test('a model failure after the answer was saved: the error, and Retry runs the saved answer again', async () => {
    const f = new Fixture();
    f.saved = sessionView();
    await f.controller.restore();
    f.turns.push(async () => {
      f.saved = sessionView({ state: 'answer-pending' });
      throw new Error('The model is overloaded.');
    });
    await f.controller.handle({ type: 'discovery.answer', answers: ['a'], extra: '' });
    assert.equal(f.state.status, 'failed');
    if (f.state.status === 'failed')
      assert.deepEqual(f.state.failure, { reason: 'error', error: 'The model is overloaded.' });
    f.turns.push(async () => questions((f.saved = sessionView({ round: 2 }))));
    await f.controller.handle({ type: 'discovery.retry' });
    assert.equal(f.calls.at(-1), 'retry panel');
    assert.equal(f.state.status, 'questions');
  });

  test('a first message that fails saved nothing: the window says so, the panel is idle again', async () => {
    const f = new Fixture();
    f.turns.push(async () => {
      throw new DiscoveryError('too-large', 'The message is too large.');
    });
    await f.controller.send('build me a CRM', false);
    assert.deepEqual(f.failures, ['The message is too large.']);
    assert.equal(f.state.status, 'idle');
  });

  test('not a build request: idle, with the hint', async () => {
    const f = new Fixture();
    f.turns.push(async () => ({ outcome: { kind: 'not-a-build', message: 'Groundwork builds things.' } }));
    await f.controller.send('hello', false);
    assert.deepEqual(f.state, { status: 'idle', hint: true, actions: ['send', 'discover-this'] });
  });

  test('Cancel during a turn stops it and ends the session', async () => {
    const f = new Fixture();
    let release!: () => void;
    f.turns.push(
      (_t, options) =>
        new Promise((resolve) => {
          release = () => resolve({ outcome: { kind: 'stopped', message: 'Stopped.' } });
          options.signal.addEventListener('abort', () => release());
        }),
    );
    const turn = f.controller.send('build me a CRM', false);
    await new Promise((r) => setImmediate(r));
    assert.equal(f.state.status, 'running');
    await f.controller.handle({ type: 'discovery.cancel' });
    await turn;
    assert.equal(f.state.status, 'idle');
    assert.ok(f.calls.includes('cancel panel'));
    assert.deepEqual(f.said, ['Discovery cancelled.']);
    assert.equal(f.active.at(-1), false);
  });
});

describe('DiscoveryController: the brief', () => {
  const complete: TurnResult = {
    outcome: {
      kind: 'complete',
      brief: { ...FIELDS, text: 'One-line summary: A CRM for a bakery' },
      originalRequest: 'build me a CRM',
      transcript: sessionView().rounds,
      rounds: 1,
      message: 'Here is the brief.',
    },
  };

  test('kept for the card, saved as a plan, opened, brainstormed deeper', async () => {
    const f = new Fixture();
    f.turns.push(async () => complete);
    await f.controller.send('build me a CRM', true);
    assert.equal(f.state.status, 'brief');
    assert.equal(f.written.length, 1);
    assert.deepEqual(f.state.status === 'brief' && f.state.actions, ['edit', 'save', 'brainstorm', 'build', 'discard']);
    await f.controller.handle({ type: 'brief.brainstorm' });
    assert.ok(f.calls.includes('save A CRM for a bakery'), 'saved first');
    assert.deepEqual(f.brainstormed, [{ slug: 'a-crm', topic: 'A CRM for a bakery' }]);
    await f.controller.handle({ type: 'brief.open' });
    assert.deepEqual(f.opened, ['plans/a-crm/idea-brief.md']);
    await f.controller.handle({ type: 'brief.discard' });
    assert.equal(f.state.status, 'idle');
    assert.equal(f.written.at(-1), undefined);
  });

  test('Build This saves the brief as a plan first, then asks the build for that saved brief', async () => {
    const f = new Fixture();
    f.turns.push(async () => complete);
    await f.controller.send('build me a CRM', true);
    await f.controller.handle({ type: 'brief.build' });
    assert.ok(f.calls.includes('save A CRM for a bakery'), 'saved first');
    assert.deepEqual(f.built, ['.groundwork/plans/a-crm/idea-brief.md']);
    await f.controller.handle({ type: 'brief.build' });
    assert.equal(f.calls.filter((c) => c.startsWith('save ')).length, 1, 'a saved brief is not saved again');
    assert.equal(f.built.length, 2);
  });

  test('Build This in Restricted Mode: refused before anything is saved', async () => {
    const f = new Fixture();
    f.pending = { kind: 'ok', brief: { request: 'r', brief: FIELDS, transcript: [], message: '' } };
    f.trusted = false;
    await f.controller.restore();
    await f.controller.handle({ type: 'brief.build' });
    assert.deepEqual(f.refused, ['build']);
    assert.deepEqual(f.built, []);
    assert.deepEqual(f.calls, []);
  });

  test('a brief file that broke since the card was drawn is shown as damaged, not saved', async () => {
    const f = new Fixture();
    f.turns.push(async () => complete);
    await f.controller.send('build me a CRM', true);
    f.pending = { kind: 'damaged', reason: 'it is not valid JSON' };
    await f.controller.handle({ type: 'brief.save', brief: FIELDS });
    assert.deepEqual(f.state, {
      status: 'damaged',
      file: '.groundwork/panel/brief.json',
      reason: 'it is not valid JSON',
      actions: ['discard', 'send'],
    });
  });
});

describe('DiscoveryController: after a reload, and Restricted Mode', () => {
  test('restores questions, or a failed turn the window closed on, or the brief on the card', async () => {
    const a = new Fixture();
    a.saved = sessionView();
    await a.controller.restore();
    assert.equal(a.state.status, 'questions');
    const b = new Fixture();
    b.saved = sessionView({ state: 'answer-pending' });
    await b.controller.restore();
    assert.deepEqual(b.state.status === 'failed' && b.state.failure, { reason: 'interrupted' });
    const c = new Fixture();
    c.pending = { kind: 'ok', brief: { request: 'r', brief: FIELDS, transcript: [], message: '' } };
    await c.controller.restore();
    assert.equal(c.state.status, 'brief');
  });

  test('refuses every change where it starts, and calls nothing', async () => {
    const f = new Fixture();
    f.trusted = false;
    f.saved = sessionView();
    await f.controller.restore();
    assert.equal(f.state.status, 'questions', 'what the workspace holds is shown');
    await f.controller.handle({ type: 'discovery.answer', answers: ['a'], extra: '' });
    await f.controller.handle({ type: 'discovery.cancel' });
    await f.controller.handle({ type: 'brief.discard' });
    assert.deepEqual(f.refused, ['start', 'cancel', 'discard']);
    assert.deepEqual(f.calls, []);
  });

  test('trust granted reads the workspace again', async () => {
    const f = new Fixture();
    await f.controller.restore();
    assert.equal(f.state.status, 'idle');
    f.saved = sessionView();
    f.trust.fire();
    await f.controller.restore();
    assert.equal(f.state.status, 'questions');
  });
});
