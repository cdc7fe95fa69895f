// The brainstorm machine as tables: (session, event) → (phase, effects).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { due, step } from '../../../src/core/brainstorm/brainstormMachine';
import type { BrainstormEffect, BrainstormEvent, StepResult } from '../../../src/core/brainstorm/brainstormMachine';
import { proseSummary } from '../../../src/core/brainstorm/harvest';
import type {
  Angle,
  Answer,
  BrainstormErrorKind,
  BrainstormSession,
  InquisitorOutcome,
  Question,
} from '../../../src/core/brainstorm/brainstormTypes';

const q = (text: string, angle: Angle = 'ux', priority = 2): Question => ({ text, angle, priority });
const ok: Record<Angle, InquisitorOutcome> = {
  ux: { status: 'success' },
  technical: { status: 'success' },
  'edge-cases': { status: 'success' },
};
const answered = (text: string): Answer => ({ kind: 'answered', text });
const skipped: Answer = { kind: 'skipped' };

function session(over: Partial<BrainstormSession> = {}): BrainstormSession {
  return {
    slug: 'invoices',
    topic: 'invoice export',
    createdAt: 0,
    minRounds: 1,
    maxRounds: 3,
    rounds: [],
    phase: { kind: 'inquiring' },
    ...over,
  };
}
const answering = (round: number, over: Partial<BrainstormSession> = {}) =>
  session({
    inquisitors: ok,
    rounds: Array.from({ length: round }, (_, i) => ({
      round: i + 1,
      questions: [q(`Who exports invoices in round ${i + 1}?`)],
      ...(i + 1 < round ? { answers: [answered('owners')] } : {}),
    })),
    phase: { kind: 'answering' },
    ...over,
  });

const kinds = (effects: { type: string }[]) =>
  effects.map((e) => ('task' in e ? `${e.type}:${(e as { task: string }).task}` : e.type));

/** The step refused the event: the session as it was (the same object), one reject effect, nothing else. */
function assertRejected(
  before: BrainstormSession,
  r: StepResult,
  kind: BrainstormErrorKind,
  reason?: string,
): Extract<BrainstormEffect, { type: 'reject' }> {
  assert.equal(r.session, before, 'the session is unchanged');
  assert.equal(r.effects.length, 1, `only the reject: ${kinds(r.effects).join(', ')}`);
  const effect = r.effects[0]!;
  assert.ok(effect.type === 'reject', `a reject, not ${effect.type}`);
  assert.equal(effect.kind, kind);
  if (reason !== undefined) assert.equal(effect.reason, reason);
  return effect;
}

describe('brainstorm machine: round 1', () => {
  it('starts by calling the inquisitors', () => {
    assert.deepEqual(kinds(due(session())), ['call-inquisitors']);
  });

  it('merges the harvest into round 1 and waits for answers', () => {
    const questions = [
      q('Who exports invoices?'),
      q('Which formats are needed?', 'technical'),
      q('What if an export has 50,000 invoices?', 'edge-cases'),
    ];
    const r = step(session(), { type: 'inquired', outcomes: ok, questions });
    assert.equal(r.session.phase.kind, 'answering');
    assert.equal(r.session.rounds.length, 1);
    assert.equal(r.session.rounds[0]!.questions.length, 3);
    assert.deepEqual(kinds(r.effects), ['save', 'write-round', 'audit']);
  });

  it('fails round 1 with every inquisitor named when none asked anything, and Retry runs them again', () => {
    const outcomes: Record<Angle, InquisitorOutcome> = {
      ux: { status: 'timeout', detail: 'no reply within 120 s' },
      technical: { status: 'parse_error', detail: 'no JSON object' },
      'edge-cases': { status: 'empty' },
    };
    const r = step(session(), { type: 'inquired', outcomes, questions: [] });
    assert.equal(r.session.phase.kind, 'inquiry-failed');
    const error = (r.session.phase as { error: string }).error;
    assert.match(error, /ux: timeout \(no reply within 120 s\)/);
    assert.match(error, /technical: parse_error/);
    assert.match(error, /edge-cases: empty/);
    assert.match(error, /Retry/);
    const again = step(r.session, { type: 'retry' });
    assert.equal(again.session.phase.kind, 'inquiring');
    assert.deepEqual(kinds(again.effects), ['save', 'call-inquisitors']);
  });
});

describe('brainstorm machine: answers and the round limits', () => {
  const table: Array<{
    name: string;
    round: number;
    min: number;
    max: number;
    action: 'more' | 'summarize';
    next: string;
    notice: boolean;
  }> = [
    {
      name: 'more within the limits asks a follow-up',
      round: 1,
      min: 1,
      max: 3,
      action: 'more',
      next: 'follow-up',
      notice: false,
    },
    {
      name: 'summarize at the minimum summarizes',
      round: 1,
      min: 1,
      max: 3,
      action: 'summarize',
      next: 'summarize',
      notice: false,
    },
    {
      name: 'summarize below the minimum is overruled',
      round: 1,
      min: 2,
      max: 3,
      action: 'summarize',
      next: 'follow-up',
      notice: true,
    },
    {
      name: 'more at the maximum is overruled',
      round: 3,
      min: 1,
      max: 3,
      action: 'more',
      next: 'summarize',
      notice: true,
    },
    {
      name: 'summarize at the maximum summarizes',
      round: 3,
      min: 1,
      max: 3,
      action: 'summarize',
      next: 'summarize',
      notice: false,
    },
    {
      name: 'one round only: more summarizes',
      round: 1,
      min: 1,
      max: 1,
      action: 'more',
      next: 'summarize',
      notice: true,
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const r = step(answering(row.round, { minRounds: row.min, maxRounds: row.max }), {
        type: 'answered',
        answers: [answered('accountants')],
        action: row.action,
      });
      assert.equal(r.session.phase.kind, row.next === 'follow-up' ? 'following-up' : 'summarizing');
      assert.deepEqual(r.session.rounds.at(-1)!.answers, [answered('accountants')]);
      // the answers are saved before the model is called
      const k = kinds(r.effects);
      assert.ok(k.indexOf('save') < k.indexOf(`call-coordinator:${row.next}`));
      assert.equal(k.includes('notice'), row.notice);
    });
  }

  it('refuses answers that do not match the questions one to one', () => {
    const s = answering(1);
    const r = step(s, { type: 'answered', answers: [answered('a'), skipped], action: 'more' });
    assertRejected(s, r, 'invalid', 'Round 1 has 1 questions; 2 answers were given. Answer or skip each question.');
  });

  it('refuses answers when none are awaited', () => {
    const s = session();
    assertRejected(
      s,
      step(s, { type: 'answered', answers: [], action: 'more' }),
      'wrong-phase',
      'Cannot take answers: the brainstorm invoices is waiting for its inquisitors.',
    );
  });
});

describe('brainstorm machine: follow-ups, failures, summary', () => {
  const following = () =>
    step(answering(1), { type: 'answered', answers: [answered('owners')], action: 'more' }).session;

  it('puts fresh follow-up questions in the next round, leaving out what was asked already', () => {
    const r = step(following(), {
      type: 'followed-up',
      questions: [q('Who exports invoices in round 1?'), q('Which time zone decides the period?', 'edge-cases')],
    });
    assert.equal(r.session.phase.kind, 'answering');
    assert.deepEqual(
      r.session.rounds[1]!.questions.map((x) => x.text),
      ['Which time zone decides the period?'],
    );
    assert.deepEqual(kinds(r.effects), ['save', 'write-round', 'audit']);
  });

  it('summarizes when the coordinator has nothing more to ask', () => {
    const r = step(following(), { type: 'followed-up', questions: [] });
    assert.equal(r.session.phase.kind, 'summarizing');
    assert.deepEqual(kinds(r.effects), ['save', 'notice', 'call-coordinator:summarize']);
  });

  it('keeps the answers through a failed call, and Retry makes the same call', () => {
    const failed = step(following(), { type: 'call-failed', during: 'follow-up', error: 'overloaded' });
    assert.deepEqual(failed.session.phase, { kind: 'failed', during: 'follow-up', error: 'overloaded' });
    assert.deepEqual(failed.session.rounds[0]!.answers, [answered('owners')]);
    const retry = step(failed.session, { type: 'retry' });
    assert.equal(retry.session.phase.kind, 'following-up');
    assert.deepEqual(kinds(retry.effects), ['save', 'call-coordinator:follow-up']);
  });

  it('completes on the summary: saved, then the artifacts (the sentinel last)', () => {
    const summarizing = step(answering(1), {
      type: 'answered',
      answers: [answered('owners')],
      action: 'summarize',
    }).session;
    const r = step(summarizing, {
      type: 'summarized',
      summary: { topic: 't', keyInsights: ['k'], decisions: [], openQuestions: [] },
    });
    assert.equal(r.session.phase.kind, 'complete');
    assert.deepEqual(kinds(r.effects), ['save', 'write-artifacts', 'audit']);
    assertRejected(
      r.session,
      step(r.session, { type: 'restart' }),
      'complete',
      'Cannot restart: the brainstorm invoices is complete.',
    );
  });

  it('re-runs what is due on retry after a crash in the middle of a call', () => {
    assert.deepEqual(kinds(step(following(), { type: 'retry' }).effects), ['call-coordinator:follow-up']);
    assert.deepEqual(kinds(step(session(), { type: 'retry' }).effects), ['call-inquisitors']);
    const waiting = answering(1);
    assertRejected(
      waiting,
      step(waiting, { type: 'retry' }),
      'wrong-phase',
      'Cannot retry: the brainstorm invoices is waiting for the answers to round 1.',
    );
  });

  it('a follow-up reply unreadable twice, fed back as no questions, summarizes instead of failing', () => {
    // The service asks the coordinator again once; a second unreadable reply is "no more questions".
    const r = step(following(), { type: 'followed-up', questions: [] });
    assert.equal(r.session.phase.kind, 'summarizing');
    assert.equal(r.session.rounds.length, 1, 'no empty round');
    assert.deepEqual(kinds(r.effects), ['save', 'notice', 'call-coordinator:summarize']);
  });

  it('a summary kept as prose completes the brainstorm like one of lists, and the audit says so', () => {
    const summarizing = step(answering(1), {
      type: 'answered',
      answers: [answered('owners')],
      action: 'summarize',
    }).session;
    const summary = proseSummary(summarizing.topic, '  The team agreed on CSV.\n\nOpen: time zones.  ');
    const r = step(summarizing, { type: 'summarized', summary });
    assert.equal(r.session.phase.kind, 'complete');
    assert.deepEqual(r.session.summary, {
      topic: 'invoice export',
      keyInsights: [],
      decisions: [],
      openQuestions: [],
      format: 'text',
      text: 'The team agreed on CSV.\n\nOpen: time zones.',
    });
    assert.deepEqual(kinds(r.effects), ['save', 'write-artifacts', 'audit']);
    assert.match(
      (r.effects[2] as { detail: string }).detail,
      /complete after 1 round\(s\); the summary is kept as the coordinator’s prose/,
    );
  });

  it('restarts an unfinished brainstorm from round 1', () => {
    const r = step(answering(2), { type: 'restart' });
    assert.deepEqual(r.session.rounds, []);
    assert.equal(r.session.inquisitors, undefined);
    assert.deepEqual(kinds(r.effects), ['remove-rounds', 'save', 'call-inquisitors']);
  });
});

describe('brainstorm machine: which event each phase takes (a refused one is a reject effect, never a throw)', () => {
  const answeredRound = { round: 1, questions: [q('Who exports invoices in round 1?')], answers: [answered('owners')] };
  const after = (phase: BrainstormSession['phase'], over: Partial<BrainstormSession> = {}) =>
    session({ inquisitors: ok, rounds: [answeredRound], phase, ...over });
  const phases: Record<string, () => BrainstormSession> = {
    inquiring: () => session(),
    'inquiry-failed': () => session({ inquisitors: ok, phase: { kind: 'inquiry-failed', error: 'no questions' } }),
    answering: () => answering(1),
    'following-up': () => after({ kind: 'following-up' }),
    summarizing: () => after({ kind: 'summarizing' }),
    'failed follow-up': () => after({ kind: 'failed', during: 'follow-up', error: 'overloaded' }),
    'failed summary': () => after({ kind: 'failed', during: 'summarize', error: 'overloaded' }),
    complete: () =>
      after({ kind: 'complete' }, { summary: { topic: 't', keyInsights: [], decisions: [], openQuestions: [] } }),
  };
  const events: Record<string, BrainstormEvent> = {
    inquired: { type: 'inquired', outcomes: ok, questions: [q('Who exports invoices?')] },
    answered: { type: 'answered', answers: [answered('owners')], action: 'more' },
    'answered (two for one question)': { type: 'answered', answers: [answered('owners'), skipped], action: 'more' },
    'followed-up': { type: 'followed-up', questions: [q('Which time zone decides the period?')] },
    summarized: { type: 'summarized', summary: { topic: 't', keyInsights: ['k'], decisions: [], openQuestions: [] } },
    'call-failed follow-up': { type: 'call-failed', during: 'follow-up', error: 'x' },
    'call-failed summarize': { type: 'call-failed', during: 'summarize', error: 'x' },
    retry: { type: 'retry' },
    restart: { type: 'restart' },
  };
  // Per event, the phases that take it ('ok'); any other phase refuses it with 'wrong-phase',
  // except a complete brainstorm, which refuses everything with 'complete'.
  const W = 'wrong-phase';
  const C = 'complete';
  type Expect = 'ok' | BrainstormErrorKind;
  // Columns: inquiring, inquiry-failed, answering, following-up, summarizing, failed follow-up,
  // failed summary, complete.
  const table: Record<string, Expect[]> = {
    inquired: ['ok', W, W, W, W, W, W, C],
    answered: [W, W, 'ok', W, W, W, W, C],
    'answered (two for one question)': [W, W, 'invalid', W, W, W, W, C],
    'followed-up': [W, W, W, 'ok', W, W, W, C],
    summarized: [W, W, W, W, 'ok', W, W, C],
    'call-failed follow-up': [W, W, W, 'ok', W, W, W, C],
    'call-failed summarize': [W, W, W, W, 'ok', W, W, C],
    retry: ['ok', 'ok', W, 'ok', 'ok', 'ok', 'ok', C],
    restart: ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', C],
  };
  const phaseNames = Object.keys(phases);
  for (const [eventName, row] of Object.entries(table)) {
    row.forEach((expected, i) => {
      const phaseName = phaseNames[i]!;
      it(`${eventName} in ${phaseName}: ${expected === 'ok' ? 'taken' : `refused (${expected})`}`, () => {
        const before = phases[phaseName]!();
        const snapshot = structuredClone(before);
        const r = step(before, events[eventName]!);
        if (expected === 'ok') {
          assert.ok(!r.effects.some((e) => e.type === 'reject'), kinds(r.effects).join(', '));
          assert.ok(r.effects.length > 0, 'something to do');
        } else {
          const effect = assertRejected(before, r, expected);
          assert.deepEqual(before, snapshot, 'nothing in the session was changed in place');
          // The message the person sees, as the thrown error had it.
          assert.match(
            effect.reason,
            expected === 'invalid'
              ? /^Round 1 has 1 questions; 2 answers were given\./
              : /^Cannot [^:]+: the brainstorm invoices (is|found|stopped) /,
          );
        }
      });
    });
  }
});
