import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { replaySleepRecords } from '../../../../src/core/sleep/sleepLog';
import { sleepSlice } from '../../../../src/vscode/sleep/sleepSlice';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

describe("the sleepers' slice of the panel", () => {
  test('sleepers are sent with when they fell asleep and for how long, for the panel to count down', () => {
    const sleepers = replaySleepRecords(
      [
        {
          event: 'started',
          agent: 'build-qa',
          mode: { kind: 'timer', durationMs: 150_000 },
          startedAt: T0,
          maxDurationMs: 150_000,
        },
        {
          event: 'started',
          agent: 'build-dev',
          mode: { kind: 'manual' },
          startedAt: T0 - 7_200_000,
          maxDurationMs: 3_600_000,
        },
      ],
      T0,
    );
    assert.deepEqual(sleepSlice(sleepers), {
      sleepers: [
        { agent: 'build-qa', mode: 'timer', startedAt: T0, maxDurationMs: 150_000 },
        { agent: 'build-dev', mode: 'manual', startedAt: T0 - 7_200_000, maxDurationMs: 3_600_000 },
      ],
    });
  });
});
