// The in-VS Code test entry: VS Code loads this bundle as `extensionTestsPath` and calls `run()`
// inside the extension host once the workbench is up. scripts/vscode/runTests.mjs bundles it
// (out/vscode-tests/run-<pid>/integration/index.cjs) next to the bundled *.test.ts files and a
// `run-config.json` written by the runner; `@vscode/test-electron` uses it too
// (scripts/runElectronTests.mjs).
//
// When the config names a gate file, the suite waits for it first: the runner drives the
// workbench UI with Playwright (test/e2e) before it lets the in-host suite change that UI.
import Mocha from 'mocha';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface RunConfig {
  /** test files, relative to this bundle's folder */
  files?: string[];
  gateFile?: string;
  gateTimeoutMs?: number;
  resultsFile?: string;
  grep?: string;
  testTimeoutMs?: number;
}

export interface SuiteResults {
  passes: number;
  failures: number;
  pending: number;
  failed: { title: string; error: string }[];
  durationMs: number;
}

function readConfig(dir: string): RunConfig {
  const file = join(dir, 'run-config.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunConfig) : {};
}

async function waitForGate(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) {
      console.warn(`[groundwork-tests] gate ${file} did not open in ${timeoutMs} ms; running anyway`);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function run(): Promise<void> {
  const dir = __dirname;
  const config = readConfig(dir);
  if (config.gateFile) await waitForGate(config.gateFile, config.gateTimeoutMs ?? 8 * 60_000);

  // color off: the output travels through the browser console to the runner's stdout
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: config.testTimeoutMs ?? 60_000 });
  if (config.grep) mocha.grep(config.grep);
  const files = config.files ?? readdirSync(dir).filter((f) => f.endsWith('.test.cjs') || f.endsWith('.test.js'));
  for (const f of files.sort()) mocha.addFile(join(dir, f));

  const started = Date.now();
  const results: SuiteResults = await new Promise((resolve) => {
    const failed: SuiteResults['failed'] = [];
    const runner = mocha.run((failures) => {
      const s = runner.stats;
      resolve({ passes: s?.passes ?? 0, failures, pending: s?.pending ?? 0, failed, durationMs: Date.now() - started });
    });
    runner.on('fail', (test, err: unknown) => {
      failed.push({ title: test.fullTitle(), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    });
  });
  if (config.resultsFile) writeFileSync(config.resultsFile, JSON.stringify(results, null, 2));
  if (results.failures > 0) throw new Error(`${results.failures} in-VS Code test(s) failed`);
}
