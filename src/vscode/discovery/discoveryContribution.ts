// Discovery: its part of the agent panel and its commands. Its controller and the core behind it
// are a bundle of their own (discoveryFeature.ts → dist/discovery.js), loaded the first time the
// panel shows it or a command needs it: activation registers, and reads nothing.
import * as vscode from 'vscode';
import { DISCOVERY_INBOUND } from '../../shared/protocol/discovery';
import { AGENT_PANEL_ID } from '../panel/agentPanelId';
import type { Contribution } from '../host';
import { DisposableStore } from '../base/lifecycle';
import { LazyFeature } from '../panel/panelParts';
import { requireTrust } from '../base/trust';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/discovery.js). */
const load = (): typeof import('./discoveryFeature') => require('./discoveryFeature');

export const discoveryContribution: Contribution = {
  id: 'discovery',
  register(host) {
    const store = new DisposableStore();
    const feature = store.add(
      new LazyFeature('discovery', DISCOVERY_INBOUND, async () => load().createDiscovery(host)),
    );
    store.add(host.panel.register(feature));
    store.add(
      vscode.commands.registerCommand('groundwork.discover', async () => {
        if (!host.workspace.hasWorkspace) {
          return void vscode.window.showWarningMessage(
            vscode.l10n.t('Open a folder first: Groundwork keeps the conversation and the brief in the workspace.'),
          );
        }
        // Before the idea is asked for, not after it was typed.
        if (!requireTrust(vscode.l10n.t('start a discovery'))) return;
        const idea = await vscode.window.showInputBox({
          title: vscode.l10n.t('Discover Idea'),
          prompt: vscode.l10n.t(
            'What do you want to build? A sentence is enough: Groundwork asks what it needs to know.',
          ),
          placeHolder: vscode.l10n.t('e.g. A CRM for a small bakery'),
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the idea in a few words.')),
        });
        if (!idea?.trim()) return;
        await vscode.commands.executeCommand(`${AGENT_PANEL_ID}.focus`);
        await (await feature.controller()).send(idea.trim(), true);
      }),
    );
    store.add(
      vscode.commands.registerCommand('groundwork.discovery.cancel', async () => (await feature.controller()).cancel()),
    );
    // The @groundwork chat participant drives the same conversation (one session, two views).
    host.services.discoverySession = () => feature.controller();
    store.add({ dispose: () => delete host.services.discoverySession });
    return store;
  },
};
