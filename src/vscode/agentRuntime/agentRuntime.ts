// The agent runtime of this window, for the features that run agents (agent runs, builds): core/run's
// AgentRunner over the window's ports — the model of ModelService, commands through NodeCommandRunner
// behind the approval modal (runApproval.ts) and the user-level `groundwork.commands.autoApprove`, the
// workspace trust, the sleep log and the journal, and the window's discovery cases (what a run learns
// becomes a case, and its prompt carries what earlier agents learned: Host.services.discoveries).
// Each feature bundle carries its own copy of this module; the logs come from the extension's bundle
// (RunLogs).
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { systemClock } from '../../core/clock';
import type { Journal } from '../../core/journal/journal';
import { sleep } from '../../core/llm/watchdog';
import { NodeCommandRunner } from '../../core/node/nodeCommandRunner';
import { secureRandomBytes } from '../../core/prompt/untrustedText';
import { AgentRunner } from '../../core/run/agentRun';
import type { GateDeps } from '../../core/run/commandGate';
import type { RunDiscoveries } from '../../core/run/runTypes';
import { RunStore } from '../../core/run/runStore';
import type { SleepLog } from '../../core/sleep/sleepLog';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import type { SpecWriter } from '../../core/annotations/specWriter';
import type { Host } from '../host';
import { EditorSpecWriter } from './specEditor';
import { filesExclude } from '../base/filesExclude';
import { prices } from '../llm/modelService';
import { autoApproveSetting, modalApprover } from './runApproval';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The logs a run writes to, made by the contribution from the extension's bundle: their modules
 * declare error classes, which must not be bundled twice (esbuild.mjs, bundles.ts).
 */
export interface RunLogs {
  journal(store: WorkspaceStore): Journal;
  sleepLog(store: WorkspaceStore): SleepLog;
}

export class AgentRuntime {
  /** How a command is approved and run: the modal, the user's pre-approvals, the folder's trust. */
  readonly gate: GateDeps = {
    commands: new NodeCommandRunner(),
    approver: modalApprover(),
    isTrusted: () => vscode.workspace.isTrusted,
    autoApprove: autoApproveSetting((text) => void vscode.window.showWarningMessage(text)),
  };

  constructor(
    private readonly host: Host,
    private readonly logs: RunLogs,
  ) {}

  get store(): WorkspaceStore {
    return this.host.workspace.workspaceStore();
  }

  /** What a run reports to and injects: the window's CaseService (its bundle loaded when a run first asks), when the cases feature offers it. */
  discoveries(): RunDiscoveries | undefined {
    const cases = this.host.services.discoveries;
    if (cases === undefined) return undefined;
    return { report: (report) => cases().report(report), injection: (agentId) => cases().injection(agentId) };
  }

  /** How notes and marks reach the workspace's specs: through their editors when open (specEditor.ts). */
  specs(): SpecWriter {
    return new EditorSpecWriter(this.store.folder);
  }

  /** A runner over the window's store as it is now. */
  runner(): AgentRunner {
    const store = this.store;
    const discoveries = this.discoveries();
    return new AgentRunner({
      store,
      runs: new RunStore(store),
      llm: () => this.host.models.client(),
      clock: systemClock,
      hash: sha256,
      random: secureRandomBytes,
      prices: prices(),
      exclude: filesExclude,
      origin: 'vscode',
      ...this.gate,
      sleepMaxSeconds: () => vscode.workspace.getConfiguration('groundwork.sleep').get<number>('maxSeconds', 3600),
      sleepLog: this.logs.sleepLog(store),
      journal: this.logs.journal(store),
      ...(discoveries ? { discoveries } : {}),
      specs: this.specs(),
      wait: sleep,
    });
  }
}
