// The words a model error's advice uses for what a person can change (the API key, the endpoint,
// the model ids, the two call limits), which differ by front end: a command and settings in
// VS Code, environment variables in the CLI.
//
// The design, and why the words are chosen where the error is made rather than where it is shown:
// a provider's LlmError says what happened, then what to do, in one `message`; the front end that
// made the client hands it these words (AnthropicClient's `advice` option), and the provider
// composes `what happened` + `what to do` once (core/node/anthropicErrors.ts). Nobody rewrites the
// message afterwards. Composing it later, in the front end from the error's kind, would not reach
// every place the message goes: the brainstorm service keeps it in the session file (a failed
// step's `error`, an inquisitor's "model error: …"), which the panel and the CLI show later with no
// kind at hand. And the advice is not a function of the kind alone (an `auth` error may need a
// key, a new key, or the key's permissions; a `network` one the connection, the endpoint, or a
// longer first-byte limit), so the front ends supply nouns and sentences, and the provider keeps
// choosing which advice fits.
import { LIMIT_SETTINGS } from './retryPolicy';

export interface ErrorAdvice {
  /** The sentence that says where a key goes, when none is set or it could not be read. */
  setKey: string;
  /** The sentence after a key the API refused. */
  replaceKey: string;
  /** The clause after "Check its permissions in the Anthropic Console, or " (a key that may not make the request). */
  otherKey: string;
  /** The endpoint, as a noun: "Check your network connection and {baseUrl}." */
  baseUrl: string;
  /** The model ids, as a noun: "Check {modelIds}." */
  modelIds: string;
  /** The time to first byte, as the name a person raises. */
  firstByteTimeout: string;
  /** The retry budget, as the name a person raises. */
  retryBudget: string;
}

const SET_KEY_COMMAND = "'Groundwork: Set Anthropic API Key'";

/** The extension's words: its command and its settings. The default of AnthropicClient. */
export const VSCODE_ADVICE: ErrorAdvice = {
  setKey: `Set one with ${SET_KEY_COMMAND}.`,
  replaceKey: `Set a new one with ${SET_KEY_COMMAND}.`,
  otherKey: `set another with ${SET_KEY_COMMAND}`,
  baseUrl: 'the Anthropic base URL',
  modelIds: 'the model ids in the Groundwork model settings',
  firstByteTimeout: LIMIT_SETTINGS.firstByte.setting,
  retryBudget: LIMIT_SETTINGS.budget.setting,
};
