// The in-VS Code test entry: `run()` runs the in-host mocha suite inside the extension host.
// scripts/vscode/runTests.mjs bundles it (out/vscode-tests/run-<pid>/integration/index.cjs) next to
// the bundled *.test.ts files and a `run-config.json`, and has the test host extension
// (fixtures/testHost) call `run()` once the UI tests are done; `@vscode/test-electron` loads it as
// `extensionTestsPath` (scripts/runElectronTests.mjs).
import Mocha from 'mocha';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface RunConfig {
  /** test files, relative to this bundle's folder */
  files?: string[];
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

export async function run(): Promise<void> {
  const dir = __dirname;
  const config = readConfig(dir);

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
