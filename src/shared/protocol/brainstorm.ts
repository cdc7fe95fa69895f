// The brainstorm's slice of the panel protocol: its state (the core's view model), its streams (one
// per agent), and the messages the panel sends about it, each validated here before the host acts.
import type { Angle } from '../../core/brainstorm/brainstormTypes';
import type { BrainstormAgent, BrainstormViewModel } from '../../core/brainstorm/brainstormView';
import { MAX_ANSWERS, MAX_MESSAGE_CHARS, bare, rejected, type InboundSet, type Parsed, type StreamId } from './common';

export type {
  BrainstormAction,
  BrainstormAgent,
  BrainstormProblem,
  BrainstormRoundView,
  BrainstormStep,
  InquisitorState,
  InquisitorView,
} from '../../core/brainstorm/brainstormView';
export type { Question as BrainstormQuestionView } from '../../core/brainstorm/brainstormTypes';

export type BrainstormAngle = Angle;

/** The brainstorm as the panel draws it; rebuilt from the plan folder after a reload. */
export type BrainstormPanelView = BrainstormViewModel;

/** One agent's stream of a brainstorm: `brainstorm:<slug>:<agent>`. */
export function brainstormStream(slug: string, agent: BrainstormAgent): StreamId {
  return `brainstorm:${slug}:${agent}`;
}

/** The slug and agent of a brainstorm stream, or undefined for another. */
export function brainstormStreamOf(stream: StreamId): { slug: string; agent: string } | undefined {
  const m = /^brainstorm:(.*):([^:]+)$/.exec(stream);
  return m ? { slug: m[1]!, agent: m[2]! } : undefined;
}

export type BrainstormMessage =
  /** The answers to the current round (null = skipped), then more questions or the summary. */
  | { type: 'brainstorm.answer'; answers: (string | null)[]; action: 'more' | 'summarize' }
  /** Runs the failed or interrupted step again. */
  | { type: 'brainstorm.retry' }
  /** Stops the running model step; the brainstorm stays resumable. */
  | { type: 'brainstorm.stop' }
  /** Hides the brainstorm from the panel (an unfinished one can be resumed later). */
  | { type: 'brainstorm.close' }
  | { type: 'brainstorm.open'; file: 'document' | 'context' }
  /** "Brainstorm…": asks for a topic (VS Code's own inputs), then runs round 1. */
  | { type: 'brainstorm.new' }
  /** "Resume Brainstorm…": picks an unfinished one. */
  | { type: 'brainstorm.resume' }
  /** "Build This" on a finished brainstorm's result: the build's confirmation gate for it. */
  | { type: 'brainstorm.build' };

const TYPES = [
  'brainstorm.answer',
  'brainstorm.retry',
  'brainstorm.stop',
  'brainstorm.close',
  'brainstorm.open',
  'brainstorm.new',
  'brainstorm.resume',
  'brainstorm.build',
] as const satisfies readonly BrainstormMessage['type'][];

function parse(value: Record<string, unknown>): Parsed<BrainstormMessage> {
  const type = value.type as BrainstormMessage['type'];
  switch (type) {
    case 'brainstorm.answer': {
      const answers = value.answers;
      if (
        !Array.isArray(answers) ||
        answers.length > MAX_ANSWERS ||
        answers.some((a) => a !== null && typeof a !== 'string')
      ) {
        return rejected(type, `field "answers" must be a list of at most ${MAX_ANSWERS} strings or nulls`);
      }
      const given = answers as (string | null)[];
      const total = given.reduce((n, a) => n + (a?.length ?? 0), 0);
      if (total > MAX_MESSAGE_CHARS)
        return rejected(type, `the answers are ${total} characters; the limit is ${MAX_MESSAGE_CHARS}`);
      const action = value.action;
      if (action !== 'more' && action !== 'summarize')
        return rejected(type, 'field "action" must be "more" or "summarize"');
      return { ok: true, message: { type, answers: given, action } };
    }
    case 'brainstorm.open': {
      const file = value.file;
      if (file !== 'document' && file !== 'context')
        return rejected(type, 'field "file" must be "document" or "context"');
      return { ok: true, message: { type, file } };
    }
    case 'brainstorm.retry':
    case 'brainstorm.stop':
    case 'brainstorm.close':
    case 'brainstorm.new':
    case 'brainstorm.resume':
    case 'brainstorm.build':
      return bare(type);
    default: {
      const unknown: never = type;
      return rejected(unknown, 'not a brainstorm message');
    }
  }
}

export const BRAINSTORM_INBOUND: InboundSet<BrainstormMessage> = { feature: 'brainstorm', types: TYPES, parse };
