// The @groundwork chat participant's words, localized (vscode.l10n): what chatMarkdown.ts composes
// its replies from, and the participant's own sentences.
import * as vscode from 'vscode';
import type { ChatWords } from './chatMarkdown';

export function chatWords(): ChatWords {
  return {
    discoveryRound: vscode.l10n.t('Discovery · round {0}/{1}', '{0}', '{1}'),
    request: vscode.l10n.t('Your idea: {0}', '{0}'),
    answerHint: vscode.l10n.t(
      'Answer here in one message (number your answers: 1. …, 2. …), or in the Groundwork panel: both continue the same conversation.',
    ),
    noPreference: vscode.l10n.t('No preference: choose what is usual for this kind of project.'),
    noPreferenceLabel: vscode.l10n.t('No preference'),
    discoveryFailed: vscode.l10n.t(
      'The last answer could not be sent: {0}. Send it again here, or press Retry in the Groundwork panel.',
      '{0}',
    ),
    interrupted: vscode.l10n.t(
      'The window closed while the model was answering. Press Retry in the Groundwork panel, or send your answer again here.',
    ),
    notABuild: vscode.l10n.t(
      'That does not read like something to build. Discovery turns an idea into an Idea Brief: try /discover followed by what you want to build.',
    ),
    briefTitle: vscode.l10n.t('Idea Brief'),
    briefSavedAt: vscode.l10n.t('Saved as {0}.', '{0}'),
    briefUnsaved: vscode.l10n.t(
      'Not saved yet: Build This saves it as a plan first, or edit it on the card in the Groundwork panel.',
    ),
    buildThis: vscode.l10n.t('Build This'),
    brainstormDeeper: vscode.l10n.t('Brainstorm Deeper'),
    damaged: vscode.l10n.t('{0} cannot be read: {1}', '{0}', '{1}'),
    idle: vscode.l10n.t('No conversation is under way.'),
    brainstormRound: vscode.l10n.t('Brainstorm · {0} · round {1}/{2}', '{0}', '{1}', '{2}'),
    brainstormHint: vscode.l10n.t(
      'Answer here in one message (number your answers; leave a number out to skip its question), or in the Groundwork panel.',
    ),
    summarizeNow: vscode.l10n.t('Summarize Now'),
    brainstormRunning: vscode.l10n.t('The brainstorm is working; follow it in the Groundwork panel.'),
    brainstormFailed: vscode.l10n.t('The brainstorm stopped: {0}. Retry it in the Groundwork panel.', '{0}'),
    brainstormStopped: vscode.l10n.t('The brainstorm stopped before its step ended. Retry it in the Groundwork panel.'),
    brainstormComplete: vscode.l10n.t('Brainstorm complete: {0}', '{0}'),
    keyInsights: vscode.l10n.t('Key insights'),
    decisions: vscode.l10n.t('Decisions'),
    openQuestions: vscode.l10n.t('Open questions'),
    briefField: {
      summary: vscode.l10n.t('One-line summary'),
      problem: vscode.l10n.t('Problem'),
      users: vscode.l10n.t('Users'),
      mvpScope: vscode.l10n.t('MVP scope'),
      technology: vscode.l10n.t('Technology'),
      outOfScope: vscode.l10n.t('Out of scope'),
      keyDecisions: vscode.l10n.t('Key decisions'),
      constraints: vscode.l10n.t('Constraints'),
    },
  };
}

/** The participant's own sentences (not of a session's view). */
export const chatText = {
  noFolder: () =>
    vscode.l10n.t('Open a folder first: Groundwork keeps its conversations, plans and builds in the workspace.'),
  restricted: (action: string) =>
    vscode.l10n.t(
      'Groundwork cannot {0} in Restricted Mode: in a folder you have not trusted it only shows what the workspace holds. It changes no file, starts no model session and runs no command. Trust this folder to continue.',
      action,
    ),
  manageTrust: () => vscode.l10n.t('Manage Workspace Trust'),
  actionDiscover: () => vscode.l10n.t('start a discovery'),
  actionAnswer: () => vscode.l10n.t('answer the questions'),
  actionBrainstorm: () => vscode.l10n.t('start a brainstorm'),
  actionBuild: () => vscode.l10n.t('start a build'),
  thinking: () => vscode.l10n.t('Groundwork is asking the model…'),
  tool: (tool: string, target: string) => vscode.l10n.t('The agent uses {0}: {1}', tool, target),
  discoveryNotStarted: () =>
    vscode.l10n.t(
      'The discovery could not start: the model call failed (the notification says why). Nothing was saved; send the idea again once the model is reachable.',
    ),
  discoveryBusy: () =>
    vscode.l10n.t(
      'A discovery turn is already running: its reply shows in the Groundwork panel. Ask again once it has answered.',
    ),
  brainstormBusy: () => vscode.l10n.t('A brainstorm step is already running: follow it in the Groundwork panel.'),
  tooLong: (chars: number, max: number) =>
    vscode.l10n.t(
      'That message is {0} characters long; Groundwork takes at most {1}. Shorten it, or write it into a file and point to it.',
      chars,
      max,
    ),
  unavailable: (what: string) => vscode.l10n.t('{0} is not available in this window.', what),
  help: () =>
    vscode.l10n.t(
      'Groundwork thinks before it builds. Commands: /discover <idea> turns an idea into an Idea Brief; /brainstorm <topic> grills a topic with three questioning agents; /build [plan] opens the confirmation gate of a build from a saved brief or brainstorm; /cases [query] lists what agents learned; /status shows the sessions, builds and runs. While a round waits, a message without a command answers it.',
    ),
  unknownCommand: (name: string) => vscode.l10n.t('Groundwork has no /{0} command.', name),
  needsText: (name: string) => vscode.l10n.t('/{0} needs a few words: what do you want to build or explore?', name),
  noPlans: () =>
    vscode.l10n.t('No saved Idea Brief or finished brainstorm to build from. Start with /discover <idea>.'),
  noPlanMatches: (query: string) => vscode.l10n.t('No saved plan matches "{0}".', query),
  whichPlan: () => vscode.l10n.t('Which plan should be built? Pick one:'),
  buildGate: (what: string) =>
    vscode.l10n.t(
      'The build confirmation gate is open for {0}: check the phases, the models and the estimate, then press Start Build. The build runs in terminals and shows in the Groundwork panel.',
      what,
    ),
  buildFromCard: () =>
    vscode.l10n.t('The Idea Brief on the card is saved as a plan first; then the build confirmation gate opens.'),
  casesTitle: () => vscode.l10n.t('Discovery cases'),
  casesMatching: (query: string) => vscode.l10n.t('Discovery cases matching "{0}"', query),
  noCases: () => vscode.l10n.t('No case yet: agents report what they learn while they run.'),
  noCasesMatch: () => vscode.l10n.t('No case matches.'),
  more: () => vscode.l10n.t('… and {0} more', '{0}'),
  sessionsTitle: () => vscode.l10n.t('Sessions'),
  buildsTitle: () => vscode.l10n.t('Builds'),
  runsTitle: () => vscode.l10n.t('Agent runs'),
  noSessions: () => vscode.l10n.t('No discovery or brainstorm is under way.'),
  noBuilds: () => vscode.l10n.t('No build yet.'),
  noRuns: () => vscode.l10n.t('No agent run yet.'),
  discoveryLabel: (request: string) => vscode.l10n.t('Discovery: {0}', request),
  brainstormLabel: (topic: string) => vscode.l10n.t('Brainstorm: {0}', topic),
  status: {
    running: () => vscode.l10n.t('working'),
    questions: (round: number, of: number) => vscode.l10n.t('waiting for your answers, round {0}/{1}', round, of),
    failed: () => vscode.l10n.t('stopped: Retry in the panel'),
    brief: () => vscode.l10n.t('Idea Brief ready'),
    complete: () => vscode.l10n.t('complete'),
    damaged: () => vscode.l10n.t('cannot be read'),
  },
  failed: (message: string) => vscode.l10n.t('Groundwork could not do that: {0}', message),
};
