// Just enough of the `vscode` module for the host side of the panel (agentPanel.ts) to run under
// Node: installed as what `require('vscode')` returns, before the module under test is required.
// A webview view that records what the host posts and lets the test play the panel.
import Module from 'node:module';
import { fill } from '../../../src/shared/panelStrings';
import { Emitter } from '../../../src/vscode/base/lifecycle';

export interface FakeVscode {
  workspace: { isTrusted: boolean; onDidGrantWorkspaceTrust: Emitter<void>['event'] };
  trustGranted: Emitter<void>;
  executed: unknown[][];
}

let installed: FakeVscode | undefined;

export function installFakeVscode(): FakeVscode {
  if (installed) return installed;
  const trustGranted = new Emitter<void>();
  const executed: unknown[][] = [];
  const fake = {
    workspace: { isTrusted: true, onDidGrantWorkspaceTrust: trustGranted.event },
    Uri: {
      joinPath: (base: { path?: string }, ...parts: string[]) => ({
        path: [base.path ?? '', ...parts].join('/'),
        toString() {
          return this.path;
        },
      }),
    },
    env: { language: 'en' },
    l10n: { t: (text: string, ...args: Array<string | number>) => fill(text, ...args) },
    commands: { executeCommand: async (...args: unknown[]) => void executed.push(args) },
  };
  const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load = function (
    this: unknown,
    request: string,
    ...rest: unknown[]
  ) {
    return request === 'vscode' ? fake : load.call(this, request, ...rest);
  };
  installed = { workspace: fake.workspace, trustGranted, executed };
  return installed;
}

/** A webview view as VS Code gives one to a provider: what the host posts is kept in `posted`. */
export class FakeView {
  readonly posted: Array<Record<string, unknown>> = [];
  private readonly received = new Emitter<unknown>();
  private readonly disposed = new Emitter<void>();
  listeners = 0;
  readonly webview = {
    options: {},
    html: '',
    cspSource: 'vscode-resource:',
    asWebviewUri: (uri: unknown) => uri,
    postMessage: async (message: Record<string, unknown>) => (this.posted.push(structuredClone(message)), true),
    onDidReceiveMessage: (listener: (m: unknown) => void) => {
      this.listeners++;
      const sub = this.received.event(listener);
      return { dispose: () => (this.listeners--, sub.dispose()) };
    },
  };
  readonly onDidDispose = this.disposed.event;
  visible = true;

  /** The panel sends `message` to the host. */
  send(message: unknown): void {
    this.received.fire(message);
  }

  close(): void {
    this.disposed.fire();
  }

  /** What the host posted of type `type`. */
  of(type: string): Array<Record<string, unknown>> {
    return this.posted.filter((m) => m.type === type);
  }
}

/** Lets every promise queued so far run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
