import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSleepArgs } from '../../../src/core/sleep/parseSleepArgs';
import { SleepInputError, SleepLog, sleeperStatus } from '../../../src/core/sleep/sleepLog';
import { WAKE_REASON_MAX_CHARS, parseSleepRecord } from '../../../src/core/sleep/sleepRecord';
import type { SleepStarted } from '../../../src/core/sleep/sleepRecord';
import { startSleep, wake } from '../../../src/core/sleep/sleepState';
import type { SleepState } from '../../../src/core/sleep/sleepState';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { SLEEP_FILE } from '../../../src/core/plan/layout';

const T0 = 1_700_000_000_000;

/** The line an agent's start of sleep is (the sleep tool will write it; SleepLog only wakes). */
const started = (state: SleepState): SleepStarted => ({
  event: 'started',
  agent: state.agent,
  mode: state.mode,
  startedAt: state.startedAt,
  maxDurationMs: state.maxDurationMs,
});

/** A sleep log on the real JSONL log over an in-memory workspace; `start` appends a start of sleep to it. */
function setup() {
  const ws = new MemoryWorkspace();
  const clock = new FakeClock(T0);
  const log = ws.store.log(SLEEP_FILE, SleepLog.parseRecord);
  const open = (c = clock) => new SleepLog(log, c);
  const start = async (state: SleepState) => void (await log.append(started(state)));
  return { ws, clock, open, start, sleep: open(), lines: () => ws.lines(SLEEP_FILE) };
}

const timer = (agent: string, secs: number, at: number) =>
  startSleep(agent, { kind: 'timer', durationMs: secs * 1000 }, at, secs * 1000);

describe('SleepLog', () => {
  test('an empty or missing log has no sleepers', async () => {
    const { sleep } = setup();
    assert.deepEqual(await sleep.sleepers(), []);
    assert.deepEqual(await sleep.read(), { sleepers: [], problems: [] });
  });

  test('records a wake as the documented line, after a start', async () => {
    const { sleep, start, lines, clock } = setup();
    const parsed = parseSleepArgs({ mode: 'event', phase: '2' }, 600, { agent: 'lead', now: T0 });
    assert.ok(parsed.ok);
    await start(parsed.state);
    clock.advance(5000);
    const woken = await sleep.recordWake('lead', 'phase 2 finished');
    assert.deepEqual(woken, { event: 'woken', agent: 'lead', reason: 'phase 2 finished', at: T0 + 5000 });
    assert.deepEqual(lines(), [
      `{"event":"started","agent":"lead","mode":{"kind":"event","target":{"type":"phase","id":"2"}},"startedAt":${T0},"maxDurationMs":600000}`,
      `{"event":"woken","agent":"lead","reason":"phase 2 finished","at":${T0 + 5000}}`,
    ]);
  });

  test('after a reload the sleepers are known from the log alone', async () => {
    const first = setup();
    await first.start(timer('builder', 300, T0));
    await first.start(
      startSleep('lead', { kind: 'event', target: { type: 'agent', id: 'builder' } }, T0 + 1000, 3_600_000),
    );
    // A new SleepLog over the same file: what a reloaded window does.
    const reloaded = first.open(new FakeClock(T0 + 26_000));
    const sleepers = await reloaded.sleepers();
    assert.deepEqual(
      sleepers.map((s) => [s.agent, s.status, s.expired]),
      [
        ['builder', '4m 34s', false],
        ['lead', 'Waiting: agent builder', false],
      ],
    );
    assert.deepEqual(sleepers[0]?.state, timer('builder', 300, T0));
  });

  test('a wake ends only that agent’s sleep', async () => {
    const { sleep, start } = setup();
    await start(timer('a', 60, T0));
    await start(timer('b', 60, T0));
    await sleep.recordWake('a', 'user');
    assert.deepEqual(
      (await sleep.sleepers(T0 + 1000)).map((s) => s.agent),
      ['b'],
    );
  });

  test('a restart replaces the earlier sleep and moves the agent to the end', async () => {
    const { sleep, start } = setup();
    await start(timer('a', 60, T0));
    await start(timer('b', 60, T0 + 1000));
    await start(startSleep('a', { kind: 'manual' }, T0 + 2000, 600_000));
    const sleepers = await sleep.sleepers(T0 + 3000);
    assert.deepEqual(
      sleepers.map((s) => [s.agent, s.status]),
      [
        ['b', '58s'],
        ['a', 'Manual pause'],
      ],
    );
  });

  test('sleeping again after a wake makes the agent a sleeper again', async () => {
    const { sleep, start } = setup();
    await start(timer('a', 60, T0));
    await sleep.recordWake('a', 'timer');
    await start(timer('a', 30, T0 + 60_000));
    assert.deepEqual(
      (await sleep.sleepers(T0 + 61_000)).map((s) => [s.agent, s.status]),
      [['a', '29s']],
    );
  });

  test('a double wake, and a wake of an agent that never slept, are harmless', async () => {
    const { sleep, start } = setup();
    await sleep.recordWake('ghost', 'user');
    await start(timer('a', 60, T0));
    await sleep.recordWake('a', 'user');
    await sleep.recordWake('a', 'user again');
    await start(timer('b', 60, T0));
    assert.deepEqual(
      (await sleep.read(T0)).sleepers.map((s) => s.agent),
      ['b'],
    );
    assert.deepEqual((await sleep.read(T0)).problems, []);
  });

  test('a corrupt line in the middle is reported and the lines around it still count', async () => {
    const { sleep, start, ws } = setup();
    await start(timer('a', 60, T0));
    // A crash mid-write, then a line another program appended after it.
    ws.appendRaw(SLEEP_FILE, '{"event":"woken","agent":"a","rea\n{"event":"started","agent":"c"}\n');
    await start(timer('b', 60, T0));
    const { sleepers, problems } = await sleep.read(T0 + 1000);
    // The wake of "a" was lost to the corruption, so "a" still counts as asleep: the safe side,
    // since the UI offers Wake for it.
    assert.deepEqual(
      sleepers.map((s) => s.agent),
      ['a', 'b'],
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.reason.split(' (')[0]]),
      [
        [2, 'not valid JSON'],
        [3, 'missing field mode'],
      ],
    );
    assert.deepEqual(
      (await sleep.sleepers(T0 + 1000)).map((s) => s.agent),
      ['a', 'b'],
    );
  });

  test('a line whose time is out of the Date range is reported, and the other sleepers still show', async () => {
    const { sleep, start, ws } = setup();
    await start(timer('a', 60, T0));
    ws.appendRaw(
      SLEEP_FILE,
      `${JSON.stringify({ event: 'started', agent: 'far', mode: { kind: 'manual' }, startedAt: 1e16, maxDurationMs: 1 })}\n`,
    );
    await start(timer('b', 60, T0));
    const { sleepers, problems } = await sleep.read(T0);
    assert.deepEqual(
      sleepers.map((s) => s.agent),
      ['a', 'b'],
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.reason]),
      [[2, 'startedAt must be a whole number of milliseconds from 0 to 8.64e15']],
    );
  });

  test('expired sleepers are still listed, marked overdue', async () => {
    const { sleep, start } = setup();
    await start(timer('a', 60, T0));
    await start(startSleep('lead', { kind: 'event', target: { type: 'phase', id: '1' } }, T0, 120_000));
    const at = (ms: number) => sleep.sleepers(T0 + ms);
    assert.deepEqual(
      (await at(59_000)).map((s) => [s.agent, s.expired, s.status]),
      [
        ['a', false, '1s'],
        ['lead', false, 'Waiting: phase 1'],
      ],
    );
    assert.deepEqual(
      (await at(60_000)).map((s) => [s.agent, s.expired, s.status]),
      [
        ['a', true, 'Overdue by 0s'],
        ['lead', false, 'Waiting: phase 1'],
      ],
    );
    assert.deepEqual(
      (await at(190_000)).map((s) => [s.agent, s.expired, s.status]),
      [
        ['a', true, 'Overdue by 2m 10s'],
        ['lead', true, 'Overdue by 1m 10s'],
      ],
    );
  });

  test('refuses to record what it could not read back, as a SleepInputError', async () => {
    const { sleep, lines } = setup();
    const refused = (pattern: RegExp) => (err: unknown) => err instanceof SleepInputError && pattern.test(err.message);
    await assert.rejects(sleep.recordWake('', 'user'), refused(/agent must be non-empty text/));
    await assert.rejects(sleep.recordWake('a', ''), refused(/reason must be non-empty text/));
    await assert.rejects(
      sleep.recordWake('a'.repeat(201), 'user'),
      refused(/agent is 201 characters; the limit is 200/),
    );
    assert.equal(lines(), undefined);
  });

  test('a wake reason over the limit is shortened, not refused: the wake must happen', async () => {
    const { sleep, start, open } = setup();
    await start(timer('a', 60, T0));
    const woken = await sleep.recordWake('a', `${'r'.repeat(WAKE_REASON_MAX_CHARS)}and more`);
    assert.equal([...woken.reason].length, WAKE_REASON_MAX_CHARS);
    assert.ok(woken.reason.endsWith('r…'));
    assert.deepEqual(await open().read(), { sleepers: [], problems: [] });
    // Code points, not UTF-16 units: an emoji reason at the limit is kept whole.
    assert.equal(
      (await sleep.recordWake('a', '🦀'.repeat(WAKE_REASON_MAX_CHARS))).reason,
      '🦀'.repeat(WAKE_REASON_MAX_CHARS),
    );
  });
});

describe('parseSleepRecord', () => {
  const started = { event: 'started', agent: 'a', mode: { kind: 'manual' }, startedAt: T0, maxDurationMs: 1000 };

  test('ignores unknown fields', () => {
    assert.deepEqual(parseSleepRecord({ ...started, host: 'x' }), { ok: true, record: started });
  });

  test('accepts the edges of the Date range and names counted in code points', () => {
    assert.equal(parseSleepRecord({ ...started, startedAt: 0, maxDurationMs: 8.64e15 }).ok, true);
    assert.equal(parseSleepRecord({ ...started, agent: '🦀'.repeat(200) }).ok, true);
  });

  const rejected: [string, unknown, string][] = [
    ['a list', [], 'not a JSON object'],
    ['no event', { agent: 'a' }, 'missing field event'],
    ['an unknown event', { ...started, event: 'snoozed' }, 'event must be "started" or "woken"'],
    ['no agent', { ...started, agent: undefined }, 'missing field agent'],
    ['an unknown mode kind', { ...started, mode: { kind: 'nap' } }, 'mode: kind must be "timer", "event" or "manual"'],
    [
      'a bad target',
      { ...started, mode: { kind: 'event', target: { type: 'build', id: '1' } } },
      'mode: target type must be "agent" or "phase"',
    ],
    [
      'an empty target id',
      { ...started, mode: { kind: 'event', target: { type: 'agent', id: '' } } },
      'mode: target id must be non-empty text',
    ],
    [
      'a text start time',
      { ...started, startedAt: '2025-01-01' },
      'startedAt must be a whole number of milliseconds from 0 to 8.64e15',
    ],
    [
      'a negative maximum',
      { ...started, maxDurationMs: -1 },
      'maxDurationMs must be a whole number of milliseconds from 0 to 8.64e15',
    ],
    // Past what a Date can hold: `new Date(t).toISOString()` would throw when it is shown.
    [
      'a start time past the Date range',
      { ...started, startedAt: 1e16 },
      'startedAt must be a whole number of milliseconds from 0 to 8.64e15',
    ],
    [
      'a fractional start time',
      { ...started, startedAt: T0 + 0.5 },
      'startedAt must be a whole number of milliseconds from 0 to 8.64e15',
    ],
    [
      'a wake time past the Date range',
      { event: 'woken', agent: 'a', reason: 'r', at: 8.64e15 + 1 },
      'at must be a whole number of milliseconds from 0 to 8.64e15',
    ],
    [
      'a timer duration past the Date range',
      { ...started, mode: { kind: 'timer', durationMs: 2 ** 60 } },
      'mode: durationMs must be a whole number of milliseconds from 0 to 8.64e15',
    ],
    [
      'an agent name over 200 characters',
      { ...started, agent: 'a'.repeat(201) },
      'agent is 201 characters; the limit is 200',
    ],
    ['a wake without reason', { event: 'woken', agent: 'a', at: T0 }, 'missing field reason'],
    ['a wake without time', { event: 'woken', agent: 'a', reason: 'r' }, 'missing field at'],
  ];
  for (const [name, value, reason] of rejected) {
    test(`refuses ${name}`, () => assert.deepEqual(parseSleepRecord(value), { ok: false, reason }));
  }
});

describe('sleeperStatus', () => {
  test('ticks a kept sleeper without reading the log again', () => {
    const s = timer('a', 60, T0);
    assert.deepEqual(sleeperStatus(s, T0 + 15_000), { expired: false, status: '45s' });
    assert.deepEqual(sleeperStatus(s, T0 + 75_000), { expired: true, status: 'Overdue by 15s' });
  });

  test('a woken sleep is neither expired nor overdue', () => {
    assert.deepEqual(sleeperStatus(wake(timer('a', 60, T0), 'user'), T0 + 75_000), { expired: false, status: 'Awake' });
  });
});
