// The sleeping agents' slice of the panel protocol. The host sends when each sleep started and how
// long it may last, not a countdown: the panel ticks the countdown itself, against the host's clock
// (each state message carries the host's `now`), so nothing crosses the boundary every second.
import { MAX_ID_CHARS, isProblem, rejected, textField, type InboundSet, type Parsed } from './common';

export interface SleeperView {
  agent: string;
  /** timer: a countdown; event: waits for another agent or phase (`waitingFor`); manual: until woken. */
  mode: 'timer' | 'event' | 'manual';
  /** With 'event': "agent build-qa", "phase 3". */
  waitingFor?: string;
  /** ms since the epoch, on the host's clock. */
  startedAt: number;
  /** The longest the sleep may last, whatever its mode: past it, the agent is overdue. */
  maxDurationMs: number;
}

export interface SleepSlice {
  /** In the order they fell asleep. */
  sleepers: SleeperView[];
  /** Why the sleep log could not be read, if it could not. */
  error?: string;
}

/**
 * What the panel shows beside a sleeper at `now` (the host's clock): "2m 05s", "Waiting: agent X",
 * "Manual pause", or "Overdue by 1m 10s" past its maximum. The same words as the core's
 * `sleeperStatus` (src/core/sleep/sleepLog.ts); a unit test holds the two together.
 */
export function sleeperStatus(s: SleeperView, now: number): { overdue: boolean; text: string } {
  const elapsed = Math.max(0, now - s.startedAt);
  if (elapsed >= s.maxDurationMs)
    return { overdue: true, text: `Overdue by ${formatDuration(elapsed - s.maxDurationMs)}` };
  switch (s.mode) {
    case 'timer':
      return { overdue: false, text: formatDuration(s.maxDurationMs - elapsed) };
    case 'event':
      return { overdue: false, text: `Waiting: ${s.waitingFor ?? ''}` };
    case 'manual':
      return { overdue: false, text: 'Manual pause' };
  }
}

/** "45s", "2m 05s", "1h 02m": rounded up, so "0s" shows only once due. */
export function formatDuration(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}

export type SleepMessage = { type: 'sleep.wake'; agent: string };

function parse(value: Record<string, unknown>): Parsed<SleepMessage> {
  const agent = textField(value, 'agent', MAX_ID_CHARS, true);
  return isProblem(agent) ? rejected(value.type, agent.error) : { ok: true, message: { type: 'sleep.wake', agent } };
}

export const SLEEP_INBOUND: InboundSet<SleepMessage> = { feature: 'sleep', types: ['sleep.wake'], parse };
