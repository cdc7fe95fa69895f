// The panel counts the sleepers down itself, from when each sleep started and how long it may last:
// its words must be the core's (src/core/sleep/sleepLog.ts) at every moment.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { replaySleepRecords } from '../../../src/core/sleep/sleepLog';
import { sleeperStatus } from '../../../src/shared/protocol/sleep';
import { sleepSlice } from '../../../src/vscode/sleep/sleepSlice';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('sleeperStatus (the panel’s countdown)', () => {
  const records = [
    {
      event: 'started' as const,
      agent: 'timer',
      mode: { kind: 'timer' as const, durationMs: 150_000 },
      startedAt: T0,
      maxDurationMs: 150_000,
    },
    {
      event: 'started' as const,
      agent: 'event',
      mode: { kind: 'event' as const, target: { type: 'agent' as const, id: 'build-qa' } },
      startedAt: T0,
      maxDurationMs: 3_600_000,
    },
    {
      event: 'started' as const,
      agent: 'manual',
      mode: { kind: 'manual' as const },
      startedAt: T0,
      maxDurationMs: 7_200_000,
    },
  ];
  const moments = [
    -5_000, 0, 1, 999, 1_000, 45_000, 149_001, 150_000, 151_000, 3_599_999, 3_600_000, 3_700_000, 7_200_000, 9_999_999,
  ];

  test('says what the core says, for every mode, before, at and past the maximum', () => {
    for (const offset of moments) {
      const now = T0 + offset;
      const core = replaySleepRecords(records, now);
      const panel = sleepSlice(core).sleepers;
      assert.equal(panel.length, core.length);
      panel.forEach((s, i) => {
        const ours = sleeperStatus(s, now);
        assert.deepEqual(
          { overdue: ours.overdue, text: ours.text },
          { overdue: core[i]!.expired, text: core[i]!.status },
          `${s.agent} at +${offset} ms`,
        );
      });
    }
  });

  test('the slice holds when each sleep started, not a countdown: it does not change as time passes', () => {
    assert.deepEqual(sleepSlice(replaySleepRecords(records, T0)), sleepSlice(replaySleepRecords(records, T0 + 60_000)));
    assert.deepEqual(sleepSlice(replaySleepRecords(records, T0)).sleepers[1], {
      agent: 'event',
      mode: 'event',
      waitingFor: 'agent build-qa',
      startedAt: T0,
      maxDurationMs: 3_600_000,
    });
  });

  test('a log that cannot be read is said in the slice', () => {
    assert.deepEqual(sleepSlice({ error: 'sleep.jsonl is damaged' }), {
      sleepers: [],
      error: 'sleep.jsonl is damaged',
    });
  });
});
