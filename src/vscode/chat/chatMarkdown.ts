// What the @groundwork chat participant says, as pure functions of the sessions' view models (the
// same discoveryView / brainstormView the panel draws) and of the listings: markdown, the follow-up
// buttons under it, and the files to name as references. Every text from a person, a model or a
// file goes through escapeMarkdown; the words are the caller's (chatWords.ts, localized). No vscode
// import: unit-tested (test/unit/chat/).
import type { BrainstormViewModel } from '../../core/brainstorm/brainstormView';
import { clip, escapeMarkdown, type ChatCommand } from '../../core/chat/chatRequest';
import type { DiscoveryViewModel } from '../../core/discovery/discoveryView';

/** A follow-up button: the prompt it sends to @groundwork (with its command, if any). */
export interface ChatFollowupSpec {
  prompt: string;
  label: string;
  command?: ChatCommand;
}

export interface ChatReply {
  /** Markdown paragraphs, in order (already escaped where they hold untrusted text). */
  markdown: string[];
  followups: ChatFollowupSpec[];
  /** Workspace-relative files to name as references (the round file the conversation lives in). */
  files: string[];
  /** Workspace-relative files to link inline as anchors (a saved brief, a brainstorm's documents). */
  anchors?: string[];
}

/** The words of the replies; `{0}`-style parts are filled with text escaped first. */
export interface ChatWords {
  discoveryRound: string; // "Discovery · round {0}/{1}"
  request: string; // "Your idea: {0}"
  answerHint: string;
  noPreference: string;
  noPreferenceLabel: string;
  discoveryFailed: string; // "The last answer could not be sent: {0}"
  interrupted: string;
  notABuild: string;
  briefTitle: string;
  briefSavedAt: string; // "Saved as {0}"
  briefUnsaved: string;
  buildThis: string;
  brainstormDeeper: string;
  damaged: string; // "{0} cannot be read: {1}"
  idle: string;
  brainstormRound: string; // "Brainstorm · {0} · round {1}/{2}"
  brainstormHint: string;
  summarizeNow: string;
  brainstormRunning: string;
  brainstormFailed: string; // "The brainstorm stopped: {0}"
  brainstormStopped: string;
  brainstormComplete: string; // "Brainstorm complete: {0}"
  keyInsights: string;
  decisions: string;
  openQuestions: string;
  briefField: Readonly<
    Record<
      'summary' | 'problem' | 'users' | 'mvpScope' | 'technology' | 'outOfScope' | 'keyDecisions' | 'constraints',
      string
    >
  >;
}

/** Fills `{0}`, `{1}` … of a template with values already made safe. */
export function fill(template: string, ...values: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) =>
    values[Number(i)] === undefined ? whole : String(values[Number(i)]),
  );
}

const italic = (text: string) => `*${text}*`;

/** The panel's discovery conversation as a chat reply. */
export function discoveryReply(view: DiscoveryViewModel, words: ChatWords, roundFile?: string): ChatReply {
  const files = roundFile ? [roundFile] : [];
  switch (view.status) {
    case 'questions': {
      const md = [
        `**${fill(words.discoveryRound, view.round, view.maxRounds)}** · ${italic(fill(words.request, escapeMarkdown(clip(view.request, 300), true)))}`,
      ];
      // The core's message repeats the questions (it is the CLI's text): the numbered list says it once.
      if (view.notice) md.push(`> ${escapeMarkdown(view.notice, true)}`);
      md.push(view.questions.map((q, i) => `${i + 1}. ${escapeMarkdown(q, true)}`).join('\n'));
      md.push(italic(words.answerHint));
      return {
        markdown: md,
        files,
        followups: [{ prompt: words.noPreference, label: words.noPreferenceLabel, command: 'discover' }],
      };
    }
    case 'failed': {
      const why =
        view.failure.reason === 'error'
          ? fill(words.discoveryFailed, escapeMarkdown(view.failure.error, true))
          : words.interrupted;
      return { markdown: [`**${fill(words.discoveryRound, view.round, view.maxRounds)}**`, why], files, followups: [] };
    }
    case 'brief': {
      const md = [`**${words.briefTitle}**`];
      const fields = Object.entries(words.briefField) as [keyof ChatWords['briefField'], string][];
      const lines = fields
        .filter(([k]) => view.brief[k].trim())
        .map(([k, label]) => `- **${label}:** ${escapeMarkdown(clip(view.brief[k], 600), true)}`);
      md.push(lines.length ? lines.join('\n') : escapeMarkdown(view.raw ?? ''));
      md.push(view.savedAt ? fill(words.briefSavedAt, `\`${view.savedAt.replace(/`/g, '')}\``) : words.briefUnsaved);
      const followups: ChatFollowupSpec[] = [];
      if (view.actions.includes('build')) followups.push({ prompt: '', label: words.buildThis, command: 'build' });
      if (view.actions.includes('brainstorm'))
        followups.push({ prompt: clip(view.brief.summary, 300), label: words.brainstormDeeper, command: 'brainstorm' });
      return { markdown: md, files: [], anchors: view.savedAt ? [view.savedAt] : [], followups };
    }
    case 'damaged':
      return {
        markdown: [fill(words.damaged, `\`${view.file.replace(/`/g, '')}\``, escapeMarkdown(view.reason, true))],
        files: [],
        followups: [],
      };
    case 'idle':
      return { markdown: [view.hint ? words.notABuild : words.idle], files: [], followups: [] };
    case 'running':
      return { markdown: [`**${fill(words.discoveryRound, view.round, view.maxRounds)}**`], files, followups: [] };
  }
}

/** The panel's brainstorm as a chat reply. */
export function brainstormReply(view: BrainstormViewModel, words: ChatWords): ChatReply {
  switch (view.status) {
    case 'questions': {
      const md = [
        `**${fill(words.brainstormRound, escapeMarkdown(clip(view.topic, 200), true), view.round, view.maxRounds)}**`,
      ];
      if (view.notice) md.push(`> ${escapeMarkdown(view.notice, true)}`);
      md.push(
        view.questions
          .map((q, i) => `${i + 1}. ${escapeMarkdown(q.text, true)} ${italic(escapeMarkdown(q.angle, true))}`)
          .join('\n'),
      );
      md.push(italic(words.brainstormHint));
      const followups: ChatFollowupSpec[] = [
        { prompt: words.summarizeNow, label: words.summarizeNow, command: 'brainstorm' },
      ];
      return { markdown: md, files: [], followups };
    }
    case 'running':
      return { markdown: [words.brainstormRunning], files: [], followups: [] };
    case 'failed': {
      const p = view.problem;
      const text =
        p.kind === 'error' || p.kind === 'unexpected'
          ? fill(words.brainstormFailed, escapeMarkdown(p.text, true))
          : words.brainstormStopped;
      return { markdown: [text], files: [], followups: [] };
    }
    case 'complete': {
      const md = [`**${fill(words.brainstormComplete, escapeMarkdown(clip(view.topic, 200), true))}**`];
      const list = (title: string, items: string[]) =>
        items.length ? [`**${title}**\n${items.map((i) => `- ${escapeMarkdown(clip(i, 600), true)}`).join('\n')}`] : [];
      md.push(
        ...list(words.keyInsights, view.keyInsights),
        ...list(words.decisions, view.decisions),
        ...list(words.openQuestions, view.openQuestions),
      );
      if (view.summaryText) md.push(escapeMarkdown(clip(view.summaryText, 2000)));
      return {
        markdown: md,
        files: [],
        anchors: [view.documentPath, view.contextPath],
        followups: [{ prompt: view.slug, label: words.buildThis, command: 'build' }],
      };
    }
    case 'none':
      return { markdown: [words.idle], files: [], followups: [] };
  }
}

/** One row of a listing (a case, a build, a run, a session): an escaped label and its status. */
export interface StatusRow {
  label: string;
  status: string;
  detail?: string;
}

/** A titled list of rows, each escaped; `empty` when there are none. */
export function listing(title: string, rows: readonly StatusRow[], empty: string, more = 0, moreWords = ''): string {
  if (rows.length === 0) return `**${title}**\n\n${empty}`;
  const lines = rows.map(
    (r) =>
      `- ${escapeMarkdown(clip(r.label, 160), true)} · ${italic(escapeMarkdown(r.status, true))}${r.detail ? ` · ${escapeMarkdown(clip(r.detail, 300), true)}` : ''}`,
  );
  if (more > 0) lines.push(`- ${fill(moreWords, more)}`);
  return `**${title}**\n\n${lines.join('\n')}`;
}
