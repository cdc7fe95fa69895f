// From what the sleep log holds to the sleepers' slice of the panel. No vscode import: unit-tested.
import type { Sleeper } from '../../core/sleep/sleepLog';
import type { SleeperView, SleepSlice } from '../../shared/protocol/sleep';

/**
 * Who sleeps, with when each sleep started and how long it may last: the panel counts down from
 * these itself, so the slice does not change as time passes.
 */
export function sleepSlice(sleepers: Sleeper[] | { error: string }): SleepSlice {
  if ('error' in sleepers) return { sleepers: [], error: sleepers.error };
  return {
    sleepers: sleepers.map(({ state }): SleeperView => {
      const mode = state.mode;
      return {
        agent: state.agent,
        mode: mode.kind,
        ...(mode.kind === 'event' ? { waitingFor: `${mode.target.type} ${mode.target.id}` } : {}),
        startedAt: state.startedAt,
        maxDurationMs: state.maxDurationMs,
      };
    }),
  };
}
