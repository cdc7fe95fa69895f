// The markers a build's phases write, read from the model's reply (or from specs/architecture.md).
// A reply is untrusted text: it may be huge, hold control characters or quote a marker in prose.
// So a marker counts only at the start of a line — after optional indentation, a blockquote `>`,
// a heading `#`, a bullet `- `/`* `/`+ ` and emphasis or code (`**`, `__`, `` ` ``) — its name in
// upper case followed by `:` (or alone on its line, like BUILD_COMPLETE). Lines inside code fences
// count like any other (models fence the block their prompt shows). Nothing is invented: a value
// the reply does not give is absent, and every value returned is capped, its control and invisible
// characters made visible (visibleText). Every scan is linear: no pattern here can backtrack.
import { lengthProblem } from '../inputChecks';
import { visibleText } from '../visibleText';
import { normalProjectName, PROJECT_NAME_RULE, readProjectName } from './projectName';
import type { AnalystBrief, DeliverySummary, ProjectCommands, QaVerdict, ReviewVerdict } from './buildTypes';
import { BLANKS_MAX, continued, isFence, linesAfter, markerOf, markersIn } from './markerLines';
import type { Found } from './markerLines';

/** A command Groundwork may run (TEST:, BUILD:, VERIFY:): one line of at most this many characters. */
export const COMMAND_MAX_CHARS = 10_000;
/** VERIFY: commands kept from one QA reply, and TEST: commands from one architecture. */
export const COMMANDS_MAX = 20;
/** A QA REASON or the reviewer's reasons. */
export const VERDICT_REASON_MAX_CHARS = 4000;

/** Caps of the brief's one-line fields, of each component, of the component list, of SCOPE. */
const [SHORT_MAX, COMPONENT_MAX_CHARS, COMPONENTS_MAX, SCOPE_MAX] = [200, 500, 50, 2000];
/** The caps of delivery's fields, in characters (build.yaml keeps them to these too). */
export const DELIVERY_FIELD_MAX_CHARS: Readonly<Record<keyof DeliverySummary, number>> = {
  project: 200,
  location: 1000,
  language: 200,
  summary: 4000,
  usage: 2000,
};

const ANALYST_KEYS: readonly string[] = [
  'PROJECT_NAME',
  'TARGET',
  'LANGUAGE',
  'DATABASE',
  'FRONTEND',
  'SCOPE',
  'COMPONENTS',
  'REQUIREMENTS',
  'ASSUMPTIONS',
];
const QA_KEYS: readonly string[] = ['VERIFICATION', 'REASON', 'DETAILS', 'CHECKS', 'VERIFY'];
const DELIVERY_KEYS: readonly string[] = [
  'BUILD_COMPLETE',
  'PROJECT',
  'LOCATION',
  'LANGUAGE',
  'SUMMARY',
  'USAGE',
  'DOCS',
  'SKILL',
];
const DELIVERY_FIELDS = ['PROJECT', 'LOCATION', 'LANGUAGE', 'SUMMARY', 'USAGE'] as const;
/** What may wrap a PROJECT_NAME value (`**price-tracker**`, `"price-tracker"`). */
const NAME_WRAPS = ['**', '__', '`', '"', "'", '*', '_'];

export type AnalystBriefResult = { ok: true; brief: AnalystBrief } | { ok: false; reason: string };
export type DeliveryResult = { ok: true; summary: DeliverySummary } | { ok: false; reason: string };
/** `ignored`: each line that named a command that was refused, with its line number and why (at most COMMANDS_MAX). */
export type ParsedCommands = ProjectCommands & { ignored: string[] };
export type ParsedQaVerdict = QaVerdict & { ignored: string[] };

/** Cut to `max` code points, the last being '…' when cut. Linear, stops early. */
function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let [n, end, cut] = [0, 0, 0];
  for (const ch of text) {
    if (n === max - 1) cut = end;
    if (n === max) return `${text.slice(0, cut)}…`;
    n++;
    end += ch.length;
  }
  return text;
}

/** One line for display: cut, every unsafe character (tab included) shown as an escape, cut again. */
function displayLine(raw: string, max: number): string {
  return cutChars(visibleText(cutChars(raw.trim(), max)), max);
}

/** Lines for display: the same, keeping newlines and tabs as they are. */
function displayText(raw: string, max: number): string {
  const shown = cutChars(raw.trim(), max)
    .split('\n')
    .map((l) => l.split('\t').map(visibleText).join('\t'))
    .join('\n');
  return cutChars(shown, max);
}

/** One pair of `wrap` around the whole value taken off (`` `npm test` `` → `npm test`). */
function unwrap(value: string, wraps: readonly string[]): string {
  for (const w of wraps) {
    const inner = value.slice(w.length, -w.length);
    if (value.length > 2 * w.length && value.startsWith(w) && value.endsWith(w) && !inner.includes(w))
      return inner.trim();
  }
  return value;
}

/** The value's first word, upper-cased (`**Pass** (24 tests)` → PASS); '' when it starts with none. */
function firstWord(value: string): string {
  return /^[\s*_`'"[(]*([A-Za-z][A-Za-z_]*)/.exec(value)?.[1]?.toUpperCase() ?? '';
}

/** Why `command` cannot be run as given, or undefined: one line, not empty, capped, nothing hidden. */
export function commandProblem(command: string): string | undefined {
  if (command.trim() === '') return 'is empty';
  const long = lengthProblem('the command', command, COMMAND_MAX_CHARS);
  if (long !== undefined) return long;
  if (command.includes('\0')) return 'contains a NUL character';
  const plain = command.replace(/\t/g, ' ');
  return visibleText(plain) === plain ? undefined : 'contains a control or invisible character';
}

/**
 * A command value as written, or the code span it starts with when a note follows it
 * (`` `cargo test` — 24 passed ``); `none` and a `<placeholder>` are no command.
 */
function commandValue(value: string): { command?: string; problem?: string } {
  const span = /^`([^`]+)`\s*(?:$|[-—–(:#])/.exec(value);
  const command = span?.[1]?.trim() ?? value;
  if (/^(?:none|n\/a)\b/i.test(command) || command === '-') return {};
  if (command.startsWith('<') && command.endsWith('>') && !command.includes('<', 1))
    return { problem: 'is a placeholder, not a command' };
  const problem = commandProblem(command);
  return problem === undefined ? { command } : { problem };
}

/** Adds `message` to `list` unless it holds COMMANDS_MAX already: a hostile reply cannot grow it. */
function note(list: string[], message: string): void {
  if (list.length < COMMANDS_MAX) list.push(message);
}

/** A list item (`- x`, `* x`, `+ x`, `1. x`, `1) x`), or undefined. */
function bulletItem(trimmed: string): string | undefined {
  return /^(?:[-*+]|\d{1,3}[.)])[ \t]+(\S.*)$/.exec(trimmed)?.[1];
}

/**
 * The analyst's brief. PROJECT_NAME is required; the other fields are taken when given. Several
 * PROJECT_NAME lines naming different projects are refused (which one is meant is not ours to
 * guess); otherwise the first occurrence of each field counts.
 */
export function parseAnalystBrief(text: string): AnalystBriefResult {
  const fields = new Map<string, Found>();
  const names = new Set<string>();
  for (const found of markersIn(text, ANALYST_KEYS)) {
    const { key, value, colon } = found.marker;
    if (!colon) continue;
    if (key === 'PROJECT_NAME' && names.add(normalProjectName(unwrap(value, NAME_WRAPS))).size > 1) break;
    if (!fields.has(key)) fields.set(key, found);
  }
  const nameField = fields.get('PROJECT_NAME');
  if (nameField === undefined)
    return {
      ok: false,
      reason: `the reply has no PROJECT_NAME: line; it must start with PROJECT_NAME: <${PROJECT_NAME_RULE}>`,
    };
  if (names.size > 1) {
    const shown = [...names].map((n) => visibleText(JSON.stringify(cutChars(n, 40))));
    return {
      ok: false,
      reason: `the reply names more than one project (${shown.join(', ')}); write one PROJECT_NAME line`,
    };
  }
  const name = readProjectName(unwrap(nameField.marker.value, NAME_WRAPS));
  if (!name.ok) return name;

  const brief: AnalystBrief = { projectName: name.name, components: [] };
  const language = displayLine(fields.get('LANGUAGE')?.marker.value ?? '', SHORT_MAX);
  const database = displayLine(fields.get('DATABASE')?.marker.value ?? '', SHORT_MAX);
  if (language !== '') brief.language = language;
  if (database !== '') brief.database = database;
  const frontend = firstWord(fields.get('FRONTEND')?.marker.value ?? '');
  if (frontend === 'YES' || frontend === 'TRUE') brief.frontend = true;
  if (frontend === 'NO' || frontend === 'FALSE') brief.frontend = false;
  const target = firstWord(fields.get('TARGET')?.marker.value ?? '');
  if (target === 'EXISTING' || target === 'FEATURE') brief.target = 'existing';
  if (target === 'NEW') brief.target = 'new';
  const scope = fields.get('SCOPE');
  const scopeText = scope === undefined ? '' : displayText(continued(text, scope, ANALYST_KEYS, SCOPE_MAX), SCOPE_MAX);
  if (scopeText !== '') brief.scope = scopeText;
  const components = fields.get('COMPONENTS');
  if (components !== undefined) brief.components = componentList(text, components);
  return { ok: true, brief };
}

/** COMPONENTS: an item on its own line (if any), then the list items below it, a few blank lines between them allowed. */
function componentList(text: string, found: Found): string[] {
  const items = found.marker.value === '' ? [] : [found.marker.value];
  let blanks = 0;
  for (const line of linesAfter(text, found.end)) {
    const trimmed = line.trim();
    if (items.length >= COMPONENTS_MAX || (trimmed === '' && ++blanks > BLANKS_MAX)) break;
    if (trimmed === '') continue;
    const m = markerOf(line);
    const item = m !== undefined && m.colon && ANALYST_KEYS.includes(m.key) ? undefined : bulletItem(trimmed);
    if (item === undefined) break;
    items.push(item);
    blanks = 0;
  }
  return items.map((i) => displayLine(i, COMPONENT_MAX_CHARS)).filter((i) => i !== '');
}

/**
 * The project's commands from `specs/architecture.md`: every `TEST: <command>` line in order,
 * without repeats (at most COMMANDS_MAX), and the first `BUILD: <command>`. `none` means no
 * command. Lines inside code fences count (the architect's prompt shows them in one). A value
 * that cannot be a command (a control character, a placeholder, over the cap) is not used and is
 * listed in `ignored`.
 */
export function parseProjectCommands(text: string): ParsedCommands {
  const result: ParsedCommands = { test: [], ignored: [] };
  let buildLine = 0;
  for (const { marker, line } of markersIn(text, ['TEST', 'BUILD'])) {
    if (!marker.colon) continue;
    const { command, problem } = commandValue(marker.value);
    if (problem !== undefined) note(result.ignored, `line ${line}: ${marker.key}: ${problem}`);
    if (command === undefined) continue;
    if (marker.key === 'BUILD') {
      if (result.build === undefined) [result.build, buildLine] = [command, line];
      else if (result.build !== command)
        note(result.ignored, `line ${line}: BUILD: a second build command; the one on line ${buildLine} is used`);
    } else if (!result.test.includes(command)) {
      if (result.test.length < COMMANDS_MAX) result.test.push(command);
      else note(result.ignored, `line ${line}: TEST: more than ${COMMANDS_MAX} test commands`);
    }
  }
  return result;
}

/**
 * QA's verdict. Any `VERIFICATION: FAIL` makes it a FAIL, even beside a PASS: the prompt asks
 * for one verdict, so a reply with both contradicts itself, and only the reading that cannot
 * let unverified work through is safe. The first REASON: (with its following lines) is kept;
 * `VERIFY: <command>` lines are kept in order, without repeats, at most COMMANDS_MAX.
 */
export function parseQaVerdict(text: string): ParsedQaVerdict {
  let [pass, fail] = [false, false];
  let reason: string | undefined;
  const [verify, ignored] = [[] as string[], [] as string[]];
  for (const found of markersIn(text, ['VERIFICATION', 'REASON', 'VERIFY'])) {
    const { key, value, colon } = found.marker;
    if (!colon) continue;
    if (key === 'VERIFICATION') {
      const word = firstWord(value);
      pass ||= word === 'PASS';
      fail ||= word === 'FAIL';
    } else if (key === 'REASON') {
      reason ??= displayText(continued(text, found, QA_KEYS, VERDICT_REASON_MAX_CHARS), VERDICT_REASON_MAX_CHARS);
    } else {
      const { command, problem } = commandValue(value);
      if (problem !== undefined) note(ignored, `line ${found.line}: VERIFY: ${problem}`);
      if (command === undefined || verify.includes(command)) continue;
      if (verify.length < COMMANDS_MAX) verify.push(command);
      else note(ignored, `line ${found.line}: VERIFY: more than ${COMMANDS_MAX} commands`);
    }
  }
  const verdict: ParsedQaVerdict = { verdict: fail ? 'fail' : pass ? 'pass' : 'none', verify, ignored };
  if (reason !== undefined && reason !== '') verdict.reason = reason;
  return verdict;
}

/**
 * The reviewer's verdict: `REVIEW: APPROVED`, or `REVIEW: CHANGES` / `CHANGES_REQUESTED`
 * (changes win over an approval in the same reply, as FAIL does for QA). `reasons` is what
 * follows the deciding verdict word: the rest of its line and every line after it.
 */
export function parseReview(text: string): ReviewVerdict {
  let approved: { end: number; rest: string } | undefined;
  let changes: { end: number; rest: string } | undefined;
  for (const { marker, end } of markersIn(text, ['REVIEW'])) {
    const word = firstWord(marker.value);
    const rest = marker.value.slice(marker.value.toUpperCase().indexOf(word) + word.length);
    if (marker.colon && (word === 'CHANGES' || word === 'CHANGES_REQUESTED')) {
      changes = { end, rest };
      break;
    }
    if (marker.colon && word === 'APPROVED') approved ??= { end, rest };
  }
  const decided = changes ?? approved;
  if (decided === undefined) return { verdict: 'none' };
  const verdict = decided === changes ? 'changes' : 'approved';
  const first = decided.rest.replace(/^[\s*_`)—–:.,-]*(?:REQUESTED\b)?[\s*_`)—–:.,-]*/i, '');
  // Enough of the following text for the cap, code points or not.
  const after = text.slice(decided.end + 1, decided.end + 1 + 2 * VERDICT_REASON_MAX_CHARS + 2).replace(/\r\n/g, '\n');
  const body = `${first}\n${after}`.trim();
  // The fence the block was written in closes after it: not part of the reasons.
  const lastLine = body.lastIndexOf('\n');
  const closesFence = body.split('\n').filter(isFence).length % 2 === 1 && isFence(body.slice(lastLine + 1));
  const reasons = displayText(closesFence ? body.slice(0, Math.max(lastLine, 0)) : body, VERDICT_REASON_MAX_CHARS);
  return reasons === '' ? { verdict } : { verdict, reasons };
}

/**
 * Delivery's summary: the last `BUILD_COMPLETE` line alone on its line, then PROJECT, LOCATION,
 * LANGUAGE, SUMMARY and USAGE after it (the first of each; SUMMARY and USAGE may go on over the
 * following lines). A missing or empty field fails, naming it.
 */
export function parseDelivery(text: string): DeliveryResult {
  let start: number | undefined;
  for (const { marker, end } of markersIn(text, ['BUILD_COMPLETE'])) if (marker.value === '') start = end;
  if (start === undefined)
    return {
      ok: false,
      reason:
        'the reply has no BUILD_COMPLETE line (alone on its line, followed by PROJECT, LOCATION, LANGUAGE, SUMMARY and USAGE)',
    };
  const found = new Map<string, Found>();
  for (const f of markersIn(text, DELIVERY_FIELDS, start))
    if (f.marker.colon && !found.has(f.marker.key)) found.set(f.marker.key, f);
  const value = (key: (typeof DELIVERY_FIELDS)[number], max: number, multiline: boolean): string => {
    const f = found.get(key);
    if (f === undefined) return '';
    return multiline ? displayText(continued(text, f, DELIVERY_KEYS, max), max) : displayLine(f.marker.value, max);
  };
  const summary: DeliverySummary = {
    project: value('PROJECT', DELIVERY_FIELD_MAX_CHARS.project, false),
    location: value('LOCATION', DELIVERY_FIELD_MAX_CHARS.location, false),
    language: value('LANGUAGE', DELIVERY_FIELD_MAX_CHARS.language, false),
    summary: value('SUMMARY', DELIVERY_FIELD_MAX_CHARS.summary, true),
    usage: value('USAGE', DELIVERY_FIELD_MAX_CHARS.usage, true),
  };
  const missing = DELIVERY_FIELDS.filter((key) => summary[key.toLowerCase() as keyof DeliverySummary] === '');
  if (missing.length > 0)
    return {
      ok: false,
      reason: `BUILD_COMPLETE is not followed by ${missing.map((k) => `${k}:`).join(', ')} (each on its own line, not empty)`,
    };
  return { ok: true, summary };
}
