// Spec annotations: the yellow discovery notes and coloured regions of markdown specs, in the
// editor (highlights, diagnostics, hover, counts above regions) and in the markdown preview, and
// `Annotate with Discovery…`. The work is a bundle of its own (annotationsFeature.ts →
// dist/annotations.js), loaded when a markdown editor is first visible, the preview asks for its
// plugin, or a command runs: activation registers, and reads nothing.
import * as vscode from 'vscode';
import type { Annotations } from './annotationsFeature';
import type { Contribution } from '../host';
import { DisposableStore, toDisposable } from '../base/lifecycle';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/annotations.js). */
const load = (): typeof import('./annotationsFeature') => require('./annotationsFeature');

export const annotationsContribution: Contribution = {
  id: 'annotations',
  register(host) {
    const store = new DisposableStore();
    let feature: Annotations | undefined;
    const annotations = () => (feature ??= store.add(load().createAnnotations(host)));
    const wake = () => {
      if (feature === undefined && vscode.window.visibleTextEditors.some((e) => e.document.languageId === 'markdown'))
        annotations();
    };
    store.add(vscode.window.onDidChangeVisibleTextEditors(wake));
    wake();
    host.services.extendMarkdownIt = (md) => annotations().extendMarkdownIt(md);
    host.services.annotationsDrawn = (editor) => feature?.drawnIn(editor);
    store.add(
      toDisposable(() => {
        delete host.services.extendMarkdownIt;
        delete host.services.annotationsDrawn;
      }),
    );
    store.add(vscode.commands.registerCommand('groundwork.annotations.annotate', () => annotations().annotate()));
    store.add(
      vscode.commands.registerCommand('groundwork.annotations.goToNotes', (uri: unknown, task: unknown) =>
        annotations().goToNotes(uri, task),
      ),
    );
    return store;
  },
};
