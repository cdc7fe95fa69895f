// The model the agents use: its part of the agent panel (the provider and the model of each tier,
// this window's usage, the last connection check, or how to connect one) and its commands.
import * as vscode from 'vscode';
import { MODEL_INBOUND, type ModelMessage, type ModelView } from '../../shared/protocol/model';
import type { Contribution } from '../host';
import { DisposableStore, Emitter } from '../base/lifecycle';
import { registerModelCommands, type ModelCheck } from './modelCommands';
import { describeUsage, type ModelService } from './modelService';
import { ComputedFeature } from '../panel/panelParts';

export const modelContribution: Contribution = {
  id: 'model',
  register({ models, panel, log }) {
    const store = new DisposableStore();
    let check: ModelCheck | undefined;
    const checked = store.add(new Emitter<void>());
    const feature = store.add(
      new ComputedFeature(
        'model',
        MODEL_INBOUND,
        () => modelView(models, check, log),
        [models.onDidChange, checked.event],
        handle,
        (err) => log.warn('model: could not be shown', err),
      ),
    );
    store.add(panel.register(feature));
    for (const command of registerModelCommands(models, (c) => {
      // "Check Model Connection" says how it went beside the model.
      check = c;
      checked.fire();
    })) {
      store.add(command);
    }
    return store;
  },
};

async function handle(m: ModelMessage): Promise<void> {
  if (m.command === 'findChatModels')
    await vscode.commands.executeCommand('workbench.extensions.search', '@category:"AI" language model');
  else await vscode.commands.executeCommand(`groundwork.${m.command}`);
}

async function modelView(
  models: ModelService,
  check: ModelCheck | undefined,
  log: vscode.LogOutputChannel,
): Promise<ModelView> {
  const checked = check ? { check } : {};
  const status = await models.status().catch((err: unknown) => {
    log.warn('agent panel: could not tell which model is in use', err);
    return { kind: 'onboarding' as const, need: 'either' as const };
  });
  if (status.kind === 'onboarding') return { status: 'onboarding', need: status.need, ...checked };
  const usage = describeUsage(models.ledger);
  return { status: 'ready', provider: status.provider, ...status.models, ...(usage ? { usage } : {}), ...checked };
}
