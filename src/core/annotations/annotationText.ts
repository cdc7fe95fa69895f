// The text of a discovery note as it goes into a spec: the markers around it, and its content
// escaped so that nothing in it can forge a marker, close one, or end the HTML comment of a marker
// early. Escaping uses HTML character references, which the markdown preview shows as the
// characters they stand for:
//   `<` before `!--`                → &lt;   (no `<!--`, so no `<!--@ax…` or `<!--/@ax-->`)
//   `>` after `--` or `--!`         → &gt;   (no `-->` or `--!>`)
//   a backtick                      → &#96;  (no inline code that would hide the closing marker)
//   `&` before `lt;` `gt;` `amp;` `#96;` → &amp; (so the escape reverses exactly)
// A note is one line: line breaks in the content become spaces, and do not come back.
import { isCaseId } from '../cases/caseId';
import { taskProblem } from './markerSyntax';

const REFERENCES: readonly (readonly [string, string])[] = [
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&#96;', '`'],
  ['&amp;', '&'],
];

/** `content` on one line, with every sequence that could act as or end a marker escaped. */
export function escapeNoteContent(content: string): string {
  let out = '';
  for (let i = 0; i < content.length; i++) {
    const c = content[i] ?? '';
    if (c === '<' && content.startsWith('!--', i + 1)) out += '&lt;';
    else if (c === '>' && (content.endsWith('--', i) || content.endsWith('--!', i))) out += '&gt;';
    else if (c === '`') out += '&#96;';
    else if (c === '&' && REFERENCES.some(([ref]) => content.startsWith(ref.slice(1), i + 1))) out += '&amp;';
    else if (c === '\r' && content[i + 1] === '\n') continue;
    else if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') out += ' ';
    else out += c;
  }
  return out;
}

/** The content escapeNoteContent escaped, as it was (line breaks aside). */
export function unescapeNoteContent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const reference = c === '&' ? REFERENCES.find(([ref]) => text.startsWith(ref, i)) : undefined;
    if (reference === undefined) out += c;
    else {
      out += reference[1];
      i += reference[0].length - 1;
    }
  }
  return out;
}

/**
 * The full text of a discovery note: `<!--@ax-discovery:TASK:CASE-->content<!--/@ax-->`, the
 * content escaped. Throws a RangeError when the task id or case id cannot go in a marker.
 */
export function discoveryNote(taskId: string, caseId: string, content: string): string {
  const problem = taskProblem(taskId);
  if (problem !== undefined) throw new RangeError(`The note cannot be written: ${problem}.`);
  if (!isCaseId(caseId))
    throw new RangeError(
      `The note cannot be written: '${String(caseId).slice(0, 40)}' is not a case id (disc-012, disc-1000…).`,
    );
  return `<!--@ax-discovery:${taskId}:${caseId}-->${escapeNoteContent(content)}<!--/@ax-->`;
}
