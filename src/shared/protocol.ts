// The messages between the extension host and the agent panel, one union per direction.
// The webview renders workspace text (and later model text), so everything it sends back is
// untrusted: the host accepts a message only after `parseWebviewMessage` has validated it.

import type { PanelStrings } from './panelStrings';

export const MAX_TITLE_CHARS = 200;
/** A pasted message may be long; the core caps what reaches the model and keeps the rest. */
export const MAX_MESSAGE_CHARS = 1_000_000;
const MAX_ANSWERS = 20;
export const MAX_DESCRIPTION_CHARS = 8192;
const MAX_ID_CHARS = 128;
const MAX_PONG_CHARS = 1024;

export interface JournalEntryView {
  timestamp: string;
  title: string;
  description: string;
  scope?: string;
  agent?: string;
}

export interface SleeperView {
  agent: string;
  /** "2m 34s", "Waiting: agent X", "Manual pause", or "Overdue by 1m 10s". */
  remaining: string;
  overdue: boolean;
}

/** The model Groundwork's agents use, or what to do to connect one. */
export type ModelView =
  | {
      status: 'ready';
      provider: 'anthropic' | 'vscode-lm';
      /** The model of each tier, as named by its provider. */
      complex: string;
      fast: string;
      /** Tokens and cost of this window's calls, e.g. "1.2k tokens · $0.0042", once there are any. */
      usage?: string;
      /** The outcome of the last "Check Model Connection". */
      check?: { ok: boolean; text: string };
    }
  | { status: 'onboarding'; need: 'key' | 'language-model' | 'either'; check?: { ok: boolean; text: string } };

/** The eight fields of an Idea Brief, in the order the brief lists them. */
export const BRIEF_FIELDS = ['summary', 'problem', 'users', 'mvpScope', 'technology', 'outOfScope', 'keyDecisions', 'constraints'] as const;
export type BriefField = (typeof BRIEF_FIELDS)[number];
export type BriefFields = Record<BriefField, string>;

export interface RoundTranscript {
  round: number;
  questions: string[];
  answer?: string;
}

/** The discovery conversation as the panel draws it; rebuilt from the round file after a reload. */
export type DiscoveryPanelView =
  | { status: 'idle'; /** the last message was not a build request: say what Groundwork can do */ hint?: boolean }
  | { status: 'running'; request: string; round: number; maxRounds: number; rounds: RoundTranscript[]; streamed: string; notice?: string; retry?: ModelRetry }
  | { status: 'questions'; request: string; round: number; maxRounds: number; rounds: RoundTranscript[]; questions: string[]; message: string; notice?: string }
  | { status: 'failed'; request: string; round: number; maxRounds: number; rounds: RoundTranscript[]; error: string }
  | {
      status: 'brief';
      request: string;
      brief: BriefFields;
      /** The brief as the model wrote it; shown when it had none of the eight field labels. */
      raw?: string;
      transcript: RoundTranscript[];
      message: string;
      savedAt?: string;
    }
  /** The brief kept for the card (`file`) could not be read: why, and Discard to remove it. */
  | { status: 'damaged'; file: string; reason: string };

/** A model call that failed before its reply began and is tried again: retry `attempt` of at most `of`. */
export interface ModelRetry {
  attempt: number;
  of: number;
}

export type BrainstormAngle = 'ux' | 'technical' | 'edge-cases';
export type BrainstormInquisitorState = 'running' | 'success' | 'parse_error' | 'timeout' | 'empty';

export interface BrainstormQuestionView {
  text: string;
  angle: BrainstormAngle;
  /** 1 (ask first) to 5 (nice to know). */
  priority: number;
}

/** A round already answered: each answer, or null where the person skipped the question. */
export interface BrainstormRoundView {
  round: number;
  questions: BrainstormQuestionView[];
  answers: (string | null)[];
}

interface BrainstormHeader {
  slug: string;
  topic: string;
  /** The round being asked or answered, 1-based. */
  round: number;
  minRounds: number;
  maxRounds: number;
  /** Earlier rounds, answered. */
  rounds: BrainstormRoundView[];
  /** Round 1's inquisitors, once they have started. */
  inquisitors?: { angle: BrainstormAngle; state: BrainstormInquisitorState; detail?: string }[];
}

/** The brainstorm as the panel draws it; rebuilt from the plan folder after a reload. */
export type BrainstormPanelView =
  | { status: 'none' }
  /** A model step is under way: the inquisitors, the coordinator's follow-up or its summary. */
  | (BrainstormHeader & { status: 'running'; step: 'inquisitors' | 'follow-up' | 'summary'; streamed: string; retry?: ModelRetry & { who: BrainstormAngle | 'coordinator' } })
  | (BrainstormHeader & { status: 'questions'; questions: BrainstormQuestionView[]; notice?: string })
  /** A step failed or was stopped; the answers are kept and Retry runs the step again. */
  | (BrainstormHeader & { status: 'failed'; error: string })
  | {
      status: 'complete';
      slug: string;
      topic: string;
      rounds: number;
      keyInsights: string[];
      decisions: string[];
      openQuestions: string[];
      /** Paths relative to the workspace, e.g. `.groundwork/plans/x/00-brainstorming.md`. */
      documentPath: string;
      contextPath: string;
    };

export interface Notice {
  kind: 'info' | 'error';
  text: string;
}

/** Something worth saying once per window until the person dismisses it (a role override in use). */
export interface DismissibleNotice {
  id: string;
  text: string;
}

/** Everything the panel shows. The host owns it and always sends it whole. */
export interface PanelState {
  /** False in Restricted Mode: the panel shows the workspace but offers no model work. */
  trusted: boolean;
  /** False when no folder is open: there is no workspace to keep state in. */
  hasWorkspace: boolean;
  journal: {
    /** Newest first, at most a page of them. */
    entries: JournalEntryView[];
    total: number;
    /** Lines of discoveries.jsonl that could not be read. */
    skipped: number;
    /** Set when the file is over its read cap: what was left unread, said for a person. */
    partial?: string;
    /** Why the journal could not be read at all, if it could not. */
    error?: string;
  };
  sleepers: SleeperView[];
  model: ModelView;
  discovery: DiscoveryPanelView;
  brainstorm: BrainstormPanelView;
  notice?: Notice;
  /** Oldest first; each goes when the person dismisses it (`notice.dismiss`). */
  notices: DismissibleNotice[];
}

export type HostMessage =
  | { type: 'snapshot'; seq: number; state: PanelState; strings: PanelStrings }
  /** Model text as it streams; `seq` continues the snapshot's numbering, so a gap is detectable. */
  | { type: 'append'; seq: number; text: string }
  | { type: 'ping'; id: string; text: string }
  /** The outcome of a request the panel made; `error` says what went wrong and what to do. */
  | { type: 'done'; requestId: string; error?: string };

export type HostCommand =
  | 'manageTrust'
  | 'openJournal'
  | 'openFolder'
  | 'setApiKey'
  | 'selectModel'
  | 'checkModel'
  | 'findChatModels'
  | 'brainstorm'
  | 'resumeBrainstorm';
const HOST_COMMANDS: readonly HostCommand[] = [
  'manageTrust',
  'openJournal',
  'openFolder',
  'setApiKey',
  'selectModel',
  'checkModel',
  'findChatModels',
  'brainstorm',
  'resumeBrainstorm',
];

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'pong'; id: string; text: string }
  | { type: 'journal.add'; requestId: string; title: string; description: string }
  | { type: 'sleep.wake'; agent: string }
  | { type: 'command'; command: HostCommand }
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
  /** The answers to the current round (null = skipped), then more questions or the summary. */
  | { type: 'brainstorm.answer'; answers: (string | null)[]; action: 'more' | 'summarize' }
  /** Runs the failed or interrupted step again. */
  | { type: 'brainstorm.retry' }
  /** Stops the running model step; the brainstorm stays resumable. */
  | { type: 'brainstorm.stop' }
  /** Hides the brainstorm from the panel (an unfinished one can be resumed later). */
  | { type: 'brainstorm.close' }
  | { type: 'brainstorm.open'; file: 'document' | 'context' }
  /** "Brainstorm deeper" on the Idea Brief card. */
  | { type: 'brainstorm.deeper' }
  /** The panel missed an `append`: the host answers with a snapshot. */
  | { type: 'resync' }
  /** The person closed a dismissible notice. */
  | { type: 'notice.dismiss'; id: string };

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(obj: Record<string, unknown>, key: string, max: number, required: boolean): string | string[] {
  const v = obj[key];
  if (typeof v !== 'string') return [`field "${key}" must be a string`];
  if (required && v.trim() === '') return [`field "${key}" must not be empty`];
  if (v.length > max) return [`field "${key}" is ${v.length} characters; the limit is ${max}`];
  return v;
}

/** Validates a message from the webview. Anything unexpected is rejected with a reason. */
export function parseWebviewMessage(value: unknown): Parsed<WebviewMessage> {
  if (!isRecord(value) || typeof value.type !== 'string') {
    return { ok: false, error: 'message is not an object with a string "type"' };
  }
  const fail = (error: string): Parsed<WebviewMessage> => ({ ok: false, error: `${value.type}: ${error}` });
  const type = value.type as WebviewMessage['type'];
  switch (type) {
    case 'ready':
      return { ok: true, message: { type } };
    case 'pong': {
      const id = text(value, 'id', MAX_ID_CHARS, true);
      const t = text(value, 'text', MAX_PONG_CHARS, false);
      if (Array.isArray(id)) return fail(id[0]!);
      if (Array.isArray(t)) return fail(t[0]!);
      return { ok: true, message: { type, id, text: t } };
    }
    case 'journal.add': {
      const requestId = text(value, 'requestId', MAX_ID_CHARS, true);
      if (Array.isArray(requestId)) return fail(requestId[0]!);
      const title = text(value, 'title', MAX_TITLE_CHARS, true);
      const description = text(value, 'description', MAX_DESCRIPTION_CHARS, true);
      if (Array.isArray(title)) return fail(title[0]!);
      if (Array.isArray(description)) return fail(description[0]!);
      return { ok: true, message: { type, requestId, title: title.trim(), description: description.trim() } };
    }
    case 'sleep.wake': {
      const agent = text(value, 'agent', MAX_ID_CHARS, true);
      if (Array.isArray(agent)) return fail(agent[0]!);
      return { ok: true, message: { type, agent } };
    }
    case 'notice.dismiss': {
      const id = text(value, 'id', MAX_ID_CHARS, true);
      if (Array.isArray(id)) return fail(id[0]!);
      return { ok: true, message: { type, id } };
    }
    case 'command': {
      const command = value.command;
      if (typeof command !== 'string' || !(HOST_COMMANDS as readonly string[]).includes(command)) {
        return fail(`unknown command ${JSON.stringify(String(command)).slice(0, 64)}`);
      }
      return { ok: true, message: { type, command: command as HostCommand } };
    }
    case 'discovery.send':
    case 'discovery.start': {
      const t = text(value, 'text', MAX_MESSAGE_CHARS, true);
      if (Array.isArray(t)) return fail(t[0]!);
      return { ok: true, message: { type, text: t } };
    }
    case 'discovery.answer': {
      const answers = value.answers;
      if (!Array.isArray(answers) || answers.length > MAX_ANSWERS || answers.some((a) => typeof a !== 'string')) {
        return fail(`field "answers" must be a list of at most ${MAX_ANSWERS} strings`);
      }
      const extra = text(value, 'extra', MAX_MESSAGE_CHARS, false);
      if (Array.isArray(extra)) return fail(extra[0]!);
      const total = (answers as string[]).reduce((n, a) => n + a.length, extra.length);
      if (total > MAX_MESSAGE_CHARS) return fail(`the answers are ${total} characters; the limit is ${MAX_MESSAGE_CHARS}`);
      if (total === 0 || (answers as string[]).every((a) => !a.trim()) && !extra.trim()) return fail('the answers are empty');
      return { ok: true, message: { type, answers: answers as string[], extra } };
    }
    case 'brainstorm.answer': {
      const answers = value.answers;
      if (!Array.isArray(answers) || answers.length > MAX_ANSWERS || answers.some((a) => a !== null && typeof a !== 'string')) {
        return fail(`field "answers" must be a list of at most ${MAX_ANSWERS} strings or nulls`);
      }
      const total = (answers as (string | null)[]).reduce((n, a) => n + (a?.length ?? 0), 0);
      if (total > MAX_MESSAGE_CHARS) return fail(`the answers are ${total} characters; the limit is ${MAX_MESSAGE_CHARS}`);
      const action = value.action;
      if (action !== 'more' && action !== 'summarize') return fail('field "action" must be "more" or "summarize"');
      return { ok: true, message: { type, answers: answers as (string | null)[], action } };
    }
    case 'brainstorm.open': {
      const file = value.file;
      if (file !== 'document' && file !== 'context') return fail('field "file" must be "document" or "context"');
      return { ok: true, message: { type, file } };
    }
    case 'brainstorm.retry':
    case 'brainstorm.stop':
    case 'brainstorm.close':
    case 'brainstorm.deeper':
    case 'discovery.cancel':
    case 'discovery.retry':
    case 'brief.discard':
    case 'brief.open':
    case 'resync':
      return { ok: true, message: { type } };
    case 'brief.save': {
      const brief = value.brief;
      if (!isRecord(brief)) return fail('field "brief" must be an object');
      const out = {} as BriefFields;
      for (const field of BRIEF_FIELDS) {
        const v = text(brief, field, MAX_DESCRIPTION_CHARS * 4, false);
        if (Array.isArray(v)) return fail(`brief.${v[0]!}`);
        out[field] = v;
      }
      if (!out.summary.trim()) return fail('the brief needs a one-line summary');
      return { ok: true, message: { type, brief: out } };
    }
    default: {
      const unknown: never = type;
      return { ok: false, error: `unknown message type ${JSON.stringify(unknown).slice(0, 64)}` };
    }
  }
}
