// Every string the agent panel shows, in English. The host translates each through vscode.l10n
// (the English text is the key in l10n/bundle.l10n.<lang>.json) and sends the table with each
// snapshot; "{0}" marks a value the panel fills in.

export const PANEL_STRINGS = {
  loading: 'Loading…',
  restrictedTitle: 'Restricted Mode',
  restrictedBody:
    'Groundwork shows what this workspace holds, but starts no model session and runs no command until you trust this folder, because a workspace could point agents at code you have not reviewed.',
  manageTrust: 'Manage Workspace Trust',
  noWorkspace: 'Open a folder to use Groundwork. Plans, builds and discoveries are kept in the workspace, under .groundwork/.',
  openFolder: 'Open Folder…',

  modelHeading: 'Model',
  modelNeedKey: 'Groundwork is set to use the Anthropic API. Add your API key to let its agents think.',
  modelNeedLanguageModel:
    'Groundwork is set to use a VS Code language model, and none is available. Install and sign in to a chat-model extension.',
  modelNeedEither:
    "Connect a model so Groundwork's agents can think: add an Anthropic API key, or use a chat model you already have in VS Code. No key is needed for the second.",
  setApiKey: 'Set Anthropic API Key…',
  findChatModel: 'Find a Chat Model',
  provider: 'Provider',
  providerAnthropic: 'Anthropic API',
  providerLanguageModel: 'VS Code language model',
  tierComplex: 'Complex',
  tierFast: 'Fast',
  firstAvailable: 'first available',
  thisWindow: 'This window',
  checkConnection: 'Check Connection',
  selectModel: 'Select Model…',

  ideaHeading: 'Idea',
  composerPlaceholder: 'Describe what you want to build, e.g. "Build me a CRM for a small bakery"',
  composerLabel: 'Describe what you want to build',
  send: 'Send',
  notABuild:
    'Groundwork turns an idea into an Idea Brief: describe what you want to build ("Build me …", "Create an app that …") and it asks a few questions first. You can also keep what you learn in the discoveries journal.',
  discoverThis: 'Discover This Idea',
  roundOf: 'Round {0}/{1}',
  thinking: 'Thinking…',
  cancel: 'Cancel',
  retry: 'Retry',
  yourRequest: 'Your request',
  yourAnswer: 'Your answer',
  answerPlaceholder: 'Your answer (leave empty to skip)',
  extraLabel: 'Anything else?',
  extraPlaceholder: 'Anything the questions missed',
  sendAnswers: 'Send Answers',
  answerSomething: 'Answer at least one question, or write something in the last box.',
  modelFailed: 'The model call failed. Your answers are kept: retry when the problem is fixed.',

  briefHeading: 'Idea Brief',
  briefSummary: 'One-line summary',
  briefProblem: 'Problem',
  briefUsers: 'Users',
  briefMvpScope: 'MVP scope',
  briefTechnology: 'Technology',
  briefOutOfScope: 'Out of scope',
  briefKeyDecisions: 'Key decisions',
  briefConstraints: 'Constraints',
  briefEmptyField: 'Not stated',
  edit: 'Edit',
  doneEditing: 'Done',
  saveAsPlan: 'Save as Plan',
  discard: 'Discard',
  openPlan: 'Open Plan',
  savedAt: 'Saved to {0}',
  questionsAndAnswers: 'Questions and answers',
  skipped: 'skipped',

  journalHeading: 'Discoveries journal',
  journalTitle: 'Title',
  journalTitlePlaceholder: 'What did you learn?',
  journalDescription: 'Description',
  journalDescriptionPlaceholder: 'Describe it so a later agent can use it',
  journalAdd: 'Add to journal',
  journalAdding: 'Adding…',
  journalAdded: 'Added to the journal.',
  journalNeedTitle: 'Give the discovery a title.',
  journalNeedDescription: 'Describe what was learned.',
  journalEmpty:
    'No discoveries yet. When you or an agent learns something worth keeping, add it above; it is saved to .groundwork/discoveries.jsonl.',
  journalCount: '{0} discoveries',
  journalCountOne: '1 discovery',
  journalNewest: 'Newest {0} of {1}',
  openFile: 'Open file',
  journalSkipped: '{0} line(s) of the journal could not be read and were skipped. Open the file to repair them.',

  sleepersHeading: 'Sleeping agents',
  wake: 'Wake',
} as const;

export type PanelStringKey = keyof typeof PANEL_STRINGS;
export type PanelStrings = Record<PanelStringKey, string>;

/** Fills "{0}", "{1}" … with the values, as vscode.l10n.t does. */
export function fill(template: string, ...values: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (values[Number(i)] !== undefined ? String(values[Number(i)]) : whole));
}
