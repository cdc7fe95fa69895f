// How long loading dist/extension.js and running activate() take, outside VS Code: the
// `vscode` module is replaced by a stub that records what activate() registers. A figure for
// the notes, not a test: run `npm run build` first, then `node scripts/bench/activate.mjs`.
// `--once` loads and activates once and prints JSON (the timings and the files of dist/ loaded);
// `--dist DIR` measures the bundles in DIR instead of dist/.
//
// Two figures: cold, each load in a fresh Node process (what an extension host meets: nothing
// compiled yet), and warm, loaded again and again in one process. Both load every file of dist/
// that loading extension.js loads (the chunk it takes shared modules from), and list them.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import Module from 'node:module';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = join(import.meta.dirname, '../..');
const at = process.argv.indexOf('--dist');
const dist = at > 0 ? resolve(process.argv[at + 1]) : join(root, 'dist');
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

const loadedFromDist = () => Object.keys(Module._cache).filter((file) => file.startsWith(dist));

/** One load and activation; afterwards the files of dist/ it loaded. */
function once() {
  for (const file of loadedFromDist()) delete Module._cache[file];
  calls.length = 0;
  let t = performance.now();
  const ext = Module.createRequire(import.meta.url)(join(dist, 'extension.js'));
  const loadMs = performance.now() - t;
  t = performance.now();
  ext.activate({
    subscriptions: [],
    extensionUri: { fsPath: root },
    secrets: { onDidChange: () => disposable },
    workspaceState: { get: () => undefined },
  });
  return { loadMs, activateMs: performance.now() - t, files: loadedFromDist() };
}

if (process.argv.includes('--once')) {
  console.log(JSON.stringify(once()));
} else {
  const runs = 20;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cold = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, [import.meta.filename, '--once', '--dist', dist], { encoding: 'utf8' });
    cold.push(JSON.parse(out));
  }
  const warm = [];
  for (let i = 0; i < runs; i++) warm.push(once());
  const ms = (x) => `${x.toFixed(2)} ms`;
  console.log(
    `load dist/extension.js: median ${ms(median(cold.map((r) => r.loadMs)))} cold (a fresh process each), ${ms(median(warm.map((r) => r.loadMs)))} warm (first ${ms(warm[0].loadMs)})`,
  );
  console.log(
    `activate():             median ${ms(median(cold.map((r) => r.activateMs)))} cold, ${ms(median(warm.map((r) => r.activateMs)))} warm, over ${runs} runs each`,
  );
  const files = warm[0].files;
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  console.log(
    `loaded from dist/:      ${files.map((f) => relative(dist, f)).join(', ')} (${(bytes / 1024).toFixed(1)} KB)`,
  );
  console.log(`activate() registers:   ${calls.join(', ')}`);
}
