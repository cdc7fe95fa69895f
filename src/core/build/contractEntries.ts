// What a build's test commands depend on besides the tests themselves, as entries that can be
// hashed and compared: the package.json scripts a TEST:/BUILD: command reaches (with npm's pre and
// post scripts, and the scripts those scripts run), a Makefile and the files it includes, and the
// test runners' configuration files (absent ones too: a config created later changes what runs).
// Pure: the caller reads the files. The agents wrote every one of these files, so nothing here
// trusts them: JSON that does not parse, a script that names itself, ten thousand scripts are all
// just entries.

/** One thing a command depends on: a whole file (key '') or one part of it (`scripts.test`, `[tool.pytest]`). */
export interface EntryRef {
  /** Relative to the project folder, '/'-separated. */
  file: string;
  key: string;
}

/** Test runners' configuration, looked at whatever the command: a change to one can make any test run pass. */
export const CONFIG_FILES = [
  'jest.config.js',
  'jest.config.ts',
  'jest.config.mjs',
  'jest.config.cjs',
  'jest.config.json',
  'vitest.config.js',
  'vitest.config.ts',
  'vitest.config.mjs',
  'vitest.config.mts',
  'vitest.config.cjs',
  'vite.config.js',
  'vite.config.ts',
  'vite.config.mjs',
  '.mocharc.js',
  '.mocharc.cjs',
  '.mocharc.json',
  '.mocharc.jsonc',
  '.mocharc.yml',
  '.mocharc.yaml',
  'babel.config.js',
  '.babelrc',
  '.npmrc',
  '.yarnrc.yml',
  'pytest.ini',
  'tox.ini',
  'setup.cfg',
  'conftest.py',
  'tests/conftest.py',
  'test/conftest.py',
  'go.mod',
  // What can stand in for a test runner or change what it runs (a package manager's own settings,
  // a task runner's file, a module shadowing pytest, Python's startup hooks).
  '.yarnrc',
  '.pnpmfile.cjs',
  'pnpm-workspace.yaml',
  'bunfig.toml',
  'deno.json',
  'deno.jsonc',
  '.cargo/config',
  '.cargo/config.toml',
  'pytest.py',
  'pytest/__init__.py',
  'sitecustomize.py',
  'usercustomize.py',
  'src/conftest.py',
] as const;

/** package.json keys that configure a test runner. */
const PACKAGE_CONFIG_KEYS = ['jest', 'mocha', 'ava', 'c8', 'nyc', 'type', 'imports', 'workspaces'] as const;
/** Sections of pyproject.toml and Cargo.toml that configure tests (a prefix of the section's name). */
const TOML_SECTIONS: Record<string, readonly string[]> = {
  'pyproject.toml': ['tool.pytest', 'tool.tox', 'tool.coverage', 'project.scripts', 'tool.poetry.scripts'],
  'Cargo.toml': ['[test]', 'profile.test', 'lib', 'features'],
};
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'] as const;
/** The most scripts followed from one command, and the most included makefiles. */
const SCRIPTS_MAX = 200;
const INCLUDES_MAX = 50;

const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Words of npm and the others that run a named script after them. */
const RUN_WORDS = new Set(['run', 'run-script', 'rum', 'urn']);
/** Words that are the test script's own short names. */
const TEST_WORDS = new Set(['test', 't', 'tst']);
/** Commands of npm/yarn/pnpm that are not scripts (yarn and pnpm run an unknown word as a script). */
const NOT_SCRIPTS = new Set([
  'install',
  'i',
  'ci',
  'add',
  'remove',
  'rm',
  'uninstall',
  'exec',
  'x',
  'dlx',
  'create',
  'init',
  'publish',
  'pack',
  'link',
  'config',
  'set',
  'why',
  'list',
  'ls',
  'outdated',
  'update',
  'up',
  'audit',
  'version',
  'info',
  'view',
  'cache',
  'workspace',
  'workspaces',
  'help',
  'start',
]);

/** The words of one simple command of a shell line, quotes taken off; a line split at ;, &&, ||, | and newlines. */
export function shellCommands(line: string): string[][] {
  const out: string[][] = [];
  for (const part of line.slice(0, 20_000).split(/\|\||&&|[;|\n]/)) {
    const words = part
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '')
      .map((w) => w.replace(/^['"]|['"]$/g, ''));
    // FOO=1 npm test, env npm test, cross-env A=1 npm test
    while (
      words.length > 0 &&
      (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? '') || /^(env|cross-env|time|exec)$/.test(words[0] ?? ''))
    )
      words.shift();
    if (words.length > 0) out.push(words);
  }
  return out;
}

function programName(word: string): string {
  const base = word.split(/[\\/]/).pop() ?? word;
  return base.replace(/\.(cmd|exe|bat|ps1)$/i, '');
}

/** The package.json scripts one simple command runs by name (npm test → test, yarn build → build, node --run x → x). */
export function scriptsNamed(words: readonly string[]): string[] {
  const program = programName(words[0] ?? '');
  const rest = words.slice(1).filter((w) => !w.startsWith('-') || w === '--run' || w.startsWith('--run='));
  if (program === 'node') {
    const at = words.findIndex((w) => w === '--run' || w.startsWith('--run='));
    if (at < 0) return [];
    const word = words[at] as string;
    const name = word.includes('=') ? word.slice(word.indexOf('=') + 1) : words[at + 1];
    return name === undefined ? [] : [name];
  }
  if (!SCRIPT_RUNNERS.has(program)) return [];
  const first = rest[0];
  if (first === undefined) return program === 'yarn' ? ['install'] : [];
  if (TEST_WORDS.has(first)) return program === 'bun' ? [] : ['test'];
  if (RUN_WORDS.has(first)) return rest[1] === undefined ? [] : [rest[1]];
  if (first === 'start') return ['start'];
  // yarn build, pnpm lint: an unknown command is a script of that name.
  if ((program === 'yarn' || program === 'pnpm') && !NOT_SCRIPTS.has(first)) return [first];
  return [];
}

/** Whether one simple command runs make. */
export function runsMake(words: readonly string[]): boolean {
  const program = programName(words[0] ?? '');
  return program === 'make' || program === 'gmake';
}

/**
 * The scripts of `scripts` (package.json's) that `commands` reach: the ones they name, npm's pre
 * and post scripts of each, and what each script's text runs in turn; missing ones too (a script
 * added later under that name changes what runs). In the order found, each once.
 */
export function reachedScripts(commands: readonly string[], scripts: Readonly<Record<string, unknown>>): string[] {
  const seen: string[] = [];
  /** A script run by name gets npm's pre and post hooks; a hook runs without hooks of its own. */
  const queue: { name: string; hook: boolean }[] = [];
  const add = (name: string, hook = false) => {
    if (seen.length >= SCRIPTS_MAX || seen.includes(name)) return;
    seen.push(name);
    queue.push({ name, hook });
  };
  for (const command of commands)
    for (const words of shellCommands(command)) for (const s of scriptsNamed(words)) add(s);
  while (queue.length > 0) {
    const { name, hook } = queue.shift() as { name: string; hook: boolean };
    if (!hook) {
      add(`pre${name}`, true);
      add(`post${name}`, true);
    }
    const text = Object.prototype.hasOwnProperty.call(scripts, name) ? scripts[name] : undefined;
    if (typeof text !== 'string') continue;
    for (const words of shellCommands(text)) {
      for (const s of scriptsNamed(words)) add(s);
      // npm-run-all a b, run-s a b, run-p a b, concurrently "npm:a"
      const program = programName(words[0] ?? '');
      if (program === 'npm-run-all' || program === 'run-s' || program === 'run-p')
        for (const w of words.slice(1)) if (!w.startsWith('-')) add(w);
      if (program === 'concurrently') for (const w of words.slice(1)) if (w.startsWith('npm:')) add(w.slice(4));
    }
  }
  return seen;
}

/** Whether any of `commands` runs make. */
export function commandsRunMake(commands: readonly string[]): boolean {
  return commands.some((c) => shellCommands(c).some(runsMake));
}

/** The files a makefile's text includes (`include`, `-include`, `sinclude`), as written; no wildcard or variable expanded. */
export function makeIncludes(text: string): string[] {
  const out: string[] = [];
  for (const line of text.slice(0, 1024 * 1024).split('\n')) {
    const m = /^\s*(?:-include|sinclude|include)\s+(.+?)\s*$/.exec(line);
    if (m === null) continue;
    for (const name of (m[1] as string).split(/\s+/)) if (name !== '' && out.length < INCLUDES_MAX) out.push(name);
  }
  return out;
}

/** The text of the TOML sections whose names start with one of `prefixes`, joined; '' when none. */
export function tomlSections(text: string, prefixes: readonly string[]): string {
  const kept: string[] = [];
  let keep = false;
  for (const line of text.slice(0, 1024 * 1024).split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header !== null) {
      const name = header[1] as string;
      keep = prefixes.some((p) =>
        p.startsWith('[') ? name === p.slice(1, -1) : name === p || name.startsWith(`${p}.`),
      );
    }
    if (keep) kept.push(line);
  }
  return kept.join('\n');
}

/** The TOML files read by section, and which sections. */
export function tomlSectionsOf(file: string): readonly string[] | undefined {
  return TOML_SECTIONS[file];
}

/** package.json keys other than scripts that configure the tests. */
export function packageConfigKeys(): readonly string[] {
  return PACKAGE_CONFIG_KEYS;
}

/** The makefile names make looks for, in its order. */
export function makefileNames(): readonly string[] {
  return MAKEFILES;
}
