// The run folders under `.groundwork/runs/`: making one when a run starts, reading and listing them
// for the explorer and the CLI (each checked: a cloned repository may hold run folders), updating
// `run.json` as the run goes, its transcript and command logs, and the lock a live run holds so
// that a run whose process died shows as interrupted rather than running forever.
import { describeValue } from '../inputChecks';
import { RUNS_DIR, RUN_FILES, commandLogName, runFile } from '../plan/layout';
import type { JsonlLog } from '../storage/jsonl';
import { StorageError, quotePath } from '../storage/storageError';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { isRunId, newRunId, parseRunRecord } from './runRecord';
import { parseTranscriptRecord } from './transcript';
import type { RunRecord, RunStatus, TranscriptRecord } from './runTypes';

/** The newest runs a list reads; older folders stay on disk and are not shown. */
export const RUN_LIST_MAX = 500;
/** Far above what `run.json` holds (a 20,000-character task, escaped). */
const RUN_FILE_MAX_BYTES = 1024 * 1024;
/** A command's whole output is kept; reading it back is capped. */
const COMMAND_LOG_MAX_BYTES = 32 * 1024 * 1024;
/** Lock and area names: one area lock for every writer of `run.json`, one session lock per live run. */
const RUNS_AREA = 'runs';
const READ_BATCH = 32;
const CREATE_ATTEMPTS = 16;
const DAY_MS = 24 * 60 * 60 * 1000;
/** 9999-12-31T23:59:59Z: the last time a run id can hold. */
const MAX_DATE_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

export type RunRead = { ok: true; run: RunRecord } | { ok: false; problem: string };

/** What a new run starts with; `updatedAt` defaults to the time it was created. */
export type NewRun = Omit<RunRecord, 'version' | 'id' | 'updatedAt'> & { updatedAt?: string };

/** Fields to change; a field given as undefined is removed (an endedAt when a run resumes). */
export type RunPatch = Partial<Omit<RunRecord, 'version' | 'id'>>;

/** 'running' with nobody holding the run's lock: its process died (a reload, a kill) before it ended. */
export function displayStatus(run: RunRecord, held: boolean): RunStatus | 'interrupted' {
  return run.status === 'running' && !held ? 'interrupted' : run.status;
}

export class RunStore {
  constructor(private readonly store: WorkspaceStore) {}

  /**
   * Makes the run's folder and its `run.json`. `random` gives 4 hex digits for the id; an id whose
   * folder exists already (another run of the role in the same second) is drawn again.
   */
  async create(fields: NewRun, random: () => string, now: number): Promise<RunRecord> {
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      const run = await this.createAs(newRunId(fields.role, now, random()), fields, now);
      if (run !== undefined) return run;
    }
    throw noFreeName();
  }

  /**
   * Makes a run, as `create`, and runs `fn` with it holding the run's lock, taken before the folder
   * exists: nobody can see the run before it is held (a list that checks `isHeld` at that moment
   * would otherwise take the lock the run is about to take).
   */
  async createHeld<T>(
    fields: NewRun,
    random: () => string,
    now: number,
    fn: (run: RunRecord) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      const id = newRunId(fields.role, now, random());
      let created: RunRecord | undefined;
      try {
        return await this.withRunLock(id, async () => {
          created = await this.createAs(id, fields, now);
          if (created === undefined) throw new StorageError('busy', id, 'taken');
          return fn(created);
        });
      } catch (err) {
        if (created !== undefined || !(err instanceof StorageError) || err.code !== 'busy') throw err;
      }
    }
    throw noFreeName();
  }

  /** The run with this id, made; undefined when its folder exists already. */
  private async createAs(id: string, fields: NewRun, now: number): Promise<RunRecord | undefined> {
    const updatedAt = fields.updatedAt ?? new Date(now).toISOString();
    return this.store.withLock(async () => {
      if ((await this.store.info(runFile(id))) !== undefined) return undefined;
      const run = checked({ ...fields, version: 1, id, updatedAt }, 'created');
      await this.store.writeText(runFile(id, RUN_FILES.record), serialize(run));
      return run;
    }, RUNS_AREA);
  }

  /** The run, or a sentence saying why it cannot be read (naming `run.json`). Nothing is touched for an id that is not one. */
  async read(id: string): Promise<RunRead> {
    if (!isRunId(id))
      return { ok: false, problem: `${describeValue(id)} is not a run id (YYYYMMDD-HHMMSS-<role>-<4 hex digits>).` };
    const rel = runFile(id, RUN_FILES.record);
    const shown = quotePath(displayPath(rel));
    let text: string | undefined;
    try {
      text = await this.store.readText(rel, RUN_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof StorageError) return { ok: false, problem: err.message };
      throw err;
    }
    if (text === undefined) return { ok: false, problem: `${shown} is missing: the folder holds no run.` };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, problem: `${shown} is damaged: it is not valid JSON.` };
    }
    const parsed = parseRunRecord(value);
    if (!parsed.ok) return { ok: false, problem: `${shown} is damaged: ${parsed.reason}.` };
    // A copied folder would otherwise pass for another run: the name on disk is what locks and revert use.
    if (parsed.value.id !== id)
      return { ok: false, problem: `${shown} is damaged: its id ${parsed.value.id} is not the name of its folder.` };
    return { ok: true, run: parsed.value };
  }

  /** Read, change, replace, under the lock every writer of `run.json` takes. Refused for a run that cannot be read. */
  async update(id: string, patch: RunPatch): Promise<RunRecord> {
    return this.store.withLock(async () => {
      const found = await this.read(id);
      if (!found.ok) throw new StorageError('corrupt', displayPath(runFile(id, RUN_FILES.record)), found.problem);
      const run = checked({ ...found.run, ...patch, version: 1, id }, 'updated');
      await this.store.writeText(runFile(id, RUN_FILES.record), serialize(run));
      return run;
    }, RUNS_AREA);
  }

  /**
   * The newest RUN_LIST_MAX runs, newest first by startedAt, and the folders among them that could
   * not be read. Names that are not run ids (a README, a stray folder) are not runs and not listed.
   */
  async list(now = Date.now()): Promise<{ runs: RunRecord[]; problems: { id: string; problem: string }[] }> {
    // The ids begin with their time, so the newest folders are found without reading the others.
    // An id more than a day ahead was not made by a run (a cloned repository could plant hundreds
    // to push the real runs off the list): it is left out.
    const latest = newRunId('x', Math.min(now + DAY_MS, MAX_DATE_MS), '0000').slice(0, 15);
    const ids = (await this.store.list(RUNS_DIR))
      .filter((name) => isRunId(name) && name.slice(0, 15) <= latest)
      .sort()
      .reverse()
      .slice(0, RUN_LIST_MAX);
    const runs: RunRecord[] = [];
    const problems: { id: string; problem: string }[] = [];
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      const batch = ids.slice(i, i + READ_BATCH);
      const read = await Promise.all(batch.map((id) => this.read(id)));
      read.forEach((r, j) => (r.ok ? runs.push(r.run) : problems.push({ id: batch[j] as string, problem: r.problem })));
    }
    runs.sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { runs, problems };
  }

  /**
   * Whether a process (this one included) holds the run's lock, i.e. the run is live. Found by
   * trying the lock without waiting, so for that instant this call holds it itself.
   */
  async isHeld(id: string): Promise<boolean> {
    return this.store.isSessionLockHeld(`run-${assertRunId(id)}`);
  }

  /** Runs `fn` holding the run's lock (`locks/run-<id>.lock`), as a live run does for its whole length; StorageError 'busy' at once when held. */
  async withRunLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return this.store.withSessionLock(`run-${assertRunId(id)}`, fn);
  }

  /**
   * As withRunLock, for a run that exists: a moment's hold by a list's `isHeld` is waited out
   * (tried again for about a second) rather than taken for a live run elsewhere.
   */
  async withRunLockPatiently<T>(id: string, fn: () => Promise<T>, pause: (ms: number) => Promise<void>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let entered = false;
      try {
        return await this.withRunLock(id, () => {
          entered = true;
          return fn();
        });
      } catch (err) {
        if (entered || attempt >= 9 || !(err instanceof StorageError) || err.code !== 'busy') throw err;
        await pause(100);
      }
    }
  }

  transcript(id: string): JsonlLog<TranscriptRecord> {
    return this.store.log(runFile(assertRunId(id), RUN_FILES.transcript), parseTranscriptRecord);
  }

  /** Keeps the whole output of the run's command number `n` (from 1) in `commands/NNN.log`. */
  async writeCommandLog(id: string, n: number, text: string): Promise<void> {
    await this.store.writeText(runFile(assertRunId(id), commandLogName(assertCommandNumber(n))), text);
  }

  /** The output of command `n`, or undefined when it was not kept. */
  async readCommandLog(id: string, n: number): Promise<string | undefined> {
    return this.store.readText(runFile(assertRunId(id), commandLogName(assertCommandNumber(n))), COMMAND_LOG_MAX_BYTES);
  }
}

function noFreeName(): StorageError {
  return new StorageError(
    'io',
    displayPath(RUNS_DIR),
    `No free name for a new run folder was found in ${quotePath(displayPath(RUNS_DIR))} after ${CREATE_ATTEMPTS} tries.`,
  );
}

function assertRunId(id: string): string {
  if (isRunId(id)) return id;
  throw new StorageError(
    'unsafe-path',
    id,
    `Refused the run id ${quotePath(id)}: a run id is YYYYMMDD-HHMMSS-<role>-<4 hex digits>.`,
  );
}

function assertCommandNumber(n: number): number {
  if (Number.isSafeInteger(n) && n >= 1 && n <= 999_999_999) return n;
  throw new RangeError(`${describeValue(n)} is not a command number (1 or more).`);
}

/** What is written is what a reader accepts: a record the parser would refuse is a caller's mistake, refused here. */
function checked(value: Record<string, unknown>, what: 'created' | 'updated'): RunRecord {
  const parsed = parseRunRecord(value);
  if (!parsed.ok) throw new RangeError(`The run was not ${what}: ${parsed.reason}.`);
  return parsed.value;
}

function serialize(run: RunRecord): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}

/** Whether a run whose id or role is `event` (or `build-<event>`) has ended since `since`. */
export async function runEnded(runs: RunStore, event: string, since: number): Promise<boolean> {
  const { runs: all } = await runs.list();
  return all.some(
    (r) =>
      (r.id === event || r.role === event || r.role === `build-${event}`) &&
      r.status !== 'running' &&
      r.endedAt !== undefined &&
      Date.parse(r.endedAt) >= since,
  );
}
