// How long loading dist/extension.js and running activate() take, outside VS Code: the
// `vscode` module is replaced by a stub that records what activate() registers. A figure for
// the notes, not a test: run `npm run build` first, then `node scripts/bench/activate.mjs`.
import Module from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = join(import.meta.dirname, '../..');
const calls = [];
const disposable = { dispose() {} };
const record =
  (name) =>
  (...args) => {
    calls.push(name + (typeof args[0] === 'string' ? ` ${args[0]}` : ''));
    return disposable;
  };
class EventEmitter {
  event = () => disposable;
  fire() {}
  dispose() {}
}
const stub = {
  EventEmitter,
  l10n: { t: (s) => s },
  window: {
    createOutputChannel: (...args) => ({
      ...record('createOutputChannel')(...args),
      info() {},
      warn() {},
      error() {},
      debug() {},
      trace() {},
    }),
    registerWebviewViewProvider: record('registerWebviewViewProvider'),
    createTreeView: (...args) => ({
      ...record('createTreeView')(...args),
      visible: false,
      onDidChangeVisibility: () => disposable,
    }),
    registerFileDecorationProvider: record('registerFileDecorationProvider'),
    visibleTextEditors: [],
    onDidChangeVisibleTextEditors: () => disposable,
  },
  commands: { registerCommand: record('registerCommand') },
  workspace: {
    workspaceFolders: [{ uri: { scheme: 'file', fsPath: root } }],
    onDidGrantWorkspaceTrust: () => disposable,
    onDidChangeConfiguration: () => disposable,
    registerTextDocumentContentProvider: record('registerTextDocumentContentProvider'),
  },
  lm: { onDidChangeChatModels: () => disposable },
  Uri: { joinPath: () => ({}) },
};

const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? stub : load.call(this, request, ...rest);
};

const runs = 20;
const requireTimes = [];
const activateTimes = [];
for (let i = 0; i < runs; i++) {
  const file = join(root, 'dist/extension.js');
  delete Module._cache[file];
  calls.length = 0;
  let t = performance.now();
  const ext = Module.createRequire(import.meta.url)(file);
  requireTimes.push(performance.now() - t);
  t = performance.now();
  ext.activate({
    subscriptions: [],
    extensionUri: { fsPath: root },
    secrets: { onDidChange: () => disposable },
    workspaceState: { get: () => undefined },
  });
  activateTimes.push(performance.now() - t);
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `load dist/extension.js: median ${median(requireTimes).toFixed(2)} ms (first ${requireTimes[0].toFixed(2)} ms)`,
);
console.log(`activate():             median ${median(activateTimes).toFixed(2)} ms over ${runs} runs`);
console.log(`activate() registers:   ${calls.join(', ')}`);
