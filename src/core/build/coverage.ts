// The test writer's COVERAGE: lines (docs/build-phases.md, "Markers"): which test checks which
// requirement. One line per test, at the start of a line like every marker (markerLines.ts):
//
//   COVERAGE: task-001 -> tests/store.rs: task_001_threshold_add_is_listed
//   COVERAGE: task-003 -> test/sum.test.js: task-003 sum returns 5
//
// The requirement id as the brief writes it, `->`, the test file relative to the project folder,
// `: `, then the test's name as its runner shows it, which names the requirement (`task-001`, or
// `task_001` where a name cannot hold '-'). The file may be left out (`COVERAGE: task-001 -> name`).
// A reply is untrusted: the scan is linear, every value capped and made visible, and each line that
// is not used is returned with why, so a front end or the report can show it.
import { visibleText } from '../visibleText';
import { markersIn } from './markerLines';

/** Entries kept from one reply; lines past it are ignored (counted). */
export const COVERAGE_MAX = 500;
/** Ignored lines described one by one; the rest are only counted. */
export const COVERAGE_IGNORED_MAX = 50;
/** The longest test file and test name kept. */
export const COVERAGE_FILE_MAX_CHARS = 300;
export const COVERAGE_TEST_MAX_CHARS = 300;
/** How much of an ignored line is shown. */
const SHOWN_MAX_CHARS = 160;
/** A requirement id: `task-001`, `REQ-001`, `task_001`. */
const REQUIREMENT_ID = /^([A-Za-z][A-Za-z0-9]{0,15})[-_](\d{1,6})$/;
const ARROWS = ['->', '→'];

export interface CoverageEntry {
  /** As the line gives it: `task-001`. */
  requirement: string;
  /** Relative to the project folder, when the line gives it. */
  file?: string;
  /** As the line gives it, capped and made visible. */
  test: string;
}

export interface IgnoredCoverage {
  /** The reply's line (1-based). */
  line: number;
  /** The line's value after `COVERAGE:`, cut and made visible. */
  text: string;
  reason: string;
}

export interface CoverageRead {
  entries: CoverageEntry[];
  /** At most COVERAGE_IGNORED_MAX, in the reply's order. */
  ignored: IgnoredCoverage[];
  /** How many lines were ignored in all (ignored.length or more). */
  ignoredCount: number;
}

/** The COVERAGE: lines of `reply` that follow the format; see readCoverage for the ones that do not. */
export function parseCoverage(reply: string): CoverageEntry[] {
  return readCoverage(reply).entries;
}

/** Every COVERAGE: line of `reply`: the entries, and each line ignored with why. */
export function readCoverage(reply: string): CoverageRead {
  const entries: CoverageEntry[] = [];
  const ignored: IgnoredCoverage[] = [];
  let ignoredCount = 0;
  const seen = new Set<string>();
  const ignore = (line: number, value: string, reason: string) => {
    ignoredCount++;
    if (ignored.length < COVERAGE_IGNORED_MAX) ignored.push({ line, text: shown(value, SHOWN_MAX_CHARS), reason });
  };
  for (const found of markersIn(reply, ['COVERAGE'])) {
    const { value, colon } = found.marker;
    if (!colon || value === '') {
      ignore(found.line, value, 'no test after COVERAGE:; write one line per test: COVERAGE: <id> -> <file>: <test>');
      continue;
    }
    if (entries.length >= COVERAGE_MAX) {
      ignore(found.line, value, `more than ${COVERAGE_MAX} COVERAGE: lines; the rest are not read`);
      continue;
    }
    const read = coverageLine(value);
    if (typeof read === 'string') {
      ignore(found.line, value, read);
      continue;
    }
    const key = `${read.requirement}\n${read.file ?? ''}\n${read.test}`;
    if (seen.has(key)) {
      ignore(found.line, value, 'the same test is listed twice for this requirement');
      continue;
    }
    seen.add(key);
    entries.push(read);
  }
  return { entries, ignored, ignoredCount };
}

/** One line's value (after `COVERAGE:`) as an entry, or why it is not one. */
function coverageLine(value: string): CoverageEntry | string {
  const at = ARROWS.map((a) => ({ a, i: value.indexOf(a) })).find((x) => x.i >= 0);
  if (at === undefined) return "no '->' between the requirement and the test";
  const requirement = value.slice(0, at.i).trim();
  const rest = value.slice(at.i + at.a.length).trim();
  const id = REQUIREMENT_ID.exec(requirement);
  if (id === null)
    return "the requirement is not an id such as task-001 (letters, '-', digits), as specs/brief.md numbers them";
  if (rest === '') return 'no test after the arrow';
  let file: string | undefined;
  let test = rest;
  const colon = rest.indexOf(': ');
  const split = colon < 0 && rest.endsWith(':') ? rest.length - 1 : colon;
  const head = split > 0 ? rest.slice(0, split) : '';
  if (head !== '' && !/\s/.test(head) && /[./]/.test(head)) {
    file = head;
    test = rest.slice(split + 2).trim();
    const problem = fileProblem(file);
    if (problem !== undefined) return problem;
    if (test === '') return 'no test name after the file';
  }
  if (!names(test, id[1] as string, id[2] as string))
    return `the test name does not name ${requirement}; every test's name carries the id of the requirement it checks`;
  const entry: CoverageEntry = { requirement, test: shown(test, COVERAGE_TEST_MAX_CHARS) };
  if (file !== undefined) entry.file = visibleText(file);
  return entry;
}

/** Why `file` is not a path in the project folder, or undefined. */
function fileProblem(file: string): string | undefined {
  if ([...file].length > COVERAGE_FILE_MAX_CHARS)
    return `the test file is longer than ${COVERAGE_FILE_MAX_CHARS} characters`;
  if (file.startsWith('/') || /^[A-Za-z]:/.test(file) || file.includes('\\'))
    return "the test file is not a path relative to the project folder with '/' between names";
  if (file.split('/').includes('..')) return "the test file leads out of the project folder ('..')";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(file)) return 'the test file holds a control character';
  return undefined;
}

/**
 * Whether `test` names the requirement `prefix`-`digits`: the prefix (any case), then '-', '_', a
 * space or nothing, then the digits, not inside a longer word or number (`task-0011` is not
 * task-001). Linear: one indexOf pass over the lower-cased name.
 */
function names(test: string, prefix: string, digits: string): boolean {
  const name = test.toLowerCase();
  const p = prefix.toLowerCase();
  const isWord = (c: string | undefined) => c !== undefined && /[a-z0-9]/.test(c);
  for (let i = name.indexOf(p); i >= 0; i = name.indexOf(p, i + 1)) {
    if (isWord(name[i - 1])) continue;
    let j = i + p.length;
    if (name[j] === '-' || name[j] === '_' || name[j] === ' ') j++;
    if (name.startsWith(digits, j) && !/[0-9]/.test(name[j + digits.length] ?? '')) return true;
  }
  return false;
}

/** Cut, made visible, cut again (an escape is longer than the character). */
function shown(text: string, max: number): string {
  return cut(visibleText(cut(text, max)), max);
}

function cut(text: string, max: number): string {
  const chars = [...text.slice(0, max * 2 + 2)];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
