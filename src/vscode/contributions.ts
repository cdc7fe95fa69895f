// The features of the extension, each registering itself (its commands, views and part of the agent
// panel) with what the composition root (extension.ts) made: no feature is wired by hand in
// activate(), and none knows another's internals.
import type * as vscode from 'vscode';
import type { AgentPanel } from './agentPanel';
import type { ModelService } from './llm/modelService';
import type { DisposableLike } from './lifecycle';
import type { RoleLookup } from './roleCache';
import type { CaseService } from '../core/cases/caseService';
import type { BrainstormController } from './brainstormController';
import type { BuildSource, BuildsSource } from './buildsTree';
import type { CasesSource } from './casesTree';
import type { DiscoveryController } from './discoveryController';
import type { RunsSource } from './runsTree';
import type { WorkspaceModel } from './workspaceModel';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import { agentRunContribution } from './agentRunContribution';
import { annotationsContribution } from './annotationsContribution';
import { brainstormContribution } from './brainstormContribution';
import { buildContribution } from './buildContribution';
import { casesContribution } from './casesContribution';
import { chatContribution } from './chatContribution';
import { discoveryContribution } from './discoveryContribution';
import { explorerContribution } from './explorerContribution';
import { journalContribution } from './journalContribution';
import { modelContribution } from './modelContribution';
import { panelContribution } from './panelContribution';
import { sleepContribution } from './sleepContribution';

/** What every feature is given: the adapters, made once, in one place. */
export interface Host {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /** The workspace's .groundwork/ (its store, the journal, the sleepers, the plans). */
  readonly workspace: WorkspaceModel;
  /** A store over another folder's `.groundwork/` (a multi-root window's other roots in the plan explorer), writes refused while untrusted. */
  readonly storeFor?: (folder: vscode.WorkspaceFolder) => WorkspaceStore | undefined;
  readonly models: ModelService;
  readonly roles: RoleLookup;
  readonly panel: AgentPanel;
  /** What one feature offers the others, set by the feature that offers it (none imports another). */
  readonly services: FeatureServices;
}

export interface FeatureServices {
  /** A brainstorm of a saved plan, seeded from it ("Brainstorm Deeper" on the Idea Brief card). */
  brainstormPlan?(plan: { slug: string; topic: string }): Promise<void>;
  /** The agent runs, for the plan explorer's Runs group (set by the agent-run feature, before the explorer registers). */
  runs?: RunsSource;
  /** "Build This" on the Idea Brief card and on a finished brainstorm: the build's confirmation gate, then the build. */
  buildFrom?(source: BuildSource): Promise<void>;
  /** The builds, for the plan explorer's Builds group (set by the build feature, before the explorer registers). */
  builds?: BuildsSource;
  /** The discovery cases, for the plan explorer's Discoveries group (set by the cases feature, before the explorer registers). */
  cases?: CasesSource;
  /** The window's one CaseService, its bundle loaded on first call: what agent runs and builds report to and inject (throws without a folder). */
  discoveries?(): CaseService;
  /** Add Discovery's steps; the id of the case added or repeated, undefined when the person stopped (set by the cases feature). */
  addDiscovery?(): Promise<string | undefined>;
  /** The markdown preview's plugin for spec annotations (set by the annotations feature; extension.ts returns it to VS Code). */
  extendMarkdownIt?<T>(md: T): T;
  /** What the annotations feature last drew in an editor (for the in-VS Code tests); undefined before it loaded. */
  annotationsDrawn?(editor: vscode.TextEditor): unknown;
  /** The panel's discovery conversation, its bundle loaded on first call: the chat participant drives the same session (set by the discovery feature). */
  discoverySession?(): Promise<DiscoverySession>;
  /** The panel's brainstorm, its bundle loaded on first call: the chat participant drives the same session (set by the brainstorm feature). */
  brainstormSession?(): Promise<BrainstormSession>;
}

/** One session, two views: what the chat participant may do with the panel's discovery conversation. */
export type DiscoverySession = Pick<DiscoveryController, 'state' | 'onDidChange' | 'onDidStream' | 'send' | 'handle'>;

/** The panel's brainstorm, for the chat participant: a new one starts with the user's round settings. */
export type BrainstormSession = Pick<BrainstormController, 'state' | 'onDidChange' | 'onDidStream' | 'answer'> & { start(topic: string): Promise<void> };

export interface Contribution {
  readonly id: string;
  /** Registers the feature; everything it registered goes when the returned disposable does. Nothing slow. */
  register(host: Host): DisposableLike;
}

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
