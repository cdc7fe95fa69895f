// The brainstorm view as tables: (session, live facts) → what a front end shows, for every phase and
// every step; which step runs and which round shows follow from the phase, not from a guess.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  Angle,
  Answer,
  BrainstormSession,
  InquisitorOutcome,
  Question,
} from '../../../src/core/brainstorm/brainstormTypes';
import {
  brainstormView,
  newStep,
  type BrainstormLive,
  type BrainstormViewModel,
} from '../../../src/core/brainstorm/brainstormView';
import type { ToolActivity } from '../../../src/core/tools/toolActivity';

const q = (text: string, angle: Angle = 'ux', priority = 2): Question => ({ text, angle, priority });
const ok: Record<Angle, InquisitorOutcome> = {
  ux: { status: 'success' },
  technical: { status: 'timeout', detail: 'no reply within 120 s' },
  'edge-cases': { status: 'success' },
};
const said = (text: string): Answer => ({ kind: 'answered', text });
const skipped: Answer = { kind: 'skipped' };

function session(over: Partial<BrainstormSession> = {}): BrainstormSession {
  return {
    slug: 'invoices',
    topic: 'invoice export',
    createdAt: 0,
    minRounds: 2,
    maxRounds: 3,
    rounds: [],
    phase: { kind: 'inquiring' },
    ...over,
  };
}
/** At round `n`, its questions waiting (earlier rounds answered). */
const at = (n: number, over: Partial<BrainstormSession> = {}) =>
  session({
    inquisitors: ok,
    rounds: Array.from({ length: n }, (_, i) => ({
      round: i + 1,
      questions: [q(`R${i + 1}?`), q(`R${i + 1} tech?`, 'technical', 1)],
      ...(i + 1 < n ? { answers: [said('yes'), skipped] } : {}),
    })),
    phase: { kind: 'answering' },
    ...over,
  });
/** Round `n` answered, its phase `phase`. */
const after = (n: number, phase: BrainstormSession['phase']) => {
  const s = at(n);
  return { ...s, rounds: s.rounds.map((r) => ({ ...r, answers: [said('yes'), skipped] })), phase };
};
const tool = (id: string, status: ToolActivity['status'], target = 'README.md'): ToolActivity => ({
  id,
  tool: 'read_file',
  target,
  status,
});

interface Row {
  name: string;
  session?: BrainstormSession;
  live?: BrainstormLive;
  expect: Record<string, unknown> & { status: BrainstormViewModel['status'] };
}

const rows: Row[] = [
  { name: 'no brainstorm: start or resume one', expect: { status: 'none', actions: ['start', 'resume'] } },
  {
    name: 'a new brainstorm starting: round 1, the inquisitors, no slug yet',
    live: { step: newStep('start', { start: { topic: 'invoice export', minRounds: 1, maxRounds: 5 } }) },
    expect: {
      status: 'running',
      step: 'inquisitors',
      slug: '',
      topic: 'invoice export',
      round: 1,
      minRounds: 1,
      maxRounds: 5,
      rounds: [],
      actions: ['stop'],
    },
  },
  {
    name: 'the inquisitors reporting, in the angles’ order, each with its own tool calls',
    live: {
      step: newStep('start', {
        start: { topic: 't', minRounds: 1, maxRounds: 5, slug: 't' },
        inquisitors: { 'edge-cases': { state: 'running' }, ux: { state: 'success' } },
        tools: [
          { who: 'ux', activity: tool('1', 'done') },
          { who: 'edge-cases', activity: tool('2', 'running', 'src') },
        ],
      }),
    },
    expect: {
      status: 'running',
      slug: 't',
      inquisitors: [
        {
          angle: 'ux',
          state: 'success',
          tools: [{ id: '1', kind: 'read', tool: 'read_file', target: 'README.md', status: 'done' }],
        },
        {
          angle: 'edge-cases',
          state: 'running',
          tools: [{ id: '2', kind: 'read', tool: 'read_file', target: 'src', status: 'running' }],
        },
      ],
      tools: [],
    },
  },
  {
    name: 'round 1’s questions: grouped later by angle; below the minimum only “more”',
    session: at(1),
    expect: {
      status: 'questions',
      round: 1,
      rounds: [],
      questions: [q('R1?'), q('R1 tech?', 'technical', 1)],
      actions: ['more', 'close'],
    },
  },
  {
    name: 'round 2 of 3 (the minimum reached): more or summarize',
    session: at(2),
    expect: {
      status: 'questions',
      round: 2,
      actions: ['more', 'summarize', 'close'],
      rounds: [{ round: 1, questions: [q('R1?'), q('R1 tech?', 'technical', 1)], answers: ['yes', null] }],
    },
  },
  {
    name: 'the last round: only summarize',
    session: at(3),
    expect: { status: 'questions', round: 3, actions: ['summarize', 'close'] },
  },
  {
    name: 'answers of round 1 sent with “more”: the follow-up of round 2, the answers already in the history',
    session: at(1),
    live: { step: newStep('answer', { answers: [said('owners'), skipped], action: 'more' }) },
    expect: {
      status: 'running',
      step: 'follow-up',
      round: 2,
      rounds: [{ round: 1, questions: [q('R1?'), q('R1 tech?', 'technical', 1)], answers: ['owners', null] }],
    },
  },
  {
    name: 'answers of round 1 with “summarize” below the minimum: the machine’s rule makes it a follow-up',
    session: at(1),
    live: { step: newStep('answer', { answers: [said('owners'), skipped], action: 'summarize' }) },
    expect: { status: 'running', step: 'follow-up', round: 2 },
  },
  {
    name: 'answers of round 2 with “summarize”: the summary',
    session: at(2),
    live: { step: newStep('answer', { answers: [said('x'), said('y')], action: 'summarize' }) },
    expect: { status: 'running', step: 'summary' },
  },
  {
    name: 'the coordinator had nothing to ask: the core says it summarizes, and the view follows',
    session: at(2),
    live: {
      step: newStep('answer', {
        answers: [said('x'), said('y')],
        action: 'more',
        task: 'summarize',
        streamed: '{"summary"',
      }),
    },
    expect: { status: 'running', step: 'summary', streamed: '{"summary"' },
  },
  {
    name: 'a retry of a failed follow-up: the follow-up again, with the coordinator’s retry and tool calls',
    session: after(1, { kind: 'failed', during: 'follow-up', error: 'overloaded' }),
    live: {
      step: newStep('resume', {
        retry: { who: 'coordinator', attempt: 2, of: 3 },
        tools: [{ who: 'coordinator', activity: tool('c', 'error') }],
      }),
    },
    expect: {
      status: 'running',
      step: 'follow-up',
      round: 2,
      retry: { who: 'coordinator', attempt: 2, of: 3 },
      tools: [{ id: 'c', kind: 'read', tool: 'read_file', target: 'README.md', status: 'error' }],
    },
  },
  {
    name: 'a retry of round 1 that found nothing: the inquisitors, round 1',
    session: session({ inquisitors: ok, phase: { kind: 'inquiry-failed', error: 'none asked' } }),
    live: { step: newStep('resume') },
    expect: { status: 'running', step: 'inquisitors', round: 1 },
  },
  {
    name: 'a restart: round 1 again, its earlier rounds and inquisitors gone',
    session: at(2),
    live: { step: newStep('restart') },
    expect: { status: 'running', step: 'inquisitors', round: 1, rounds: [], inquisitors: undefined },
  },
  {
    name: 'a failed follow-up: the core’s error, Retry and Close, the round its answers lead to',
    session: after(1, { kind: 'failed', during: 'follow-up', error: 'The model is overloaded.' }),
    expect: {
      status: 'failed',
      round: 2,
      problem: { kind: 'error', text: 'The model is overloaded.' },
      actions: ['retry', 'close'],
    },
  },
  {
    name: 'round 1 found no usable question: the inquisitors’ statuses stay in the header',
    session: session({ inquisitors: ok, phase: { kind: 'inquiry-failed', error: 'none asked' } }),
    expect: {
      status: 'failed',
      problem: { kind: 'error', text: 'none asked' },
      inquisitors: [
        { angle: 'ux', state: 'success', tools: [] },
        { angle: 'technical', state: 'timeout', detail: 'no reply within 120 s', tools: [] },
        { angle: 'edge-cases', state: 'success', tools: [] },
      ],
    },
  },
  {
    name: 'stopped during the summary: nothing lost',
    session: after(2, { kind: 'summarizing' }),
    live: { failure: { kind: 'stopped' } },
    expect: { status: 'failed', round: 3, problem: { kind: 'stopped' } },
  },
  {
    name: 'restored while the model was working: interrupted',
    session: after(1, { kind: 'following-up' }),
    live: { failure: { kind: 'interrupted' } },
    expect: { status: 'failed', problem: { kind: 'interrupted' } },
  },
  {
    name: 'a step returned still waiting for the model: unfinished',
    session: after(1, { kind: 'summarizing' }),
    expect: { status: 'failed', problem: { kind: 'unfinished' } },
  },
  {
    name: 'an answer refused before its model call (busy elsewhere): the same questions, and why',
    session: at(2),
    live: { failure: { kind: 'error', text: 'The brainstorm is busy.' }, notice: 'Answer 1 is long.' },
    expect: { status: 'questions', round: 2, notice: 'Answer 1 is long. The brainstorm is busy.' },
  },
  {
    name: 'stopped before the model call: the questions, no notice',
    session: at(2),
    live: { failure: { kind: 'stopped' } },
    expect: { status: 'questions', notice: undefined },
  },
  {
    name: 'complete: the summary and the two files',
    session: after(2, { kind: 'complete' }),
    expect: {
      status: 'complete',
      rounds: 2,
      keyInsights: [],
      documentPath: '.groundwork/plans/invoices/00-brainstorming.md',
      contextPath: '.groundwork/plans/invoices/00-brainstorming.context.md',
      actions: ['open-document', 'open-context', 'build', 'close'],
    },
  },
];

describe('brainstormView: every phase and step', () => {
  for (const row of rows) {
    it(row.name, () => {
      const view = brainstormView(row.session, row.live);
      for (const [key, value] of Object.entries(row.expect))
        assert.deepEqual((view as unknown as Record<string, unknown>)[key], value, key);
    });
  }

  it('covers every status and every step', () => {
    const views = rows.map((r) => brainstormView(r.session, r.live));
    assert.deepEqual([...new Set(views.map((v) => v.status))].sort(), [
      'complete',
      'failed',
      'none',
      'questions',
      'running',
    ]);
    assert.deepEqual([...new Set(views.flatMap((v) => (v.status === 'running' ? [v.step] : [])))].sort(), [
      'follow-up',
      'inquisitors',
      'summary',
    ]);
  });

  it('is plain data: it survives JSON unchanged', () => {
    for (const row of rows) {
      const view = brainstormView(row.session, row.live);
      assert.deepEqual(JSON.parse(JSON.stringify(view)), view);
    }
  });

  it('never changes the session it is given', () => {
    const s = at(1);
    const copy = structuredClone(s);
    brainstormView(s, { step: newStep('answer', { answers: [said('a'), skipped], action: 'more' }) });
    assert.deepEqual(s, copy);
  });
});
