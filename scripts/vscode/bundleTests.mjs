// Bundles the tests that run against a real VS Code with esbuild (cjs, node platform):
//   test/integration/index.ts + test/integration/**/*.test.ts -> <outDir>/integration/*.cjs
//     loaded by the extension host (`vscode` external; mocha required from node_modules)
//   test/e2e/**/*.e2e.ts                                       -> <outDir>/e2e/*.cjs
//     loaded by the runner's own mocha (playwright-core external), in the order of E2E_ORDER;
//     those under test/e2e/restricted/ run in a second, untrusted window (Restricted Mode)
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

function find(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : find(p, suffix);
    return e.name.endsWith(suffix) ? [p] : [];
  });
}

/**
 * mocha 12's main entry is ESM; its CommonJS build is lib/mocha.cjs. Bundles require that file
 * by absolute path at run time (not bundled: mocha loads reporters and test files dynamically).
 */
function mochaExternal() {
  const mochaCjs = join(dirname(require.resolve('mocha/package.json')), 'lib/mocha.cjs');
  return {
    name: 'mocha-external',
    setup(build) {
      build.onResolve({ filter: /^mocha$/ }, () => ({ path: mochaCjs, external: true }));
    },
  };
}

/** Entry names keep the folder structure: test/integration/a/b.test.ts -> a/b.test.cjs */
function entryPoints(files, base) {
  return Object.fromEntries(files.map((f) => [relative(base, f).replace(/\.ts$/, ''), f]));
}

/**
 * The order the UI files run in, in one window that each leaves as it found it, except for what
 * is written here. A file not listed runs after these, in name order.
 *
 * - groundwork-container first: a fresh window, an empty workspace (the Plans welcome), no key.
 * - agentRun, build and buildContract expect no model at first; each stores a key and clears it at the end.
 * - model stores the key the panel's files after it use (and the in-host suite checks is never sent).
 * - panelDiscovery leaves the panel idle for panelHostileFiles and panelStreams.
 * - chat uses the stored key, turns VS Code's chat on and off again, and leaves the key.
 * - explorer works in a window of its own (another workspace), which it closes.
 */
export const E2E_ORDER = [
  'groundwork-container',
  'agentRun',
  'build',
  'buildContract',
  'journal',
  'model',
  'panelBrainstorm',
  'panelDiscovery',
  'panelHostileFiles',
  'panelStreams',
  'annotations',
  'cases',
  'chat',
  'explorer',
];

function byOrder(files, base) {
  const rank = (f) => {
    const i = E2E_ORDER.indexOf(relative(base, f).replace(/\.(e2e|bench)\.ts$/, ''));
    return i < 0 ? E2E_ORDER.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** `suffix` picks the UI files: '.e2e.ts' for the tests, '.bench.ts' for the benchmarks. */
export async function bundleTests({ outDir, suffix = '.e2e.ts' }) {
  const intDir = join(repoRoot, 'test/integration');
  const e2eDir = join(repoRoot, 'test/e2e');
  const testFiles = find(intDir, '.test.ts').sort();
  const allE2e = byOrder(find(e2eDir, suffix), e2eDir);
  const restrictedDir = join(e2eDir, 'restricted');
  const isRestricted = (f) => f.startsWith(restrictedDir + '/');
  const e2eFiles = allE2e.filter((f) => !isRestricted(f));
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
    outExtension: { '.js': '.cjs' },
    absWorkingDir: repoRoot,
  };
  const integrationOut = join(outDir, 'integration');
  const e2eOut = join(outDir, 'e2e');
  await esbuild.build({
    ...common,
    entryPoints: entryPoints([join(intDir, 'index.ts'), ...testFiles], intDir),
    outdir: integrationOut,
    external: ['vscode'],
    plugins: [mochaExternal()],
  });
  if (allE2e.length) {
    await esbuild.build({
      ...common,
      entryPoints: entryPoints(allE2e, e2eDir),
      outdir: e2eOut,
      external: ['playwright-core', 'vscode'],
      plugins: [mochaExternal()],
    });
  }
  // the scripted model server, for the runner to start before code-server
  const supportOut = join(outDir, 'support');
  await esbuild.build({
    ...common,
    entryPoints: { scriptedModelServer: join(repoRoot, 'test/support/scriptedModelServer.ts') },
    outdir: supportOut,
  });
  const toOut = (files, base, out) => files.map((f) => join(out, relative(base, f).replace(/\.ts$/, '.cjs')));
  return {
    integrationDir: integrationOut,
    entry: join(integrationOut, 'index.cjs'),
    /** relative to integrationDir */
    testFiles: testFiles.map((f) => relative(intDir, f).replace(/\.ts$/, '.cjs')),
    e2eFiles: toOut(e2eFiles, e2eDir, e2eOut),
    restrictedFiles: toOut(allE2e.filter(isRestricted), e2eDir, e2eOut),
    modelServerEntry: join(supportOut, 'scriptedModelServer.cjs'),
  };
}

/** Fills `dir` with the test workspace: a copy of test/integration/fixtures/workspace. */
export function prepareWorkspace(dir) {
  const fixture = join(repoRoot, 'test/integration/fixtures/workspace');
  if (existsSync(fixture)) cpSync(fixture, dir, { recursive: true });
  else mkdirSync(dir, { recursive: true });
  return dir;
}
