// Runs every test/unit/**/*.test.ts with Node's test runner (TypeScript through tsx). Arguments
// that are folders (e.g. `test/stress`, as `npm run test:stress` does) run the tests under them
// instead; files run as given; the rest is passed through, e.g.
// `npm run test:unit -- --test-name-pattern=journal`.
//
// The files run in one process per core (two at most, `--shards=N` to choose), each process taking
// its share one after another, each file inside a suite named by its path (so its top-level
// before/after hooks are its own, as they would be in a process of its own). Node 20
// has no `--test-isolation=none` (22.8 has); this does by hand what it does. Loading tsx, the
// sources and their packages once instead of once a file saves most of what the files cost apart.
// The price: a test file must put back what it changes in the process (environment, current folder,
// globals, umask, module hooks), close what it opens, and not count on a module's state being
// fresh; `--shuffle[=SEED]` runs the files in a random order (printing the seed) to find one that
// passes only after another.
//
// Each such process is a test file of Node's own runner (a two-line entry in a temporary folder
// that imports this file; the shards' file lists in GROUNDWORK_TEST_FILES, its own index in
// GROUNDWORK_TEST_SHARD), which formats what they report as one run: Node 20's spec reporter,
// formatting a failure (a todo test's too), marks a RegExp of its own in a way that makes V8 drop
// its fast path for `split(regexp)` for the rest of the process (70 times slower on 5 MB), which
// would slow every later file and fail their time limits. What makes a run end and say why,
// whatever a test leaves behind:
// - a file that takes longer than `--test-timeout` (default 5 minutes) fails, its hung test is
//   cancelled, and the next file runs (Node ignores --test-timeout in the process that runs the
//   tests, so each file's suite gets it, and its tests inherit it);
// - when the last file is done, anything still keeping the process alive (a server, a socket, a
//   child process, a timer) fails the run, named with the files after which it was first seen, and
//   the process ends anyway (`--test-force-exit`);
// - a process that is still running after 30 minutes (a test spinning in a loop) is killed, and
//   the run reported as timed out.
//
// `--isolate` runs each file in a process of its own instead (what `npm run test:stress` does: its
// tests spawn, signal and kill child processes and fill disks), two files at a time on a 2-core
// machine (Node's default would be one), the slowest first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
/** The files for the one process to run (JSON), set by the runner for it. */
const FILES_ENV = 'GROUNDWORK_TEST_FILES';
const FILE_TIMEOUT_ENV = 'GROUNDWORK_TEST_FILE_TIMEOUT';
/** Which of the shards in FILES_ENV this process runs (set by its entry file). */
const SHARD_ENV = 'GROUNDWORK_TEST_SHARD';
/** Processes for the unit files (`--shards=N` sets it): one a core, at most two. */
const DEFAULT_SHARDS = Math.max(1, Math.min(2, availableParallelism()));
/** What a file of SLOW_FIRST costs, in files of the rest (they take 3 s to 10 s, most of the rest well under 1 s). */
const SLOW_COST = 15;
/** How long one file may take (`--test-timeout=MS` sets it), and the whole run. */
const FILE_TIMEOUT_MS = 5 * 60_000;
const RUN_TIMEOUT_MS = 30 * 60_000;

/**
 * The files that take longest (3 s to 30 s on a 2-core machine), longest first: with `--isolate`
 * they start first; in shards, they are shared out first. Only an order: a file missing here runs
 * all the same, after these, in name order.
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

const rank = (f) => {
  const i = SLOW_FIRST.indexOf(f.split('\\').join('/'));
  return i < 0 ? SLOW_FIRST.length : i;
};

/** A random order from `seed` (a 32-bit integer), the same for the same seed. */
function shuffled(files, seed) {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  const out = [...files];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const filesForThisProcess = process.env[FILES_ENV];
if (filesForThisProcess !== undefined) runHere(JSON.parse(filesForThisProcess)[Number(process.env[SHARD_ENV])]);
else runner(process.argv.slice(2));

function runner(args) {
  const explicit = args.filter((a) => !a.startsWith('--'));
  const isolate = args.includes('--isolate');
  const shuffle = args.find((a) => a === '--shuffle' || a.startsWith('--shuffle='));
  const timeout = args.find((a) => a.startsWith('--test-timeout='));
  const shardsArg = args.find((a) => a.startsWith('--shards='));
  const flags = args.filter(
    (a) => a.startsWith('--') && a !== '--isolate' && a !== shuffle && a !== shardsArg && (isolate || a !== timeout),
  );
  const testsIn = (dir) =>
    find(join(root, dir))
      .map((f) => relative(root, f))
      .sort()
      .sort((a, b) => (isolate ? rank(a) - rank(b) : 0));
  let files = (explicit.length ? explicit : ['test/unit']).flatMap((a) =>
    statSync(resolve(root, a), { throwIfNoEntry: false })?.isDirectory() ? testsIn(a) : [a],
  );
  if (files.length === 0) {
    console.error(`no test files found under ${explicit.join(', ') || 'test/unit'}`);
    process.exit(1);
  }
  if (shuffle) {
    const seed = shuffle.includes('=') ? Number(shuffle.slice(shuffle.indexOf('=') + 1)) : Date.now() % 2 ** 31;
    console.log(`files in a random order: --shuffle=${seed}`);
    files = shuffled(files, seed);
  }
  const node = (argv, env = process.env) => {
    const child = spawn(process.execPath, argv, { cwd: root, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    // Ctrl-C reaches the child too (same process group); this process waits for its report.
    process.on('SIGINT', () => undefined);
  };
  const reporter = flags.some((f) => f.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
  if (isolate) {
    const concurrency = flags.some((f) => f.startsWith('--test-concurrency'))
      ? []
      : [`--test-concurrency=${Math.max(2, availableParallelism() - 1)}`];
    node(['--import', 'tsx', '--test', ...reporter, ...concurrency, ...flags, ...files]);
  } else {
    // Node's runner with one small test file per shard, each importing this file: it starts one
    // process for each (where runHere runs that shard's files), two at once, gives each process
    // RUN_TIMEOUT_MS, and reports what they send back as one run.
    const count = shardsArg ? Number(shardsArg.slice(shardsArg.indexOf('=') + 1)) : DEFAULT_SHARDS;
    if (!Number.isInteger(count) || count < 1) {
      console.error(`--shards wants a whole number of processes from 1 up, not '${shardsArg}'`);
      process.exit(1);
    }
    const shards = split(files, Math.min(count, files.length));
    const dir = mkdtempSync(join(tmpdir(), 'groundwork-unit-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const entries = shards.map((_, i) => {
      const entry = join(dir, `shard-${i + 1}-of-${shards.length}.mjs`);
      const body = `process.env.${SHARD_ENV} = '${i}';\nawait import(${JSON.stringify(pathToFileURL(import.meta.filename).href)});\n`;
      writeFileSync(entry, body);
      return entry;
    });
    const env = {
      ...process.env,
      [FILES_ENV]: JSON.stringify(shards),
      [FILE_TIMEOUT_ENV]: timeout ? timeout.slice(timeout.indexOf('=') + 1) : String(FILE_TIMEOUT_MS),
    };
    const argv = ['--import', 'tsx', '--test', ...reporter, '--test-force-exit', `--test-timeout=${RUN_TIMEOUT_MS}`];
    node([...argv, `--test-concurrency=${shards.length}`, ...flags, ...entries], env);
  }
}

/**
 * `files` in `n` shards of about the same cost: the known slow ones first, each to the shard that
 * has the least so far (counting a slow file as SLOW_COST ordinary ones), then the rest the same way;
 * each shard keeps the order it was given.
 */
function split(files, n) {
  const shards = Array.from({ length: n }, () => ({ files: [], cost: 0 }));
  const byCost = [...files].sort((a, b) => rank(a) - rank(b));
  for (const f of byCost) {
    const least = shards.reduce((a, b) => (b.cost < a.cost ? b : a));
    least.files.push(f);
    least.cost += rank(f) < SLOW_FIRST.length ? SLOW_COST : 1;
  }
  return shards.map((s) => files.filter((f) => s.files.includes(f)));
}

/**
 * In the one process (started by `runner`, with tsx loaded and Node's test flags): each file
 * required inside a suite of its own, then the check that nothing is left running.
 */
async function runHere(files) {
  const { after, before, describe, test } = await import('node:test');
  const require = createRequire(import.meta.url);
  const timeout = Number(process.env[FILE_TIMEOUT_ENV] ?? FILE_TIMEOUT_MS);
  // Not for the processes the tests start.
  delete process.env[FILES_ENV];
  delete process.env[FILE_TIMEOUT_ENV];
  delete process.env[SHARD_ENV];

  // What keeps a process alive, counted by kind. Requests (a file read, a write to a socket) end by
  // themselves; handles and timers are what a test can leave open.
  const open = () => {
    const count = new Map();
    for (const kind of process.getActiveResourcesInfo()) {
      if (/Req|WriteWrap|ShutdownWrap|QueryWrap/.test(kind)) continue;
      count.set(kind, (count.get(kind) ?? 0) + 1);
    }
    return count;
  };
  const more = (now, then) =>
    [...now].filter(([kind, n]) => n > (then.get(kind) ?? 0)).map(([kind, n]) => [kind, n - (then.get(kind) ?? 0)]);
  const atStart = open();
  /** Kind → the files after which one more of that kind was open than before them. */
  const seenAfter = new Map();

  for (const file of files) {
    describe(file, { timeout }, () => {
      let opened;
      before(() => void (opened = open()));
      try {
        require(resolve(root, file));
      } catch (err) {
        // A test of its own, so that the summary counts the file as failed.
        test('the file loads', () => {
          throw err;
        });
      }
      after(() => {
        for (const [kind] of more(open(), opened)) seenAfter.set(kind, [...(seenAfter.get(kind) ?? []), file]);
      });
    });
  }

  after(async () => {
    // What is closing as the last test ends (a child's exit, a socket's close) gets a moment to go.
    const until = Date.now() + 5_000;
    let left = more(open(), atStart);
    while (left.length > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      left = more(open(), atStart);
    }
    if (left.length === 0) return;
    const lines = left.map(([kind, n]) => {
      const files = seenAfter.get(kind);
      return `  ${n} × ${kind}${files ? ` (first open after ${files.join(', ')})` : ''}`;
    });
    throw new Error(
      `the tests left these open when the last one ended (the run was ended anyway):\n${lines.join('\n')}`,
    );
  });
}
