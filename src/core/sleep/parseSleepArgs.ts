import { MAX_DATE_MS } from '../clock';
import { NAME_MAX_CHARS, describeValue, isPlainObject, lengthProblem } from '../inputChecks';
import { isBlankText } from '../prompt/untrustedText';
import { startSleep } from './sleepState';
import type { SleepMode, SleepState } from './sleepState';

const SLEEP_MODES = ['timer', 'event', 'manual'] as const;

/** A cap beyond any real use, low enough that a start time plus the cap is still a Date. */
const MAX_SLEEP_SECONDS = MAX_DATE_MS / 1000 / 2;

export type ParsedSleep =
  | {
      ok: true;
      state: SleepState;
      /** True when the request asked for longer than the cap and was cut to it; tell the agent. */
      clamped: boolean;
    }
  | { ok: false; error: string };

/** Who is going to sleep and when; the tool call's arguments do not say (the runner knows). */
export interface SleepContext {
  agent: string;
  now: number;
}

/**
 * Reads the arguments of an agent's `sleep` tool call (`{mode, duration_secs?, agent_id?,
 * phase?}`, untrusted JSON) into a started sleep. Every mode sleeps at most `maxSeconds`:
 * a timer for `min(duration_secs, maxSeconds)`; event and manual sleeps for `duration_secs`
 * (an optional timeout) or the cap. The errors are returned to the agent, so they say what to send.
 */
export function parseSleepArgs(args: unknown, maxSeconds: number, context: SleepContext): ParsedSleep {
  // Bounded so that every duration stays a time the sleep log can store and show.
  if (!(maxSeconds > 0 && maxSeconds <= MAX_SLEEP_SECONDS)) {
    return fail(
      `the sleep cap (groundwork.sleep.maxSeconds) must be a number of seconds greater than 0 and at most ${MAX_SLEEP_SECONDS}, got ${maxSeconds}`,
    );
  }
  if (!isPlainObject(args)) {
    return fail(`sleep arguments must be an object such as {"mode": "timer", "duration_secs": 60}`);
  }
  const modeName = args['mode'];
  const valid = SLEEP_MODES.join(', ');
  if (modeName === undefined) return fail(`mode is required; one of: ${valid}`);
  if (typeof modeName !== 'string' || !isModeName(modeName)) {
    return fail(`unknown mode ${describeValue(modeName)}; valid modes: ${valid}`);
  }

  const requested = readDuration(args['duration_secs'], modeName === 'timer');
  if (!requested.ok) return requested;
  const seconds = Math.min(requested.seconds ?? maxSeconds, maxSeconds);
  const clamped = requested.seconds !== undefined && requested.seconds > maxSeconds;
  // Rounded up so that a tiny positive duration never becomes a sleep of zero.
  const maxDurationMs = Math.ceil(seconds * 1000);

  let mode: SleepMode;
  switch (modeName) {
    case 'timer':
      mode = { kind: 'timer', durationMs: maxDurationMs };
      break;
    case 'event': {
      const target = readTarget(args['agent_id'], args['phase']);
      if (!target.ok) return target;
      mode = { kind: 'event', target: target.target };
      break;
    }
    case 'manual':
      mode = { kind: 'manual' };
      break;
  }
  return { ok: true, state: startSleep(context.agent, mode, context.now, maxDurationMs), clamped };
}

function readDuration(
  raw: unknown,
  required: boolean,
): { ok: true; seconds: number | undefined } | { ok: false; error: string } {
  if (raw === undefined || raw === null) {
    return required
      ? fail('timer mode needs duration_secs, a number of seconds greater than 0')
      : { ok: true, seconds: undefined };
  }
  if (typeof raw !== 'number') {
    return fail(`duration_secs must be a number of seconds, not ${describeValue(raw)}; send e.g. "duration_secs": 60`);
  }
  if (!Number.isFinite(raw)) return fail('duration_secs must be a finite number of seconds');
  if (raw <= 0) return fail(`duration_secs must be greater than 0 (got ${raw})`);
  return { ok: true, seconds: raw };
}

function readTarget(
  agentId: unknown,
  phase: unknown,
): { ok: true; target: { type: 'agent' | 'phase'; id: string } } | { ok: false; error: string } {
  const hasAgent = agentId !== undefined && agentId !== null;
  const hasPhase = phase !== undefined && phase !== null;
  if (hasAgent && hasPhase) return fail('event mode waits for one thing: give agent_id or phase, not both');
  if (!hasAgent && !hasPhase)
    return fail('event mode needs agent_id (the agent to wait for) or phase (the build phase to wait for)');
  const [type, raw] = hasAgent ? (['agent', agentId] as const) : (['phase', phase] as const);
  const field = type === 'agent' ? 'agent_id' : 'phase';
  if (typeof raw !== 'string')
    return fail(`${field} must be text, not ${describeValue(raw)}; send e.g. "${field}": "3"`);
  if (isBlankText(raw)) return fail(`${field} is empty (or only invisible characters); give the ${type} to wait for`);
  const tooLong = lengthProblem(field, raw, NAME_MAX_CHARS);
  if (tooLong !== undefined) return fail(`${tooLong}; send just the id of the ${type} to wait for`);
  return { ok: true, target: { type, id: raw } };
}

function isModeName(s: string): s is (typeof SLEEP_MODES)[number] {
  return SLEEP_MODES.some((m) => m === s);
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
