// What `groundwork brainstorm` prints of a brainstorm: a round's questions, the recap of round 1
// and the finished summary, as text for a person or as JSON events for a script. What is shown
// (the round, its limits, the paths) is the core's view of the session (brainstormView); the words
// are the CLI's. Model and person text is shown with its control characters made visible
// (blockText, visibleText, visibleJson).
import { ANGLE_LABELS } from '../../core/brainstorm/brainstormDocs';
import { ANGLES } from '../../core/brainstorm/brainstormTypes';
import type { BrainstormSession, Question } from '../../core/brainstorm/brainstormTypes';
import type { BrainstormViewModel } from '../../core/brainstorm/brainstormView';
import { visibleJson, visibleText } from '../../core/visibleText';
import type { CommandContext } from '../cliTypes';
import { blockText } from '../terminalText';

/** A round that waits for answers, as the core's view has it. */
export type QuestionsView = Extract<BrainstormViewModel, { status: 'questions' }>;
/** A finished brainstorm, as the core's view has it. */
export type CompleteView = Extract<BrainstormViewModel, { status: 'complete' }>;

/** `round 1: 7 questions (ux 3, technical 4); edge-cases: parse_error (why)`. */
export function inquiryRecap(session: BrainstormSession): string {
  const questions = session.rounds[0]?.questions ?? [];
  const kept = ANGLES.filter((a) => questions.some((q) => q.angle === a)).map(
    (a) => `${a} ${questions.filter((q) => q.angle === a).length}`,
  );
  const failedAngles = ANGLES.flatMap((a) => {
    const o = session.inquisitors?.[a];
    return o === undefined || o.status === 'success'
      ? []
      : [`${a}: ${o.status}${o.detail ? ` (${visibleText(o.detail)})` : ''}`];
  });
  return [`round 1: ${questions.length} questions${kept.length ? ` (${kept.join(', ')})` : ''}`, ...failedAngles].join(
    '; ',
  );
}

/** The round's questions grouped by angle; the numbers are the order the answers are read in. */
export function displayOrder(questions: readonly Question[]): number[] {
  return ANGLES.flatMap((angle) => questions.flatMap((q, i) => (q.angle === angle ? [i] : [])));
}

/** The round's questions on stdout, as text by angle or as one JSON event. */
export function showQuestions(ctx: CommandContext, view: QuestionsView): void {
  const { io } = ctx;
  const order = displayOrder(view.questions);
  if (ctx.json) {
    const questions = order.map((i, k) => ({
      number: k + 1,
      angle: view.questions[i]!.angle,
      priority: view.questions[i]!.priority,
      text: view.questions[i]!.text,
    }));
    io.stdout(
      `${visibleJson({ event: 'questions', slug: view.slug, round: view.round, maxRounds: view.maxRounds, questions })}\n`,
    );
    return;
  }
  const out = [
    `Round ${view.round} of at most ${view.maxRounds} (${view.slug}): ${order.length} ${order.length === 1 ? 'question' : 'questions'}`,
  ];
  let angle: string | undefined;
  order.forEach((i, k) => {
    const q = view.questions[i]!;
    if (q.angle !== angle) out.push('', ANGLE_LABELS[q.angle]);
    angle = q.angle;
    const head = `  ${k + 1}. (priority ${q.priority}) `;
    out.push(head + blockText(q.text, ' '.repeat(head.length)).trimStart());
  });
  io.stdout(`${out.join('\n')}\n\n`);
}

/** The summary and where the two documents are, on stdout. */
export function showComplete(ctx: CommandContext, session: BrainstormSession, view: CompleteView): void {
  const { io } = ctx;
  const paths = { document: view.documentPath, context: view.contextPath };
  if (ctx.json) {
    const summary = session.summary ?? { topic: view.topic, keyInsights: [], decisions: [], openQuestions: [] };
    io.stdout(`${visibleJson({ event: 'complete', slug: view.slug, rounds: view.rounds, summary, paths })}\n`);
    return;
  }
  // The summary's own title, the brainstorm's topic when it has none.
  const title = (session.summary?.topic ?? view.topic).replace(/\s+/g, ' ').trim() || view.topic;
  const section = (heading: string, items: readonly string[]) => [
    heading,
    ...(items.length === 0 ? ['  None.'] : items.map((t) => `  - ${blockText(t, '    ').trimStart()}`)),
  ];
  const out = [
    `Brainstorm complete after ${view.rounds} ${view.rounds === 1 ? 'round' : 'rounds'}: ${visibleText(title)}`,
    '',
    ...(view.summaryText !== undefined
      ? [
          "The coordinator's summary was not in the expected format, so its text is kept as written:",
          '',
          blockText(view.summaryText || '(empty)', '  '),
        ]
      : [
          ...section('Key insights:', view.keyInsights),
          ...section('Decisions:', view.decisions),
          ...section('Open questions:', view.openQuestions),
        ]),
    '',
    `Saved ${paths.document}`,
    `  and ${paths.context}`,
  ];
  io.stdout(`${out.join('\n')}\n`);
}
