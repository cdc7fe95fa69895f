// What goes between `<!--` and `-->` in an annotation marker, read and checked field by field
// (no regular expression, so a hostile marker costs its length and no more):
//   @ax:START-END:COLOR:TASK       a region of a spec (START and END as written, COLOR a name)
//   @ax-discovery:TASK:disc-NNN    a discovery note about a task
//   /@ax                           the end of the innermost open annotation
import { isCaseId } from '../cases/caseId';

/** The longest task id a marker takes. */
export const TASK_MAX_CHARS = 200;
/** The longest colour name a marker takes. */
export const COLOR_MAX_CHARS = 40;
/** The largest START or END a region marker takes. */
const OFFSET_MAX = Number.MAX_SAFE_INTEGER;

/** What one marker says: an opening, a closing, or why it is neither. */
export type Marker =
  | {
      readonly kind: 'region';
      readonly from: number;
      readonly to: number;
      readonly color: string;
      readonly task: string;
    }
  | { readonly kind: 'discovery'; readonly task: string; readonly caseId: string }
  | { readonly kind: 'close' }
  | { readonly kind: 'bad'; readonly closing: boolean; readonly message: string };

const FORMS = 'write <!--@ax:START-END:COLOR:TASK-->, <!--@ax-discovery:TASK:disc-NNN--> or <!--/@ax-->';

const INVISIBLE = /\p{Cf}/u;

/** Why `task` cannot be a marker's task id, or undefined when it can. */
export function taskProblem(task: string): string | undefined {
  if (task.length === 0) return 'the task id is empty; write the id of the task the annotation belongs to';
  if (task.length > TASK_MAX_CHARS)
    return `the task id is ${task.length} characters long; use at most ${TASK_MAX_CHARS}`;
  let letterOrDigit = false;
  for (let i = 0; i < task.length; i++) {
    const c = task.charCodeAt(i);
    if (c <= 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0x2028 || c === 0x2029 || c === 0xfeff) {
      return 'the task id holds a space, a line break or a control character; remove it';
    }
    if (c === 0x3a || c === 0x3c || c === 0x3e || c === 0x60)
      return `the task id holds '${task[i] ?? ''}'; task ids in markers cannot hold ':', '<', '>' or '\`'`;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c > 0x7f)
      letterOrDigit = true;
  }
  if (!letterOrDigit) return 'the task id has no letter or digit; write the id of the task the annotation belongs to';
  // Invisible characters (zero-width spaces, direction marks, soft hyphens) would make two ids that look the same differ.
  return INVISIBLE.test(task)
    ? 'the task id holds an invisible character (a zero-width space or a direction mark); remove it'
    : undefined;
}

/** Why `color` cannot be a region's colour, or undefined when it can. */
export function colorProblem(color: string): string | undefined {
  if (color.length === 0) return 'the colour is empty; write a name such as green, yellow, red or blue';
  if (color.length > COLOR_MAX_CHARS)
    return `the colour name is ${color.length} characters long; use at most ${COLOR_MAX_CHARS}`;
  const first = color.charCodeAt(0) | 0x20;
  if (first < 0x61 || first > 0x7a)
    return `the colour '${color}' does not start with a letter; write a name such as green or yellow`;
  for (let i = 0; i < color.length; i++) {
    const c = color.charCodeAt(i);
    const lower = c | 0x20;
    if (!(lower >= 0x61 && lower <= 0x7a) && !(c >= 0x30 && c <= 0x39) && c !== 0x2d) {
      return `the colour '${shown(color)}' holds something other than letters, digits and hyphens; write a name such as green or yellow`;
    }
  }
  return undefined;
}

/** A whole number as written in a region marker, or undefined. */
function offsetOf(text: string): number | undefined {
  if (text.length === 0 || text.length > 16) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  const value = Number(text);
  return value <= OFFSET_MAX ? value : undefined;
}

/** Text cut short for a message. */
function shown(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const bad = (message: string, closing = false): Marker => ({ kind: 'bad', closing, message });

/** What the text between `<!--` and `-->` of a marker says. `body` starts with `@ax` or `/@ax`. */
export function readMarker(body: string): Marker {
  if (body.startsWith('/@ax')) {
    return body === '/@ax'
      ? { kind: 'close' }
      : bad('A closing marker is written exactly <!--/@ax-->; remove what follows /@ax.', true);
  }
  if (body.startsWith('@ax-discovery:')) {
    const rest = body.slice('@ax-discovery:'.length);
    const last = rest.lastIndexOf(':');
    if (last < 0)
      return bad('This discovery marker needs a task and a case id: write <!--@ax-discovery:TASK:disc-NNN-->.');
    const task = rest.slice(0, last);
    const caseId = rest.slice(last + 1);
    const problem = taskProblem(task);
    if (problem !== undefined) return bad(`In this discovery marker, ${problem}.`);
    if (!isCaseId(caseId))
      return bad(
        `In this discovery marker, '${shown(caseId)}' is not a case id; write disc- and three or more digits, such as disc-012.`,
      );
    return { kind: 'discovery', task, caseId };
  }
  if (body.startsWith('@ax:')) {
    const rest = body.slice('@ax:'.length);
    const first = rest.indexOf(':');
    const second = first < 0 ? -1 : rest.indexOf(':', first + 1);
    if (second < 0)
      return bad('This region marker needs offsets, a colour and a task: write <!--@ax:START-END:COLOR:TASK-->.');
    const offsets = rest.slice(0, first);
    const dash = offsets.indexOf('-');
    const from = dash < 0 ? undefined : offsetOf(offsets.slice(0, dash));
    const to = dash < 0 ? undefined : offsetOf(offsets.slice(dash + 1));
    if (from === undefined || to === undefined) {
      return bad(
        `In this region marker, '${shown(offsets)}' is not START-END; write two whole numbers with a hyphen between them, such as 0-45.`,
      );
    }
    if (from > to)
      return bad(`In this region marker, the start ${from} is after the end ${to}; write the smaller number first.`);
    const color = rest.slice(first + 1, second);
    const colorIssue = colorProblem(color);
    if (colorIssue !== undefined) return bad(`In this region marker, ${colorIssue}.`);
    const task = rest.slice(second + 1);
    const problem = taskProblem(task);
    if (problem !== undefined) return bad(`In this region marker, ${problem}.`);
    return { kind: 'region', from, to, color, task };
  }
  return bad(`'<!--${shown(body)}-->' is not an annotation marker: ${FORMS}.`);
}
