// The discovery cases in `.groundwork/cases.jsonl`. Every change appends the case's whole new
// line, so the last line for an id wins and a crash loses at most the change it interrupted; the
// file is rewritten atomically without the lines that lost once it is past twice what is live.
// Ids come from `metrics/counters.json` under the store's lock (the 'cases' area, which every
// writer of either file takes, in every window and the CLI), as max(counter, highest id in the
// file) + 1, persisted before the case is written: never reused, even after the counter is
// rolled back. Lines that are not cases are reported with their line numbers and kept, never
// half-read, and never stop the others from loading. The file is decoded in parts and its lines
// read as caseLine.ts reads them, yielding every few milliseconds: 100,000 cases never hold the host long.
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
import { CASE_NUMBER_MAX, caseNumber, caseToJson, draftProblem, formatCaseId, newCase, parseCase } from './caseRecord';
import { parseCaseLine } from './caseLine';
import type { CaseDraft, DiscoveryCase } from './caseRecord';
import { contentHash } from './classify';
import { COUNTERS_MAX_BYTES, DISCOVERY_COUNTER, DUPLICATES_COUNTER, parseCounters, serializeCounters } from './counters';
import type { CountersRead } from './counters';

/** The lock area of cases.jsonl and counters.json. */
export const CASES_AREA = 'cases';
/** 100,000 cases are some 40–60 MiB; a file past this is refused rather than read. */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** The file is decoded this many bytes at a time (then up to the end of a line). */
const PART_BYTES = 1024 * 1024;
const PART_DECODER = new TextDecoder('utf-8', { ignoreBOM: true });
const NEWLINE = 0x0a;
const NON_ASCII = /[^\u0000-\u007f]/;
const EXCERPT_CHARS = 120;
/** An id inside a line that is not a case: its number is never given again either. */
const ID_IN_LINE = /"id"\s*:\s*"disc-(\d{3,9})"/;

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

/** One reading of the file, kept while its size and modification time stay the same. */
interface Snapshot {
  key: string;
  cases: Map<string, DiscoveryCase>;
  /** The bytes of each case's line, by the number of its id (a sparse array where ids are sparse). */
  lineBytes: number[];
  liveBytes: number;
  problems: ReadProblem[];
  /** Lines that are not cases, as they are: compaction keeps them at the end of the file. */
  badLines: string[];
  badBytes: number;
  highest: number;
  fileBytes: number;
  /** hash of normalised content → id, built on the first dedup check. */
  hashes?: Map<string, string>;
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
        const found = existing === undefined ? undefined : (snap.cases.get(existing) ?? created.find((c) => c.id === existing));
        if (found !== undefined) {
          duplicates++;
          results.push({ duplicate: true, case: found });
          continue;
        }
        if (last + 1 > CASE_NUMBER_MAX) {
          throw new StorageError('corrupt', `.groundwork/${COUNTERS_FILE}`, `No new discovery id can be given: the ids have reached ${CASE_NUMBER_MAX}.`);
        }
        const c = newCase(formatCaseId(++last), draft, now);
        index?.set(hashes![i]!, c.id);
        created.push(c);
        results.push({ duplicate: false, case: c });
      }
      // Persisted before any case carries an id from it: a crash between the two skips ids, never repeats one.
      const next = { ...counters };
      if (created.length > 0) next[DISCOVERY_COUNTER] = last;
      if (duplicates > 0) next[DUPLICATES_COUNTER] = Math.min((counters[DUPLICATES_COUNTER] ?? 0) + duplicates, CASE_NUMBER_MAX);
      if (created.length > 0 || duplicates > 0) await this.store.writeText(COUNTERS_FILE, serializeCounters(next));
      if (created.length > 0) await this.append(snap, created, index !== undefined);
      return results;
    }, CASES_AREA);
  }

  /** Applies one review action (caseActions.ts) to the case; CaseNotFoundError, CaseTransitionError. */
  async apply(id: string, action: CaseAction): Promise<DiscoveryCase> {
    return this.store.withLock(async () => {
      const snap = await this.fresh();
      const c = snap.cases.get(id);
      if (c === undefined) throw new CaseNotFoundError(`There is no discovery case ${visibleText(id.slice(0, 40))} in .groundwork/${CASES_FILE}.`);
      const next = applyCaseAction(c, action, this.nowIso());
      if (next !== c) await this.append(snap, [next]);
      return next;
    }, CASES_AREA);
  }

  /**
   * Changes several cases under one lock: `change` gets every case and the time, and returns the
   * cases it changed (each must keep its id). Returns what was written.
   */
  async updateMany(change: (cases: readonly DiscoveryCase[], now: string) => readonly DiscoveryCase[]): Promise<DiscoveryCase[]> {
    return this.store.withLock(async () => {
      const snap = await this.fresh();
      const changed = change([...snap.cases.values()], this.nowIso()).filter((c) => snap.cases.get(c.id) !== c);
      for (const c of changed) {
        if (!snap.cases.has(c.id)) throw new RangeError(`updateMany returned ${c.id}, which the store does not hold: add a case with add().`);
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
      if (err instanceof StorageError && err.code === 'too-large') return { counters: {}, problem: 'it is too large to be a counters file, so it counts as empty' };
      throw err;
    }
  }

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The snapshot of the file as it is now: the cached one while the file is unchanged. */
  private async fresh(): Promise<Snapshot> {
    const { key, size } = await this.fileKey();
    if (this.cache?.key === key) return this.cache;
    this.cache = await this.read(key, size);
    return this.cache;
  }

  /** What tells one state of the file from another: another writer changes its size or its time. */
  private async fileKey(): Promise<{ key: string; size: number }> {
    const info = await this.store.info(CASES_FILE);
    return info === undefined ? { key: 'missing', size: 0 } : { key: `${info.kind}:${info.size}:${info.mtimeMs}`, size: info.size };
  }

  private async read(key: string, size: number): Promise<Snapshot> {
    const snap: Snapshot = { key, cases: new Map(), lineBytes: [], liveBytes: 0, problems: [], badLines: [], badBytes: 0, highest: 0, fileBytes: 0 };
    const bytes = key === 'missing' ? undefined : await this.store.readBytes(CASES_FILE, this.maxBytes);
    if (bytes === undefined) return snap;
    snap.fileBytes = size;
    const turn = new Turns();
    // Ids appended in order come in order: the cases are sorted by id only when a line says otherwise.
    let sorted = true;
    let lastNew = 0;
    let lineNo = 0;
    let torn = '';
    // Decoded in parts that end with a line, so that no one step holds the thread for the whole file.
    for (let start = 0; start < bytes.length;) {
      const newline = start + PART_BYTES >= bytes.length ? -1 : bytes.indexOf(NEWLINE, start + PART_BYTES);
      const end = newline < 0 ? bytes.length : newline + 1;
      // The first part drops a byte order mark as readText does; a line's own is kept, and refused.
      const text = (start === 0 ? new TextDecoder('utf-8') : PART_DECODER).decode(bytes.subarray(start, end));
      // Each character one byte: the whole part is ASCII (U+FFFD stands for a byte that was not UTF-8).
      const ascii = text.length === end - start && text.indexOf('\uFFFD') < 0;
      start = end;
      let from = 0;
      for (let at = text.indexOf('\n'); at >= 0; from = at + 1, at = text.indexOf('\n', from)) {
        if (++lineNo % 64 === 0) await turn.maybeYield();
        const line = lineNo === 1 ? text.slice(0, at).replace(/^\uFEFF/, '') : text.slice(from, at);
        // A line is blank only if its first character is: a case line starts with '{'.
        if (line.charCodeAt(0) !== 0x7b && line.trim() === '') continue;
        const lineBytes = (ascii || !NON_ASCII.test(line) ? line.length : utf8Length(line)) + 1;
        const parsed = parseCaseLine(line);
        if (parsed.ok) {
          const c = parsed.value;
          const n = Number(c.id.slice(5));
          const before = snap.lineBytes[n];
          if (before !== undefined) snap.liveBytes -= before;
          else if (n < lastNew) sorted = false;
          else lastNew = n;
          snap.cases.set(c.id, c);
          snap.lineBytes[n] = lineBytes;
          snap.liveBytes += lineBytes;
          if (n > snap.highest) snap.highest = n;
        } else {
          snap.problems.push({ line: lineNo, reason: parsed.reason, excerpt: excerpt(line) });
          snap.badLines.push(line);
          snap.badBytes += lineBytes;
          snap.highest = Math.max(snap.highest, idIn(line));
        }
      }
      if (from < text.length) torn = text.slice(from);
    }
    if (torn !== '') {
      snap.problems.push({ line: lineNo + 1, reason: TORN_LINE_REASON, excerpt: excerpt(torn) });
      snap.highest = Math.max(snap.highest, idIn(torn));
    }
    if (!sorted) snap.cases = await inIdOrder(snap.cases, turn);
    return snap;
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
    const turn = new Turns();
    const lines: Record<string, unknown>[] = [];
    for (const c of cases) {
      if (lines.length % 32 === 31) await turn.maybeYield();
      lines.push(caseToJson(c));
    }
    // One write for all of them, each its own whole line: a burst costs one append, not one each.
    await this.log.appendHeldMany(lines);
    for (const [i, c] of cases.entries()) {
      const bytes = utf8Length(JSON.stringify(lines[i])) + 1;
      const n = caseNumber(c.id);
      snap.liveBytes += bytes - (snap.lineBytes[n] ?? 0);
      snap.lineBytes[n] = bytes;
      const before = snap.cases.get(c.id);
      snap.cases.set(c.id, c);
      snap.highest = Math.max(snap.highest, caseNumber(c.id));
      if (!indexed && snap.hashes !== undefined && before?.content !== c.content) {
        const hash = contentHash(c.content, this.hash);
        if (!snap.hashes.has(hash)) snap.hashes.set(hash, c.id);
      }
    }
    // A torn last line was set aside by the first append: it is no longer a problem of the file.
    snap.problems = snap.problems.filter((p) => p.reason !== TORN_LINE_REASON);
    const file = await this.fileKey();
    snap.key = file.key;
    snap.fileBytes = file.size;
    if (snap.fileBytes > 2 * (snap.liveBytes + snap.badBytes)) await this.compact(snap);
    this.cache = snap;
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
    // Line numbers changed: the problems are those of the rewritten file.
    const first = snap.cases.size + 1;
    snap.problems = snap.problems.map((p, i) => ({ ...p, line: first + i }));
    snap.key = (await this.fileKey()).key;
  }
}

/** The number of an id a line that is not a case names, or 0. */
function idIn(line: string): number {
  const digits = ID_IN_LINE.exec(line)?.[1];
  return digits === undefined ? 0 : Math.min(Number(digits), CASE_NUMBER_MAX);
}

function excerpt(line: string): string {
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

/** The cases by id. Nearly in order already (two windows' appends crossing), so the sort is about one pass. */
async function inIdOrder(cases: Map<string, DiscoveryCase>, turn: Turns): Promise<Map<string, DiscoveryCase>> {
  const numbered = Array.from(cases.values(), (c) => ({ n: Number(c.id.slice(5)), c }));
  await turn.maybeYield();
  numbered.sort((a, b) => a.n - b.n);
  const sorted = new Map<string, DiscoveryCase>();
  for (const { c } of numbered) {
    if (sorted.size % 1024 === 0) await turn.maybeYield();
    sorted.set(c.id, c);
  }
  return sorted;
}

/** Yields to the event loop once a turn has run 10 ms (by time, since lines differ in cost): the host is never held long. */
class Turns {
  private static readonly MS = 10;
  private ends = performance.now() + Turns.MS;

  async maybeYield(): Promise<void> {
    if (performance.now() < this.ends) return;
    // setImmediate where there is one (Node): a timer would wait a millisecond each time.
    await new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
    this.ends = performance.now() + Turns.MS;
  }
}
