// `npm run test:vscode`: runs Groundwork's tests against a real VS Code, offline.
//
// code-server (VS Code's server + web workbench, from npm) runs under Node 24 and is driven by
// Debian's headless Chromium through playwright-core (see /work/shared/VSCODE-TESTING.md):
//
//   1. setup        tools installed or reused (scripts/vscode/setupTools.mjs)
//   2. bundle       test/integration (in-host mocha suite) and test/e2e (UI steps) with esbuild
//   3. start        code-server on a free port with a temp profile and a temp workspace folder
//   4. open         the workbench with extensionDevelopmentPath = the repo (dist/extension.js
//                   from `npm run build`) and extensionTestsPath = the in-host suite
//   5. e2e          test/e2e/*.e2e.ts drive the page with Playwright, as a person would, while
//                   the in-host suite waits at its gate
//   6. integration  the gate opens; the in-host mocha suite runs in the extension host; the
//                   workbench reports its exit code through window.codeAutomationExit
//   7. summary      `vscode: N passed, N failed` on its own line (CI reads it); exit 1 on any failure
//
// Options: --grep <regexp>   only tests whose full title matches (both suites)
//          --timeout <s>     hard limit for the whole run (default 1500, env GROUNDWORK_VSCODE_TIMEOUT): a safety net for a hung
//                            workbench, not a budget; the last CI machine needed ~1.3x this one's time
//          --extension <dir> extension folder to load (default the repo; env GROUNDWORK_EXTENSION_PATH)
//          --packaged        install the packaged groundwork-<version>.vsix (from `npm run package`)
//                            in the Restricted Mode window, as a user would, instead of loading the
//                            development folder: proves the VSIX itself works
//          --bench           run the UI benchmarks (test/e2e/**/*.bench.ts) instead of the UI tests
//          --keep            keep the temp folder and bundles (printed) for a post-mortem
//          --verbose         forward every workbench console line, not only the extension host's
// Artifacts: test-artifacts/vscode/run.log (everything, unfiltered) and *.png screenshots
// (env GROUNDWORK_VSCODE_ARTIFACTS=<dir> puts them elsewhere, e.g. for two runs at once).
import Mocha from 'mocha';
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
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { bundleTests, prepareWorkspace, repoRoot } from './bundleTests.mjs';
import { installExtension, startCodeServer } from './codeServer.mjs';
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
  /Failed to fetch|net::ERR_/,
  /update check|updateService|Update service/i,
  /telemetry/i,
  /\[Extension Host\] (debugger|Debugger listening)/,
  /punycode/,
  /Ignoring the error while validating workspace folder/,
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
let exitReported = false;
/** Extension-host exits a test caused on purpose (a window reload), not to be taken as a crash. */
let expectedHostExits = 0;
const summary = { passed: 0, failed: 0, notes: [] };
/** Numbers failure screenshots across both windows' suites, so none overwrites another. */
let shot = 0;

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
 * A runner killed with SIGKILL (a CI job limit) cannot clean up: its code-server group would
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
    try {
      const pgid = Number(readFileSync(join(dir, 'code-server.pgid'), 'utf8'));
      if (pgid > 1 && readFileSync(`/proc/${pgid}/cmdline`, 'utf8').includes('code-server')) {
        process.kill(-pgid, 'SIGKILL');
        say(`stopped code-server left running by an earlier run (process group ${pgid})`);
      }
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Formats one page console message; extension-host lines are ('%c INFO', 'color…', fmt, ...args). */
async function consoleText(msg) {
  const args = await Promise.all(msg.args().map((a) => a.jsonValue().catch(() => a.toString())));
  if (typeof args[0] === 'string' && args[0].startsWith('%c') && args.length >= 2) {
    return { hostLike: true, label: args[0].replace(/%c/g, '').trim(), text: format(...args.slice(2)) };
  }
  return { hostLike: false, label: msg.type(), text: args.length ? format(...args) : msg.text() };
}

async function runE2E(e2eFiles, on, workspace, userDataDir) {
  if (e2eFiles.length === 0) return { passes: 0, failures: 0 };
  globalThis.__groundworkWorkbench = {
    page: on,
    artifactsDir,
    workspace,
    userDataDir,
    logPath,
    modelServer,
    extensionPath,
    log: (m) => say(m),
    /**
     * Reloads a window as a person would (F1 → Reload Window): the test window, or another one a
     * test opened on the same server (support/dialogWindow.ts). Its extension host restarts, which
     * is not taken for a crash.
     */
    async reload(target = on) {
      expectedHostExits += 1;
      await target.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
      await target.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: 90_000 });
    },
  };
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    timeout: 60_000,
    rootHooks: {
      async afterEach() {
        if (this.currentTest?.state === 'failed') await screenshotTo(`e2e-failure-${++shot}.png`, on);
      },
    },
  });
  if (opts.grep) mocha.grep(opts.grep);
  for (const f of e2eFiles) mocha.addFile(f);
  return new Promise((resolveRun) => {
    const runner = mocha.run((failures) => resolveRun({ passes: runner.stats?.passes ?? 0, failures }));
  });
}

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
    `bundled ${bundle.testFiles.length} in-host test file(s) and ${bundle.e2eFiles.length} e2e file(s) into ${bundleDir} (${Date.now() - t} ms)`,
  );

  sweepOldTempDirs();
  tmp = mkdtempSync(join(tmpdir(), `groundwork-vscode-${process.pid}-`));
  const workspace = join(tmp, 'workspace');
  prepareWorkspace(workspace);
  const gateFile = join(tmp, 'e2e-done');
  const resultsFile = join(tmp, 'integration-results.json');
  writeFileSync(
    join(bundle.integrationDir, 'run-config.json'),
    JSON.stringify(
      {
        files: bundle.testFiles,
        gateFile,
        gateTimeoutMs: TIMEOUT_S * 1000,
        resultsFile,
        grep: opts.grep,
        testTimeoutMs: 60_000,
      },
      null,
      2,
    ),
  );

  const { startScriptedModelServer } = createRequire(import.meta.url)(bundle.modelServerEntry);
  modelServer = await startScriptedModelServer();
  say(`scripted model server ${modelServer.baseURL}`);

  // a scripted chat model for VS Code's Language Model API, installed beside the extension under
  // test (code-server loads only one extensionDevelopmentPath)
  t = Date.now();
  const fakeModel = packageFixture(tools, 'test/integration/fixtures/fakeChatModel', bundleDir);
  installExtension({ ...tools, tmp, vsix: fakeModel, onOutput: (c) => toLog('code-server:install', c) });
  say(`installed the scripted chat model extension (${Date.now() - t} ms)`);

  t = Date.now();
  codeServer = await startCodeServer({
    node24: tools.node24,
    codeServerEntry: tools.codeServerEntry,
    tmp,
    workspace,
    // model calls go to the scripted server, never to a real service
    settings: { 'groundwork.anthropic.baseUrl': modelServer.baseURL },
    onOutput: (chunk) => {
      toLog('code-server', chunk);
      // An extension host that dies (a crash, process.exit in the extension) never reports
      // through codeAutomationExit: give the workbench a grace period, then fail fast
      // instead of waiting for the hard timeout.
      const m = /Extension Host Process exited with code: (\S+), signal: (\S+)\./.exec(chunk);
      if (m && expectedHostExits > 0) {
        expectedHostExits -= 1;
      } else if (m) {
        setTimeout(() => {
          if (!exitReported)
            fail(
              `the extension host exited (code ${m[1]}, signal ${m[2]}) and the workbench reported no test result; see ${logPath}`,
            );
        }, 20_000).unref();
      }
    },
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
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();

  // extension-host and workbench console: in order, formatted, noise filtered on stdout
  let consoleChain = Promise.resolve();
  page.on('console', (msg) => {
    consoleChain = consoleChain.then(async () => {
      const { hostLike, label, text } = await consoleText(msg);
      toLog(hostLike ? `console ${label}` : `console.${label}`, text);
      if (opts.verbose) {
        console.log(`  [${label}] ${text}`);
        return;
      }
      const important = msg.type() === 'error' && /groundwork/i.test(text);
      if ((hostLike || important) && !isNoise(text)) {
        for (const line of text.split('\n')) if (!isNoise(line)) console.log(`  ${line}`);
      }
    });
  });
  page.on('pageerror', (err) => toLog('pageerror', err.stack ?? err.message));

  let reportExit;
  const workbenchExit = new Promise((r) => (reportExit = r));
  await page.exposeFunction('codeAutomationExit', (code) => {
    toLog('runner', `codeAutomationExit(${code})`);
    exitReported = true;
    reportExit(Number(code));
  });

  const remote = (p) => `vscode-remote://127.0.0.1:${codeServer.port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['extensionTestsPath', remote(bundle.entry)],
  ];
  const url = `${codeServer.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  toLog('runner', `open ${url}`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: 90_000 });
  say(`workbench ready (${Date.now() - t} ms)`);

  // 5. UI-driven tests, while the in-host suite waits at its gate
  t = Date.now();
  say('e2e (Playwright, as a person sees it):');
  let e2e;
  try {
    e2e = await runE2E(bundle.e2eFiles, page, workspace, join(tmp, 'user-data'));
  } catch (err) {
    e2e = { passes: 0, failures: 1 };
    summary.notes.push(`e2e suite crashed: ${err.stack ?? err}`);
  }
  summary.passed += e2e.passes;
  summary.failed += e2e.failures;
  say(`e2e: ${e2e.passes} passed, ${e2e.failures} failed (${Date.now() - t} ms)`);
  if (finishing) return; // timed out or interrupted meanwhile

  // 6. the in-host suite
  t = Date.now();
  say('integration (mocha inside the extension host):');
  writeFileSync(gateFile, new Date().toISOString());
  const exitCode = await workbenchExit;
  await consoleChain;
  let results;
  try {
    results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch {}
  if (results) {
    summary.passed += results.passes;
    summary.failed += results.failures;
    say(
      `integration: ${results.passes} passed, ${results.failures} failed (${Date.now() - t} ms); workbench exit code ${exitCode}`,
    );
    for (const f of results.failed) summary.notes.push(`in-host failure: ${f.title}\n${f.error}`);
  } else {
    summary.failed += 1;
    summary.notes.push(
      `the in-host suite reported no results (workbench exit code ${exitCode}): it did not load or crashed; see ${logPath}`,
    );
  }
  if (exitCode !== 0 && results && results.failures === 0) {
    summary.failed += 1;
    summary.notes.push(`the workbench exited with code ${exitCode} although no in-host test failed`);
  }
  if (finishing) return;

  // 7. Restricted Mode, in a second window whose workspace is not trusted
  await runRestricted(tools, bundle.restrictedFiles);
}

/** Packs a fixture extension folder into a VSIX with vsce (which needs Node ≥ 22: Node 24). */
function packageFixture(tools, folder, outDir) {
  const out = join(outDir, `${folder.split('/').pop()}.vsix`);
  const vsce = join(repoRoot, 'node_modules/@vscode/vsce/vsce');
  const r = spawnSync(
    tools.node24,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
    {
      cwd: join(repoRoot, folder),
      encoding: 'utf8',
    },
  );
  toLog('vsce', `${r.stdout ?? ''}${r.stderr ?? ''}`);
  if (r.status !== 0)
    throw new Error(`packaging ${folder} failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim()}`);
  return out;
}

function packagedVsix() {
  const { version } = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8'));
  const file = join(extensionPath, `groundwork-${version}.vsix`);
  if (!existsSync(file)) throw new Error(`${file} does not exist: run \`npm run package\` first`);
  return file;
}

/**
 * Restricted Mode cannot be entered in a window started with --disable-workspace-trust, so
 * these UI tests get their own code-server with trust on and a folder it has never seen.
 */
async function runRestricted(tools, files) {
  if (files.length === 0) return;
  let t = Date.now();
  const dir = join(tmp, 'restricted');
  const workspace = prepareWorkspace(join(dir, 'workspace'));
  const vsix = opts.packaged ? packagedVsix() : undefined;
  if (vsix) {
    installExtension({ ...tools, tmp: dir, vsix, onOutput: (c) => toLog('code-server:install', c) });
    say(`installed ${vsix} into the restricted window's profile`);
  }
  restrictedServer = await startCodeServer({
    node24: tools.node24,
    codeServerEntry: tools.codeServerEntry,
    tmp: dir,
    workspace,
    restricted: true,
    settings: { 'groundwork.anthropic.baseUrl': modelServer.baseURL },
    onOutput: (chunk) => toLog('code-server:restricted', chunk),
  });
  await restrictedServer.waitHealthy();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const untrusted = await context.newPage();
  untrusted.on('console', (msg) => toLog(`console.${msg.type()}:restricted`, msg.text()));
  const remote = (p) => `vscode-remote://127.0.0.1:${restrictedServer.port}${p}`;
  const payload = vsix
    ? ''
    : `&payload=${encodeURIComponent(JSON.stringify([['extensionDevelopmentPath', remote(extensionPath)]]))}`;
  await untrusted.goto(`${restrictedServer.url}/?folder=${encodeURIComponent(workspace)}${payload}`, {
    waitUntil: 'domcontentloaded',
    timeout: 60_000,
  });
  await untrusted.locator('.monaco-workbench .statusbar').waitFor({ state: 'visible', timeout: 90_000 });
  say(`restricted window ready (${Date.now() - t} ms)`);
  t = Date.now();
  say('e2e in Restricted Mode (an untrusted workspace):');
  let result;
  try {
    result = await runE2E(files, untrusted, workspace, join(dir, 'user-data'));
  } catch (err) {
    result = { passes: 0, failures: 1 };
    summary.notes.push(`restricted e2e suite crashed: ${err.stack ?? err}`);
  }
  summary.passed += result.passes;
  summary.failed += result.failures;
  say(`restricted e2e: ${result.passes} passed, ${result.failures} failed (${Date.now() - t} ms)`);
  await context.close().catch(() => undefined);
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
