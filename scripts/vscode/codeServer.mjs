// Starts code-server (a real VS Code: server + web workbench) under Node 24 in its own process
// group, with everything it writes kept in a temporary folder, and stops the whole group.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Settings that keep a fresh profile quiet (no update checks, tips, welcome page or chat) and like the desktop's. */
export const QUIET_SETTINGS = {
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'npm.autoDetect': 'off',
  'typescript.tsserver.experimental.enableProjectDiagnostics': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  // As on the desktop: a web window saves edited files after a second by default, which would save
  // under a test an edit it means to keep unsaved (a window running extension tests does not).
  'files.autoSave': 'off',
};

function profileDirs(tmp) {
  return {
    userData: join(tmp, 'user-data'),
    extensions: join(tmp, 'extensions'),
    xdgConfig: join(tmp, 'xdg-config'),
    xdgData: join(tmp, 'xdg-data'),
    xdgCache: join(tmp, 'xdg-cache'),
  };
}

/**
 * Installs VSIX files into the profile a later startCodeServer({ tmp }) uses, as a user would with
 * `code --install-extension` (one code-server call for all of them). Resolves when done.
 */
export function installExtensions({ node24, codeServerEntry, tmp, vsix, onOutput }) {
  const dirs = profileDirs(tmp);
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const files = Array.isArray(vsix) ? vsix : [vsix];
  const args = [codeServerEntry, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  for (const f of files) args.push('--install-extension', f);
  return new Promise((resolve, reject) => {
    const child = spawn(node24, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: dirs.xdgConfig,
        XDG_DATA_HOME: dirs.xdgData,
        XDG_CACHE_HOME: dirs.xdgCache,
      },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      onOutput?.(out);
      const installed = (out.match(/successfully installed/gi) ?? []).length;
      if (code === 0 && installed >= files.length) resolve();
      else reject(new Error(`installing ${files.join(', ')} into code-server failed (exit ${code}): ${out.trim()}`));
    });
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** With workspace trust on, a folder opened for the first time is untrusted: Restricted Mode. */
const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

/**
 * @param {{ node24: string, codeServerEntry: string, tmp: string, workspace: string,
 *           onOutput: (chunk: string) => void, env?: Record<string,string>,
 *           restricted?: boolean, settings?: Record<string, unknown>, keybindings?: string }} o
 *   restricted: open the workspace untrusted (Restricted Mode); settings: more user settings;
 *   keybindings: the text of the profile's keybindings.json
 */
export async function startCodeServer(o) {
  const dirs = profileDirs(o.tmp);
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'User/settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...(o.restricted ? UNTRUSTED_SETTINGS : {}), ...o.settings }, null, 2),
  );
  // The window reads its keybindings when it loads (a change made later is taken by a reload only).
  writeFileSync(join(dirs.userData, 'User/keybindings.json'), o.keybindings ?? '[]\n');
  const config = join(o.tmp, 'config.yaml');
  writeFileSync(config, 'auth: none\ncert: false\n');

  const port = await freePort();
  const args = [
    o.codeServerEntry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--config',
    config,
    '--disable-telemetry',
    '--disable-update-check',
    ...(o.restricted ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    // REQUIRED: without it extensionDevelopmentPath / extensionTestsPath are silently ignored
    '--vscode-option',
    'enable-smoke-test-driver',
    o.workspace,
  ];
  const child = spawn(o.node24, args, {
    cwd: o.tmp,
    detached: true, // own process group: stop() kills it whole (helpers linger otherwise)
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...o.env,
      XDG_CONFIG_HOME: dirs.xdgConfig,
      XDG_DATA_HOME: dirs.xdgData,
      XDG_CACHE_HOME: dirs.xdgCache,
      // code-server must not pick up a parent VS Code's IPC hooks or a password
      VSCODE_IPC_HOOK_CLI: '',
      PASSWORD: '',
      HASHED_PASSWORD: '',
      NODE_OPTIONS: '',
    },
  });
  child.stdout.setEncoding('utf8').on('data', o.onOutput);
  child.stderr.setEncoding('utf8').on('data', o.onOutput);
  let exited = null;
  const exit = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    }),
  );
  child.on('error', (err) => o.onOutput(`[code-server spawn error] ${err.message}\n`));

  const url = `http://127.0.0.1:${port}`;
  let stopped = false;
  /** Kills the whole process group: SIGTERM, then SIGKILL after a grace period. */
  async function stop(graceMs = 3000) {
    if (stopped) return;
    stopped = true;
    const group = -child.pid;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      process.kill(group, 'SIGTERM');
    } catch {}
    const deadline = Date.now() + graceMs;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive()) {
      try {
        process.kill(group, 'SIGKILL');
      } catch {}
    }
  }
  /** Synchronous last resort (process 'exit' handler). */
  function killNow() {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }

  async function waitHealthy(timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (exited)
        throw new Error(`code-server exited before it was healthy (${exited.signal ?? `exit ${exited.code}`})`);
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs / 1000}s`);
  }

  return { url, port, pid: child.pid, exit, stop, killNow, waitHealthy, exited: () => exited };
}
