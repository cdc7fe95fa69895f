// The discovery cases in `.groundwork/cases.jsonl`. Every change appends the case's whole new
// line, so the last line for an id wins and a crash loses at most the change it interrupted; the
// file is rewritten atomically without the lines that lost once it is past twice what is live.
// Ids come from `metrics/counters.json` under the store's lock (the 'cases' area, which every
// writer of either file takes, in every window and the CLI), as max(counter, highest id in the
// file) + 1, persisted before the case is written: never reused, even after the counter is
// rolled back. Lines that are not cases are reported with their line numbers and kept, never
// half-read, and never stop the others from loading.
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
import type { CaseDraft, DiscoveryCase } from './caseRecord';
import { contentHash } from './classify';
import { COUNTERS_MAX_BYTES, DISCOVERY_COUNTER, DUPLICATES_COUNTER, parseCounters, serializeCounters } from './counters';
import type { CountersRead } from './counters';

/** The lock area of cases.jsonl and counters.json. */
export const CASES_AREA = 'cases';
/** 100,000 cases are some 40 MiB; a file past this is refused rather than read. */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** Lines parsed between two yields, so that a large file never holds the extension host for long. */
const LINES_PER_TURN = 2000;
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
  /** The bytes of each case's line as it would be compacted. */
  lineBytes: Map<string, number>;
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
    drafts.forEach((draft, i) => {
      const problem = draftProblem(draft);
      const which = drafts.length === 1 ? '' : ` (report ${i + 1} of ${drafts.length})`;
      if (problem !== undefined) throw new CaseInputError(`The discovery${which} was not added: ${problem}.`);
    });
    if (drafts.length === 0) return [];
    const hashes = options.dedup === true ? drafts.map((d) => contentHash(d.content, this.hash)) : undefined;
    return this.store.withLock(async () => {
      const snap = await this.fresh();
      const index = hashes === undefined ? undefined : await this.hashIndex(snap);
      const { counters } = await this.readCounters();
      let last = Math.max(counters[DISCOVERY_COUNTER] ?? 0, snap.highest);
      const now = this.nowIso();
      const created: DiscoveryCase[] = [];
      const results: AddResult[] = [];
      let duplicates = 0;
      for (const [i, draft] of drafts.entries()) {
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
      if (created.length > 0) await this.append(snap, created);
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
    const snap: Snapshot = { key, cases: new Map(), lineBytes: new Map(), liveBytes: 0, problems: [], badLines: [], badBytes: 0, highest: 0, fileBytes: 0 };
    const text = key === 'missing' ? undefined : await this.store.readText(CASES_FILE, this.maxBytes);
    if (text === undefined) return snap;
    snap.fileBytes = size;
    const lines = text.split('\n');
    const torn = lines.pop() ?? '';
    const found = new Map<string, DiscoveryCase>();
    for (let i = 0; i < lines.length; i++) {
      if (i > 0 && i % LINES_PER_TURN === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      const line = i === 0 ? lines[0]!.replace(/^\uFEFF/, '') : lines[i]!;
      if (line.trim() === '') continue;
      const parsed = parseLine(line);
      if (parsed.ok) {
        found.delete(parsed.value.id);
        found.set(parsed.value.id, parsed.value);
        snap.lineBytes.set(parsed.value.id, utf8Length(line) + 1);
      } else {
        snap.problems.push({ line: i + 1, reason: parsed.reason, excerpt: excerpt(line) });
        snap.badLines.push(line);
        snap.badBytes += utf8Length(line) + 1;
        snap.highest = Math.max(snap.highest, idIn(line));
      }
    }
    if (torn !== '') {
      snap.problems.push({ line: lines.length + 1, reason: TORN_LINE_REASON, excerpt: excerpt(torn) });
      snap.highest = Math.max(snap.highest, idIn(torn));
    }
    for (const c of [...found.values()].sort((a, b) => caseNumber(a.id) - caseNumber(b.id))) {
      snap.cases.set(c.id, c);
      snap.liveBytes += snap.lineBytes.get(c.id) ?? 0;
      snap.highest = Math.max(snap.highest, caseNumber(c.id));
    }
    return snap;
  }

  private async hashIndex(snap: Snapshot): Promise<Map<string, string>> {
    if (snap.hashes !== undefined) return snap.hashes;
    const index = new Map<string, string>();
    let n = 0;
    for (const c of snap.cases.values()) {
      if (++n % LINES_PER_TURN === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      const hash = contentHash(c.content, this.hash);
      // The oldest case with a content is the one a duplicate points at.
      if (!index.has(hash)) index.set(hash, c.id);
    }
    snap.hashes = index;
    return index;
  }

  /** Appends each case's line, keeps the snapshot in step, and compacts when the file is past twice its live size. */
  private async append(snap: Snapshot, cases: readonly DiscoveryCase[]): Promise<void> {
    for (const c of cases) {
      const json = caseToJson(c);
      await this.log.appendHeld(json);
      const bytes = utf8Length(JSON.stringify(json)) + 1;
      snap.liveBytes += bytes - (snap.lineBytes.get(c.id) ?? 0);
      snap.lineBytes.set(c.id, bytes);
      const before = snap.cases.get(c.id);
      snap.cases.set(c.id, c);
      snap.highest = Math.max(snap.highest, caseNumber(c.id));
      if (snap.hashes !== undefined && before?.content !== c.content) {
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
    let live = 0;
    for (const c of snap.cases.values()) {
      const line = `${JSON.stringify(caseToJson(c))}\n`;
      snap.lineBytes.set(c.id, utf8Length(line));
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

function parseLine(line: string): { ok: true; value: DiscoveryCase } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  return parseCase(value);
}

/** The number of an id a line that is not a case names, or 0. */
function idIn(line: string): number {
  const digits = ID_IN_LINE.exec(line)?.[1];
  return digits === undefined ? 0 : Math.min(Number(digits), CASE_NUMBER_MAX);
}

function excerpt(line: string): string {
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}
