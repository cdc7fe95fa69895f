// Runs every test/unit/**/*.test.ts with Node's test runner (TypeScript through tsx). Arguments
// that are folders (e.g. `test/stress`, as `npm run test:stress` does) run the tests under them
// instead; files run as given; the rest is passed through, e.g.
// `npm run test:unit -- --test-name-pattern=journal`.
//
// Each file is a process of its own. Node runs one file fewer at a time than there are cores: on a
// 2-core CI machine, one at a time, the second core idle while a file waits on its scripted server,
// child processes or timers. So at least two at a time (`--test-concurrency=N` overrides), and the
// files that take seconds start first, so that none of them is left running alone at the end.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * The files that take longest (3 s to 30 s on a 2-core machine), longest first: they start first.
 * Only an order: a file missing here runs all the same, after these, in name order.
 */
const SLOW_FIRST = [
  'test/stress/storage/faults.test.ts',
  'test/stress/agent/hostileProcesses.test.ts',
  'test/stress/build/buildCli.test.ts',
  'test/stress/agent/agentCli.test.ts',
  'test/stress/commands/nodeCommandRunner.test.ts',
  'test/stress/cases/concurrentAdds.test.ts',
  'test/stress/cli/discoverProcess.test.ts',
  'test/stress/cli/cliProcess.test.ts',
  'test/stress/build/buildExternalSpec.test.ts',
  'test/unit/architecture/layers.test.ts',
  'test/unit/llm/anthropicRetries.test.ts',
  'test/unit/cli/brainstorm.test.ts',
  'test/unit/fuzz/sessionFiles.test.ts',
  'test/unit/cli/brainstormResume.test.ts',
  'test/unit/run/hostile/runFolders.test.ts',
  'test/unit/cli/brainstormDamaged.test.ts',
  'test/unit/cli/discover.test.ts',
  'test/unit/brainstorm/sessionFile.test.ts',
  'test/unit/storage/fileLock.test.ts',
  'test/unit/build/buildRecord.test.ts',
  'test/unit/build/markers.test.ts',
  'test/unit/run/hostile/concurrency.test.ts',
];

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return find(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const args = process.argv.slice(2);
const explicit = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--'));
const rank = (f) => {
  const i = SLOW_FIRST.indexOf(f.split('\\').join('/'));
  return i < 0 ? SLOW_FIRST.length : i;
};
const testsIn = (dir) =>
  find(join(root, dir))
    .map((f) => relative(root, f))
    .sort()
    .sort((a, b) => rank(a) - rank(b));
const files = (explicit.length ? explicit : ['test/unit']).flatMap((a) =>
  statSync(resolve(root, a), { throwIfNoEntry: false })?.isDirectory() ? testsIn(a) : [a],
);
if (files.length === 0) {
  console.error(`no test files found under ${explicit.join(', ') || 'test/unit'}`);
  process.exit(1);
}
const concurrency = flags.some((f) => f.startsWith('--test-concurrency'))
  ? []
  : [`--test-concurrency=${Math.max(2, availableParallelism() - 1)}`];
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...concurrency, ...flags, ...files],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
