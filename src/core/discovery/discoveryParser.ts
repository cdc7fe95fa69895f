// Reading the build-discovery role's reply: the protocol markers, the questions as a
// list, and the Idea Brief's eight fields. Models drift from the format the role asks for (bold
// labels, headings, a fence around the reply, prose before the marker), so each reader is tolerant;
// what it cannot place is kept, never dropped (the brief's `text`, the questions' whole text).
import { BRIEF_FIELDS, BRIEF_LABELS } from './discoveryTypes';
import type { BriefField, IdeaBrief } from './discoveryTypes';

export const QUESTIONS_MARKER = 'DISCOVERY_QUESTIONS';
export const COMPLETE_MARKER = 'DISCOVERY_COMPLETE';
export const BRIEF_MARKER = 'IDEA_BRIEF:';

export type DiscoveryOutput = { kind: 'questions'; text: string } | { kind: 'complete'; brief: string };

/**
 * The protocol's reading (docs/discovery.md, "Protocol markers"): DISCOVERY_COMPLETE wins over
 * DISCOVERY_QUESTIONS; the brief is what follows the `IDEA_BRIEF:` line (or, without one, what
 * follows the COMPLETE line); the questions are what follows the QUESTIONS line, prose before it
 * dropped; a reply with neither marker is the brief, whole; an empty reply is an empty brief.
 *
 * Beyond that, nothing the model wrote is lost to a marker in the wrong place: a marker with
 * nothing after it (written last, or with the text on its own line) gives the rest of the reply
 * without the marker, and an `IDEA_BRIEF:` line without DISCOVERY_COMPLETE is still not part of
 * the brief. Every reply, garbage included, is one of the two kinds; none throws.
 */
export function parseDiscoveryOutput(text: string): DiscoveryOutput {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const briefLine = lines.findIndex(isBriefMarkerLine);
  const briefAfterMarker = (): string => {
    if (briefLine < 0) return '';
    const sameLine = lines[briefLine]!.slice(lines[briefLine]!.indexOf(BRIEF_MARKER) + BRIEF_MARKER.length)
      .replace(/^[*_`\s]+/, '')
      .trim();
    return cleanBody([sameLine, ...lines.slice(briefLine + 1)]);
  };
  if (text.includes(COMPLETE_MARKER)) {
    const brief = briefAfterMarker();
    if (brief !== '') return { kind: 'complete', brief };
    const kept = lines.filter((l) => !isBriefMarkerLine(l));
    return { kind: 'complete', brief: afterMarker(kept, COMPLETE_MARKER) };
  }
  if (text.includes(QUESTIONS_MARKER)) return { kind: 'questions', text: afterMarker(lines, QUESTIONS_MARKER) };
  if (briefLine >= 0) {
    const brief = briefAfterMarker();
    return { kind: 'complete', brief: brief !== '' ? brief : cleanBody(lines.filter((l) => !isBriefMarkerLine(l))) };
  }
  return { kind: 'complete', brief: cleanBody(lines) };
}

/**
 * What follows the first line holding `marker`; when nothing does, the rest of the reply without
 * the marker (the text before it, and what shares its line), so that it is not dropped.
 */
function afterMarker(lines: string[], marker: string): string {
  const at = lines.findIndex((l) => l.includes(marker));
  const after = cleanBody(lines.slice(at + 1));
  if (after !== '' || at < 0) return after;
  const line = lines[at]!;
  const cut = line.indexOf(marker);
  // `Questions: **DISCOVERY_QUESTIONS** What is the budget?` → `Questions: What is the budget?`
  const head = trimEndOf(line.slice(0, cut), /[*_`\s]/);
  const tail = line.slice(cut + marker.length).replace(/^[*_`:\s]+/, '');
  const rest = cleanBody([...lines.slice(0, at), [head, tail].filter((part) => part.trim() !== '').join(' ')]).split(
    '\n',
  );
  // A fenced reply with the marker last: its closing fence came after the marker, so its opening
  // one is dropped too (a fence that closes in the text is kept, as the text's own).
  const fence = /^\s*(`{3,}|~{3,})/;
  if (fence.test(rest[0]!) && !rest.slice(1).some((l) => fence.test(l))) rest.shift();
  return rest.join('\n').trim();
}

function isBriefMarkerLine(line: string): boolean {
  return /^[\s*_#>`-]*IDEA_BRIEF:/.test(line);
}

/** The lines as one trimmed text, without stray marker lines and without a fence the model wrapped its reply in. */
function cleanBody(lines: string[]): string {
  const all = lines.filter((l) => !isMarkerOnly(l));
  // Indices, not shift(): a reply of many thousand blank lines must not take quadratic time.
  let from = 0;
  let to = all.length;
  while (from < to && all[from]!.trim() === '') from++;
  while (to > from && all[to - 1]!.trim() === '') to--;
  const kept = all.slice(from, to);
  // A fence closing a fenced reply; one opening the reply came before the marker line.
  if (
    kept.length > 0 &&
    /^\s*(`{3,}|~{3,})\s*$/.test(kept[kept.length - 1]!) &&
    !kept.slice(0, -1).some((l) => /^\s*(`{3,}|~{3,})/.test(l))
  ) {
    kept.pop();
  }
  return kept.join('\n').trim();
}

/** The line without markdown decoration around it (`**X**`, `## X`, `` `X` ``). */
export function bareLine(line: string): string {
  return trimEndOf(line.trim().replace(/^[*_#`>\s]+/, ''), /[*_`\s]/);
}

/**
 * `text` without the characters matching `char` at its end. Not `replace(/[…]+$/)`: tried from
 * every position of a long run of such characters, that takes quadratic time.
 */
function trimEndOf(text: string, char: RegExp): string {
  let end = text.length;
  while (end > 0 && char.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

function isMarkerOnly(line: string): boolean {
  const bare = bareLine(line);
  return bare === QUESTIONS_MARKER || bare === COMPLETE_MARKER;
}

export interface QuestionList {
  /** Text before the first question ('' if none). */
  intro: string;
  /** Each question with its continuation lines; the whole text as one question when none is numbered or bulleted. */
  questions: string[];
}

// The `s` flag on these: `.` must take U+2028 and U+2029 too, which no line split removes; else
// `(.*)$` fails on a line that holds one, and the runs of \s before it are retried split by split.
const NUMBERED = /^\s{0,3}(?:\*\*|__)?\(?\d{1,2}[.)](?:\*\*|__)?\s+(.*)$/s;
const BULLET = /^\s{0,1}[-*•]\s+(.*)$/s;

/**
 * Splits the questions the model wrote into a list: numbered lines ("1." / "1)") start questions,
 * or, when nothing is numbered, bullets ("- ", "* "). Lines after a question (an indented list of
 * options, a second sentence) belong to it.
 */
export function splitQuestions(text: string): QuestionList {
  const trimmed = text.trim();
  if (trimmed === '') return { intro: '', questions: [] };
  const lines = trimmed.split('\n');
  const starter = lines.some((l) => NUMBERED.test(l))
    ? NUMBERED
    : lines.some((l) => BULLET.test(l))
      ? BULLET
      : undefined;
  if (starter === undefined) return { intro: '', questions: [trimmed] };
  const intro: string[] = [];
  const questions: string[][] = [];
  for (const line of lines) {
    const start = starter.exec(line);
    if (start) questions.push([start[1]!.trim()]);
    else if (questions.length === 0) intro.push(line);
    else questions[questions.length - 1]!.push(line);
  }
  return {
    intro: intro.join('\n').trim(),
    questions: questions.map((q) => tidyMultiline(q.join('\n'))).filter((q) => q !== ''),
  };
}

/** Trims the text and the common indentation of its continuation lines. */
function tidyMultiline(text: string): string {
  return text
    .split('\n')
    .map((l, i) => (i === 0 ? l : l.replace(/^\s{1,4}/, '')))
    .join('\n')
    .trim();
}

// Labels as the role writes them, and the variants models drift to.
const LABEL_ALIASES: ReadonlyArray<readonly [BriefField, string]> = [
  ...BRIEF_FIELDS.map((f) => [f, BRIEF_LABELS[f]] as const),
  ['summary', 'One line summary'],
  ['summary', 'Summary'],
  ['mvpScope', 'MVP'],
  ['mvpScope', 'Scope'],
  ['technology', 'Tech stack'],
  ['technology', 'Tech'],
  ['outOfScope', 'Out-of-scope'],
  ['outOfScope', 'Non-goals'],
  ['keyDecisions', 'Decisions'],
];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so that "MVP scope" is not read as "MVP" followed by " scope: …".
const LABEL_ALTERNATION = [...LABEL_ALIASES]
  .sort((a, b) => b[1].length - a[1].length)
  .map(([, label]) => escapeRegex(label).replace(/[ -]/g, '[ -]'))
  .join('|');
/** `Label: value`, `**Label:** value`, `**Label**: value`, `- Label: value`, `## Label` (value on the next lines). */
const LABEL_LINE = new RegExp(
  `^\\s{0,3}(?:[-*]\\s+)?(?:(#{1,6})\\s*)?(?:\\*\\*|__)?(${LABEL_ALTERNATION})(?:\\*\\*|__)?\\s*(:)?\\s*(?:\\*\\*|__)?\\s*(.*)$`,
  'is',
);

function fieldOf(label: string): BriefField | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/-/g, ' ');
  return LABEL_ALIASES.find(([, l]) => norm(l) === norm(label))?.[0];
}

/**
 * The brief's eight fields from its text: each label starts a field that runs until the next label
 * (so a value may span lines, e.g. a short list). Missing fields are ''. Text before the first
 * label is kept only in `text`.
 */
export function parseIdeaBrief(text: string): IdeaBrief {
  const brief: IdeaBrief = {
    summary: '',
    problem: '',
    users: '',
    mvpScope: '',
    technology: '',
    outOfScope: '',
    keyDecisions: '',
    constraints: '',
    text: text.trim(),
  };
  const collected = new Map<BriefField, string[]>();
  let current: string[] | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const label = labelOf(line);
    if (label !== undefined) {
      const existing = collected.get(label.field);
      if (existing !== undefined) {
        // A label written twice: keep both values.
        existing.push('', label.rest);
        current = existing;
      } else {
        current = [label.rest];
        collected.set(label.field, current);
      }
      continue;
    }
    current?.push(line);
  }
  for (const [field, lines] of collected) brief[field] = tidyMultiline(lines.join('\n'));
  return brief;
}

function labelOf(line: string): { field: BriefField; rest: string } | undefined {
  const m = LABEL_LINE.exec(line);
  if (!m) return undefined;
  const [, heading, label, colon, rest] = m;
  // Without a colon, only a heading with nothing after the label is a label ("## Problem"): a line
  // such as "Users can sign in" is content.
  if (colon === undefined && (heading === undefined || rest!.trim() !== '')) return undefined;
  const field = fieldOf(label!);
  if (field === undefined) return undefined;
  // A closing `**` or `__` of a bold label written after its value; trimmed without a regex that
  // would be retried from every space of a long value.
  const value = rest!.trimEnd();
  return { field, rest: (value.endsWith('**') || value.endsWith('__') ? value.slice(0, -2) : value).trim() };
}

/** The brief shown in a message: at most `maxChars` characters (code points), with "..." when cut. */
export function truncateBriefPreview(brief: string, maxChars: number): string {
  const chars = [...brief];
  if (chars.length <= maxChars) return brief;
  return `${chars.slice(0, maxChars).join('')}...`;
}
