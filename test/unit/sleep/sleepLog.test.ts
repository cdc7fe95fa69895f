import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSleepArgs } from '../../../src/core/sleep/parseSleepArgs';
import { SLEEP_FILE, SleepLog, sleeperStatus } from '../../../src/core/sleep/sleepLog';
import { parseSleepRecord } from '../../../src/core/sleep/sleepRecord';
import type { SleepRecord } from '../../../src/core/sleep/sleepRecord';
import { startSleep, wake } from '../../../src/core/sleep/sleepState';
import { FakeClock, MemoryRecordLog } from '../journal/memoryRecordLog';

const T0 = 1_700_000_000_000;

function setup(lines?: string[]) {
  const log = new MemoryRecordLog<SleepRecord>(SleepLog.parseRecord, lines);
  const clock = new FakeClock(T0);
  return { log, clock, sleep: new SleepLog(log, clock) };
}

const timer = (agent: string, secs: number, at: number) => startSleep(agent, { kind: 'timer', durationMs: secs * 1000 }, at, secs * 1000);

describe('SleepLog', () => {
  test('the file name is sleep.jsonl inside .groundwork', () => {
    assert.equal(SLEEP_FILE, 'sleep.jsonl');
    assert.equal(SleepLog.parseRecord, parseSleepRecord);
  });

  test('an empty or missing log has no sleepers', async () => {
    const { sleep } = setup();
    assert.deepEqual(await sleep.sleepers(), []);
    assert.deepEqual(await sleep.read(), { sleepers: [], problems: [] });
  });

  test('records start and wake as the documented lines', async () => {
    const { sleep, log, clock } = setup();
    const parsed = parseSleepArgs({ mode: 'event', phase: '2' }, 600, { agent: 'lead', now: T0 });
    assert.ok(parsed.ok);
    await sleep.recordStart(parsed.state);
    clock.advance(5000);
    const woken = await sleep.recordWake('lead', 'phase 2 finished');
    assert.deepEqual(woken, { event: 'woken', agent: 'lead', reason: 'phase 2 finished', at: T0 + 5000 });
    assert.deepEqual(log.lines, [
      `{"event":"started","agent":"lead","mode":{"kind":"event","target":{"type":"phase","id":"2"}},"startedAt":${T0},"maxDurationMs":600000}`,
      `{"event":"woken","agent":"lead","reason":"phase 2 finished","at":${T0 + 5000}}`,
    ]);
  });

  test('after a reload the sleepers are known from the log alone', async () => {
    const first = setup();
    await first.sleep.recordStart(timer('builder', 300, T0));
    await first.sleep.recordStart(startSleep('lead', { kind: 'event', target: { type: 'agent', id: 'builder' } }, T0 + 1000, 3_600_000));
    // A new SleepLog over the same lines: what a reloaded window does.
    const reloaded = new SleepLog(new MemoryRecordLog(SleepLog.parseRecord, first.log.lines), new FakeClock(T0 + 26_000));
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
    const { sleep } = setup();
    await sleep.recordStart(timer('a', 60, T0));
    await sleep.recordStart(timer('b', 60, T0));
    await sleep.recordWake('a', 'user');
    assert.deepEqual((await sleep.sleepers(T0 + 1000)).map((s) => s.agent), ['b']);
  });

  test('a restart replaces the earlier sleep and moves the agent to the end', async () => {
    const { sleep } = setup();
    await sleep.recordStart(timer('a', 60, T0));
    await sleep.recordStart(timer('b', 60, T0 + 1000));
    await sleep.recordStart(startSleep('a', { kind: 'manual' }, T0 + 2000, 600_000));
    const sleepers = await sleep.sleepers(T0 + 3000);
    assert.deepEqual(sleepers.map((s) => [s.agent, s.status]), [
      ['b', '58s'],
      ['a', 'Manual pause'],
    ]);
  });

  test('sleeping again after a wake makes the agent a sleeper again', async () => {
    const { sleep } = setup();
    await sleep.recordStart(timer('a', 60, T0));
    await sleep.recordWake('a', 'timer');
    await sleep.recordStart(timer('a', 30, T0 + 60_000));
    assert.deepEqual((await sleep.sleepers(T0 + 61_000)).map((s) => [s.agent, s.status]), [['a', '29s']]);
  });

  test('a double wake, and a wake of an agent that never slept, are harmless', async () => {
    const { sleep } = setup();
    await sleep.recordWake('ghost', 'user');
    await sleep.recordStart(timer('a', 60, T0));
    await sleep.recordWake('a', 'user');
    await sleep.recordWake('a', 'user again');
    await sleep.recordStart(timer('b', 60, T0));
    assert.deepEqual((await sleep.read(T0)).sleepers.map((s) => s.agent), ['b']);
    assert.deepEqual((await sleep.read(T0)).problems, []);
  });

  test('a corrupt line in the middle is reported and the lines around it still count', async () => {
    const { sleep, log } = setup();
    await sleep.recordStart(timer('a', 60, T0));
    log.lines?.push('{"event":"woken","agent":"a","rea'); // a crash mid-write, later appended to
    log.lines?.push('{"event":"started","agent":"c"}');
    await sleep.recordStart(timer('b', 60, T0));
    const { sleepers, problems } = await sleep.read(T0 + 1000);
    // The wake of "a" was lost to the corruption, so "a" still counts as asleep: the safe side,
    // since the UI offers Wake for it.
    assert.deepEqual(sleepers.map((s) => s.agent), ['a', 'b']);
    assert.deepEqual(problems.map((p) => [p.line, p.reason]), [
      [2, 'not valid JSON'],
      [3, 'missing field mode'],
    ]);
    assert.deepEqual((await sleep.sleepers(T0 + 1000)).map((s) => s.agent), ['a', 'b']);
  });

  test('expired sleepers are still listed, marked overdue', async () => {
    const { sleep } = setup();
    await sleep.recordStart(timer('a', 60, T0));
    await sleep.recordStart(startSleep('lead', { kind: 'event', target: { type: 'phase', id: '1' } }, T0, 120_000));
    const at = (ms: number) => sleep.sleepers(T0 + ms);
    assert.deepEqual((await at(59_000)).map((s) => [s.agent, s.expired, s.status]), [
      ['a', false, '1s'],
      ['lead', false, 'Waiting: phase 1'],
    ]);
    assert.deepEqual((await at(60_000)).map((s) => [s.agent, s.expired, s.status]), [
      ['a', true, 'Overdue by 0s'],
      ['lead', false, 'Waiting: phase 1'],
    ]);
    assert.deepEqual((await at(190_000)).map((s) => [s.agent, s.expired, s.status]), [
      ['a', true, 'Overdue by 2m 10s'],
      ['lead', true, 'Overdue by 1m 10s'],
    ]);
  });

  test('refuses to record what it could not read back', async () => {
    const { sleep, log } = setup();
    await assert.rejects(sleep.recordStart(timer('', 60, T0)), /agent must be non-empty text/);
    await assert.rejects(sleep.recordWake('a', ''), /reason must be non-empty text/);
    await assert.rejects(sleep.recordStart(startSleep('a', { kind: 'timer', durationMs: Number.NaN }, T0, 1)), /durationMs/);
    assert.equal(log.lines, undefined);
  });
});

describe('parseSleepRecord', () => {
  const started = { event: 'started', agent: 'a', mode: { kind: 'manual' }, startedAt: T0, maxDurationMs: 1000 };

  test('ignores unknown fields', () => {
    assert.deepEqual(parseSleepRecord({ ...started, host: 'x' }), { ok: true, record: started });
  });

  const rejected: [string, unknown, string][] = [
    ['a list', [], 'not a JSON object'],
    ['no event', { agent: 'a' }, 'missing field event'],
    ['an unknown event', { ...started, event: 'snoozed' }, 'event must be "started" or "woken"'],
    ['no agent', { ...started, agent: undefined }, 'missing field agent'],
    ['an unknown mode kind', { ...started, mode: { kind: 'nap' } }, 'mode: kind must be "timer", "event" or "manual"'],
    ['a bad target', { ...started, mode: { kind: 'event', target: { type: 'build', id: '1' } } }, 'mode: target type must be "agent" or "phase"'],
    ['an empty target id', { ...started, mode: { kind: 'event', target: { type: 'agent', id: '' } } }, 'mode: target id must be non-empty text'],
    ['a text start time', { ...started, startedAt: '2025-01-01' }, 'startedAt must be a number of milliseconds ≥ 0'],
    ['a negative maximum', { ...started, maxDurationMs: -1 }, 'maxDurationMs must be a number of milliseconds ≥ 0'],
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
