import type { Clock } from '../clock';
import { describeValue } from '../inputChecks';
import type { ReadProblem, RecordLog } from '../storage/recordLog';
import { WAKE_REASON_MAX_CHARS, parseSleepRecord } from './sleepRecord';
import type { SleepRecord, SleepStarted, SleepWoken } from './sleepRecord';
import { elapsedMs, formatDuration, isExpired, remainingDisplay, startSleep } from './sleepState';
import type { SleepState } from './sleepState';

/**
 * Thrown by `SleepLog.recordStart` and `recordWake` for a record the log would not read back (an empty agent name, a
 * time out of range...): a bug in the caller, told apart from a storage error.
 */
export class SleepInputError extends Error {
  override readonly name = 'SleepInputError';
}

/** An agent that is asleep according to the log, as a tree item shows it. */
export interface Sleeper {
  agent: string;
  state: SleepState;
  /**
   * Past its maximum with no wake recorded: the runner that should have woken it is gone (a
   * closed window, a crash) or late. Still listed, so the UI can show it overdue and offer Wake.
   */
  expired: boolean;
  /** "2m 05s", "Waiting: agent X", "Manual pause", or "Overdue by 1m 10s" when expired. */
  status: string;
}

export interface SleepersResult {
  /** In the order they fell asleep, oldest first. */
  sleepers: Sleeper[];
  /** Lines of the log that were skipped; a corrupt line never hides the lines around it. */
  problems: ReadProblem[];
}

/**
 * Sleep events of all agents in one log (`.groundwork/sleep.jsonl`), so that after a reload,
 * or from the CLI, who is asleep is known by replaying it.
 */
export class SleepLog {
  /** The parser to open the log with: `store.log(SLEEP_FILE, SleepLog.parseRecord)`. */
  static readonly parseRecord = parseSleepRecord;

  constructor(
    private readonly log: RecordLog<SleepRecord>,
    private readonly clock: Clock,
  ) {}

  /** Appends the start of a sleep (an agent run's sleep tool). */
  async recordStart(state: SleepState): Promise<SleepStarted> {
    return this.appendChecked<SleepStarted>({
      event: 'started',
      agent: state.agent,
      mode: state.mode,
      startedAt: state.startedAt,
      maxDurationMs: state.maxDurationMs,
    });
  }

  /**
   * Appends a wake at the clock's time. It does not read the log first: waking an agent that is
   * already awake is harmless on replay, and a read-then-write would race another window. A
   * reason over WAKE_REASON_MAX_CHARS is shortened (ending in '…'), since a wake must not fail
   * for the length of its explanation.
   */
  async recordWake(agent: string, reason: string): Promise<SleepWoken> {
    return this.appendChecked<SleepWoken>({
      event: 'woken',
      agent,
      reason: shorten(reason, WAKE_REASON_MAX_CHARS),
      at: this.clock.now(),
    });
  }

  /**
   * Who is asleep at `now` (default: the clock's time), for a tree or a status bar. Corrupt lines
   * are skipped here; use `read` where they should be shown (the CLI reports them).
   */
  async sleepers(now: number = this.clock.now()): Promise<Sleeper[]> {
    return (await this.read(now)).sleepers;
  }

  /** Replays the log: the sleepers and the lines that could not be read. */
  async read(now: number = this.clock.now()): Promise<SleepersResult> {
    const { records, problems } = await this.log.readAll();
    return { sleepers: replaySleepRecords(records, now), problems };
  }

  /**
   * The reason of a wake of `agent` written after its sleep that started at or after `since`, or
   * undefined while it sleeps: how a sleeping run learns that someone else woke it.
   */
  async wakeAfter(agent: string, since: number): Promise<string | undefined> {
    const { records } = await this.log.readAll();
    let sleeping = false;
    let reason: string | undefined;
    for (const r of records) {
      if (r.agent !== agent) continue;
      if (r.event === 'started') {
        sleeping = r.startedAt >= since;
        reason = undefined;
      } else if (sleeping) {
        sleeping = false;
        reason = r.reason;
      }
    }
    return reason;
  }

  // The same parser the reader uses, so nothing is written that could not be read back.
  private async appendChecked<R extends SleepRecord>(record: R): Promise<R> {
    const checked = parseSleepRecord(record);
    if (!checked.ok)
      throw new SleepInputError(`Cannot record the sleep of ${describeValue(record.agent)}: ${checked.reason}.`);
    await this.log.append(record);
    return record;
  }
}

/**
 * Per agent, the latest `started` is its sleep (a new start replaces an earlier one: the agent
 * went back to sleep) and a later `woken` ends it; a `woken` with no sleep open is ignored.
 */
export function replaySleepRecords(records: readonly SleepRecord[], now: number): Sleeper[] {
  const open = new Map<string, SleepState>();
  for (const r of records) {
    if (r.event === 'started') {
      // Delete first so a restarted agent moves to the end, keeping "order fell asleep".
      open.delete(r.agent);
      open.set(r.agent, startSleep(r.agent, r.mode, r.startedAt, r.maxDurationMs));
    } else {
      open.delete(r.agent);
    }
  }
  return [...open.values()].map((state) => ({ agent: state.agent, state, ...sleeperStatus(state, now) }));
}

/**
 * A sleeper's `expired` and `status` at `now`, so a view that keeps the sleepers it read can
 * tick the countdown without reading the log again.
 */
export function sleeperStatus(state: SleepState, now: number): { expired: boolean; status: string } {
  const expired = state.active && isExpired(state, now);
  const status = expired
    ? `Overdue by ${formatDuration(elapsedMs(state, now) - state.maxDurationMs)}`
    : remainingDisplay(state, now);
  return { expired, status };
}

/** `text` cut to `maxChars` code points, the last one an ellipsis, when it is longer. */
function shorten(text: string, maxChars: number): string {
  const chars = [...text];
  return chars.length <= maxChars ? text : `${chars.slice(0, maxChars - 1).join('')}…`;
}
