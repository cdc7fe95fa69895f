// Reading `.groundwork/cases.jsonl` into a snapshot (caseStore.ts keeps it while the file is
// unchanged): the last line of each id, the lines that are not cases with their numbers, the
// highest id any line names. The file is decoded in parts and its lines read as caseLine.ts reads
// them, yielding every few milliseconds: 100,000 cases never hold the host long.
import { utf8Length } from '../prompt/cap';
import type { ReadProblem } from '../storage/recordLog';
import { TORN_LINE_REASON } from '../storage/jsonl';
import { CASE_NUMBER_MAX } from './caseId';
import type { DiscoveryCase } from './caseRecord';
import { parseCaseLine } from './caseLine';

/** The file is decoded this many bytes at a time (then up to the end of a line). */
const PART_BYTES = 1024 * 1024;
const PART_DECODER = new TextDecoder('utf-8', { ignoreBOM: true });
const NEWLINE = 0x0a;
const NON_ASCII = /[^\u0000-\u007f]/;
const EXCERPT_CHARS = 120;
/** An id inside a line that is not a case: its number is never given again either. */
const ID_IN_LINE = /"id"\s*:\s*"disc-(\d{3,9})"/;

/** One reading of the file, kept while its size and modification time stay the same. */
export interface Snapshot {
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
  /** Where the highest id was read: its line (of a case or not), for the message when ids run out. */
  highestLine?: number;
  /** The last line is a whole case without its newline (an editor left it so): the next change rewrites the file. */
  unterminated: boolean;
  fileBytes: number;
  /** hash of normalised content → id, built on the first dedup check. */
  hashes?: Map<string, string>;
}

/** The snapshot of `bytes` (undefined: no file), under `key` (what tells this state of the file from another). */
export async function readSnapshot(bytes: Uint8Array | undefined, key: string, size: number): Promise<Snapshot> {
  const snap: Snapshot = {
    key,
    cases: new Map(),
    lineBytes: [],
    liveBytes: 0,
    problems: [],
    badLines: [],
    badBytes: 0,
    highest: 0,
    unterminated: false,
    fileBytes: 0,
  };
  if (bytes === undefined) return snap;
  snap.fileBytes = size;
  const turn = new Turns();
  // Ids appended in order come in order: the cases are sorted by id only when a line says otherwise.
  let sorted = true;
  let lastNew = 0;
  let lineNo = 0;
  let torn = '';
  const take = (line: string, lineBytes: number): boolean => {
    const parsed = parseCaseLine(line);
    if (!parsed.ok) {
      snap.problems.push({ line: lineNo, reason: parsed.reason, excerpt: excerpt(line) });
      snap.badLines.push(line);
      snap.badBytes += lineBytes;
      const n = idIn(line);
      if (n > snap.highest) [snap.highest, snap.highestLine] = [n, lineNo];
      return false;
    }
    const c = parsed.value;
    const n = Number(c.id.slice(5));
    const before = snap.lineBytes[n];
    if (before !== undefined) snap.liveBytes -= before;
    else if (n < lastNew) sorted = false;
    else lastNew = n;
    snap.cases.set(c.id, c);
    snap.lineBytes[n] = lineBytes;
    snap.liveBytes += lineBytes;
    if (n > snap.highest) [snap.highest, snap.highestLine] = [n, lineNo];
    return true;
  };
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
      take(line, (ascii || !NON_ASCII.test(line) ? line.length : utf8Length(line)) + 1);
    }
    if (from < text.length) torn = text.slice(from);
  }
  if (torn !== '') {
    lineNo++;
    const line = lineNo === 1 ? torn.replace(/^\uFEFF/, '') : torn;
    // A whole case is read as one (its newline counted: the rewrite adds it). Anything else is a
    // write cut short: the next append sets it aside, and its id is never given again either.
    if (parseCaseLine(line).ok) snap.unterminated = take(line, utf8Length(line) + 1);
    else {
      snap.problems.push({ line: lineNo, reason: TORN_LINE_REASON, excerpt: excerpt(torn) });
      const n = idIn(torn);
      if (n > snap.highest) [snap.highest, snap.highestLine] = [n, lineNo];
    }
  }
  if (!sorted) snap.cases = await inIdOrder(snap.cases, turn);
  return snap;
}

/** The number of an id a line that is not a case names, or 0. */
export function idIn(line: string): number {
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
export class Turns {
  private static readonly MS = 10;
  private ends = performance.now() + Turns.MS;

  async maybeYield(): Promise<void> {
    if (performance.now() < this.ends) return;
    // setImmediate where there is one (Node): a timer would wait a millisecond each time.
    await new Promise((resolve) =>
      typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
    );
    this.ends = performance.now() + Turns.MS;
  }
}
