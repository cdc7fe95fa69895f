// The session machine as tables: (state, event) → (state, effects). Rounds (at most three), the
// 30-minute TTL at 29 and 31 minutes, cancel words, the forced final round.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isExpired, stateOf, step } from '../../../src/core/discovery/discoveryMachine';
import type {
  DiscoveryConfig,
  DiscoveryEffect,
  DiscoveryEvent,
  DiscoveryState,
} from '../../../src/core/discovery/discoveryMachine';
import type { RoundFileData } from '../../../src/core/discovery/roundFile';

const CONFIG: DiscoveryConfig = { ttlMs: 30 * 60_000, maxRounds: 3 };
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const SEC0 = T0 / 1000;
const min = (m: number) => T0 + m * 60_000;

const session = (round: number, answered: boolean, extra: Partial<RoundFileData> = {}): RoundFileData => ({
  createdSec: SEC0,
  round,
  originalRequest: 'build me a CRM',
  rounds: Array.from({ length: round }, (_, i) => {
    const last = i === round - 1;
    return last && !answered ? { questions: `q${i + 1}` } : { questions: `q${i + 1}`, answer: `a${i + 1}` };
  }),
  ...extra,
});

const msg = (text: string, now = min(1), force = false): DiscoveryEvent => ({ type: 'message', text, now, force });
const reply = (text: string, now = min(2)): DiscoveryEvent => ({ type: 'model-replied', text, now });

/** The effects, each reduced to what a table row shows. */
function brief(effects: DiscoveryEffect[]): string[] {
  return effects.map((e) => {
    switch (e.type) {
      case 'write-round-file':
        return `write ROUND:${e.data.round} rounds:${e.data.rounds.length}${e.data.rounds.at(-1)?.answer !== undefined ? ' answered' : ''}`;
      case 'call-model':
        return `call round ${e.call.round}${e.call.final ? ' FINAL' : ''}`;
      case 'audit':
        return `audit ${e.kind} ${e.status}`;
      case 'end':
        return `end ${e.end.kind}`;
      case 'reject':
        return `reject ${e.kind}`;
      default:
        return e.type;
    }
  });
}

interface Row {
  name: string;
  state: DiscoveryState;
  event: DiscoveryEvent;
  next: DiscoveryState['kind'];
  effects: string[];
}

const rows: Row[] = [
  // Starting: a build request
  {
    name: 'idle + build request → round 1 call',
    state: { kind: 'idle' },
    event: msg('build me a CRM'),
    next: 'starting',
    effects: ['call round 1'],
  },
  {
    name: 'idle + other text → not a build',
    state: { kind: 'idle' },
    event: msg('hello there'),
    next: 'idle',
    effects: ['end not-a-build'],
  },
  {
    name: 'idle + other text, forced (Discover Idea…) → round 1 call',
    state: { kind: 'idle' },
    event: msg('a CRM', min(1), true),
    next: 'starting',
    effects: ['call round 1'],
  },
  {
    name: 'idle + a cancel word → not a build (no session to cancel)',
    state: { kind: 'idle' },
    event: msg('cancel'),
    next: 'idle',
    effects: ['end not-a-build'],
  },
  {
    name: 'idle + retry → nothing to retry',
    state: { kind: 'idle' },
    event: { type: 'retry', now: T0 },
    next: 'idle',
    effects: ['reject nothing-to-retry'],
  },
  {
    name: 'idle + cancel → no session',
    state: { kind: 'idle' },
    event: { type: 'cancel', now: T0 },
    next: 'idle',
    effects: ['end no-session'],
  },
  {
    name: 'starting + questions → file created with round 1',
    state: { kind: 'starting', request: 'build me a CRM', createdSec: SEC0 },
    event: reply('DISCOVERY_QUESTIONS\n1. Who?'),
    next: 'awaiting-answers',
    effects: ['audit discovery.start ok', 'write ROUND:1 rounds:1', 'end questions'],
  },
  {
    name: 'starting + complete → brief at once, no file',
    state: { kind: 'starting', request: 'build a Rust CLI…', createdSec: SEC0 },
    event: reply('DISCOVERY_COMPLETE\nIDEA_BRIEF:\nOne-line summary: X'),
    next: 'idle',
    effects: ['audit discovery.start ok', 'audit discovery.complete ok', 'end complete'],
  },
  {
    name: 'starting + no markers → brief at once',
    state: { kind: 'starting', request: 'r', createdSec: SEC0 },
    event: reply('Just a brief.'),
    next: 'idle',
    effects: ['audit discovery.start ok', 'audit discovery.complete ok', 'end complete'],
  },
  {
    name: 'starting + model failure → start kept in memory for retry',
    state: { kind: 'starting', request: 'r', createdSec: SEC0 },
    event: { type: 'model-failed', reason: 'overloaded', now: min(1) },
    next: 'start-pending',
    effects: ['audit discovery.start error'],
  },
  {
    name: 'starting + stopped → start kept in memory',
    state: { kind: 'starting', request: 'r', createdSec: SEC0 },
    event: { type: 'model-stopped', now: min(1) },
    next: 'start-pending',
    effects: ['end stopped'],
  },
  {
    name: 'start-pending + retry → round 1 call again',
    state: { kind: 'start-pending', request: 'r', createdSec: SEC0 },
    event: { type: 'retry', now: min(2) },
    next: 'starting',
    effects: ['call round 1'],
  },
  {
    name: 'starting + a message → busy',
    state: { kind: 'starting', request: 'r', createdSec: SEC0 },
    event: msg('more'),
    next: 'starting',
    effects: ['reject busy'],
  },

  // Rounds: at most three, then the final call
  {
    name: 'round 1 awaiting + answer → answer saved, round 2 call',
    state: stateOf(session(1, false)),
    event: msg('my team'),
    next: 'thinking',
    effects: ['write ROUND:1 rounds:1 answered', 'call round 2'],
  },
  {
    name: 'round 2 awaiting + answer → round 3 call',
    state: stateOf(session(2, false)),
    event: msg('stages'),
    next: 'thinking',
    effects: ['write ROUND:2 rounds:2 answered', 'call round 3'],
  },
  {
    name: 'round 3 awaiting + answer → the FINAL call',
    state: stateOf(session(3, false)),
    event: msg('laptop'),
    next: 'thinking',
    effects: ['write ROUND:3 rounds:3 answered', 'call round 3 FINAL'],
  },
  {
    name: 'round 1 thinking + questions → round 2 written',
    state: { kind: 'thinking', session: session(1, true), final: false },
    event: reply('DISCOVERY_QUESTIONS\n1. More?'),
    next: 'awaiting-answers',
    effects: ['audit discovery.round ok', 'write ROUND:2 rounds:2', 'end questions'],
  },
  {
    name: 'round 2 thinking + complete → brief, file deleted',
    state: { kind: 'thinking', session: session(2, true), final: false },
    event: reply('DISCOVERY_COMPLETE\nIDEA_BRIEF:\nOne-line summary: X'),
    next: 'idle',
    effects: ['audit discovery.round ok', 'audit discovery.complete ok', 'delete-round-file', 'end complete'],
  },
  {
    name: 'FINAL thinking + questions → taken as the brief (forced completion)',
    state: { kind: 'thinking', session: session(3, true), final: true },
    event: reply('DISCOVERY_QUESTIONS\n1. Still unsure?'),
    next: 'idle',
    effects: ['audit discovery.round ok', 'audit discovery.complete ok', 'delete-round-file', 'end complete'],
  },
  {
    name: 'thinking + model failure → answer kept, pending',
    state: { kind: 'thinking', session: session(1, true), final: false },
    event: { type: 'model-failed', reason: 'network', now: min(2) },
    next: 'answer-pending',
    effects: ['audit discovery.round error'],
  },
  {
    name: 'thinking + stopped → answer kept, pending',
    state: { kind: 'thinking', session: session(1, true), final: false },
    event: { type: 'model-stopped', now: min(2) },
    next: 'answer-pending',
    effects: ['end stopped'],
  },
  {
    name: 'answer-pending + retry → the same call, nothing written',
    state: stateOf(session(1, true)),
    event: { type: 'retry', now: min(3) },
    next: 'thinking',
    effects: ['call round 2'],
  },
  {
    name: 'answer-pending (round 3) + retry → FINAL call',
    state: stateOf(session(3, true)),
    event: { type: 'retry', now: min(3) },
    next: 'thinking',
    effects: ['call round 3 FINAL'],
  },
  {
    name: 'awaiting + retry → nothing to retry',
    state: stateOf(session(1, false)),
    event: { type: 'retry', now: min(3) },
    next: 'awaiting-answers',
    effects: ['reject nothing-to-retry'],
  },
  {
    name: 'answer-pending + more text → added to the answer, call',
    state: stateOf(session(1, true)),
    event: msg('also deals'),
    next: 'thinking',
    effects: ['write ROUND:1 rounds:1 answered', 'call round 2'],
  },

  // Cancel: a whole-message cancel word or the cancel button
  {
    name: 'awaiting + "no" → cancelled, file deleted',
    state: stateOf(session(1, false)),
    event: msg('No.'),
    next: 'idle',
    effects: ['audit discovery.cancel error', 'delete-round-file', 'end cancelled'],
  },
  {
    name: 'awaiting + "nein" → cancelled',
    state: stateOf(session(2, false)),
    event: msg('nein'),
    next: 'idle',
    effects: ['audit discovery.cancel error', 'delete-round-file', 'end cancelled'],
  },
  {
    name: 'awaiting + "отмена" → cancelled',
    state: stateOf(session(1, false)),
    event: msg('Отмена!'),
    next: 'idle',
    effects: ['audit discovery.cancel error', 'delete-round-file', 'end cancelled'],
  },
  {
    name: 'awaiting + "no idea…" → an answer',
    state: stateOf(session(1, false)),
    event: msg('no idea what a CRM needs'),
    next: 'thinking',
    effects: ['write ROUND:1 rounds:1 answered', 'call round 2'],
  },
  {
    name: 'answer-pending + cancel button → cancelled',
    state: stateOf(session(1, true)),
    event: { type: 'cancel', now: min(3) },
    next: 'idle',
    effects: ['audit discovery.cancel error', 'delete-round-file', 'end cancelled'],
  },

  // TTL (30 minutes): the CREATED stamp's age
  {
    name: 'answer at 29 minutes → continues',
    state: stateOf(session(1, false)),
    event: msg('my team', min(29)),
    next: 'thinking',
    effects: ['write ROUND:1 rounds:1 answered', 'call round 2'],
  },
  {
    name: 'answer at exactly 30 minutes → continues',
    state: stateOf(session(1, false)),
    event: msg('my team', min(30)),
    next: 'thinking',
    effects: ['write ROUND:1 rounds:1 answered', 'call round 2'],
  },
  {
    name: 'answer at 31 minutes → expired, then handled fresh (not a build)',
    state: stateOf(session(1, false)),
    event: msg('my team', min(31)),
    next: 'idle',
    effects: ['audit discovery.expire error', 'delete-round-file', 'notify-expired', 'end not-a-build'],
  },
  {
    name: 'a build request at 31 minutes → expired, then a new session starts',
    state: stateOf(session(2, false)),
    event: msg('build me a shop', min(31)),
    next: 'starting',
    effects: ['audit discovery.expire error', 'delete-round-file', 'notify-expired', 'call round 1'],
  },
  {
    name: 'a cancel word at 31 minutes → expired (not cancelled), then not a build',
    state: stateOf(session(1, false)),
    event: msg('stop', min(31)),
    next: 'idle',
    effects: ['audit discovery.expire error', 'delete-round-file', 'notify-expired', 'end not-a-build'],
  },
  {
    name: 'retry at 31 minutes → expired',
    state: stateOf(session(1, true)),
    event: { type: 'retry', now: min(31) },
    next: 'idle',
    effects: ['audit discovery.expire error', 'delete-round-file', 'notify-expired', 'end expired'],
  },
];

describe('discovery machine: (state, event) → (state, effects)', () => {
  for (const row of rows) {
    test(row.name, () => {
      const result = step(row.state, row.event, CONFIG);
      assert.equal(result.state.kind, row.next);
      assert.deepEqual(brief(result.effects), row.effects);
    });
  }
});

describe('discovery machine: details', () => {
  test('the answer is saved into the last round before the model is called', () => {
    const { effects } = step(stateOf(session(1, false)), msg('My team'), CONFIG);
    const write = effects[0];
    assert.equal(write?.type, 'write-round-file');
    assert.deepEqual(write.type === 'write-round-file' && write.data.rounds, [{ questions: 'q1', answer: 'My team' }]);
    const call = effects[1];
    assert.deepEqual(call?.type === 'call-model' && call.call, {
      round: 2,
      final: false,
      request: 'build me a CRM',
      rounds: [{ questions: 'q1', answer: 'My team' }],
    });
  });

  test('a second message while an answer is pending is added to it, not lost', () => {
    const { effects } = step(stateOf(session(1, true)), msg('also deals'), CONFIG);
    assert.deepEqual(effects[0]?.type === 'write-round-file' && effects[0].data.rounds[0], {
      questions: 'q1',
      answer: 'a1\n\nalso deals',
    });
  });

  test("the forced brief is the questions' text; a complete brief its own text", () => {
    const forced = step(
      { kind: 'thinking', session: session(3, true), final: true },
      reply('DISCOVERY_QUESTIONS\nOne-line summary: X'),
      CONFIG,
    );
    const end = forced.effects.find((e) => e.type === 'end');
    assert.deepEqual(end?.type === 'end' && end.end, {
      kind: 'complete',
      brief: 'One-line summary: X',
      originalRequest: 'build me a CRM',
      rounds: session(3, true).rounds,
    });
  });

  test('questions on a round that is not final stay questions (round 2 → round 3)', () => {
    const next = step(
      { kind: 'thinking', session: session(2, true), final: false },
      reply('DISCOVERY_QUESTIONS\n1. Last?'),
      CONFIG,
    );
    assert.equal(next.state.kind, 'awaiting-answers');
    assert.equal(next.state.kind === 'awaiting-answers' && next.state.session.round, 3);
  });

  test('a hand-edited ROUND beyond 3 is final too', () => {
    const { effects } = step(stateOf(session(1, false, { round: 7 })), msg('x'), CONFIG);
    assert.deepEqual(brief(effects), ['write ROUND:7 rounds:1 answered', 'call round 7 FINAL']);
  });

  test('the first call creates the session at the message time (whole seconds)', () => {
    const { state } = step({ kind: 'idle' }, msg('build me a CRM', T0 + 1_999), CONFIG);
    assert.deepEqual(state, { kind: 'starting', request: 'build me a CRM', createdSec: SEC0 + 1 });
  });

  test('stateOf: the last round answered means the model owes a reply', () => {
    assert.equal(stateOf(undefined).kind, 'idle');
    assert.equal(stateOf(session(2, false)).kind, 'awaiting-answers');
    assert.equal(stateOf(session(2, true)).kind, 'answer-pending');
  });

  test('isExpired: 29 min no, 30 min no, 31 min yes', () => {
    assert.equal(isExpired(SEC0, min(29), CONFIG.ttlMs), false);
    assert.equal(isExpired(SEC0, min(30), CONFIG.ttlMs), false);
    assert.equal(isExpired(SEC0, min(31), CONFIG.ttlMs), true);
  });

  test('a shorter TTL setting applies', () => {
    const { effects } = step(stateOf(session(1, false)), msg('x', min(6)), { ttlMs: 5 * 60_000, maxRounds: 3 });
    assert.equal(effects[0]?.type === 'audit' && effects[0].kind, 'discovery.expire');
  });
});
