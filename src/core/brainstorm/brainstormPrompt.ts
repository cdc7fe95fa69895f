// The user messages of the brainstorm's model calls. Everything a person or a model wrote (the
// topic, the seed brief, questions, answers) goes in as an untrusted data block, each text capped
// first (8 KB; the seed brief 16 KB). A skipped question's answer is Groundwork's own marker,
// outside any block, and carries nothing of the person's. Only Groundwork's own values (an angle,
// a priority, a round number, all checked when the session file is read) appear outside blocks.
import { capText } from '../prompt/cap';
import { secureRandomBytes, wrapUntrusted } from '../prompt/untrustedText';
import type { RandomBytes } from '../prompt/untrustedText';
import { SEED_MAX_BYTES, SKIPPED_ANSWER } from './brainstormTypes';
import type { Angle, BrainstormSession } from './brainstormTypes';
import type { CoordinatorTask } from './brainstormMachine';

const ANGLE_NAMES: Readonly<Record<Angle, string>> = {
  ux: 'user experience',
  technical: 'technical design',
  'edge-cases': 'edge cases',
};

export interface PromptPlaces {
  /** Where the whole topic is kept, named in a cut topic's marker. */
  state: string;
  /** Where the person's whole answers are kept. */
  answers: string;
}

/**
 * The topic and the seed brief. Both come from the session file, which anyone may have written, so
 * neither they nor the seed's plan and file names are ever part of the prompt's own text: each is
 * capped and inside a data block (the names only in its source label, which keeps safe characters).
 */
function topicBlocks(session: BrainstormSession, places: PromptPlaces, random: RandomBytes): string[] {
  const blocks = [`Topic:\n${wrapUntrusted(capText(session.topic, places.state).text, 'brainstorm topic', random)}`];
  const seed = session.seed;
  if (seed !== undefined) {
    const text = capText(seed.text, places.state, SEED_MAX_BYTES).text;
    blocks.push(
      `The topic comes from an earlier plan. The brief of that plan:\n${wrapUntrusted(text, `plan ${seed.slug}/${seed.file}`, random)}`,
    );
  }
  return blocks;
}

export function inquisitorPrompt(
  session: BrainstormSession,
  angle: Angle,
  places: PromptPlaces,
  random: RandomBytes = secureRandomBytes,
): string {
  return [
    `Question this topic from the ${ANGLE_NAMES[angle]} angle ("${angle}") only.`,
    ...topicBlocks(session, places, random),
    'Reply with only the JSON object {"questions":[…]}: 3 to 8 questions, as your instructions say.',
  ].join('\n\n');
}

export function coordinatorPrompt(
  session: BrainstormSession,
  task: CoordinatorTask,
  places: PromptPlaces,
  random: RandomBytes = secureRandomBytes,
): string {
  const rounds = session.rounds
    .filter((r) => r.answers !== undefined)
    .map((r) => {
      const items = r.questions.map((q, i) => {
        const answer = r.answers![i]!;
        const asked = `${i + 1}. (${q.angle}, priority ${q.priority})\n${wrapUntrusted(capText(q.text, places.state).text, 'brainstorm question', random)}`;
        const answered =
          answer.kind === 'skipped'
            ? `Answer: ${SKIPPED_ANSWER}`
            : `Answer:\n${wrapUntrusted(capText(answer.text, places.answers).text, 'user answer', random)}`;
        return `${asked}\n${answered}`;
      });
      return [`## Round ${r.round}`, ...items].join('\n\n');
    });
  const reply =
    task === 'follow-up'
      ? 'Reply with only the JSON object {"questions":[…]}: 0 to 8 follow-up questions; {"questions":[]} when nothing more is worth asking.'
      : 'Reply with only the JSON object {"summary":{…}} as your instructions say.';
  return [
    `TASK: ${task}`,
    ...topicBlocks(session, places, random),
    `The rounds so far, each question with the person's answer:`,
    ...rounds,
    reply,
  ].join('\n\n');
}
