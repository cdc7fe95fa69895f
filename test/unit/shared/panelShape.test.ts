// The panel checks each section of a snapshot before drawing it (src/shared/panelShape.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { panelStringsOf, sectionProblem } from '../../../src/shared/panelShape';
import { PANEL_STRINGS } from '../../../src/shared/panelStrings';

const brief = { summary: 's', problem: 'p', users: 'u', mvpScope: 'm', technology: 't', outOfScope: 'o', keyDecisions: 'k', constraints: 'c' };

describe('sectionProblem', () => {
  const fits: Array<[string, Record<string, unknown>]> = [
    ['idle discovery', { discovery: { status: 'idle' } }],
    ['a brief', { discovery: { status: 'brief', request: 'r', brief, transcript: [{ round: 1, questions: ['q'] }], message: '' } }],
    ['a damaged brief', { discovery: { status: 'damaged', file: '.groundwork/panel/brief.json', reason: 'why' } }],
    ['questions', { discovery: { status: 'questions', request: 'r', round: 1, maxRounds: 3, rounds: [], questions: ['q'], message: '' } }],
    ['no brainstorm', { brainstorm: { status: 'none' } }],
    ['brainstorm questions', { brainstorm: { status: 'questions', slug: 's', topic: 't', round: 1, minRounds: 1, maxRounds: 5, rounds: [{ round: 1, questions: [{ text: 'q', angle: 'ux', priority: 1 }], answers: [null] }], questions: [] } }],
    ['sleepers', { sleepers: [{ agent: 'a', remaining: '1m', overdue: false }] }],
    ['no notice', { notice: undefined }],
  ];
  for (const [name, state] of fits) {
    test(`${name} fits`, () => {
      const section = Object.keys(state)[0] as Parameters<typeof sectionProblem>[1];
      assert.equal(sectionProblem(state, section), undefined);
    });
  }

  const wrong: Array<[string, Record<string, unknown>, string]> = [
    ['questions not a list', { discovery: { status: 'questions', request: 'r', round: 2, maxRounds: 3, rounds: [{ round: 1, questions: 'not-an-array' }], questions: [], message: '' } }, 'discovery.rounds[0].questions is not a list'],
    ['an unknown status', { discovery: { status: 'exploded' } }, 'discovery.status is not one of idle, running, questions, failed, brief, damaged'],
    ['a status that is a prototype key', { discovery: { status: 'toString' } }, 'discovery.status is not one of idle, running, questions, failed, brief, damaged'],
    ['a brief field that is a number', { discovery: { status: 'brief', request: 'r', brief: { ...brief, users: 5 }, transcript: [], message: '' } }, 'discovery.brief.users is not text'],
    ['a brainstorm missing its fields', { brainstorm: { status: 'questions', slug: 'x', topic: 'T' } }, 'brainstorm.round is not a number'],
    ['a brainstorm answer that is a number', { brainstorm: { status: 'failed', slug: 's', topic: 't', round: 1, minRounds: 1, maxRounds: 5, rounds: [{ round: 1, questions: [], answers: [3] }], error: 'e' } }, 'brainstorm.rounds[0].answers[0] is not text'],
    ['a round number that is NaN', { discovery: { status: 'failed', request: 'r', round: Number.NaN, maxRounds: 3, rounds: [], error: 'e' } }, 'discovery.round is not a number'],
    ['a missing section', {}, 'journal is not an object'],
  ];
  for (const [name, state, problem] of wrong) {
    test(`${name}: ${problem}`, () => {
      const section = (Object.keys(state)[0] ?? 'journal') as Parameters<typeof sectionProblem>[1];
      assert.equal(sectionProblem(state, section), problem);
    });
  }

  test('a state that is not an object', () => {
    assert.equal(sectionProblem(null, 'model'), 'the panel state is not an object');
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
