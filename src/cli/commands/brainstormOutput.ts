// What `groundwork brainstorm` prints of a brainstorm: a round's questions, the recap of round 1
// and the finished summary, as text for a person or as JSON events for a script. Model and person
// text is shown with its control characters made visible (blockText, visibleText, visibleJson).
import { ANGLE_LABELS } from '../../core/brainstorm/brainstormDocs';
import { ANGLES } from '../../core/brainstorm/brainstormTypes';
import type { BrainstormSession, Question } from '../../core/brainstorm/brainstormTypes';
import { visibleJson, visibleText } from '../../core/visibleText';
import type { CommandContext } from '../cliTypes';
import { blockText } from '../terminalText';
import { PLAN_FILES, planDisplayPath } from '../../core/plan/layout';

/** `round 1: 7 questions (ux 3, technical 4); edge-cases: parse_error (why)`. */
export function inquiryRecap(session: BrainstormSession): string {
  const questions = session.rounds[0]?.questions ?? [];
  const kept = ANGLES.filter((a) => questions.some((q) => q.angle === a)).map((a) => `${a} ${questions.filter((q) => q.angle === a).length}`);
  const failedAngles = ANGLES.flatMap((a) => {
    const o = session.inquisitors?.[a];
    return o === undefined || o.status === 'success' ? [] : [`${a}: ${o.status}${o.detail ? ` (${visibleText(o.detail)})` : ''}`];
  });
  return [`round 1: ${questions.length} questions${kept.length ? ` (${kept.join(', ')})` : ''}`, ...failedAngles].join('; ');
}

/** The round's questions grouped by angle; the numbers are the order the answers are read in. */
export function displayOrder(questions: readonly Question[]): number[] {
  return ANGLES.flatMap((angle) => questions.flatMap((q, i) => (q.angle === angle ? [i] : [])));
}

/** The round's questions on stdout, as text by angle or as one JSON event. */
export function showQuestions(ctx: CommandContext, session: BrainstormSession): void {
  const { io } = ctx;
  const round = session.rounds.at(-1)!;
  const order = displayOrder(round.questions);
  if (ctx.json) {
    const questions = order.map((i, k) => ({ number: k + 1, angle: round.questions[i]!.angle, priority: round.questions[i]!.priority, text: round.questions[i]!.text }));
    io.stdout(`${visibleJson({ event: 'questions', slug: session.slug, round: round.round, maxRounds: session.maxRounds, questions })}\n`);
    return;
  }
  const out = [`Round ${round.round} of at most ${session.maxRounds} (${session.slug}): ${order.length} ${order.length === 1 ? 'question' : 'questions'}`];
  let angle: string | undefined;
  order.forEach((i, k) => {
    const q = round.questions[i]!;
    if (q.angle !== angle) out.push('', ANGLE_LABELS[q.angle]);
    angle = q.angle;
    const head = `  ${k + 1}. (priority ${q.priority}) `;
    out.push(head + blockText(q.text, ' '.repeat(head.length)).trimStart());
  });
  io.stdout(`${out.join('\n')}\n\n`);
}

/** The summary and where the two documents are, on stdout. */
export function showComplete(ctx: CommandContext, session: BrainstormSession): void {
  const { io } = ctx;
  const paths = { document: planDisplayPath(session.slug, PLAN_FILES.document), context: planDisplayPath(session.slug, PLAN_FILES.context) };
  const summary = session.summary ?? { topic: session.topic, keyInsights: [], decisions: [], openQuestions: [] };
  if (ctx.json) {
    io.stdout(`${visibleJson({ event: 'complete', slug: session.slug, rounds: session.rounds.length, summary, paths })}\n`);
    return;
  }
  const section = (title: string, items: readonly string[]) => [title, ...(items.length === 0 ? ['  None.'] : items.map((t) => `  - ${blockText(t, '    ').trimStart()}`))];
  const out = [
    `Brainstorm complete after ${session.rounds.length} ${session.rounds.length === 1 ? 'round' : 'rounds'}: ${visibleText(summary.topic.replace(/\s+/g, ' ').trim() || session.topic)}`,
    '',
    ...section('Key insights:', summary.keyInsights),
    ...section('Decisions:', summary.decisions),
    ...section('Open questions:', summary.openQuestions),
    '',
    `Saved ${paths.document}`,
    `  and ${paths.context}`,
  ];
  io.stdout(`${out.join('\n')}\n`);
}
