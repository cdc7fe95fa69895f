// The brainstorm, scripted once: what the three inquisitors and the coordinator reply to
// `groundwork brainstorm` about one topic (round 1's questions, a follow-up round, the summary), as
// rules of the scripted model. Used in-process by test/unit/cli's brainstorm tests and by the
// built CLI's stress test. No test-framework imports.
import type { Angle } from '../../src/core/brainstorm/brainstormTypes';
import { match, reply, type Reply, type ScriptRule, type StreamReply } from './modelScript';

export const CANARY = 'sk-ant-canary-5e1b7d2c9a4f3e80-never-print-me';
export const TOPIC = 'Let customers export their invoices';
export const SLUG = 'let-customers-export-their-invoices';

const SYSTEM: Record<Angle | 'coordinator', string> = {
  ux: 'UX inquisitor',
  technical: 'Technical inquisitor',
  'edge-cases': 'Edge-cases inquisitor',
  coordinator: 'Brainstorm coordinator',
};

type Q = [text: string, priority: number];

/** Round 1 as merged: by priority, then angle (ux, technical, edge-cases). Shown grouped by angle. */
export const ROUND_1: Record<Angle, Q[]> = {
  ux: [
    ['Who exports the invoices, the owner or the accountant?', 1],
    ['Where would someone look for the export button first?', 2],
  ],
  technical: [['Which file formats must the export write?', 1]],
  'edge-cases': [['What should happen when a period has no invoices at all?', 2]],
};
/** The order the questions are shown and answered in: grouped by angle. */
export const SHOWN_1 = [...ROUND_1.ux, ...ROUND_1.technical, ...ROUND_1['edge-cases']].map(([text]) => text);

export const FOLLOW_UP: Q[] = [
  ['Does the accountant need a login of their own?', 1],
  ['How many invoices does the largest customer have per year?', 2],
];

export function questionsJson(angle: Angle, qs: Q[]): string {
  return JSON.stringify({ questions: qs.map(([text, priority]) => ({ text, angle, priority })) });
}

export const SUMMARY = {
  summary: {
    topic: 'Accountants export a period of invoices as CSV',
    key_insights: ['Accountants, not owners, do most exports'],
    decisions: ['CSV only: the accountants asked use CSV (technical, round 1)'],
    open_questions: ['Which time zone decides the period of an invoice?'],
  },
};

export function inquisitor(
  angle: Angle,
  replyWith: Reply | string = questionsJson(angle, ROUND_1[angle]),
  extra: Partial<ScriptRule> = {},
): ScriptRule {
  return {
    name: `inquisitor ${angle}`,
    match: match.system(SYSTEM[angle]),
    reply: typeof replyWith === 'string' ? reply.text(replyWith) : replyWith,
    ...extra,
  };
}

/** The three inquisitors of round 1, each with `options` (e.g. a delay). */
export function inquisitors(options: Omit<StreamReply, 'blocks'> = {}): ScriptRule[] {
  return (['ux', 'technical', 'edge-cases'] as const).map((a) =>
    inquisitor(a, reply.text(questionsJson(a, ROUND_1[a]), options)),
  );
}

export function followUp(
  replyWith: Reply = reply.text(questionsJson('edge-cases', FOLLOW_UP)),
  extra: Partial<ScriptRule> = {},
): ScriptRule {
  return {
    name: 'follow-up',
    match: match.all(match.system(SYSTEM.coordinator), match.lastUserText('TASK: follow-up')),
    reply: replyWith,
    ...extra,
  };
}

export function summarize(
  replyWith: Reply = reply.text(JSON.stringify(SUMMARY)),
  extra: Partial<ScriptRule> = {},
): ScriptRule {
  return {
    name: 'summarize',
    match: match.all(match.system(SYSTEM.coordinator), match.lastUserText('TASK: summarize')),
    reply: replyWith,
    ...extra,
  };
}
