// The discovery conversation's slice of the panel protocol: its state (the core's view model), its
// stream, and the messages the panel sends about it, each validated here before the host acts.
import type { BriefField, BriefFields } from '../../core/discovery/discoveryTypes';
import type { DiscoveryViewModel } from '../../core/discovery/discoveryView';
import type { ToolLine } from '../../core/tools/toolLines';
import {
  MAX_ANSWERS,
  MAX_MESSAGE_CHARS,
  bare,
  isProblem,
  isRecord,
  rejected,
  textField,
  type InboundSet,
  type Parsed,
  type StreamId,
} from './common';

export type { BriefField, BriefFields, ToolLine };
export type {
  BriefCard,
  DiscoveryAction,
  DiscoveryFailure,
  ModelRetry,
  RoundTranscript,
} from '../../core/discovery/discoveryView';

/** The discovery conversation as the panel draws it; rebuilt from the round file after a reload. */
export type DiscoveryPanelView = DiscoveryViewModel;

/**
 * The eight fields of an Idea Brief in the core's order (discoveryTypes.ts), for the panel, which
 * may take only types from the core: the compiler holds this copy to the core's list.
 */
export const BRIEF_FIELDS = [
  'summary',
  'problem',
  'users',
  'mvpScope',
  'technology',
  'outOfScope',
  'keyDecisions',
  'constraints',
] as const satisfies readonly BriefField[];
// Every field of the core's list is here too (the other way round is what `satisfies` checks);
// a unit test holds the order (test/unit/shared/protocol.test.ts).
type Missing = Exclude<BriefField, (typeof BRIEF_FIELDS)[number]>;
export const BRIEF_FIELDS_COMPLETE: [Missing] extends [never] ? true : Missing = true;

const MAX_BRIEF_FIELD_CHARS = 32_768;

/** The panel's conversation's stream: `discovery:<session>`. */
export function discoveryStream(session: string): StreamId {
  return `discovery:${session}`;
}

export type DiscoveryMessage =
  /** Text typed in the panel: starts discovery when it is a build request. */
  | { type: 'discovery.send'; text: string }
  /** Starts discovery whatever the text says ("Discover This Idea"). */
  | { type: 'discovery.start'; text: string }
  | { type: 'discovery.answer'; answers: string[]; extra: string }
  | { type: 'discovery.cancel' }
  | { type: 'discovery.retry' }
  | { type: 'brief.save'; brief: BriefFields }
  | { type: 'brief.discard' }
  | { type: 'brief.open' }
  /** "Brainstorm Deeper" on the Idea Brief card: the brief saved as a plan, then brainstormed. */
  | { type: 'brief.brainstorm' }
  /** "Build This" on the Idea Brief card: the brief saved as a plan (if it was not), then the build's confirmation gate. */
  | { type: 'brief.build' };

const TYPES = [
  'discovery.send',
  'discovery.start',
  'discovery.answer',
  'discovery.cancel',
  'discovery.retry',
  'brief.save',
  'brief.discard',
  'brief.open',
  'brief.brainstorm',
  'brief.build',
] as const satisfies readonly DiscoveryMessage['type'][];

function parse(value: Record<string, unknown>): Parsed<DiscoveryMessage> {
  const type = value.type as DiscoveryMessage['type'];
  switch (type) {
    case 'discovery.send':
    case 'discovery.start': {
      const text = textField(value, 'text', MAX_MESSAGE_CHARS, true);
      return isProblem(text) ? rejected(type, text.error) : { ok: true, message: { type, text } };
    }
    case 'discovery.answer': {
      const answers = value.answers;
      if (!Array.isArray(answers) || answers.length > MAX_ANSWERS || answers.some((a) => typeof a !== 'string')) {
        return rejected(type, `field "answers" must be a list of at most ${MAX_ANSWERS} strings`);
      }
      const extra = textField(value, 'extra', MAX_MESSAGE_CHARS, false);
      if (isProblem(extra)) return rejected(type, extra.error);
      const given = answers as string[];
      const total = given.reduce((n, a) => n + a.length, extra.length);
      if (total > MAX_MESSAGE_CHARS)
        return rejected(type, `the answers are ${total} characters; the limit is ${MAX_MESSAGE_CHARS}`);
      if (given.every((a) => !a.trim()) && !extra.trim()) return rejected(type, 'the answers are empty');
      return { ok: true, message: { type, answers: given, extra } };
    }
    case 'brief.save': {
      const brief = value.brief;
      if (!isRecord(brief)) return rejected(type, 'field "brief" must be an object');
      const out = {} as BriefFields;
      for (const field of BRIEF_FIELDS) {
        const v = textField(brief, field, MAX_BRIEF_FIELD_CHARS, false);
        if (isProblem(v)) return rejected(type, `brief.${v.error}`);
        out[field] = v;
      }
      if (!out.summary.trim()) return rejected(type, 'the brief needs a one-line summary');
      return { ok: true, message: { type, brief: out } };
    }
    case 'discovery.cancel':
    case 'discovery.retry':
    case 'brief.discard':
    case 'brief.open':
    case 'brief.brainstorm':
    case 'brief.build':
      return bare(type);
    default: {
      const unknown: never = type;
      return rejected(unknown, 'not a discovery message');
    }
  }
}

export const DISCOVERY_INBOUND: InboundSet<DiscoveryMessage> = { feature: 'discovery', types: TYPES, parse };
