import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSleepArgs } from '../../../src/core/sleep/parseSleepArgs';
import { parseSleepRecord } from '../../../src/core/sleep/sleepRecord';
import type { ParsedSleep } from '../../../src/core/sleep/parseSleepArgs';
import {
  elapsedMs,
  formatDuration,
  isExpired,
  remainingDisplay,
  remainingMs,
  startSleep,
  wake,
} from '../../../src/core/sleep/sleepState';
import type { SleepState } from '../../../src/core/sleep/sleepState';

const T0 = 1_700_000_000_000;
const ctx = { agent: 'builder', now: T0 };

function ok(parsed: ParsedSleep): SleepState {
  if (!parsed.ok) assert.fail(`expected ok, got error: ${parsed.error}`);
  return parsed.state;
}

function err(parsed: ParsedSleep): string {
  if (parsed.ok) assert.fail('expected an error');
  return parsed.error;
}

describe('SleepState (start, remaining time, expiry, arguments)', () => {
  test('a new sleep is active with no wake reason', () => {
    const s = startSleep('builder', { kind: 'manual' }, T0, 60_000);
    assert.equal(s.active, true);
    assert.equal(s.wakeReason, undefined);
    assert.equal(elapsedMs(s, T0), 0);
  });

  test('remainingDisplay for a timer counts down', () => {
    const s = startSleep('builder', { kind: 'timer', durationMs: 180_000 }, T0, 180_000);
    assert.equal(remainingDisplay(s, T0), '3m 00s');
    assert.equal(remainingDisplay(s, T0 + 26_000), '2m 34s');
    assert.equal(remainingDisplay(s, T0 + 135_000), '45s');
  });

  test('remainingDisplay for an event names what it waits for', () => {
    const agent = startSleep('lead', { kind: 'event', target: { type: 'agent', id: 'tester' } }, T0, 3_600_000);
    const phase = startSleep('lead', { kind: 'event', target: { type: 'phase', id: '3' } }, T0, 3_600_000);
    assert.equal(remainingDisplay(agent, T0 + 5000), 'Waiting: agent tester');
    assert.equal(remainingDisplay(phase, T0 + 5000), 'Waiting: phase 3');
  });

  test('remainingDisplay for a manual pause', () => {
    assert.equal(remainingDisplay(startSleep('lead', { kind: 'manual' }, T0, 1000), T0), 'Manual pause');
  });

  test('isExpired once elapsed reaches the maximum (time is passed in, no real sleeping)', () => {
    const s = startSleep('builder', { kind: 'timer', durationMs: 2000 }, T0, 2000);
    assert.equal(isExpired(s, T0 + 1999), false);
    assert.equal(isExpired(s, T0 + 2000), true);
    assert.equal(isExpired(s, T0 + 10_000), true);
    const manual = startSleep('builder', { kind: 'manual' }, T0, 5000);
    assert.equal(isExpired(manual, T0 + 4999), false);
    assert.equal(isExpired(manual, T0 + 5000), true);
  });

  test('parseSleepArgs reads a valid timer', () => {
    const parsed = parseSleepArgs({ mode: 'timer', duration_secs: 90 }, 3600, ctx);
    assert.deepEqual(parsed, {
      ok: true,
      clamped: false,
      state: {
        agent: 'builder',
        mode: { kind: 'timer', durationMs: 90_000 },
        startedAt: T0,
        maxDurationMs: 90_000,
        active: true,
      },
    });
  });

  test('parseSleepArgs reads a valid event (agent and phase), capped at the maximum', () => {
    const s = ok(parseSleepArgs({ mode: 'event', agent_id: 'tester' }, 600, ctx));
    assert.deepEqual(s.mode, { kind: 'event', target: { type: 'agent', id: 'tester' } });
    assert.equal(s.maxDurationMs, 600_000);
    const p = ok(parseSleepArgs({ mode: 'event', phase: 'phase-2' }, 600, ctx));
    assert.deepEqual(p.mode, { kind: 'event', target: { type: 'phase', id: 'phase-2' } });
  });

  test('parseSleepArgs reports missing required fields', () => {
    assert.match(err(parseSleepArgs({}, 3600, ctx)), /mode is required; one of: timer, event, manual/);
    assert.match(err(parseSleepArgs({ mode: 'timer' }, 3600, ctx)), /timer mode needs duration_secs/);
    assert.match(err(parseSleepArgs({ mode: 'event' }, 3600, ctx)), /event mode needs agent_id .* or phase/);
  });

  test('parseSleepArgs clamps to the maximum and says so', () => {
    const parsed = parseSleepArgs({ mode: 'timer', duration_secs: 7200 }, 3600, ctx);
    assert.equal(parsed.ok && parsed.clamped, true);
    const s = ok(parsed);
    assert.deepEqual(s.mode, { kind: 'timer', durationMs: 3_600_000 });
    assert.equal(s.maxDurationMs, 3_600_000);
  });
});

describe('remainingDisplay formats', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [-5000, '0s'],
    [1, '1s'],
    [999, '1s'],
    [1000, '1s'],
    [1001, '2s'],
    [45_000, '45s'],
    [59_999, '1m 00s'],
    [60_000, '1m 00s'],
    [65_000, '1m 05s'],
    [154_000, '2m 34s'],
    [3_599_000, '59m 59s'],
    [3_600_000, '1h 00m'],
    [3_720_000, '1h 02m'],
    [3_725_000, '1h 02m'],
    [86_400_000, '24h 00m'],
  ];
  for (const [ms, shown] of cases) {
    test(`${ms} ms → ${shown}`, () => assert.equal(formatDuration(ms), shown));
  }

  test('a timer shows 0s once due and never goes negative', () => {
    const s = startSleep('b', { kind: 'timer', durationMs: 10_000 }, T0, 10_000);
    assert.equal(remainingDisplay(s, T0 + 9_001), '1s');
    assert.equal(remainingDisplay(s, T0 + 10_000), '0s');
    assert.equal(remainingDisplay(s, T0 + 99_000), '0s');
    assert.equal(remainingMs(s, T0 + 99_000), 0);
  });

  test('a clock that went backwards counts as no time elapsed', () => {
    const s = startSleep('b', { kind: 'timer', durationMs: 10_000 }, T0, 10_000);
    assert.equal(elapsedMs(s, T0 - 5000), 0);
    assert.equal(remainingDisplay(s, T0 - 5000), '10s');
    assert.equal(isExpired(s, T0 - 5000), false);
  });

  test('a woken sleep shows Awake', () => {
    const s = wake(startSleep('b', { kind: 'manual' }, T0, 10_000), 'user');
    assert.equal(remainingDisplay(s, T0), 'Awake');
  });
});

describe('wake', () => {
  test('returns a woken copy and leaves the original unchanged', () => {
    const s = startSleep('b', { kind: 'manual' }, T0, 10_000);
    const w = wake(s, 'user pressed Wake');
    assert.equal(s.active, true);
    assert.deepEqual(w, { ...s, active: false, wakeReason: 'user pressed Wake' });
  });

  test('waking twice keeps the first reason', () => {
    const w = wake(wake(startSleep('b', { kind: 'manual' }, T0, 10_000), 'timer'), 'user');
    assert.equal(w.wakeReason, 'timer');
  });
});

describe('parseSleepArgs validation', () => {
  const rejected: [string, unknown, RegExp][] = [
    ['null args', null, /sleep arguments must be an object/],
    ['a list', [], /sleep arguments must be an object/],
    ['a string', 'timer', /sleep arguments must be an object/],
    ['an unknown mode', { mode: 'nap' }, /unknown mode "nap"; valid modes: timer, event, manual/],
    ['a numeric mode', { mode: 1 }, /unknown mode number 1; valid modes/],
    [
      'a string duration',
      { mode: 'timer', duration_secs: '60' },
      /duration_secs must be a number of seconds, not "60"/,
    ],
    ['NaN', { mode: 'timer', duration_secs: Number.NaN }, /finite/],
    ['Infinity', { mode: 'timer', duration_secs: Number.POSITIVE_INFINITY }, /finite/],
    ['a negative duration', { mode: 'timer', duration_secs: -5 }, /greater than 0 \(got -5\)/],
    ['zero', { mode: 'timer', duration_secs: 0 }, /greater than 0 \(got 0\)/],
    ['an empty agent_id', { mode: 'event', agent_id: '' }, /agent_id is empty/],
    ['a blank phase', { mode: 'event', phase: '  ' }, /phase is empty/],
    ['a numeric agent_id', { mode: 'event', agent_id: 7 }, /agent_id must be text, not number 7/],
    // The sleep log refuses longer names, so the tool must too, or the sleep could not be recorded.
    [
      'an agent_id over 200 characters',
      { mode: 'event', agent_id: 'a'.repeat(201) },
      /agent_id is 201 characters; the limit is 200/,
    ],
    [
      'a phase over 200 characters',
      { mode: 'event', phase: 'п'.repeat(201) },
      /phase is 201 characters; the limit is 200/,
    ],
    ['both agent_id and phase', { mode: 'event', agent_id: 'a', phase: 'p' }, /not both/],
    ['a bad timeout on a manual sleep', { mode: 'manual', duration_secs: -1 }, /greater than 0/],
  ];
  for (const [name, args, message] of rejected) {
    test(`refuses ${name}`, () => assert.match(err(parseSleepArgs(args, 3600, ctx)), message));
  }

  test('refuses a cap that is not a positive number, or so large that a sleep could not be stored', () => {
    for (const cap of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e13]) {
      assert.match(err(parseSleepArgs({ mode: 'manual' }, cap, ctx)), /groundwork\.sleep\.maxSeconds/);
    }
  });

  test('whatever it accepts, the sleep log reads back', () => {
    const accepted = [
      parseSleepArgs({ mode: 'event', agent_id: '🦀'.repeat(200) }, 3600, ctx),
      parseSleepArgs({ mode: 'event', phase: 'x'.repeat(200) }, 3600, ctx),
      parseSleepArgs({ mode: 'timer', duration_secs: 1e300 }, 4.32e12, ctx),
      parseSleepArgs({ mode: 'timer', duration_secs: 0.0001 }, 3600, ctx),
    ];
    for (const parsed of accepted) {
      const { agent, mode, startedAt, maxDurationMs } = ok(parsed);
      const record = { event: 'started', agent, mode, startedAt, maxDurationMs };
      assert.deepEqual(parseSleepRecord(JSON.parse(JSON.stringify(record))), { ok: true, record });
    }
  });

  test('manual sleeps last at most the cap, or a shorter timeout if given', () => {
    const s = ok(parseSleepArgs({ mode: 'manual' }, 1800, ctx));
    assert.deepEqual(s.mode, { kind: 'manual' });
    assert.equal(s.maxDurationMs, 1_800_000);
    assert.equal(ok(parseSleepArgs({ mode: 'manual', duration_secs: 60 }, 1800, ctx)).maxDurationMs, 60_000);
    const long = parseSleepArgs({ mode: 'manual', duration_secs: 99_999 }, 1800, ctx);
    assert.equal(ok(long).maxDurationMs, 1_800_000);
    assert.equal(long.ok && long.clamped, true);
  });

  test('event sleeps take an optional timeout, clamped too', () => {
    assert.equal(
      ok(parseSleepArgs({ mode: 'event', agent_id: 'x', duration_secs: 30 }, 600, ctx)).maxDurationMs,
      30_000,
    );
    assert.equal(
      ok(parseSleepArgs({ mode: 'event', agent_id: 'x', duration_secs: 3000 }, 600, ctx)).maxDurationMs,
      600_000,
    );
  });

  test('fractional seconds are kept, and a tiny duration never becomes zero', () => {
    assert.equal(ok(parseSleepArgs({ mode: 'timer', duration_secs: 1.5 }, 3600, ctx)).maxDurationMs, 1500);
    assert.equal(ok(parseSleepArgs({ mode: 'timer', duration_secs: 0.0001 }, 3600, ctx)).maxDurationMs, 1);
  });

  test('extra fields are ignored and the sleeper comes from the context', () => {
    const s = ok(
      parseSleepArgs({ mode: 'timer', duration_secs: 5, reason: 'waiting for CI' }, 3600, { agent: 'qa', now: 42 }),
    );
    assert.equal(s.agent, 'qa');
    assert.equal(s.startedAt, 42);
  });
});
