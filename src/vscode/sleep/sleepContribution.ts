// Sleeping agents: their part of the agent panel (each sleep's start and length: the panel counts
// down itself) and the Wake command of the plan explorer.
import * as vscode from 'vscode';
import { SLEEP_INBOUND, type SleepMessage } from '../../shared/protocol/sleep';
import type { Contribution } from '../host';
import { DisposableStore } from '../base/lifecycle';
import { ComputedFeature } from '../panel/panelParts';
import { sleepSlice } from './sleepSlice';
import { requireTrust } from '../base/trust';

export const sleepContribution: Contribution = {
  id: 'sleep',
  register({ workspace, panel, log }) {
    const store = new DisposableStore();
    const feature = store.add(
      new ComputedFeature(
        'sleep',
        SLEEP_INBOUND,
        async () => sleepSlice((await workspace.read()).sleepers),
        [workspace.onDidChange],
        async (m: SleepMessage) => {
          if (!requireTrust(vscode.l10n.t('wake an agent'))) return;
          await workspace.wake(m.agent, 'woken from the agent panel');
        },
        (err) => log.warn('sleepers: could not be read for the panel', err),
      ),
    );
    store.add(panel.register(feature));
    store.add(
      // Its argument: the explorer's sleeper node, `{ kind: 'sleeper', sleeper }`.
      vscode.commands.registerCommand('groundwork.sleep.wake', async (node?: unknown) => {
        const agent = sleeperAgent(node);
        if (!agent || !requireTrust(vscode.l10n.t('wake an agent'))) return;
        try {
          await workspace.wake(agent, 'woken from the plan explorer');
        } catch (err) {
          void vscode.window.showErrorMessage(
            vscode.l10n.t('Could not wake {0}: {1}', agent, err instanceof Error ? err.message : String(err)),
          );
        }
      }),
    );
    return store;
  },
};

function sleeperAgent(node: unknown): string | undefined {
  const n = node as { kind?: unknown; sleeper?: { state?: { agent?: unknown } } } | undefined;
  const agent = n?.kind === 'sleeper' ? n.sleeper?.state?.agent : undefined;
  return typeof agent === 'string' ? agent : undefined;
}
