// What a build's final verification says of a requirement, written after its region on the same
// line, visible in the editor, the preview and a diff: ` · Tests: `task-001 adds` passed` or
// ` · Implemented, no passing test names it.`. Written again on every build (the old text after the
// region replaced), and read back by the region's hover. Test names come from a test runner's
// output of tests an agent wrote: made visible, kept on one line, in a code span, and never able to
// open a marker or an HTML tag.
import { visibleText } from '../visibleText';
import { parseAnnotations } from './annotationParser';
import type { RegionAnnotation } from './annotationParser';

/** What starts the text after a region that a build wrote (and may write over). */
export const EVIDENCE_PREFIX = ' · ';
const EVIDENCE_STARTS = [' · Tests: ', ' · Implemented, no passing test names it', ' · Not verified'];
/** The longest evidence text written after one region. */
export const EVIDENCE_MAX_CHARS = 600;

/** A test's name as a code span on one line: visible, its backticks fenced, no marker or tag opening. */
function codeSpan(name: string): string {
  const clean = visibleText(name)
    .replace(/[\r\n]+/g, ' ')
    .replace(/<!--|-->/g, '—')
    .slice(0, 200);
  const ticks = '`'.repeat(Math.max(1, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const pad = ticks.length > 1 || clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${clean}${pad}${ticks}`;
}

/** The evidence of a requirement as written after its region. */
export function evidenceText(result: 'passed' | 'failed' | 'untested', tests: readonly string[]): string {
  if (result === 'untested' || tests.length === 0) return `${EVIDENCE_PREFIX}Implemented, no passing test names it.`;
  const out = `${EVIDENCE_PREFIX}Tests: `;
  const shown: string[] = [];
  for (const t of tests) {
    // `name (passed)`, as the build records a test: the status outside the code span.
    const status = / \((passed|failed|skipped)\)$/.exec(t);
    const next = status ? `${codeSpan(t.slice(0, status.index))} ${status[1]}` : codeSpan(t);
    if (out.length + shown.join(', ').length + next.length > EVIDENCE_MAX_CHARS) {
      shown.push(`and ${tests.length - shown.length} more`);
      break;
    }
    shown.push(next);
  }
  return out + shown.join(', ');
}

/** The text after `region` on its line, when it is evidence a build wrote; undefined otherwise. */
export function evidenceAfter(text: string, region: RegionAnnotation): string | undefined {
  const end = text.indexOf('\n', region.offsets.end);
  const rest = text.slice(region.offsets.end, end < 0 ? text.length : end).replace(/\r$/, '');
  return EVIDENCE_STARTS.some((s) => rest.startsWith(s)) ? rest.slice(EVIDENCE_PREFIX.length) : undefined;
}

/**
 * `text` with the evidence of each task of `evidence` after its regions: the rest of each region's
 * line replaced when it is empty or evidence written before, left alone when it holds anything
 * else (a person's words). Returns the text unchanged when nothing changed.
 */
export function setRegionEvidence(text: string, evidence: ReadonlyMap<string, string>): string {
  const parse = parseAnnotations(text);
  const edits: { from: number; to: number; insert: string }[] = [];
  for (const a of parse.annotations) {
    if (a.kind !== 'region' || a.depth !== 0) continue;
    const wanted = evidence.get(a.task);
    if (wanted === undefined) continue;
    const lineEnd = text.indexOf('\n', a.offsets.end);
    const to = lineEnd < 0 ? text.length : text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    const rest = text.slice(a.offsets.end, to);
    if (rest.trim() !== '' && evidenceAfter(text, a) === undefined) continue;
    if (rest !== wanted) edits.push({ from: a.offsets.end, to, insert: wanted });
  }
  let out = text;
  for (const e of edits.sort((x, y) => y.from - x.from)) out = out.slice(0, e.from) + e.insert + out.slice(e.to);
  return out;
}
