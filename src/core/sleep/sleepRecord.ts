import { isStorableMs } from '../clock';
import { NAME_MAX_CHARS, isPlainObject, lengthProblem } from '../inputChecks';
import { isBlankText } from '../prompt/untrustedText';
import type { RecordParser } from '../storage/recordLog';
import type { SleepMode } from './sleepState';

/**
 * One line of `.groundwork/sleep.jsonl`. Times are ms since the epoch, like `SleepState`, so a
 * replayed sleep is exactly the one that was recorded. Lines are events in the order they
 * happened: the order of the file decides, not the times in it (clocks of two windows differ).
 */
export type SleepRecord = SleepStarted | SleepWoken;

export interface SleepStarted {
  event: 'started';
  agent: string;
  mode: SleepMode;
  startedAt: number;
  maxDurationMs: number;
}

export interface SleepWoken {
  event: 'woken';
  agent: string;
  reason: string;
  at: number;
}

/** Why an agent was woken, as the tree and the CLI show it; `SleepLog.recordWake` shortens longer ones. */
export const WAKE_REASON_MAX_CHARS = 500;

type Parsed<T> = { ok: true; record: T } | { ok: false; reason: string };

/** Unknown fields are ignored (a newer version may add some) and not kept on the record. */
export const parseSleepRecord: RecordParser<SleepRecord> = (value) => {
  if (!isPlainObject(value)) return bad('not a JSON object');
  const agent = text(value, 'agent', NAME_MAX_CHARS);
  if (!agent.ok) return agent;
  switch (value['event']) {
    case 'started': {
      const mode = parseMode(value['mode']);
      if (!mode.ok) return mode;
      const startedAt = time(value, 'startedAt');
      if (!startedAt.ok) return startedAt;
      const max = time(value, 'maxDurationMs');
      if (!max.ok) return max;
      return {
        ok: true,
        record: {
          event: 'started',
          agent: agent.record,
          mode: mode.record,
          startedAt: startedAt.record,
          maxDurationMs: max.record,
        },
      };
    }
    case 'woken': {
      const reason = text(value, 'reason', WAKE_REASON_MAX_CHARS);
      if (!reason.ok) return reason;
      const at = time(value, 'at');
      if (!at.ok) return at;
      return { ok: true, record: { event: 'woken', agent: agent.record, reason: reason.record, at: at.record } };
    }
    case undefined:
      return bad('missing field event');
    default:
      return bad('event must be "started" or "woken"');
  }
};

function parseMode(value: unknown): Parsed<SleepMode> {
  if (!isPlainObject(value)) return bad('missing field mode');
  switch (value['kind']) {
    case 'timer': {
      const d = time(value, 'durationMs');
      return d.ok ? { ok: true, record: { kind: 'timer', durationMs: d.record } } : bad(`mode: ${d.reason}`);
    }
    case 'event': {
      const target = value['target'];
      if (!isPlainObject(target)) return bad('mode: missing field target');
      const type = target['type'];
      if (type !== 'agent' && type !== 'phase') return bad('mode: target type must be "agent" or "phase"');
      const id = text(target, 'id', NAME_MAX_CHARS);
      return id.ok
        ? { ok: true, record: { kind: 'event', target: { type, id: id.record } } }
        : bad(`mode: target ${id.reason}`);
    }
    case 'manual':
      return { ok: true, record: { kind: 'manual' } };
    default:
      return bad('mode: kind must be "timer", "event" or "manual"');
  }
}

function text(obj: Record<string, unknown>, field: string, maxChars: number): Parsed<string> {
  const v = obj[field];
  if (v === undefined) return bad(`missing field ${field}`);
  if (typeof v !== 'string' || isBlankText(v)) return bad(`${field} must be non-empty text`);
  const tooLong = lengthProblem(field, v, maxChars);
  return tooLong === undefined ? { ok: true, record: v } : bad(tooLong);
}

/** Epoch times and durations, which are shown as dates and countdowns: see `isStorableMs`. */
function time(obj: Record<string, unknown>, field: string): Parsed<number> {
  const v = obj[field];
  if (v === undefined) return bad(`missing field ${field}`);
  if (!isStorableMs(v)) return bad(`${field} must be a whole number of milliseconds from 0 to 8.64e15`);
  return { ok: true, record: v };
}

function bad(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
