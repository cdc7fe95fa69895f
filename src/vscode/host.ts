// What every feature is given and what it gives back: the `Host` the composition root
// (extension.ts) makes once, and the `Contribution` each feature is (contributions.ts lists them).
// Features import these types, never the list, so none imports what imports it.
import type * as vscode from 'vscode';
import type { RoundAction } from '../core/brainstorm/brainstormTypes';
import type { BuildRecord } from '../core/build/buildTypes';
import type { CaseService } from '../core/cases/caseService';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import type { BrainstormPanelView } from '../shared/protocol/brainstorm';
import type { DiscoveryMessage, DiscoveryPanelView } from '../shared/protocol/discovery';
import type { DisposableLike } from './base/lifecycle';
import type { RoleLookup } from './base/roleCache';
import type { WorkspaceModel } from './base/workspaceModel';
import type { ExplorerGroups } from './explorer/explorerGroups';
import type { ModelService } from './llm/modelService';
import type { AgentPanel } from './panel/agentPanel';
import type { StreamChunk } from './panel/panelParts';

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
  /** The plan explorer's groups: a feature registers its own (explorerGroups.ts). */
  readonly explorer: ExplorerGroups;
  /** What one feature offers the others, set by the feature that offers it (none imports another). */
  readonly services: FeatureServices;
}

export interface FeatureServices {
  /** A brainstorm of a saved plan, seeded from it ("Brainstorm Deeper" on the Idea Brief card). */
  brainstormPlan?(plan: { slug: string; topic: string }): Promise<void>;
  /** The agent runs, newest first, for the chat participant's /status (set by the agent-run feature). */
  runList?(): Promise<StatusListing | undefined>;
  /** "Build This" on the Idea Brief card and on a finished brainstorm: the build's confirmation gate, then the build. */
  buildFrom?(source: BuildRecord['source']): Promise<void>;
  /** The builds, newest first, for the chat participant's /status (set by the build feature). */
  buildList?(): Promise<StatusListing | undefined>;
  /** `.groundwork/cases.jsonl` changed, here or elsewhere (set by the cases feature). */
  casesChanged?: vscode.Event<void>;
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
export interface DiscoverySession {
  readonly state: DiscoveryPanelView;
  readonly onDidChange: vscode.Event<void>;
  readonly onDidStream: vscode.Event<StreamChunk>;
  /** Text typed to the conversation: answers the questions shown, or starts a conversation. */
  send(text: string, force: boolean): Promise<void>;
  handle(message: DiscoveryMessage): Promise<void>;
}

/** The panel's brainstorm, for the chat participant: a new one starts with the user's round settings. */
export interface BrainstormSession {
  readonly state: BrainstormPanelView;
  readonly onDidChange: vscode.Event<void>;
  readonly onDidStream: vscode.Event<StreamChunk>;
  answer(answers: (string | null)[], action: RoundAction): Promise<void>;
  start(topic: string): Promise<void>;
}

/** What /status lists of the builds or the runs: the newest rows, and how many more there are. */
export interface StatusListing {
  rows: readonly { label: string; status: string; description: string }[];
  more: number;
}

export interface Contribution {
  readonly id: string;
  /** Registers the feature; everything it registered goes when the returned disposable does. Nothing slow. */
  register(host: Host): DisposableLike;
}
