// The features of the extension, in the order the panel's parts were registered: extension.ts
// registers each with the Host it made (host.ts). No feature is wired by hand in activate(), none
// knows another's internals, and only extension.ts imports this list.
import type { Contribution } from './host';
import { agentRunContribution } from './agentRun/agentRunContribution';
import { annotationsContribution } from './annotations/annotationsContribution';
import { brainstormContribution } from './brainstorm/brainstormContribution';
import { buildContribution } from './build/buildContribution';
import { casesContribution } from './cases/casesContribution';
import { chatContribution } from './chat/chatContribution';
import { discoveryContribution } from './discovery/discoveryContribution';
import { explorerContribution } from './explorer/explorerContribution';
import { journalContribution } from './journal/journalContribution';
import { modelContribution } from './llm/modelContribution';
import { panelContribution } from './panel/panelContribution';
import { sleepContribution } from './sleep/sleepContribution';

/** In the order the panel's parts were registered; the webview lays them out itself. */
export const CONTRIBUTIONS: readonly Contribution[] = [
  panelContribution,
  modelContribution,
  journalContribution,
  sleepContribution,
  discoveryContribution,
  brainstormContribution,
  agentRunContribution,
  buildContribution,
  casesContribution,
  annotationsContribution,
  chatContribution,
  explorerContribution,
];
