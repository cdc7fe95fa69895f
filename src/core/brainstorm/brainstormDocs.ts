// The brainstorm's markdown for people: a file per round (`rounds/round-N.md`), the result
// (`00-brainstorming.md`) and the two pointer files that link a brainstorm and the plan
// it was seeded from. Topic, questions, answers and the summary are the person's and the models'
// words, so none of them may shape the document: a heading, a list or a title line gets them as
// one line with markdown's punctuation escaped, and questions and answers sit verbatim in fences
// longer than any run of backticks in them. A summary kept as prose (the coordinator did not write
// the JSON) is a block quote of its markdown, neutralised as model text (proseBlock). In all of
// them, invisible and control characters are shown as escapes (visibleText), so a bidi override
// cannot make a question read as something else.
import { fenced } from '../markdownText';
import { neutralizeMarkdown } from '../markdownText';
import { isSlug } from '../storage/safeNames';
import { visibleText } from '../visibleText';
import { ANGLES, BrainstormError, SKIPPED_ANSWER } from './brainstormTypes';
import type { Angle, Answer, BrainstormSession, BrainstormSummary, InquisitorStatus } from './brainstormTypes';
import { PLAN_FILES } from '../plan/layout';

export const ANGLE_LABELS: Readonly<Record<Angle, string>> = {
  ux: 'UX',
  technical: 'Technical',
  'edge-cases': 'Edge cases',
};

/** What a round file says of a round whose answers are not in yet. */
export const AWAITING_ANSWER = '(awaiting answer)';

// Every character that can start or end inline markdown (code, emphasis, links, images, HTML,
// entities, strikethrough) or a heading.
const INLINE_SPECIAL = /[\\`*_[\]<>#&~|]/g;
// What would make the start of a bullet's text a nested list item.
const BULLET_START = /^[-+]/;
const NUMBER_START = /^(\d+)([.)])/;

/**
 * `text` as one line of plain text inside markdown: line breaks become spaces, invisible
 * characters visible escapes, markdown's punctuation is backslash-escaped.
 */
export function inlineText(text: string): string {
  const line = visibleText(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
  return line.replace(INLINE_SPECIAL, '\\$&').replace(BULLET_START, '\\$&').replace(NUMBER_START, '$1\\$2');
}

/** `text` verbatim in a fence: line breaks and tabs kept, any other invisible character shown. */
export function verbatimBlock(text: string): string {
  const shown = text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.split('\t').map(visibleText).join('\t'))
    .join('\n');
  return fenced(shown);
}

/** What a document says above a summary kept as prose (`format: 'text'`). */
export const PROSE_SUMMARY_NOTE =
  "The coordinator's summary was not in the expected format, so its text is kept as written.";

/**
 * Model prose kept in a document, as a block quote: its markdown (lists, emphasis, code) is kept
 * but neutralised as model text (no image, no raw HTML, every fence closed), invisible and control
 * characters are shown as escapes, and each line is quoted, so that no heading or fence of it can
 * end the quote and stand as part of the document.
 */
export function proseBlock(text: string): string {
  const shown = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.split('\t').map(visibleText).join('\t'))
    .join('\n')
    .trim();
  if (shown === '') return '_The reply was empty._';
  return neutralizeMarkdown(shown)
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** A summary kept as prose: the note saying why, then the prose. */
export function proseSummaryBlock(summary: Pick<BrainstormSummary, 'text'>): string {
  return `${PROSE_SUMMARY_NOTE}\n\n${proseBlock(summary.text ?? '')}`;
}

/** `- item` per entry, or "None." */
export function bulletList(items: readonly string[]): string {
  return items.length === 0 ? 'None.' : items.map((item) => `- ${inlineText(item)}`).join('\n');
}

/** One question of a document: where it was asked and what became of it. */
export interface AskedQuestion {
  round: number;
  /** 1-based, in the order the round put its questions. */
  number: number;
  angle: Angle;
  priority: number;
  text: string;
  /** Absent while the round waits for the person. */
  answer?: Answer;
}

/** The question in its fence, then its answer in one, or the skip marker, or the awaiting note. */
export function questionBlock(q: AskedQuestion, heading: string): string {
  const answer = q.answer;
  const answerPart =
    answer === undefined
      ? `**Answer:** ${AWAITING_ANSWER}`
      : answer.kind === 'skipped'
        ? `**Answer:** ${SKIPPED_ANSWER}`
        : `**Answer**\n\n${verbatimBlock(answer.text)}`;
  return `${heading}\n\n${verbatimBlock(q.text)}\n\n${answerPart}`;
}

/**
 * The questions and answers under `### Round N`, then `#### <angle>` per angle that asked, each
 * question under `##### Question K (priority P)`, K being its number in its round.
 */
export function questionsByRound(questions: readonly AskedQuestion[]): string {
  const rounds = [...new Set(questions.map((q) => q.round))].sort((a, b) => a - b);
  if (rounds.length === 0) return 'None.';
  return rounds
    .map((round) => {
      const inRound = questions.filter((q) => q.round === round);
      const angles = ANGLES.filter((angle) => inRound.some((q) => q.angle === angle)).map((angle) => {
        const blocks = inRound
          .filter((q) => q.angle === angle)
          .map((q) => questionBlock(q, `##### Question ${q.number} (priority ${q.priority})`));
        return `#### ${ANGLE_LABELS[angle]}\n\n${blocks.join('\n\n')}`;
      });
      return `### Round ${round}\n\n${angles.join('\n\n')}`;
    })
    .join('\n\n');
}

/** Every question of the session, with its answer where the round has them. */
export function askedQuestions(session: BrainstormSession): AskedQuestion[] {
  return session.rounds.flatMap((r) =>
    r.questions.map((q, i) => {
      const answer = r.answers?.[i];
      return {
        round: r.round,
        number: i + 1,
        angle: q.angle,
        priority: q.priority,
        text: q.text,
        ...(answer ? { answer } : {}),
      };
    }),
  );
}

/** How each inquisitor's round 1 went; an angle without an outcome counts as empty. */
export function inquisitorStatuses(
  session: BrainstormSession,
): Record<Angle, { status: InquisitorStatus; detail?: string }> {
  const entries = ANGLES.map((angle) => {
    const outcome = session.inquisitors?.[angle];
    return [angle, outcome === undefined ? { status: 'empty' as const } : outcome] as const;
  });
  return Object.fromEntries(entries) as Record<Angle, { status: InquisitorStatus; detail?: string }>;
}

/** `2025-01-01 09:30 UTC`; the raw value when it is no time. */
export function shownTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `rounds/round-N.md`: the round's questions and, once given, the person's answers. */
export function renderRoundFile(session: BrainstormSession, round: number): string {
  const r = session.rounds.find((x) => x.round === round);
  if (r === undefined) throw new RangeError(`brainstorm ${session.slug} has no round ${round}`);
  const parts = [`# Brainstorm round ${round}: ${inlineText(session.topic)}`];
  parts.push(`Round ${round} of at most ${session.maxRounds}, started ${shownTime(session.createdAt)}.`);
  if (round === 1) {
    const statuses = inquisitorStatuses(session);
    const lines = ANGLES.map((angle) => {
      const { status, detail } = statuses[angle];
      const why = detail === undefined || detail.trim() === '' ? '' : ` — ${inlineText(detail)}`;
      return `- ${ANGLE_LABELS[angle]}: ${status}${why}`;
    });
    parts.push(`## Inquisitors\n\n${lines.join('\n')}`);
  }
  const questions = askedQuestions({ ...session, rounds: [r] });
  const blocks = questions.map((q) =>
    questionBlock(q, `### ${q.number}. ${ANGLE_LABELS[q.angle]}, priority ${q.priority}`),
  );
  parts.push(`## Questions\n\n${blocks.length === 0 ? 'None.' : blocks.join('\n\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** A relative link to `../<slug>/<file>`, each path segment percent-encoded. */
function siblingLink(slug: string, file: string): string {
  const target = ['..', slug, ...file.split('/')].map((s) => (s === '..' ? s : encodeURIComponent(s))).join('/');
  return `[${inlineText(`${slug}/${file}`)}](${target})`;
}

function checkSlug(slug: string): void {
  if (!isSlug(slug)) {
    throw new BrainstormError(
      'invalid',
      `'${visibleText(slug)}' is not a plan name (a–z, 0–9 and '-', at most 64, starting with a letter or digit)`,
    );
  }
}

/** `00-brainstorming.md`: what the brainstorm found, then every question and answer. */
export function renderBrainstormDocument(session: BrainstormSession): string {
  const summary = session.summary;
  const prose = summary?.format === 'text';
  const facts = [`- Created: ${shownTime(session.createdAt)}`, `- Rounds: ${session.rounds.length}`];
  // A prose summary's topic is the brainstorm's own, not the coordinator's restatement.
  if (summary !== undefined && !prose && summary.topic.trim() !== '' && summary.topic.trim() !== session.topic.trim()) {
    facts.push(`- Topic as understood: ${inlineText(summary.topic)}`);
  }
  if (session.seed !== undefined) facts.push(`- Seeded from: ${siblingLink(session.seed.slug, session.seed.file)}`);
  const findings =
    summary !== undefined && prose
      ? [`## Summary\n\n${proseSummaryBlock(summary)}`]
      : [
          `## Key insights\n\n${bulletList(summary?.keyInsights ?? [])}`,
          `## Decisions\n\n${bulletList(summary?.decisions ?? [])}`,
          `## Open questions\n\n${bulletList(summary?.openQuestions ?? [])}`,
        ];
  const parts = [
    `# Brainstorm: ${inlineText(session.topic)}`,
    facts.join('\n'),
    ...findings,
    `## Questions and answers\n\n${questionsByRound(askedQuestions(session))}`,
  ];
  return `${parts.join('\n\n')}\n`;
}

/** `seeded-from.md` in a brainstorm's folder: the plan it started from (a pointer, never a copy). */
export function renderSeededFromPointer(seed: { slug: string; file: string }): string {
  checkSlug(seed.slug);
  return `# Seeded from\n\nThis brainstorm was started from ${siblingLink(seed.slug, seed.file)}. That file is the one to read; nothing of it is copied here.\n`;
}

/** `brainstorms.md` in a plan's folder: the brainstorms started from it, oldest first. */
export function renderBrainstormsPointer(slugs: string[]): string {
  slugs.forEach(checkSlug);
  const unique = [...new Set(slugs)];
  const items = unique.map((slug) => `- ${siblingLink(slug, PLAN_FILES.document)}`);
  return `# Brainstorms from this plan\n\n${items.length === 0 ? 'None yet.' : items.join('\n')}\n`;
}

const BRAINSTORM_LINK = /\]\(\.\.\/([^/()\s]+)\/00-brainstorming\.md\)/g;

/** The slugs `brainstorms.md` links to, in order, once each; links that are no slug are left out. */
export function parseBrainstormsPointer(text: string): string[] {
  const slugs = [...text.matchAll(BRAINSTORM_LINK)].map((m) => m[1] ?? '').filter(isSlug);
  return [...new Set(slugs)];
}
