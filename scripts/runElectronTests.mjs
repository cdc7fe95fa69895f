// `npm run test:electron`: the in-VS Code mocha suite (test/integration) in desktop VS Code
// through @vscode/test-electron, for machines that are online. It downloads VS Code (into
// .vscode-test/) unless VSCODE_EXECUTABLE_PATH names an installed `code` binary. On a machine
// without internet it fails with a clear message: use `npm run test:vscode` (code-server) there.
//
// Needs `npm run build` first (the extension's main is dist/extension.js). On Linux without a
// display, run it under a virtual one: `xvfb-run -a npm run test:electron`.
// Options: --grep <regexp>, --extension <dir> (default the repo); VSCODE_VERSION (default 'stable').
import { runTests } from '@vscode/test-electron';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleTests, prepareWorkspace, repoRoot } from './vscode/bundleTests.mjs';

const { values: opts } = parseArgs({ options: { grep: { type: 'string' }, extension: { type: 'string' } } });
const extensionPath = resolve(opts.extension ?? process.env.GROUNDWORK_EXTENSION_PATH ?? repoRoot);
const t0 = Date.now();
const say = (m) => console.log(`[electron] ${m}`);

const NETWORK_ERROR =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|getaddrinfo|fetch failed|socket hang up|network|timed? ?out|status code|Failed to get|download/i;

async function main() {
  const main = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8')).main ?? 'extension.js';
  if (!existsSync(resolve(extensionPath, main))) {
    throw new Error(`${resolve(extensionPath, main)} does not exist: run \`npm run build\` first`);
  }
  const outDir = join(repoRoot, 'out/vscode-tests', `electron-${process.pid}`);
  rmSync(outDir, { recursive: true, force: true });
  const bundle = await bundleTests({ outDir });
  const tmp = mkdtempSync(join(tmpdir(), 'groundwork-electron-'));
  const workspace = prepareWorkspace(join(tmp, 'workspace'));
  const resultsFile = join(tmp, 'results.json');
  // no gate here: there is no runner-side UI driving (test/e2e needs code-server's workbench)
  writeFileSync(
    join(bundle.integrationDir, 'run-config.json'),
    JSON.stringify({ files: bundle.testFiles, resultsFile, grep: opts.grep, testTimeoutMs: 60_000 }, null, 2),
  );

  let code = 1;
  try {
    say(
      process.env.VSCODE_EXECUTABLE_PATH
        ? `using VS Code at ${process.env.VSCODE_EXECUTABLE_PATH}`
        : `downloading VS Code ${process.env.VSCODE_VERSION ?? 'stable'} (cached in .vscode-test/) …`,
    );
    code = await runTests({
      extensionDevelopmentPath: extensionPath,
      extensionTestsPath: bundle.entry,
      ...(process.env.VSCODE_EXECUTABLE_PATH
        ? { vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH }
        : { version: process.env.VSCODE_VERSION ?? 'stable' }),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } catch (err) {
    const text = String(err instanceof Error ? (err.stack ?? err.message) : err);
    if (!existsSync(resultsFile) && NETWORK_ERROR.test(text) && !process.env.VSCODE_EXECUTABLE_PATH) {
      console.error(`[electron] ${text.split('\n')[0]}`);
      console.error(
        '[electron] FAILED: could not download VS Code (this machine looks offline). ' +
          '@vscode/test-electron needs internet access to update.code.visualstudio.com, or ' +
          'VSCODE_EXECUTABLE_PATH=<path of an installed code binary>. ' +
          'Offline, run the same suite with `npm run test:vscode` (code-server).',
      );
    } else {
      console.error(`[electron] FAILED: ${text}`);
    }
    code = 1;
  } finally {
    let results;
    try {
      results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    } catch {}
    rmSync(tmp, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
    const passed = results?.passes ?? 0;
    const failed = results ? results.failures : 1;
    say(`wall time ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    console.log(`\nelectron: ${passed} passed, ${failed} failed`);
    if (failed > 0) code ||= 1;
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[electron] FAILED: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
