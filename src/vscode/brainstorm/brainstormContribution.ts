// The brainstorm: its part of the agent panel and its commands. Its controller, the core behind it
// and the palette's flows are a bundle of their own (brainstormFeature.ts → dist/brainstorm.js),
// loaded the first time the panel shows it or a command needs it.
import * as vscode from 'vscode';
import { BRAINSTORM_INBOUND } from '../../shared/protocol/brainstorm';
import type { Contribution } from '../host';
import { DisposableStore } from '../base/lifecycle';
import { LazyFeature } from '../panel/panelParts';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/brainstorm.js). */
const load = (): typeof import('./brainstormFeature') => require('./brainstormFeature');

export const brainstormContribution: Contribution = {
  id: 'brainstorm',
  register(host) {
    const store = new DisposableStore();
    const feature = store.add(
      new LazyFeature('brainstorm', BRAINSTORM_INBOUND, async () => load().createBrainstorm(host)),
    );
    store.add(host.panel.register(feature));
    const withFeature =
      <A extends unknown[]>(
        run: (
          m: ReturnType<typeof load>,
          controller: Awaited<ReturnType<typeof feature.controller>>,
          ...args: A
        ) => Promise<void>,
      ) =>
      async (...args: A) =>
        run(load(), await feature.controller(), ...args);
    store.add(
      vscode.commands.registerCommand(
        'groundwork.brainstorm',
        withFeature((m, c) => m.newBrainstorm(host.workspace, c)),
      ),
    );
    store.add(
      vscode.commands.registerCommand(
        'groundwork.brainstorm.resume',
        withFeature((m, c, arg?: unknown) => m.resumeBrainstorm(host.workspace, c, arg)),
      ),
    );
    // The Idea Brief card's "Brainstorm Deeper" (discovery's) asks for it.
    host.services.brainstormPlan = withFeature((m, c, plan: { slug: string; topic: string }) =>
      m.brainstormPlan(c, plan),
    );
    store.add({ dispose: () => delete host.services.brainstormPlan });
    // The @groundwork chat participant drives the same brainstorm (one session, two views).
    host.services.brainstormSession = async () => {
      const [m, c] = [load(), await feature.controller()];
      return {
        get state() {
          return c.state;
        },
        onDidChange: c.onDidChange,
        onDidStream: c.onDidStream,
        answer: (answers, action) => c.answer(answers, action),
        start: (topic) => c.start(topic, m.roundSettings()),
      };
    };
    store.add({ dispose: () => delete host.services.brainstormSession });
    store.add(vscode.commands.registerCommand('groundwork.brainstorm.stop', () => feature.ifLoaded?.stop()));
    return store;
  },
};
