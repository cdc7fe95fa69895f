// What the @groundwork chat participant makes of a request, as pure functions: which command (or
// none) and its text, where a message without a command goes (the round that waits for an answer),
// which model serves it, and text from a person or a model made inert for chat markdown. No vscode
// import, no words of its own: unit-tested (test/unit/chat/).
import { visibleText } from '../visibleText';

export const CHAT_COMMANDS = ['discover', 'brainstorm', 'build', 'cases', 'status'] as const;
export type ChatCommand = (typeof CHAT_COMMANDS)[number];

/** The longest text a chat message may hand to a session (a discovery's answer, a topic). */
export const MAX_CHAT_TEXT = 32_000;

export type ChatIntent =
  | { kind: 'discover'; text: string }
  | { kind: 'brainstorm'; topic: string }
  /** `brief`: a plan's slug or a brief's path, as typed; '' for "the one I mean" (the saved brief, or the only one). */
  | { kind: 'build'; brief: string }
  | { kind: 'cases'; query: string }
  | { kind: 'status' }
  /** Text without a command: an answer when a round waits, else help. */
  | { kind: 'message'; text: string }
  /** A command that needs text got none, or a command this participant does not have. */
  | { kind: 'help'; command?: string }
  | { kind: 'too-long'; chars: number };

/** The request's command (VS Code strips the `/name`) and its prompt, read as one intent. */
export function parseChatRequest(command: string | undefined, prompt: string): ChatIntent {
  const text = prompt.trim();
  if (text.length > MAX_CHAT_TEXT) return { kind: 'too-long', chars: text.length };
  if (command === undefined || command === '') return text ? { kind: 'message', text } : { kind: 'help' };
  switch (command) {
    case 'discover':
      return text ? { kind: 'discover', text } : { kind: 'help', command };
    case 'brainstorm':
      return text ? { kind: 'brainstorm', topic: text } : { kind: 'help', command };
    case 'build':
      return { kind: 'build', brief: text };
    case 'cases':
      return { kind: 'cases', query: text };
    case 'status':
      return { kind: 'status' };
    default:
      return { kind: 'help', command };
  }
}

/** Where the sessions stand when a request comes in: each one's status as its view model has it. */
export interface WaitingSessions {
  discovery?: string;
  brainstorm?: string;
}

/** What a request does, once the sessions' states are known. */
export type ChatRoute =
  | { kind: 'discover-start'; text: string }
  | { kind: 'discover-answer'; text: string }
  | { kind: 'discover-busy' }
  | { kind: 'brainstorm-start'; topic: string }
  | { kind: 'brainstorm-answer'; text: string }
  | { kind: 'brainstorm-busy' }
  | Exclude<ChatIntent, { kind: 'discover' } | { kind: 'brainstorm' } | { kind: 'message' }>;

/**
 * One session, two views: text for a discovery whose round waits (questions on screen, or a failed
 * answer to send again) answers it, as the panel's composer does; a message without a command goes
 * to whichever session waits for the person (discovery first), else it is help.
 */
export function routeChat(intent: ChatIntent, sessions: WaitingSessions): ChatRoute {
  const discoveryWaits = sessions.discovery === 'questions' || sessions.discovery === 'failed';
  switch (intent.kind) {
    case 'discover':
      if (sessions.discovery === 'running') return { kind: 'discover-busy' };
      return discoveryWaits
        ? { kind: 'discover-answer', text: intent.text }
        : { kind: 'discover-start', text: intent.text };
    case 'brainstorm':
      if (sessions.brainstorm === 'running') return { kind: 'brainstorm-busy' };
      return sessions.brainstorm === 'questions'
        ? { kind: 'brainstorm-answer', text: intent.topic }
        : { kind: 'brainstorm-start', topic: intent.topic };
    case 'message':
      if (discoveryWaits) return { kind: 'discover-answer', text: intent.text };
      if (sessions.brainstorm === 'questions') return { kind: 'brainstorm-answer', text: intent.text };
      if (sessions.discovery === 'running') return { kind: 'discover-busy' };
      if (sessions.brainstorm === 'running') return { kind: 'brainstorm-busy' };
      return { kind: 'help' };
    default:
      return intent;
  }
}

/**
 * The routes refused in Restricted Mode, as every model action is: those that start a model session,
 * send an answer or open a build. /status, /cases and help only read what the workspace holds.
 */
export function needsTrust(route: ChatRoute['kind']): boolean {
  return (
    route === 'discover-start' ||
    route === 'discover-answer' ||
    route === 'brainstorm-start' ||
    route === 'brainstorm-answer' ||
    route === 'build'
  );
}

/**
 * The brainstorm's answers from one chat message: numbered lines ("1. …", "2) …") go to their
 * questions, the lines under a number with it; text without numbers answers the first question.
 * A question left out is skipped (null).
 */
export function splitAnswers(text: string, questions: number): (string | null)[] {
  const answers: (string | null)[] = Array.from({ length: questions }, () => null);
  let current = -1;
  let numbered = false;
  const loose: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d{1,3})\s*[.):-]\s*(.*)$/.exec(line);
    const n = m ? Number(m[1]) : 0;
    if (m && n >= 1 && n <= questions) {
      numbered = true;
      current = n - 1;
      answers[current] = [answers[current], m[2]!.trim()].filter((a) => a).join('\n');
    } else if (current >= 0) {
      if (line.trim()) answers[current] = [answers[current], line.trim()].filter((a) => a).join('\n');
    } else if (line.trim()) {
      loose.push(line.trim());
    }
  }
  if (!numbered && questions > 0) answers[0] = loose.join('\n');
  else if (loose.length && questions > 0) answers[0] = [loose.join('\n'), answers[0]].filter((a) => a).join('\n');
  return answers.map((a) => (a && a.trim() ? a : null));
}

/**
 * Which model serves a chat request: the one the person picked in the chat view when Groundwork's
 * provider is `vscode-lm`, or `auto` without an Anthropic key; otherwise Groundwork's own.
 */
export function chatModelSource(providerSetting: unknown, hasAnthropicKey: boolean): 'chat' | 'groundwork' {
  if (providerSetting === 'vscode-lm') return 'chat';
  if (providerSetting === 'anthropic') return 'groundwork';
  return hasAnthropicKey ? 'groundwork' : 'chat';
}

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&:=$"'^%@,;?/]/g;

/**
 * Text from a person, a model or a file as chat markdown that shows it and does nothing else: every
 * character markdown could read is escaped (no link, image, command link, HTML, heading, list,
 * code block or table), invisible and control characters are made visible, and lines keep no
 * leading spaces (an indented code block). `oneLine` folds it onto one line.
 */
export function escapeMarkdown(text: string, oneLine = false): string {
  const lines = text.split(/\r\n|\r|\n/).map((l) =>
    visibleText(l)
      .replace(/^\s+/, '')
      .replace(MARKDOWN_SPECIAL, (c) => `\\${c}`),
  );
  return oneLine ? lines.filter((l) => l).join(' ') : lines.join('  \n');
}

/** At most `max` characters of one line of `text`, with an ellipsis when cut (before escaping). */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
