// The panel checks each feature's slice before drawing it (src/shared/panelShape.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { panelStringsOf, sliceProblem, toolLineProblem } from '../../../src/shared/panelShape';
import { PANEL_STRINGS } from '../../../src/shared/panelStrings';
import type { FeatureId } from '../../../src/shared/protocol/common';
import { BRIEF_FIELDS } from '../../support/brief';

const brief = BRIEF_FIELDS;
const actions: string[] = [];
const header = { slug: 's', topic: 't', round: 1, minRounds: 1, maxRounds: 5, rounds: [], actions };
const tool = { id: 't1', kind: 'read', tool: 'read_file', target: 'README.md', status: 'done' };

describe('sliceProblem', () => {
  const fits: Array<[string, FeatureId, unknown]> = [
    ['idle discovery', 'discovery', { status: 'idle', actions }],
    [
      'a brief',
      'discovery',
      { status: 'brief', request: 'r', brief, transcript: [{ round: 1, questions: ['q'] }], message: '', actions },
    ],
    [
      'a damaged brief',
      'discovery',
      { status: 'damaged', file: '.groundwork/panel/brief.json', reason: 'why', actions },
    ],
    [
      'questions',
      'discovery',
      { status: 'questions', request: 'r', round: 1, maxRounds: 3, rounds: [], questions: ['q'], message: '', actions },
    ],
    [
      'a running turn with tool calls',
      'discovery',
      { status: 'running', request: 'r', round: 1, maxRounds: 3, rounds: [], streamed: '', tools: [tool], actions },
    ],
    [
      'a failed turn',
      'discovery',
      {
        status: 'failed',
        request: 'r',
        round: 1,
        maxRounds: 3,
        rounds: [],
        failure: { reason: 'interrupted' },
        actions,
      },
    ],
    ['no brainstorm', 'brainstorm', { status: 'none', actions }],
    [
      'brainstorm questions',
      'brainstorm',
      {
        status: 'questions',
        ...header,
        rounds: [{ round: 1, questions: [{ text: 'q', angle: 'ux', priority: 1 }], answers: [null] }],
        questions: [],
      },
    ],
    [
      'inquisitors at work',
      'brainstorm',
      {
        status: 'running',
        ...header,
        step: 'inquisitors',
        streamed: '',
        tools: [],
        inquisitors: [{ angle: 'ux', state: 'running', tools: [tool] }],
      },
    ],
    ['a stopped step', 'brainstorm', { status: 'failed', ...header, problem: { kind: 'stopped' } }],
    ['sleepers', 'sleep', { sleepers: [{ agent: 'a', mode: 'timer', startedAt: 0, maxDurationMs: 60_000 }] }],
    ['the panel, no notice', 'panel', { trusted: true, hasWorkspace: true, notices: [] }],
  ];
  for (const [name, feature, value] of fits) {
    test(`${name} fits`, () => assert.equal(sliceProblem(feature, value), undefined));
  }

  const wrong: Array<[string, FeatureId, unknown, string]> = [
    [
      'questions not a list',
      'discovery',
      {
        status: 'questions',
        request: 'r',
        round: 2,
        maxRounds: 3,
        rounds: [{ round: 1, questions: 'not-an-array' }],
        questions: [],
        message: '',
        actions,
      },
      'discovery.rounds[0].questions is not a list',
    ],
    [
      'an unknown status',
      'discovery',
      { status: 'exploded' },
      'discovery.status is not one of idle, running, questions, failed, brief, damaged',
    ],
    [
      'a status that is a prototype key',
      'discovery',
      { status: 'toString' },
      'discovery.status is not one of idle, running, questions, failed, brief, damaged',
    ],
    [
      'a brief field that is a number',
      'discovery',
      { status: 'brief', request: 'r', brief: { ...brief, users: 5 }, transcript: [], message: '', actions },
      'discovery.brief.users is not text',
    ],
    ['no actions', 'discovery', { status: 'idle' }, 'discovery.actions is not a list'],
    [
      'a tool call of an unknown kind',
      'discovery',
      {
        status: 'running',
        request: 'r',
        round: 1,
        maxRounds: 3,
        rounds: [],
        streamed: '',
        tools: [{ ...tool, kind: 'exec' }],
        actions,
      },
      'discovery.tools[0].kind is not one of read, list, search, other',
    ],
    [
      'a brainstorm missing its fields',
      'brainstorm',
      { status: 'questions', slug: 'x', topic: 'T' },
      'brainstorm.round is not a number',
    ],
    [
      'a brainstorm answer that is a number',
      'brainstorm',
      {
        status: 'failed',
        ...header,
        rounds: [{ round: 1, questions: [], answers: [3] }],
        problem: { kind: 'error', text: 'e' },
      },
      'brainstorm.rounds[0].answers[0] is not text',
    ],
    [
      'a problem of another kind',
      'brainstorm',
      { status: 'failed', ...header, problem: { kind: 'exploded' } },
      'brainstorm.problem.kind is not one of error, unexpected, stopped, interrupted, unfinished',
    ],
    [
      'a round number that is NaN',
      'discovery',
      {
        status: 'failed',
        request: 'r',
        round: Number.NaN,
        maxRounds: 3,
        rounds: [],
        failure: { reason: 'error', error: 'e' },
        actions,
      },
      'discovery.round is not a number',
    ],
    [
      'a sleeper without its start',
      'sleep',
      { sleepers: [{ agent: 'a', mode: 'timer', maxDurationMs: 1 }] },
      'sleep.sleepers[0].startedAt is not a number',
    ],
    ['a missing slice', 'journal', undefined, 'journal is not an object'],
    ['a panel slice that is not one', 'panel', 'trusted', 'panel is not an object'],
  ];
  for (const [name, feature, value, problem] of wrong) {
    test(`${name}: ${problem}`, () => assert.equal(sliceProblem(feature, value), problem));
  }

  test('a tool call line is checked the same way', () => {
    assert.equal(toolLineProblem(tool), undefined);
    assert.equal(toolLineProblem({ ...tool, target: 5 }), 'line.target is not text');
    assert.equal(toolLineProblem(null), 'line is not an object');
  });
});

describe('panelStringsOf', () => {
  test('keeps the host’s strings and fills any missing or wrong one in English', () => {
    const strings = panelStringsOf({ send: 'Enviar', cancel: 42, __proto__: { retry: 'x' } });
    assert.equal(strings.send, 'Enviar');
    assert.equal(strings.cancel, PANEL_STRINGS.cancel);
    assert.equal(strings.retry, PANEL_STRINGS.retry);
    assert.deepEqual(Object.keys(strings).sort(), Object.keys(PANEL_STRINGS).sort());
    assert.deepEqual(panelStringsOf(undefined), { ...PANEL_STRINGS });
  });
});
