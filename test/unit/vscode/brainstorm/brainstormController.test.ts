// The brainstorm controller's routing, with a scripted BrainstormApi and fake ports (no VS Code):
// what each message and each step's progress does to the slice, what goes to which agent's stream,
// how a step that fails or is stopped is shown, and what Restricted Mode refuses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BrainstormError } from '../../../../src/core/brainstorm/brainstormTypes';
import type {
  Angle,
  BrainstormApi,
  BrainstormSession,
  InquisitorOutcome,
  StepOptions,
} from '../../../../src/core/brainstorm/brainstormTypes';
import { LlmError } from '../../../../src/core/llm/llmClient';
import type { BrainstormPanelView } from '../../../../src/shared/protocol/brainstorm';
import { BrainstormController, type BrainstormGate } from '../../../../src/vscode/brainstorm/brainstormController';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import type { StreamChunk } from '../../../../src/vscode/panel/panelParts';

const ok: Record<Angle, InquisitorOutcome> = {
  ux: { status: 'success' },
  technical: { status: 'success' },
  'edge-cases': { status: 'success' },
};
const q = (text: string, angle: Angle = 'ux') => ({ text, angle, priority: 1 });

function answering(round = 1, over: Partial<BrainstormSession> = {}): BrainstormSession {
  return {
    slug: 'invoices',
    topic: 'invoice export',
    createdAt: 0,
    minRounds: 1,
    maxRounds: 3,
    inquisitors: ok,
    rounds: Array.from({ length: round }, (_, i) => ({
      round: i + 1,
      questions: [q(`R${i + 1}?`)],
      ...(i + 1 < round ? { answers: [{ kind: 'answered' as const, text: 'yes' }] } : {}),
    })),
    phase: { kind: 'answering' },
    ...over,
  };
}

type Step = (run: StepOptions) => Promise<BrainstormSession>;

class Fixture {
  readonly steps: Step[] = [];
  readonly calls: string[] = [];
  saved: BrainstormSession | undefined;
  current: string | undefined;
  trusted = true;
  readonly refused: BrainstormGate[] = [];
  readonly running: boolean[] = [];
  readonly failures: string[] = [];
  readonly completed: string[] = [];
  readonly ran: string[] = [];
  readonly opened: string[] = [];
  readonly trust = new Emitter<void>();
  readonly chunks: StreamChunk[] = [];
  readonly built: string[] = [];
  readonly seen: BrainstormPanelView[] = [];
  readonly controller: BrainstormController;

  constructor() {
    const next = (run: StepOptions) => {
      const step = this.steps.shift();
      if (!step) throw new Error('no scripted step left');
      return step(run);
    };
    const service = {
      start: (topic: string, _o: unknown, run: StepOptions) => (this.calls.push(`start ${topic}`), next(run)),
      load: async (slug: string) => {
        if (!this.saved || this.saved.slug !== slug) throw new BrainstormError('not-found', `No brainstorm ${slug}.`);
        return this.saved;
      },
      answer: (slug: string, answers: unknown, action: string, run: StepOptions) => (
        this.calls.push(`answer ${slug} ${JSON.stringify(answers)} ${action}`),
        next(run)
      ),
      resume: (slug: string, run: StepOptions) => (this.calls.push(`resume ${slug}`), next(run)),
      restart: (slug: string, run: StepOptions) => (this.calls.push(`restart ${slug}`), next(run)),
      discard: async () => ({}),
      unfinished: async () => [],
    } as unknown as BrainstormApi;
    this.controller = new BrainstormController({
      service: async () => service,
      current: { read: async () => this.current, write: async (slug) => void (this.current = slug) },
      trusted: () => this.trusted,
      onTrustGranted: this.trust.event,
      window: {
        allows: (action) => (this.trusted ? true : (this.refused.push(action), false)),
        setRunning: (r) => this.running.push(r),
        busy: () => this.failures.push('busy'),
        completed: (slug) => this.completed.push(slug),
        couldNotStart: (m) => this.failures.push(m),
        reveal: async () => undefined,
        run: async (command) => this.ran.push(command),
      },
      log: { warn: () => undefined },
      open: async (path) => void this.opened.push(path),
      build: async (slug) => void this.built.push(slug),
    });
    this.controller.onDidChange(() => this.seen.push(this.controller.state));
    this.controller.onDidStream((c) => this.chunks.push(c));
  }

  get state(): BrainstormPanelView {
    return this.controller.state;
  }
}

describe('BrainstormController: round 1', () => {
  test('a start shows the inquisitors as they report, each tool call in its agent’s stream, then the questions', async () => {
    const f = new Fixture();
    let during: BrainstormPanelView | undefined;
    f.steps.push(async (run) => {
      run.onProgress?.({ kind: 'started', slug: 'invoices' });
      run.onProgress?.({ kind: 'inquisitor', angle: 'technical', state: 'running' });
      run.onProgress?.({
        kind: 'tool',
        who: 'technical',
        activity: { id: 'a', tool: 'search', target: 'export', status: 'running' },
      });
      run.onProgress?.({ kind: 'inquisitor', angle: 'ux', state: 'running' });
      during = f.state;
      run.onProgress?.({ kind: 'inquisitor', angle: 'technical', state: 'success', questions: 1 });
      return (f.saved = answering());
    });
    await f.controller.start('invoice export', { minRounds: 1, maxRounds: 3 });
    assert.equal(during?.status, 'running');
    if (during?.status === 'running') {
      assert.equal(during.step, 'inquisitors');
      assert.equal(during.slug, 'invoices');
      assert.deepEqual(
        during.inquisitors?.map((i) => [i.angle, i.state, i.tools.length]),
        [
          ['ux', 'running', 0],
          ['technical', 'running', 1],
        ],
      );
    }
    assert.deepEqual(f.chunks, [
      {
        stream: 'brainstorm:invoices:technical',
        kind: 'tool',
        line: { id: 'a', kind: 'search', tool: 'search', target: 'export', status: 'running' },
      },
    ]);
    assert.equal(f.state.status, 'questions');
    assert.equal(f.current, 'invoices', 'the panel remembers which brainstorm it shows');
    assert.deepEqual(f.running, [true, false]);
  });

  test('a start that fails before its folder exists: said, and nothing shown', async () => {
    const f = new Fixture();
    f.steps.push(async () => {
      throw new BrainstormError('invalid', 'The topic is empty.');
    });
    await f.controller.start(' ', {});
    assert.deepEqual(f.failures, ['The topic is empty.']);
    assert.equal(f.state.status, 'none');
  });
});

describe('BrainstormController: answers and the coordinator', () => {
  test('answers with “more”: the follow-up streams to the coordinator’s stream, then round 2', async () => {
    const f = new Fixture();
    f.saved = answering();
    f.current = 'invoices';
    await f.controller.restore();
    let during: BrainstormPanelView | undefined;
    f.steps.push(async (run) => {
      during = f.state;
      run.onProgress?.({ kind: 'coordinator', task: 'follow-up' });
      run.onProgress?.({ kind: 'text', text: '{"questions"' });
      run.onProgress?.({ kind: 'text', text: ': []}' });
      run.onProgress?.({
        kind: 'tool',
        who: 'coordinator',
        activity: { id: 'c', tool: 'read_file', target: 'README.md', status: 'done' },
      });
      return (f.saved = answering(2));
    });
    await f.controller.handle({ type: 'brainstorm.answer', answers: ['yes'], action: 'more' });
    assert.equal(f.calls.at(-1), 'answer invoices [{"kind":"answered","text":"yes"}] more');
    assert.equal(during?.status === 'running' && during.step, 'follow-up');
    assert.equal(during?.status === 'running' && during.round, 2);
    assert.deepEqual(
      f.chunks.map((c) => [c.stream, c.kind === 'text' ? c.at : c.line.id]),
      [
        ['brainstorm:invoices:coordinator', 0],
        ['brainstorm:invoices:coordinator', 12],
        ['brainstorm:invoices:coordinator', 'c'],
      ],
    );
    assert.equal(f.state.status === 'questions' && f.state.round, 2);
  });

  test('a model failure of the follow-up: the error, Retry resumes; a stop is said as a stop', async () => {
    const f = new Fixture();
    f.saved = answering();
    f.current = 'invoices';
    await f.controller.restore();
    f.steps.push(async () => {
      f.saved = {
        ...answering(),
        rounds: [{ round: 1, questions: [q('R1?')], answers: [{ kind: 'answered', text: 'yes' }] }],
        phase: { kind: 'following-up' },
      };
      throw new LlmError('overloaded', 'The model is overloaded.');
    });
    await f.controller.answer(['yes'], 'more');
    assert.deepEqual(f.state.status === 'failed' && f.state.problem, {
      kind: 'error',
      text: 'The model is overloaded.',
    });
    f.steps.push(async () => {
      throw new BrainstormError('stopped', 'Stopped.');
    });
    await f.controller.handle({ type: 'brainstorm.retry' });
    assert.equal(f.calls.at(-1), 'resume invoices');
    assert.deepEqual(f.state.status === 'failed' && f.state.problem, { kind: 'stopped' });
  });

  test('an error nobody planned for is said as a fault', async () => {
    const f = new Fixture();
    f.saved = { ...answering(), phase: { kind: 'summarizing' } };
    f.current = 'invoices';
    await f.controller.restore();
    assert.deepEqual(
      f.state.status === 'failed' && f.state.problem,
      { kind: 'interrupted' },
      'the window closed while the model worked',
    );
    f.steps.push(async () => {
      throw new TypeError('x is undefined');
    });
    await f.controller.retry();
    assert.deepEqual(f.state.status === 'failed' && f.state.problem, { kind: 'unexpected', text: 'x is undefined' });
  });

  test('Close while a step runs: the brainstorm goes, and what the step leaves is not shown', async () => {
    const f = new Fixture();
    f.saved = answering();
    f.current = 'invoices';
    await f.controller.restore();
    f.steps.push(
      (run) =>
        new Promise((_resolve, reject) =>
          run.signal.addEventListener('abort', () => reject(new BrainstormError('stopped', 'Stopped.'))),
        ),
    );
    const step = f.controller.answer(['yes'], 'summarize');
    await new Promise((r) => setImmediate(r));
    await f.controller.handle({ type: 'brainstorm.close' });
    await step;
    assert.equal(f.state.status, 'none');
    assert.equal(f.current, undefined);
    assert.equal(f.running.at(-1), false);
  });

  test('complete: said in the window; its files open from the card', async () => {
    const f = new Fixture();
    f.saved = answering();
    f.current = 'invoices';
    await f.controller.restore();
    f.steps.push(
      async () =>
        (f.saved = {
          ...answering(),
          phase: { kind: 'complete' },
          summary: { topic: 't', keyInsights: ['k'], decisions: [], openQuestions: [] },
        }),
    );
    await f.controller.answer(['yes'], 'summarize');
    assert.deepEqual(f.completed, ['invoices']);
    await f.controller.handle({ type: 'brainstorm.open', file: 'context' });
    assert.deepEqual(f.opened, ['.groundwork/plans/invoices/00-brainstorming.context.md']);
    assert.ok(f.state.status === 'complete' && f.state.actions.includes('build'), 'Build This is offered');
    await f.controller.handle({ type: 'brainstorm.build' });
    assert.deepEqual(f.built, ['invoices'], 'Build This asks the build for this brainstorm');
  });

  test('Build This does nothing while the brainstorm has not finished', async () => {
    const f = new Fixture();
    f.saved = answering();
    f.current = 'invoices';
    await f.controller.restore();
    await f.controller.handle({ type: 'brainstorm.build' });
    assert.deepEqual(f.built, []);
  });

  test('the panel’s Brainstorm… and Resume… run the palette’s commands', async () => {
    const f = new Fixture();
    await f.controller.handle({ type: 'brainstorm.new' });
    await f.controller.handle({ type: 'brainstorm.resume' });
    assert.deepEqual(f.ran, ['new', 'resume']);
  });
});

describe('BrainstormController: Restricted Mode', () => {
  test('shows no brainstorm and starts none', async () => {
    const f = new Fixture();
    f.trusted = false;
    f.saved = answering();
    f.current = 'invoices';
    await f.controller.restore();
    assert.equal(f.state.status, 'none');
    await f.controller.start('t', {});
    assert.deepEqual(f.refused, ['start']);
    assert.deepEqual(f.calls, []);
  });
});
