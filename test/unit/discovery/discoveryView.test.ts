// The discovery view as tables: (core data, live facts) → what a front end shows, for every status.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiscoveryView } from '../../../src/core/discovery/discoveryTypes';
import {
  discoveryView,
  type BriefCard,
  type DiscoveryLive,
  type DiscoverySource,
  type DiscoveryViewModel,
} from '../../../src/core/discovery/discoveryView';
import type { ToolActivity } from '../../../src/core/tools/toolActivity';
import { FIELDS, sessionView } from './sessionView';

const round = (n: number, answer?: string) => ({
  round: n,
  questionsText: `1. Q${n}a\n2. Q${n}b`,
  intro: '',
  questions: [`Q${n}a`, `Q${n}b`],
  ...(answer !== undefined ? { answer } : {}),
});

const session = (over: Partial<DiscoveryView> = {}) =>
  sessionView({ expiresAt: 1_800_000, rounds: [round(1)], ...over });

const card = (over: Partial<BriefCard> = {}): BriefCard => ({
  request: 'build me a CRM',
  brief: FIELDS,
  transcript: [{ round: 1, questions: ['Q1a'], answer: 'A' }],
  message: 'Here is the brief',
  ...over,
});
const tool = (id: string, status: ToolActivity['status'], over: Partial<ToolActivity> = {}): ToolActivity => ({
  id,
  tool: 'read_file',
  target: 'README.md',
  status,
  ...over,
});

interface Row {
  name: string;
  source: DiscoverySource;
  live?: DiscoveryLive;
  expect: Partial<DiscoveryViewModel> & { status: DiscoveryViewModel['status'] };
}

const rows: Row[] = [
  { name: 'nothing: idle, with a composer', source: { kind: 'none' }, expect: { status: 'idle', actions: ['send'] } },
  {
    name: 'a text that was not a build request: idle with the hint',
    source: { kind: 'none' },
    live: { hint: true },
    expect: { status: 'idle', hint: true, actions: ['send', 'discover-this'] },
  },
  {
    name: 'a new conversation under way: round 1 of the typed request',
    source: { kind: 'none' },
    live: { turn: { request: 'build me a CRM', streamed: 'Who', tools: [] } },
    expect: {
      status: 'running',
      request: 'build me a CRM',
      round: 1,
      maxRounds: 3,
      rounds: [],
      streamed: 'Who',
      tools: [],
      actions: ['cancel'],
    },
  },
  {
    name: 'a new conversation started over a brief on the card: the turn shows, the card waits',
    source: { kind: 'brief', card: card() },
    live: { turn: { request: 'build me a shop', streamed: '', tools: [] } },
    expect: { status: 'running', request: 'build me a shop', round: 1 },
  },
  {
    name: 'answers of round 1 being read: round 2 shows, the session keeps its request',
    source: { kind: 'session', view: session() },
    live: { turn: { request: 'ignored', streamed: '', tools: [], retry: { attempt: 2, of: 3 } } },
    expect: { status: 'running', request: 'build me a CRM', round: 2, retry: { attempt: 2, of: 3 } },
  },
  {
    name: 'answers of the last round being read: the round stays at the limit',
    source: { kind: 'session', view: session({ round: 3, rounds: [round(1, 'a'), round(2, 'b'), round(3)] }) },
    live: { turn: { request: '', streamed: '', tools: [] } },
    expect: {
      status: 'running',
      round: 3,
      rounds: [
        { round: 1, questions: ['Q1a', 'Q1b'], answer: 'a' },
        { round: 2, questions: ['Q2a', 'Q2b'], answer: 'b' },
        { round: 3, questions: ['Q3a', 'Q3b'] },
      ],
    },
  },
  {
    name: 'questions of round 2, with the core’s lead-in and a notice',
    source: {
      kind: 'session',
      view: session({ round: 2, rounds: [round(1, 'a'), round(2)] }),
      message: 'More questions (2/3)',
    },
    live: { notice: 'Your message was cut to 8 KB.' },
    expect: {
      status: 'questions',
      round: 2,
      questions: ['Q2a', 'Q2b'],
      message: 'More questions (2/3)',
      notice: 'Your message was cut to 8 KB.',
      actions: ['answer', 'cancel'],
    },
  },
  {
    name: 'questions restored after a reload: no lead-in',
    source: { kind: 'session', view: session() },
    expect: { status: 'questions', round: 1, questions: ['Q1a', 'Q1b'], message: '', actions: ['answer', 'cancel'] },
  },
  {
    name: 'a failed model call: the error, Retry and Cancel',
    source: { kind: 'session', view: session({ state: 'answer-pending', rounds: [round(1, 'a')] }) },
    live: { failure: { reason: 'error', error: 'overloaded' } },
    expect: {
      status: 'failed',
      round: 1,
      failure: { reason: 'error', error: 'overloaded' },
      actions: ['retry', 'cancel'],
    },
  },
  {
    name: 'an answer saved with no reply, restored: the window closed during the call',
    source: { kind: 'session', view: session({ state: 'answer-pending', rounds: [round(1, 'a')] }) },
    expect: { status: 'failed', failure: { reason: 'interrupted' }, actions: ['retry', 'cancel'] },
  },
  {
    name: 'a brief not saved yet: edit, save, brainstorm, build, discard',
    source: { kind: 'brief', card: card() },
    expect: { status: 'brief', brief: FIELDS, actions: ['edit', 'save', 'brainstorm', 'build', 'discard'] },
  },
  {
    name: 'a saved brief: open the plan, brainstorm, build, discard',
    source: { kind: 'brief', card: card({ savedAt: '.groundwork/plans/crm/idea-brief.md' }) },
    expect: {
      status: 'brief',
      savedAt: '.groundwork/plans/crm/idea-brief.md',
      actions: ['open-plan', 'brainstorm', 'build', 'discard'],
    },
  },
  {
    name: 'a brief with no fields (the model ignored the format): no brainstorm from it, but a build of its text',
    source: { kind: 'brief', card: card({ brief: { ...FIELDS, summary: '' }, raw: 'A stock list' }) },
    expect: { status: 'brief', raw: 'A stock list', actions: ['edit', 'save', 'build', 'discard'] },
  },
  {
    name: 'a brief with neither fields nor text: nothing to brainstorm or build',
    source: { kind: 'brief', card: card({ brief: { ...FIELDS, summary: '' }, raw: ' ' }) },
    expect: { status: 'brief', actions: ['edit', 'save', 'discard'] },
  },
  {
    name: 'a damaged brief file: why, Discard, and a new conversation',
    source: { kind: 'damaged', file: '.groundwork/panel/brief.json', reason: 'it is not valid JSON' },
    expect: {
      status: 'damaged',
      file: '.groundwork/panel/brief.json',
      reason: 'it is not valid JSON',
      actions: ['discard', 'send'],
    },
  },
];

describe('discoveryView: every status from the core’s data and the live facts', () => {
  for (const row of rows) {
    it(row.name, () => {
      const view = discoveryView(row.source, row.live);
      for (const [key, value] of Object.entries(row.expect))
        assert.deepEqual((view as Record<string, unknown>)[key], value, key);
    });
  }

  it('covers every status', () => {
    const seen = new Set(rows.map((r) => discoveryView(r.source, r.live).status));
    assert.deepEqual([...seen].sort(), ['brief', 'damaged', 'failed', 'idle', 'questions', 'running']);
  });

  it('is plain data: it survives JSON unchanged', () => {
    for (const row of rows) {
      const view = discoveryView(row.source, row.live);
      assert.deepEqual(JSON.parse(JSON.stringify(view)), view);
    }
  });
});

describe('discoveryView: the agent’s tool calls in a running turn', () => {
  const run = (tools: ToolActivity[]) =>
    discoveryView({ kind: 'none' }, { turn: { request: 'r', streamed: '', tools } });

  it('one line per call, where it began, with its latest status', () => {
    const view = run([
      tool('a', 'running'),
      tool('b', 'running', { tool: 'list_files', target: 'src' }),
      tool('a', 'done'),
      tool('c', 'running', { tool: 'search', target: 'auth' }),
    ]);
    assert.equal(view.status, 'running');
    if (view.status !== 'running') return;
    assert.deepEqual(
      view.tools.map((t) => [t.id, t.kind, t.target, t.status]),
      [
        ['a', 'read', 'README.md', 'done'],
        ['b', 'list', 'src', 'running'],
        ['c', 'search', 'auth', 'running'],
      ],
    );
  });

  it('a failed call keeps its error, on one line', () => {
    const view = run([tool('a', 'running'), tool('a', 'error', { error: 'no such file:\nREADME.md' })]);
    if (view.status !== 'running') return assert.fail(view.status);
    assert.deepEqual(view.tools[0], {
      id: 'a',
      kind: 'read',
      tool: 'read_file',
      target: 'README.md',
      status: 'error',
      error: 'no such file: README.md',
    });
  });

  it('a hostile target is one visible line, cut: no line breaks, no bidi controls, no markup run', () => {
    const view = run([
      tool('a', 'running', { target: `evil\u202e.md\n<img src=x onerror=alert(1)>${'x'.repeat(200)}` }),
    ]);
    if (view.status !== 'running') return assert.fail(view.status);
    const target = view.tools[0]!.target;
    assert.ok(!/[\n\r\u202e]/.test(target), target);
    assert.match(target, /\\u202e/);
    assert.equal([...target].length, 80);
    assert.ok(target.endsWith('…'));
  });

  it('a tool it does not know is listed by its name', () => {
    const view = run([tool('z', 'done', { tool: 'fetch_url', target: 'https://example.com' })]);
    if (view.status !== 'running') return assert.fail(view.status);
    assert.equal(view.tools[0]!.kind, 'other');
    assert.equal(view.tools[0]!.tool, 'fetch_url');
  });
});
