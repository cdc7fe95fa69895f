// The discovery cases in `.groundwork/cases.jsonl`. Every change appends the case's whole new
// line, so the last line for an id wins and a crash loses at most the change it interrupted; the
// file is rewritten atomically without the lines that lost once it is past twice what is live.
// Ids come from `metrics/counters.json` under the store's lock (the 'cases' area, which every
// writer of either file takes, in every window and the CLI), as max(counter, highest id in the
// file) + 1, persisted before the case is written: never reused, even after the counter is
// rolled back. Lines that are not cases are reported with their line numbers and kept, never
// half-read, and never stop the others from loading (caseSnapshot.ts reads the file).
import type { Clock } from '../clock';
import type { Sha256 } from '../run/changesFile';
import { CASES_FILE, COUNTERS_FILE } from '../plan/layout';
import { utf8Length } from '../prompt/cap';
import type { ReadProblem } from '../storage/recordLog';
import { StorageError } from '../storage/storageError';
import { TORN_LINE_REASON } from '../storage/jsonl';
import type { JsonlLog } from '../storage/jsonl';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { visibleText } from '../visibleText';
import { applyCaseAction } from './caseActions';
import type { CaseAction } from './caseActions';
import { draftProblem } from './caseDraft';
import type { CaseDraft } from './caseDraft';
import { CASE_NUMBER_MAX, caseNumber, formatCaseId } from './caseId';
import { caseToJson, newCase, parseCase, serializeCase } from './caseRecord';
import { Turns, readSnapshot } from './caseSnapshot';
import type { Snapshot } from './caseSnapshot';
import type { DiscoveryCase } from './caseRecord';
import { contentHash } from './classify';
import {
  COUNTERS_MAX_BYTES,
  DISCOVERY_COUNTER,
  DUPLICATES_COUNTER,
  parseCounters,
  serializeCounters,
} from './counters';
import type { CountersRead } from './counters';

/** The lock area of cases.jsonl and counters.json. */
export const CASES_AREA = 'cases';
/** 100,000 cases are some 40–60 MiB; a file past this is refused rather than read. */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** A draft the store refuses; the message says what to change (the CLI exits 2 with it). */
export class CaseInputError extends Error {
  override readonly name = 'CaseInputError';
}

/** An id the store does not hold. */
export class CaseNotFoundError extends Error {
  override readonly name = 'CaseNotFoundError';
}

export interface CaseList {
  /** Every case (the last line of each id), by id. */
  cases: DiscoveryCase[];
  /** Lines that are not cases, with their line numbers; show them, do not drop them silently. */
  problems: ReadProblem[];
}

export type AddResult = { duplicate: false; case: DiscoveryCase } | { duplicate: true; case: DiscoveryCase };

export interface CaseStoreOptions {
  /** The largest cases.jsonl that is read (default 256 MiB). */
  maxBytes?: number;
}

export class CaseStore {
  private cache: Snapshot | undefined;
  private readonly maxBytes: number;
  private readonly log: JsonlLog<Record<string, unknown>>;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly clock: Clock,
    /** SHA-256 as the front end computes it (the port agent runs use: node:crypto in the CLI and VS Code). */
    private readonly hash: Sha256,
    options: CaseStoreOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    // The area lock makes this the file's only writer, so appends skip the log's own lock.
    this.log = store.log<Record<string, unknown>>(CASES_FILE, (v) => {
      const parsed = parseCase(v);
      return parsed.ok ? { ok: true, record: v as Record<string, unknown> } : parsed;
    });
  }

  /** Every case and every line that is not one. A missing file is no cases. */
  async load(): Promise<CaseList> {
    const snap = await this.fresh();
    return { cases: [...snap.cases.values()], problems: [...snap.problems] };
  }

  async get(id: string): Promise<DiscoveryCase | undefined> {
    return (await this.fresh()).cases.get(id);
  }

  /**
   * Adds a case made from `draft` with the next id. With `dedup`, a case whose normalised content
   * is already stored (any status) is returned instead, marked duplicate, and counted.
   * CaseInputError for a draft that cannot be stored.
   */
  async add(draft: CaseDraft, options: { dedup?: boolean } = {}): Promise<AddResult> {
    return (await this.addMany([draft], options))[0]!;
  }

  /**
   * As `add` for each draft in order, under one lock, with one write of the counters: what a
   * burst of reports costs once. A draft that repeats an earlier one of the same call is its
   * duplicate. CaseInputError (naming the draft) when one cannot be stored: then none is.
   */
  async addMany(drafts: readonly CaseDraft[], options: { dedup?: boolean } = {}): Promise<AddResult[]> {
    const hashes: string[] | undefined = options.dedup === true ? [] : undefined;
    const checking = new Turns();
    for (const [i, draft] of drafts.entries()) {
      if (i % 32 === 31) await checking.maybeYield();
      const problem = draftProblem(draft);
      const which = drafts.length === 1 ? '' : ` (report ${i + 1} of ${drafts.length})`;
      if (problem !== undefined) throw new CaseInputError(`The discovery${which} was not added: ${problem}.`);
      hashes?.push(contentHash(draft.content, this.hash));
    }
    if (drafts.length === 0) return [];
    return this.store.withLock(async () => {
      // Neither read waits for the other: each is a few calls to the file system.
      const [snap, { counters }] = await Promise.all([this.fresh(), this.readCounters()]);
      const index = hashes === undefined ? undefined : await this.hashIndex(snap);
      let last = Math.max(counters[DISCOVERY_COUNTER] ?? 0, snap.highest);
      const now = this.nowIso();
      const created: DiscoveryCase[] = [];
      const results: AddResult[] = [];
      let duplicates = 0;
      const turn = new Turns();
      for (const [i, draft] of drafts.entries()) {
        if (i % 32 === 31) await turn.maybeYield();
        const existing = index?.get(hashes![i]!);
        const found =
          existing === undefined ? undefined : (snap.cases.get(existing) ?? created.find((c) => c.id === existing));
        if (found !== undefined) {
          duplicates++;
          results.push({ duplicate: true, case: found });
          continue;
        }
        if (last + 1 > CASE_NUMBER_MAX) throw exhausted(snap, counters[DISCOVERY_COUNTER] ?? 0);
        const c = newCase(formatCaseId(++last), draft, now);
        index?.set(hashes![i]!, c.id);
        created.push(c);
        results.push({ duplicate: false, case: c });
      }
      // Written before any case carries an id from it: a process killed between the two skips ids,
      // never repeats one. Not flushed to the disk (nor are the case lines): a power cut that loses
      // it can only give again the id of a case line it lost too, as the store's highest id is the other bound.
      const next = { ...counters };
      if (created.length > 0) next[DISCOVERY_COUNTER] = last;
      if (duplicates > 0)
        next[DUPLICATES_COUNTER] = Math.min((counters[DUPLICATES_COUNTER] ?? 0) + duplicates, CASE_NUMBER_MAX);
      if (created.length > 0 || duplicates > 0)
        await this.store.writeText(COUNTERS_FILE, serializeCounters(next), undefined, { durable: false });
      if (created.length > 0) await this.append(snap, created, index !== undefined);
      return results;
    }, CASES_AREA);
  }

  /** Applies one review action (caseActions.ts) to the case; CaseNotFoundError, CaseTransitionError. */
  async apply(id: string, action: CaseAction): Promise<DiscoveryCase> {
    return this.store.withLock(async () => {
      const snap = await this.fresh();
      const c = snap.cases.get(id);
      if (c === undefined)
        throw new CaseNotFoundError(
          `There is no discovery case ${visibleText(id.slice(0, 40))} in .groundwork/${CASES_FILE}.`,
        );
      const next = applyCaseAction(c, action, this.nowIso());
      if (next !== c) await this.append(snap, [next]);
      return next;
    }, CASES_AREA);
  }

  /**
   * Changes several cases under one lock: `change` gets every case and the time, and returns the
   * cases it changed (each must keep its id). Returns what was written.
   */
  async updateMany(
    change: (cases: readonly DiscoveryCase[], now: string) => readonly DiscoveryCase[],
  ): Promise<DiscoveryCase[]> {
    return this.store.withLock(async () => {
      const snap = await this.fresh();
      const changed = change([...snap.cases.values()], this.nowIso()).filter((c) => snap.cases.get(c.id) !== c);
      for (const c of changed) {
        if (!snap.cases.has(c.id))
          throw new RangeError(`updateMany returned ${c.id}, which the store does not hold: add a case with add().`);
        const parsed = parseCase(c);
        if (!parsed.ok) throw new RangeError(`The case ${c.id} cannot be stored: ${parsed.reason}.`);
      }
      if (changed.length > 0) await this.append(snap, changed);
      return changed;
    }, CASES_AREA);
  }

  /** counters.json as it is now (the duplicates counter feeds the metrics). */
  async readCounters(): Promise<CountersRead> {
    try {
      return parseCounters(await this.store.readText(COUNTERS_FILE, COUNTERS_MAX_BYTES));
    } catch (err) {
      // A planted giant is no counter Groundwork wrote; the store's ids still bound the next one.
      if (err instanceof StorageError && err.code === 'too-large')
        return { counters: {}, problem: 'it is too large to be a counters file, so it counts as empty' };
      throw err;
    }
  }

  /** The time now as cases store it (an ISO string): what their times are compared with. */
  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The snapshot of the file as it is now: the cached one while the file is unchanged. */
  private async fresh(): Promise<Snapshot> {
    const { key, size } = await this.fileKey();
    if (this.cache?.key === key) return this.cache;
    this.cache = await readSnapshot(
      key === 'missing' ? undefined : await this.store.readBytes(CASES_FILE, this.maxBytes),
      key,
      size,
    );
    return this.cache;
  }

  /** What tells one state of the file from another: another writer changes its size or its time. */
  private async fileKey(): Promise<{ key: string; size: number }> {
    const info = await this.store.info(CASES_FILE);
    return info === undefined
      ? { key: 'missing', size: 0 }
      : { key: `${info.kind}:${info.size}:${info.mtimeMs}`, size: info.size };
  }

  private async hashIndex(snap: Snapshot): Promise<Map<string, string>> {
    if (snap.hashes !== undefined) return snap.hashes;
    const index = new Map<string, string>();
    const turn = new Turns();
    let n = 0;
    for (const c of snap.cases.values()) {
      if (++n % 64 === 0) await turn.maybeYield();
      const hash = contentHash(c.content, this.hash);
      // The oldest case with a content is the one a duplicate points at.
      if (!index.has(hash)) index.set(hash, c.id);
    }
    snap.hashes = index;
    return index;
  }

  /**
   * Appends each case's line, keeps the snapshot in step, and compacts when the file is past twice
   * its live size. `indexed`: the cases' hashes are in the snapshot's index already (addMany's dedup).
   */
  private async append(snap: Snapshot, cases: readonly DiscoveryCase[], indexed = false): Promise<void> {
    if (snap.unterminated) {
      // An append would set the last case aside as a torn line: the file is rewritten whole instead.
      for (const c of cases) this.keep(snap, c, indexed, utf8Length(serializeCase(c)));
      await this.compact(snap);
      snap.unterminated = false;
      this.cache = snap;
      return;
    }
    const turn = new Turns();
    const lines: Record<string, unknown>[] = [];
    for (const c of cases) {
      if (lines.length % 32 === 31) await turn.maybeYield();
      lines.push(caseToJson(c));
    }
    // One write for all of them, each its own whole line: a burst costs one append, not one each.
    await this.log.appendHeldMany(lines);
    for (const [i, c] of cases.entries()) this.keep(snap, c, indexed, utf8Length(JSON.stringify(lines[i])) + 1);
    // A torn last line was set aside by the first append: it is no longer a problem of the file.
    snap.problems = snap.problems.filter((p) => p.reason !== TORN_LINE_REASON);
    const file = await this.fileKey();
    snap.key = file.key;
    snap.fileBytes = file.size;
    if (snap.fileBytes > 2 * (snap.liveBytes + snap.badBytes)) await this.compact(snap);
    this.cache = snap;
  }

  /** The snapshot in step with a case just written (`bytes`: its line's). */
  private keep(snap: Snapshot, c: DiscoveryCase, indexed: boolean, bytes: number): void {
    const n = caseNumber(c.id);
    snap.liveBytes += bytes - (snap.lineBytes[n] ?? 0);
    snap.lineBytes[n] = bytes;
    const before = snap.cases.get(c.id);
    snap.cases.set(c.id, c);
    if (n > snap.highest) [snap.highest, snap.highestLine] = [n, undefined];
    // An edit's old text may be the index's entry for it: the index is built again when next needed.
    if (!indexed && before !== undefined && before.content !== c.content) snap.hashes = undefined;
  }

  /** Rewrites the file atomically: each case's last line, by id, then the lines that are not cases. */
  private async compact(snap: Snapshot): Promise<void> {
    const out: string[] = [];
    const turn = new Turns();
    let live = 0;
    for (const c of snap.cases.values()) {
      if (out.length % 64 === 63) await turn.maybeYield();
      const line = `${JSON.stringify(caseToJson(c))}\n`;
      snap.lineBytes[caseNumber(c.id)] = utf8Length(line);
      live += utf8Length(line);
      out.push(line);
    }
    for (const line of snap.badLines) out.push(`${line}\n`);
    await this.store.writeText(CASES_FILE, out.join(''));
    snap.liveBytes = live;
    snap.fileBytes = live + snap.badBytes;
    snap.highestLine = undefined;
    // Line numbers changed: the problems are those of the rewritten file.
    const first = snap.cases.size + 1;
    snap.problems = snap.problems.map((p, i) => ({ ...p, line: first + i }));
    snap.key = (await this.fileKey()).key;
  }
}

/** No id is left: says which line (or counters.json) holds the highest, so that a planted one can be removed. */
function exhausted(snap: Snapshot, counter: number): StorageError {
  const top = formatCaseId(CASE_NUMBER_MAX);
  const fromCounter = counter >= snap.highest;
  const where = fromCounter
    ? `.groundwork/${COUNTERS_FILE} says so`
    : `.groundwork/${CASES_FILE} holds it${snap.highestLine === undefined ? '' : ` on line ${snap.highestLine}`}`;
  const fix = fromCounter
    ? `lower the "discovery" number in .groundwork/${COUNTERS_FILE}`
    : 'remove that line (or give it a lower id)';
  return new StorageError(
    'corrupt',
    `.groundwork/${fromCounter ? COUNTERS_FILE : CASES_FILE}`,
    `No new discovery id can be given: the ids have reached ${top}, the highest there is, and ${where}. If that is not a real case, ${fix}, then add the discovery again.`,
  );
}
