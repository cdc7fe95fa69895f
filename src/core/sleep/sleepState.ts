/**
 * An agent's sleep as plain immutable data plus pure functions. No timers and no clock: the
 * caller passes `now` (ms since the epoch), so a runner, the tree view and tests agree on time.
 * Plain data (not a class) so it survives JSON, the sleep log and `postMessage` unchanged.
 */

export type SleepTargetType = 'agent' | 'phase';

export type SleepMode =
  | { readonly kind: 'timer'; readonly durationMs: number }
  | { readonly kind: 'event'; readonly target: { readonly type: SleepTargetType; readonly id: string } }
  | { readonly kind: 'manual' };

export interface SleepState {
  readonly agent: string;
  readonly mode: SleepMode;
  /** ms since the epoch. */
  readonly startedAt: number;
  /**
   * The longest the sleep may last, whatever the mode: the clamped duration for a timer, the
   * `groundwork.sleep.maxSeconds` cap for event and manual sleeps (so none lasts for ever).
   */
  readonly maxDurationMs: number;
  readonly active: boolean;
  readonly wakeReason?: string;
}

export function startSleep(agent: string, mode: SleepMode, startedAt: number, maxDurationMs: number): SleepState {
  return { agent, mode, startedAt, maxDurationMs, active: true };
}

/** Time asleep so far; 0 (not negative) if the clock went backwards since the start. */
export function elapsedMs(state: SleepState, now: number): number {
  return Math.max(0, now - state.startedAt);
}

/** Time left before the sleep is due, never negative. */
export function remainingMs(state: SleepState, now: number): number {
  return Math.max(0, state.maxDurationMs - elapsedMs(state, now));
}

/** Due: slept at least the maximum. Time only; whether it was woken is `active`'s business. */
export function isExpired(state: SleepState, now: number): boolean {
  return elapsedMs(state, now) >= state.maxDurationMs;
}

/** A woken copy; waking twice keeps the first reason, as the first wake is what happened. */
export function wake(state: SleepState, reason: string): SleepState {
  if (!state.active) return state;
  return { ...state, active: false, wakeReason: reason };
}

/**
 * What a person sees next to the agent's name: the countdown for a timer ("45s", "2m 05s",
 * "1h 02m", and "0s" once due), what an event sleep waits for, or "Manual pause".
 */
export function remainingDisplay(state: SleepState, now: number): string {
  if (!state.active) return 'Awake';
  switch (state.mode.kind) {
    case 'timer':
      return formatDuration(remainingMs(state, now));
    case 'event':
      return `Waiting: ${state.mode.target.type} ${state.mode.target.id}`;
    case 'manual':
      return 'Manual pause';
  }
}

/**
 * Rounds up to whole seconds so a countdown shows "1s" until it is really due and "0s" only then.
 * Under an hour it shows seconds; from an hour on, seconds are noise, so hours and minutes.
 */
export function formatDuration(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h ${pad2(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad2(seconds)}s`;
  return `${seconds}s`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
