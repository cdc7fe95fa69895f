// `npm run test:vscode`: runs Groundwork's tests against a real VS Code, offline.
//
// code-server (VS Code's server + web workbench, from npm) runs under Node 24 and is driven by
// Debian's headless Chromium through playwright-core (docs/vscode-testing.md):
//
//   1. setup        tools installed or reused (scripts/vscode/setupTools.mjs)
//   2. bundle       test/integration (in-host mocha suite) and test/e2e (UI steps) with esbuild
//   3. start        code-server on a free port with a temp profile and a temp workspace folder; two
//                   fixture extensions installed in the profile: a scripted chat model and the
//                   test host, which runs the in-host suite when its command runs
//   4. open         ONE workbench window with extensionDevelopmentPath = the repo (dist/extension.js
//                   from `npm run build`): a normal window, where modal dialogs show
//   5. e2e          test/e2e/*.e2e.ts drive that window with Playwright, as a person would, in the
//                   order of E2E_ORDER (bundleTests.mjs); a test may open one more window (another
//                   workspace) and closes it
//   6. integration  "Groundwork Tests: Run the In-Host Tests" from the palette: the in-host mocha
//                   suite runs in the window's extension host and writes its results to a file
//   7. restricted   test/e2e/restricted/ in a second code-server with workspace trust on (its window
//                   opens while the in-host suite runs)
//   8. summary      per-file times, windows and reloads, then `vscode: N passed, N failed` on its
//                   own line (CI reads it); exit 1 on any failure
//
// Options: --grep <regexp>   only tests whose full title matches (both suites)
//          --timeout <s>     hard limit for the whole run (default 1500, env GROUNDWORK_VSCODE_TIMEOUT): a safety net for a hung
//                            workbench, not a budget
//          --extension <dir> extension folder to load (default the repo; env GROUNDWORK_EXTENSION_PATH)
//          --packaged        install the packaged groundwork-<version>.vsix (from `npm run package`)
//                            in the Restricted Mode window, as a user would, instead of loading the
//                            development folder: proves the VSIX itself works
//          --bench           run the UI benchmarks (test/e2e/**/*.bench.ts) instead of the UI tests
//          --keep            keep the temp folder and bundles (printed) for a post-mortem
//          --verbose         forward every workbench console line, not only the extension host's
// Artifacts: test-artifacts/vscode/run.log (everything, unfiltered, each test's start and end
// stamped) and *.png screenshots (env GROUNDWORK_VSCODE_ARTIFACTS=<dir> puts them elsewhere, e.g.
// for two runs at once).
import Mocha from 'mocha';
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { bundleTests, prepareWorkspace, repoRoot } from './bundleTests.mjs';
import { installExtensions, startCodeServer } from './codeServer.mjs';
import { setupTools } from './setupTools.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string' },
    extension: { type: 'string' },
    packaged: { type: 'boolean', default: false },
    bench: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
  allowPositionals: false,
});
const TIMEOUT_S = Number(opts.timeout ?? process.env.GROUNDWORK_VSCODE_TIMEOUT ?? 1500);
const extensionPath = resolve(opts.extension ?? process.env.GROUNDWORK_EXTENSION_PATH ?? repoRoot);
const artifactsDir = resolve(process.env.GROUNDWORK_VSCODE_ARTIFACTS ?? join(repoRoot, 'test-artifacts/vscode'));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
const VIEWPORT = { width: 1400, height: 900 };
/** The test host's command (test/integration/fixtures/testHost), as the palette shows it. */
const RUN_IN_HOST_SUITE = 'Groundwork Tests: Run the In-Host Tests';
/** A safety net for one window to load on a loaded machine, not a budget: it returns as soon as it has. */
const WINDOW_LOAD_MS = 120_000;

// ---------------------------------------------------------------------------------------------
// logging: everything to run.log; a readable subset to stdout

mkdirSync(artifactsDir, { recursive: true });
for (const f of readdirSync(artifactsDir))
  if (f.endsWith('.png') || f.endsWith('.log')) rmSync(join(artifactsDir, f), { force: true });
const logPath = join(artifactsDir, 'run.log');
const logFile = createWriteStream(logPath);
const t0 = Date.now();
const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s`;
function toLog(tag, text) {
  for (const line of String(text).replace(/\n$/, '').split('\n')) logFile.write(`${stamp()} [${tag}] ${line}\n`);
}
function say(msg) {
  toLog('runner', msg);
  console.log(`[vscode] ${msg}`);
}
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The workbench's own log lines reach the page console in the same ('%c INFO', 'color: #33f', …)
 * shape as the extension host's console output, so they are told apart by content: start-up
 * chatter and offline noise (open-vsx lookups, AgentHost, chat) are kept in run.log only.
 */
const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket \(/,
  /\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/,
  /\[Service Worker\]/,
  /\[AccountPolicyGate\]/,
  /^\[File Watcher/,
  /open-?vsx/i,
  /marketplace/i,
  /gallery/i,
  /AgentHost|agent host|agentHost/,
  /chat|languageModel|language model|copilot/i,
  /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION_REFUSED|getaddrinfo|ENOTFOUND|EAI_AGAIN/,
  /Failed to fetch|fetch failed|net::ERR_/,
  /update check|updateService|Update service/i,
  /telemetry/i,
  /\[Extension Host\] (debugger|Debugger listening)/,
  /punycode/,
  /Ignoring the error while validating workspace folder/,
  /authentication provider 'github'/,
  /^\s+at /,
  /^Creation of workbench contribution/,
  /^\[lifecycle\]/,
];
const isNoise = (line) => NOISE.some((re) => re.test(line));

// ---------------------------------------------------------------------------------------------
// state shared with cleanup

let codeServer;
/** The scripted Anthropic-compatible server the extension's model calls go to (user settings). */
let modelServer;
/** The second, untrusted code-server (Restricted Mode), while it runs. */
let restrictedServer;
let browser;
let page;
let tmp;
let bundleDir;
let cleaningUp;
const summary = { passed: 0, failed: 0, notes: [] };
/** Numbers failure screenshots across both windows' suites, so none overwrites another. */
let shot = 0;
/** What the run did to windows, for the summary: every window opened and every reload. */
const windows = { opened: 0, reloads: 0, closed: 0 };
/** Each test file's wall time (hooks included), for the summary. */
const fileTimes = [];

/**
 * Extension hosts, by the reconnection token code-server logs them with (the first 8 hex digits
 * of the window's `renderer-ExtensionHost-…` socket). A window's host exits when the window is
 * reloaded or closed, which a test does on purpose: those tokens are expected to exit; any other
 * exit is a crash of the extension under test.
 */
const hostOfPage = new Map();
const expectedExits = new Set();

function watchHostToken(p) {
  p.on('console', (msg) => {
    const m = /renderer-ExtensionHost-([0-9a-f]{8})/.exec(msg.text());
    if (m) hostOfPage.set(p, m[1]);
  });
}

function expectHostExit(p) {
  const token = hostOfPage.get(p);
  if (token) expectedExits.add(token);
  hostOfPage.delete(p);
}

/** Reads code-server's output for extension hosts that exit; an unexpected exit fails the run. */
function onServerOutput(tag) {
  return (chunk) => {
    toLog(tag, chunk);
    for (const m of chunk.matchAll(
      /\[([0-9a-f]{8})\]\[ExtensionHostConnection\] <\d+> Extension Host Process exited with code: (\S+), signal: (\S+)\./g,
    )) {
      if (expectedExits.delete(m[1]) || cleaningUp || finishing) continue;
      // Give the log a moment to show what happened, then stop: every later test would fail anyway.
      setTimeout(
        () =>
          fail(
            `an extension host exited (code ${m[2]}, signal ${m[3]}) although no window was reloaded or closed; see ${logPath}`,
          ),
        5_000,
      ).unref();
    }
  };
}

async function screenshotTo(name, on = page) {
  if (!on || on.isClosed()) return;
  const file = join(artifactsDir, name);
  try {
    await on.screenshot({ path: file, timeout: 10_000 });
    say(`screenshot: ${file}`);
  } catch (err) {
    toLog('runner', `screenshot ${name} failed: ${err.message}`);
  }
}

async function cleanup() {
  cleaningUp ??= (async () => {
    try {
      if (browser) await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]);
    } catch {}
    if (codeServer) await codeServer.stop();
    if (restrictedServer) await restrictedServer.stop();
    if (modelServer) await modelServer.close().catch(() => undefined);
    if (!opts.keep) {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
    } else {
      say(`kept: ${tmp} and ${bundleDir}`);
    }
  })();
  return cleaningUp;
}

function finish(code) {
  const line = `vscode: ${summary.passed} passed, ${summary.failed} failed`;
  if (fileTimes.length) {
    say('time per file (hooks included):');
    for (const f of fileTimes) say(`  ${secs(f.ms).padStart(8)}  ${f.file}`);
  }
  say(`windows: ${windows.opened} opened, ${windows.closed} closed, ${windows.reloads} reloads`);
  for (const n of summary.notes) say(n);
  say(`log: ${logPath}`);
  say(`wall time ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  toLog('runner', line);
  console.log(`\n${line}`);
  logFile.end(() => process.exit(code));
  setTimeout(() => process.exit(code), 2000).unref();
}

let finishing = false;
async function fail(reason, code = 1) {
  if (finishing) return;
  finishing = true;
  summary.failed += 1;
  summary.notes.push(`FAILED: ${reason}`);
  await screenshotTo('failure.png');
  await cleanup();
  finish(code);
}

function onSignal(name, code) {
  return () => {
    if (finishing) {
      // a second Ctrl-C while cleaning up: stop now
      codeServer?.killNow();
      process.exit(code);
    }
    fail(`interrupted (${name})`, code);
  };
}
process.on('SIGINT', onSignal('SIGINT', 130));
process.on('SIGTERM', onSignal('SIGTERM', 143));
process.on('SIGHUP', onSignal('SIGHUP', 129));
process.on('exit', () => {
  // last resort, synchronous
  codeServer?.killNow();
  restrictedServer?.killNow();
});
setTimeout(() => fail(`timed out after ${TIMEOUT_S}s (GROUNDWORK_VSCODE_TIMEOUT / --timeout)`), TIMEOUT_S * 1000);

// ---------------------------------------------------------------------------------------------
// the run

/** Removes bundles of earlier runs whose process is gone (a crashed or killed run). */
function sweepOldBundles(root) {
  if (!existsSync(root)) return;
  for (const d of readdirSync(root)) {
    const pid = Number(/^run-(\d+)$/.exec(d)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(root, d), { recursive: true, force: true });
    }
  }
}

/**
 * A runner killed with SIGKILL (a CI job limit) cannot clean up: its code-server groups would
 * live on. The next run stops such leftovers (only if they still are code-server) and removes
 * their temp folders.
 */
function sweepOldTempDirs() {
  for (const d of readdirSync(tmpdir())) {
    const pid = Number(/^groundwork-vscode-(\d+)-/.exec(d)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
      continue; // its runner is alive
    } catch {}
    const dir = join(tmpdir(), d);
    for (const pgidFile of [join(dir, 'code-server.pgid'), join(dir, 'restricted', 'code-server.pgid')]) {
      try {
        const pgid = Number(readFileSync(pgidFile, 'utf8'));
        if (pgid > 1 && readFileSync(`/proc/${pgid}/cmdline`, 'utf8').includes('code-server')) {
          process.kill(-pgid, 'SIGKILL');
          say(`stopped code-server left running by an earlier run (process group ${pgid})`);
        }
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Formats one page console message. Extension-host and workbench lines come styled: ('%c INFO',
 * 'color…', fmt, ...args) in a window that runs extension tests, ('%c[Extension Host] %c' + fmt,
 * 'color…', 'color…', ...args) in a normal one: each %c has its style argument, dropped here.
 */
async function consoleText(msg) {
  const args = await Promise.all(msg.args().map((a) => a.jsonValue().catch(() => a.toString())));
  if (typeof args[0] === 'string' && args[0].startsWith('%c') && args.length >= 2) {
    const styles = (args[0].match(/%c/g) ?? []).length;
    const rest = args.slice(1 + styles);
    const plain = args[0].replace(/%c/g, '');
    const tag = /^\s*\[([^\]]+)\]\s?/.exec(plain);
    // mocha's empty lines arrive as a lone '%'
    if (tag)
      return { hostLike: true, label: tag[1], text: format(plain.slice(tag[0].length), ...rest).replace(/^%$/, '') };
    return { hostLike: true, label: plain.trim(), text: format(...rest) };
  }
  return { hostLike: false, label: msg.type(), text: args.length ? format(...args) : msg.text() };
}

/** Forwards a page's console: every line to run.log, the extension host's (noise filtered) to stdout. */
function forwardConsole(p, label = '') {
  let chain = Promise.resolve();
  p.on('console', (msg) => {
    chain = chain.then(async () => {
      const { hostLike, label: level, text } = await consoleText(msg);
      toLog(`${hostLike ? `console ${level}` : `console.${level}`}${label}`, text);
      if (opts.verbose) {
        console.log(`  [${level}${label}] ${text}`);
        return;
      }
      const important = msg.type() === 'error' && /groundwork/i.test(text);
      if ((hostLike || important) && !isNoise(text)) {
        for (const line of text.split('\n'))
          if (!isNoise(line)) console.log(`  ${label ? `[${label.trim()}] ` : ''}${line}`);
      }
    });
  });
  p.on('pageerror', (err) => toLog(`pageerror${label}`, err.stack ?? err.message));
  return () => chain;
}

/** A page of `context` with the workbench loaded from `url`: the status bar drawn. */
async function openWorkbench(context, url, label = '') {
  const p = await context.newPage();
  // A page that unloads with a dirty editor asks first: leave, as closing a window does.
  p.on('dialog', (d) => void d.accept().catch(() => undefined));
  watchHostToken(p);
  forwardConsole(p, label);
  toLog('runner', `open${label} ${url}`);
  await p.goto(url, { waitUntil: 'domcontentloaded', timeout: WINDOW_LOAD_MS });
  await p.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: WINDOW_LOAD_MS });
  windows.opened += 1;
  return p;
}

/** The workbench URL of `server` on a folder or a .code-workspace file, with the extension under development. */
function workbenchUrl(server, { folder, workspace, development = true }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const query = new URLSearchParams();
  if (workspace) query.set('workspace', workspace);
  else query.set('folder', folder);
  if (development) query.set('payload', JSON.stringify([['extensionDevelopmentPath', remote(extensionPath)]]));
  return `${server.url}/?${query.toString()}`;
}

/** Runs a command from the palette of `p`, tried again while the palette does not list it yet. */
async function paletteCommand(p, title) {
  const input = p.locator('.quick-input-widget input');
  const row = p.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + 60_000;
  for (;;) {
    await p.keyboard.press('Escape');
    await p.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(`>${title}`);
    const listed = await row.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (listed) return row.click();
    if (Date.now() > deadline) throw new Error(`the command palette did not list "${title}" within 60 s`);
  }
}

/** Resolves with the JSON in `file` once another process has written it. */
async function untilFile(file) {
  for (;;) {
    if (finishing) return new Promise(() => undefined);
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs test files with mocha in this process against `on`; each test's start and end go to run.log. */
async function runE2E(files, on, ctx) {
  if (files.length === 0) return { passes: 0, failures: 0 };
  globalThis.__groundworkWorkbench = {
    page: on,
    artifactsDir,
    logPath,
    modelServer,
    extensionPath,
    ...ctx,
    log: (m) => say(m),
    /**
     * Reloads a window as a person would (F1 → Reload Window): the test window, or another one a
     * test opened. Its extension host restarts, which is not taken for a crash.
     */
    async reload(target = on) {
      expectHostExit(target);
      windows.reloads += 1;
      await target.reload({ waitUntil: 'domcontentloaded', timeout: WINDOW_LOAD_MS });
      await target.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: WINDOW_LOAD_MS });
    },
    /** Opens another window of the same server on a folder or a .code-workspace file, with the extension under development. */
    async openWindow({ folder, workspace, label = 'window' }) {
      return openWorkbench(on.context(), workbenchUrl(ctx.server, { folder, workspace }), ` [${label}]`);
    },
    /** Closes a window openWindow opened, as a person closes it: its extension host stops (not a crash). */
    async closeWindow(target) {
      if (target.isClosed()) return;
      expectHostExit(target);
      await target.goto('about:blank', { timeout: 30_000 }).catch(() => undefined);
      await target.close({ runBeforeUnload: false }).catch(() => undefined);
      windows.closed += 1;
      // The test window in front again: a page in the background has no focus (nor keyboard).
      await on.bringToFront();
    },
  };
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    // per test, a safety net for a loaded machine (a file may give its own)
    timeout: 120_000,
    rootHooks: {
      async afterEach() {
        if (this.currentTest?.state === 'failed') await screenshotTo(`e2e-failure-${++shot}.png`, on);
      },
    },
  });
  if (opts.grep) mocha.grep(opts.grep);
  for (const f of files) mocha.addFile(f);
  return new Promise((resolveRun) => {
    const runner = mocha.run((failures) => resolveRun({ passes: runner.stats?.passes ?? 0, failures }));
    let fileStarted;
    let currentFile;
    runner.on('suite', (suite) => {
      if (suite.file && suite.file !== currentFile) {
        if (currentFile) fileTimes.push({ file: shortName(currentFile), ms: Date.now() - fileStarted });
        currentFile = suite.file;
        fileStarted = Date.now();
      }
    });
    runner.on('end', () => {
      if (currentFile) fileTimes.push({ file: shortName(currentFile), ms: Date.now() - fileStarted });
    });
    runner.on('test', (test) => toLog('e2e', `start: ${test.fullTitle()}`));
    runner.on('pass', (test) => toLog('e2e', `passed (${test.duration} ms): ${test.fullTitle()}`));
    runner.on('fail', (test, err) => toLog('e2e', `FAILED: ${test.fullTitle()}\n${err?.stack ?? err}`));
  });
}

const shortName = (file) => file.replace(/^.*\/e2e\//, '').replace(/\.cjs$/, '.ts');

async function main() {
  say(`extension under test: ${extensionPath}`);
  const tools = await setupTools();

  const pkg = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8'));
  const main = resolve(extensionPath, pkg.main ?? 'extension.js');
  if (!existsSync(main) && !existsSync(`${main}.js`)) {
    throw new Error(`${main} does not exist: run \`npm run build\` first`);
  }

  let t = Date.now();
  const outRoot = join(repoRoot, 'out/vscode-tests');
  sweepOldBundles(outRoot);
  bundleDir = join(outRoot, `run-${process.pid}`);
  rmSync(bundleDir, { recursive: true, force: true });
  const bundle = await bundleTests({ outDir: bundleDir, suffix: opts.bench ? '.bench.ts' : '.e2e.ts' });
  say(
    `bundled ${bundle.testFiles.length} in-host test file(s) and ${bundle.e2eFiles.length + bundle.restrictedFiles.length} e2e file(s) into ${bundleDir} (${Date.now() - t} ms)`,
  );

  sweepOldTempDirs();
  tmp = mkdtempSync(join(tmpdir(), `groundwork-vscode-${process.pid}-`));
  const workspace = join(tmp, 'workspace');
  prepareWorkspace(workspace);
  const resultsFile = join(tmp, 'integration-results.json');
  writeFileSync(
    join(bundle.integrationDir, 'run-config.json'),
    JSON.stringify({ files: bundle.testFiles, resultsFile, grep: opts.grep, testTimeoutMs: 60_000 }, null, 2),
  );

  const { startScriptedModelServer } = createRequire(import.meta.url)(bundle.modelServerEntry);
  modelServer = await startScriptedModelServer();
  say(`scripted model server ${modelServer.baseURL}`);

  // Beside the extension under test (code-server loads only one extensionDevelopmentPath): a
  // scripted chat model for VS Code's Language Model API and the test host that runs the in-host
  // suite. The restricted window's profile gets the packaged VSIX meanwhile.
  t = Date.now();
  const restrictedDir = join(tmp, 'restricted');
  const vsix = opts.packaged && !opts.bench && bundle.restrictedFiles.length ? packagedVsix() : undefined;
  const install = (dir, files, tag) =>
    installExtensions({ ...tools, tmp: dir, vsix: files, onOutput: (c) => toLog(`code-server:install${tag}`, c) });
  await Promise.all([
    Promise.all([
      packageFixture(tools, 'test/integration/fixtures/fakeChatModel', bundleDir),
      packageFixture(tools, 'test/integration/fixtures/testHost', bundleDir),
    ]).then((fixtures) => install(tmp, fixtures, '')),
    vsix ? install(restrictedDir, [vsix], ':restricted') : undefined,
  ]);
  say(
    `installed the scripted chat model and the test host${vsix ? `, and ${vsix} into the restricted window's profile` : ''} (${Date.now() - t} ms)`,
  );

  t = Date.now();
  codeServer = await startCodeServer({
    node24: tools.node24,
    codeServerEntry: tools.codeServerEntry,
    tmp,
    workspace,
    // what the test host runs when asked (test/integration/fixtures/testHost)
    env: { GROUNDWORK_IN_HOST_SUITE: bundle.entry },
    // model calls go to the scripted server, never to a real service
    settings: { 'groundwork.anthropic.baseUrl': modelServer.baseURL },
    onOutput: onServerOutput('code-server'),
  });
  writeFileSync(join(tmp, 'code-server.pgid'), String(codeServer.pid));
  await codeServer.waitHealthy();
  say(`code-server ${codeServer.url} healthy (pid group ${codeServer.pid}, ${Date.now() - t} ms)`);
  codeServer.exit.then((e) => {
    if (!cleaningUp) fail(`code-server exited unexpectedly (${e.signal ?? `exit ${e.code}`}); see ${logPath}`);
  });

  t = Date.now();
  browser = await chromium.launch({
    executablePath: tools.chromium,
    headless: true,
    args: CHROMIUM_ARGS,
    // our own handlers close the browser, stop code-server and print the summary
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const context = await browser.newContext({ viewport: VIEWPORT });
  page = await openWorkbench(context, workbenchUrl(codeServer, { folder: workspace }));
  await page
    .locator('.part.activitybar .action-item a.action-label[aria-label^="Groundwork"]')
    .first()
    .waitFor({ state: 'visible', timeout: WINDOW_LOAD_MS });
  say(`workbench ready (${Date.now() - t} ms)`);

  // 5. UI-driven tests
  t = Date.now();
  say('e2e (Playwright, as a person sees it):');
  let e2e;
  try {
    e2e = await runE2E(bundle.e2eFiles, page, {
      workspace,
      userDataDir: join(tmp, 'user-data'),
      server: codeServer,
    });
  } catch (err) {
    e2e = { passes: 0, failures: 1 };
    summary.notes.push(`e2e suite crashed: ${err.stack ?? err}`);
  }
  summary.passed += e2e.passes;
  summary.failed += e2e.failures;
  say(`e2e: ${e2e.passes} passed, ${e2e.failures} failed (${secs(Date.now() - t)})`);
  if (finishing || opts.bench) return;

  // The restricted window loads while the in-host suite runs.
  const restricted = openRestricted(tools, bundle.restrictedFiles, restrictedDir, vsix).catch((err) => err);

  // 6. the in-host suite, in the window's extension host
  t = Date.now();
  say('integration (mocha inside the extension host):');
  let results;
  try {
    // In front, with the focus: some in-host tests run commands on the focused editor (undo).
    await page.bringToFront();
    await paletteCommand(page, RUN_IN_HOST_SUITE);
    const done = await untilFile(join(bundle.integrationDir, 'done.json'));
    if (!done.ok) summary.notes.push(`the in-host suite ended with an error: ${done.error}`);
    if (existsSync(resultsFile)) results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch (err) {
    summary.notes.push(`the in-host suite could not be started: ${err.message}`);
  }
  if (finishing) return;
  if (results) {
    summary.passed += results.passes;
    summary.failed += results.failures;
    say(`integration: ${results.passes} passed, ${results.failures} failed (${secs(Date.now() - t)})`);
    for (const f of results.failed) summary.notes.push(`in-host failure: ${f.title}\n${f.error}`);
  } else {
    summary.failed += 1;
    summary.notes.push(`the in-host suite reported no results: it did not load or crashed; see ${logPath}`);
  }

  // 7. Restricted Mode, in a second window whose workspace is not trusted
  const ready = await restricted;
  if (ready instanceof Error) {
    summary.failed += 1;
    summary.notes.push(`the restricted window did not open: ${ready.stack ?? ready}`);
  } else if (ready) {
    await runRestricted(ready);
  }
}

/** Packs a fixture extension folder into a VSIX with vsce (which needs Node ≥ 22: Node 24). */
function packageFixture(tools, folder, outDir) {
  const out = join(outDir, `${folder.split('/').pop()}.vsix`);
  const vsce = join(repoRoot, 'node_modules/@vscode/vsce/vsce');
  return new Promise((resolvePackage, reject) => {
    const child = spawn(
      tools.node24,
      [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
      { cwd: join(repoRoot, folder), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (text += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (text += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      toLog('vsce', text);
      if (code === 0) resolvePackage(out);
      else reject(new Error(`packaging ${folder} failed (exit ${code}): ${text.trim()}`));
    });
  });
}

function packagedVsix() {
  const { version } = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8'));
  const file = join(extensionPath, `groundwork-${version}.vsix`);
  if (!existsSync(file)) throw new Error(`${file} does not exist: run \`npm run package\` first`);
  return file;
}

/**
 * Restricted Mode cannot be entered in a window started with --disable-workspace-trust, so
 * these UI tests get their own code-server with trust on and a folder it has never seen. With
 * `vsix` its profile has the packaged extension installed; else the window loads the development
 * folder.
 */
async function openRestricted(tools, files, dir, vsix) {
  if (files.length === 0) return undefined;
  const t = Date.now();
  const workspace = prepareWorkspace(join(dir, 'workspace'));
  // Keybindings are read when the window loads: the tests' own are in the profile from the start.
  const keybindings = join(repoRoot, 'test/e2e/restricted/keybindings.json');
  restrictedServer = await startCodeServer({
    node24: tools.node24,
    codeServerEntry: tools.codeServerEntry,
    tmp: dir,
    workspace,
    restricted: true,
    settings: { 'groundwork.anthropic.baseUrl': modelServer.baseURL },
    keybindings: existsSync(keybindings) ? readFileSync(keybindings, 'utf8') : undefined,
    onOutput: onServerOutput('code-server:restricted'),
  });
  writeFileSync(join(dir, 'code-server.pgid'), String(restrictedServer.pid));
  await restrictedServer.waitHealthy();
  const context = await browser.newContext({ viewport: VIEWPORT });
  const untrusted = await openWorkbench(
    context,
    workbenchUrl(restrictedServer, { folder: workspace, development: !vsix }),
    ' [restricted]',
  );
  say(`restricted window ready (${Date.now() - t} ms)`);
  return { files, untrusted, workspace, dir };
}

async function runRestricted({ files, untrusted, workspace, dir }) {
  const t = Date.now();
  say('e2e in Restricted Mode (an untrusted workspace):');
  let result;
  try {
    result = await runE2E(files, untrusted, {
      workspace,
      userDataDir: join(dir, 'user-data'),
      server: restrictedServer,
    });
  } catch (err) {
    result = { passes: 0, failures: 1 };
    summary.notes.push(`restricted e2e suite crashed: ${err.stack ?? err}`);
  }
  summary.passed += result.passes;
  summary.failed += result.failures;
  say(`restricted e2e: ${result.passes} passed, ${result.failures} failed (${secs(Date.now() - t)})`);
  expectHostExit(untrusted);
  await untrusted
    .context()
    .close()
    .catch(() => undefined);
  await restrictedServer.stop();
  restrictedServer = undefined;
}

main()
  .then(async () => {
    if (finishing) return;
    finishing = true;
    await cleanup();
    finish(summary.failed > 0 ? 1 : 0);
  })
  .catch((err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)));
