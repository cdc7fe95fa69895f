// A build's test contract: what the test writer's passed phase leaves, frozen in build.yaml so
// that no later phase can bend the check made of it — the test files it created (path, SHA-256,
// how many tests each declares) and what the architect's TEST:/BUILD: commands depend on (the
// commands themselves are frozen in build.yaml when the architect passes, never re-read from
// specs/architecture.md after)
// (contractEntries.ts: the package.json scripts they reach, a Makefile and its includes, the test
// runners' configuration files, present or not). `contractChanges` compares the project folder
// with it: a frozen file changed or deleted, an entry changed, or a config file that appeared. A
// change the person accepted (Accept Test Change, --accept-test-change) becomes the new frozen
// state and is kept in `accepted`, for the report.
import type { Sha256 } from '../run/changesFile';
import type { ProjectCommands } from './buildTypes';
import {
  CONFIG_FILES,
  commandsRunMake,
  makeIncludes,
  makefileNames,
  packageConfigKeys,
  reachedScripts,
  shellCommands,
  scriptsNamed,
  tomlSections,
  tomlSectionsOf,
} from './contractEntries';

/** A file, or one part of it (`scripts.test`, `config.jest`, `sections`), and its hash then (null: it was not there). */
export interface FrozenEntry {
  file: string;
  key: string;
  sha256: string | null;
}

/** A test file the test writer created, its hash, and the tests it declares (test(…), def test_…, func Test…). */
export interface FrozenTest {
  path: string;
  sha256: string;
  declared: number;
}

/** A change to the contract the person accepted. */
export interface AcceptedChange {
  /** The file, relative to the project folder. */
  path: string;
  /** The phase that failed on it. */
  phase: string;
  at: string;
  /** What was frozen and what is accepted (null: no file). */
  before: string | null;
  after: string | null;
}

/** `COVERAGE:` of the test writer: which test checks which requirement. */
export interface CoverageLine {
  requirement: string;
  test: string;
  file?: string;
}

export interface TestContract {
  /** The phase whose pass froze it, and when. */
  phase: string;
  frozenAt: string;
  tests: FrozenTest[];
  entries: FrozenEntry[];
  coverage: CoverageLine[];
  accepted: AcceptedChange[];
  /** The requirement ids of specs/requirements.md when it froze: what the final verification judges. */
  requirements?: string[];
}

/** What the contract reads of the project folder: a file's bytes, or why not (missing: not there at all). */
export type ReadProject = (rel: string) => Promise<
  /** `via`: where the file really is, relative to the project folder, when a link on the way leads elsewhere. */
  { ok: true; bytes: Uint8Array; via?: string } | { ok: false; missing: boolean; why: string }
>;

/**
 * A file's hash as the contract keeps it: its bytes, and where it really is when a link leads
 * elsewhere (a test folder made a link to a copy of the tests beside another implementation has
 * the same bytes, not the same place).
 */
function fileHash(got: { bytes: Uint8Array; via?: string }, hash: Sha256): string {
  if (got.via === undefined) return hash(got.bytes);
  const head = encoder.encode(`link:${got.via}\n`);
  const both = new Uint8Array(head.length + got.bytes.length);
  both.set(head);
  both.set(got.bytes, head.length);
  return hash(both);
}

/** A difference between the contract and the project folder. */
export interface ContractChange {
  file: string;
  key: string;
  /** changed, deleted (was there, is not), created (was not there, is now), unreadable. */
  kind: 'changed' | 'deleted' | 'created' | 'unreadable';
  why?: string;
}

const decoder = new TextDecoder();
/** The most folders whose package.json a contract follows (`cd` in commands and scripts). */
const FOLDERS_MAX = 20;
const encoder = new TextEncoder();
const utf8 = (text: string): Uint8Array => encoder.encode(text);

/**
 * How many tests `text` declares to run, by the common forms at the start of a line (a lower bound:
 * loops count once; `test.skip`/`it.todo` are not counted): so many must pass.
 */
export function declaredTests(path: string, text: string): number {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const count = (re: RegExp) => (text.slice(0, 4 * 1024 * 1024).match(re) ?? []).length;
  if (['js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'jsx', 'tsx'].includes(ext))
    return count(/^[ \t]*(?:test|it)(?:\.(?:only|concurrent))?[ \t]*\(/gm);
  if (ext === 'py') return count(/^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(/gm);
  if (ext === 'go') return count(/^func[ \t]+Test\w*[ \t]*\(/gm);
  if (ext === 'rs') return count(/^[ \t]*#\[(?:tokio::)?test\]/gm);
  if (['java', 'kt', 'scala', 'groovy'].includes(ext)) return count(/^[ \t]*@Test\b/gm);
  return 0;
}

/** What the commands depend on, as entry references (not yet hashed), given the folder as it is now. */
async function entryRefs(commands: ProjectCommands, read: ReadProject): Promise<{ file: string; key: string }[]> {
  const all = [...commands.test, ...(commands.build === undefined ? [] : [commands.build])];
  const refs: { file: string; key: string }[] = [];
  const add = (file: string, key: string) => {
    if (!refs.some((r) => r.file === file && r.key === key)) refs.push({ file, key });
  };
  // package.json of each folder a command runs scripts in (`cd packages/a && npm test` included),
  // and of each folder a script it reaches changes to (`"test": "cd app && npm test"`).
  const byFolder = new Map<string, string[]>();
  const visit = (dir: string, line: string) => {
    for (const words of shellCommands(line)) {
      if (words[0] === 'cd' && words[1] !== undefined) dir = joinRel(dir, words[1]);
      else if (scriptsNamed(words).length > 0) byFolder.set(dir, [...(byFolder.get(dir) ?? []), words.join(' ')]);
    }
  };
  for (const command of all) visit('', command);
  if (!byFolder.has('')) byFolder.set('', []);
  const done = new Set<string>();
  for (let pass = 0; pass < FOLDERS_MAX && done.size < byFolder.size; pass++) {
    for (const [dir, commandsThere] of [...byFolder]) {
      if (done.has(dir)) continue;
      done.add(dir);
      const file = dir === '' ? 'package.json' : `${dir}/package.json`;
      const got = await read(file);
      const scripts = got.ok ? scriptsOf(got.bytes) : {};
      for (const name of reachedScripts(commandsThere, scripts)) {
        add(file, `scripts.${name}`);
        const text = Object.prototype.hasOwnProperty.call(scripts, name) ? scripts[name] : undefined;
        if (typeof text === 'string' && /(^|[\s;&|(])cd\s/.test(text)) visit(dir, text);
      }
      if (got.ok) for (const key of packageConfigKeys()) add(file, `config.${key}`);
    }
  }
  if (commandsRunMake(all)) {
    for (const name of makefileNames()) add(name, '');
    for (const name of makefileNames()) {
      const got = await read(name);
      if (!got.ok) continue;
      for (const inc of makeIncludes(decoder.decode(got.bytes)))
        if (!inc.includes('$') && !inc.includes('*')) add(joinRel('', inc), '');
      break;
    }
  }
  for (const file of CONFIG_FILES) add(file, '');
  for (const file of ['pyproject.toml', 'Cargo.toml']) add(file, 'sections');
  return refs;
}

function joinRel(dir: string, path: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  for (const p of path.replace(/\\/g, '/').split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return parts.join('/');
}

function scriptsOf(bytes: Uint8Array): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(decoder.decode(bytes));
    const scripts = json !== null && typeof json === 'object' ? (json as Record<string, unknown>).scripts : undefined;
    return scripts !== null && typeof scripts === 'object' ? (scripts as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The hash of an entry as the folder has it now; null when its file (or its part) is not there. */
async function entryHash(
  ref: { file: string; key: string },
  read: ReadProject,
  hash: Sha256,
): Promise<{ ok: true; sha256: string | null } | { ok: false; why: string }> {
  const got = await read(ref.file);
  if (!got.ok) return got.missing ? { ok: true, sha256: null } : { ok: false, why: got.why };
  return { ok: true, sha256: ref.key === '' ? fileHash(got, hash) : partHash(ref, got.bytes, hash) };
}

/** The hash of the part of `bytes` (the file `ref.file`'s) that `ref.key` names; null when that part is not there. */
export function partHash(ref: { file: string; key: string }, bytes: Uint8Array, hash: Sha256): string | null {
  if (ref.key === '') return hash(bytes);
  const text = decoder.decode(bytes);
  if (ref.key === 'sections') {
    const sections = tomlSections(text, tomlSectionsOf(ref.file.split('/').pop() ?? '') ?? []);
    return sections === '' ? null : hash(utf8(sections));
  }
  // scripts.NAME, config.KEY of a package.json: the value as JSON; a file that does not parse, its bytes.
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return hash(utf8(`unparseable:${hash(bytes)}`));
  }
  const obj = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const dot = ref.key.indexOf('.');
  const [group, name] = [ref.key.slice(0, dot), ref.key.slice(dot + 1)];
  const holder = group === 'scripts' ? obj.scripts : obj;
  const value =
    holder !== null && typeof holder === 'object' && Object.prototype.hasOwnProperty.call(holder, name)
      ? (holder as Record<string, unknown>)[name]
      : undefined;
  return value === undefined ? null : hash(utf8(JSON.stringify(value)));
}

/**
 * Freezes the contract after the phase `phase` passed: `testFiles` are the test files its run
 * created (relative to the project folder), `commands` the architect's. A test file that cannot
 * be read is left out (the tests-created check has said which are there).
 */
export async function freezeContract(
  input: {
    phase: string;
    at: string;
    commands: ProjectCommands;
    testFiles: readonly string[];
    coverage?: CoverageLine[];
  },
  read: ReadProject,
  hash: Sha256,
): Promise<TestContract> {
  const tests: FrozenTest[] = [];
  for (const path of input.testFiles) {
    const got = await read(path);
    if (!got.ok) continue;
    tests.push({ path, sha256: fileHash(got, hash), declared: declaredTests(path, decoder.decode(got.bytes)) });
  }
  const entries: FrozenEntry[] = [];
  for (const ref of await entryRefs(input.commands, read)) {
    const h = await entryHash(ref, read, hash);
    // One that cannot be read now is frozen as unreadable: reading it later the same way is no change.
    entries.push({ ...ref, sha256: h.ok ? h.sha256 : `unreadable` });
  }
  return {
    phase: input.phase,
    frozenAt: input.at,
    tests,
    entries,
    coverage: input.coverage ?? [],
    accepted: [],
  };
}

/** Every difference between the contract and the project folder now, frozen tests first. */
export async function contractChanges(
  contract: TestContract,
  read: ReadProject,
  hash: Sha256,
): Promise<ContractChange[]> {
  const changes: ContractChange[] = [];
  for (const t of contract.tests) {
    const got = await read(t.path);
    if (!got.ok)
      changes.push(
        got.missing
          ? { file: t.path, key: '', kind: 'deleted' }
          : { file: t.path, key: '', kind: 'unreadable', why: got.why },
      );
    else if (fileHash(got, hash) !== t.sha256) changes.push({ file: t.path, key: '', kind: 'changed' });
  }
  for (const e of contract.entries) {
    const now = await entryHash(e, read, hash);
    const sha = now.ok ? now.sha256 : 'unreadable';
    if (sha === e.sha256) continue;
    const kind =
      e.sha256 === null ? 'created' : sha === null ? 'deleted' : sha === 'unreadable' ? 'unreadable' : 'changed';
    changes.push({ file: e.file, key: e.key, kind, ...(now.ok ? {} : { why: now.why }) });
  }
  return changes;
}

/** A change as a person reads it: `test/sum.test.js changed`, `package.json scripts.test changed`. */
export function changeText(c: ContractChange): string {
  const what = c.key === '' ? c.file : c.key === 'sections' ? `${c.file} (its test sections)` : `${c.file} ${c.key}`;
  const how = { changed: 'changed', deleted: 'deleted', created: 'created', unreadable: 'cannot be read' }[c.kind];
  return `${what} ${how}${c.why !== undefined ? ` (${c.why})` : ''}`;
}

/**
 * The contract with the changes to `path` accepted by the person (the failed `phase`): its test
 * file's new hash (or, deleted, out of the contract) and its entries' new hashes. Unchanged when
 * nothing of `path` differs.
 */
export async function acceptChange(
  contract: TestContract,
  path: string,
  phase: string,
  at: string,
  read: ReadProject,
  hash: Sha256,
): Promise<{ contract: TestContract; accepted: AcceptedChange[] }> {
  const accepted: AcceptedChange[] = [];
  const tests: FrozenTest[] = [];
  for (const t of contract.tests) {
    if (t.path !== path) {
      tests.push(t);
      continue;
    }
    const got = await read(path);
    const after = got.ok ? fileHash(got, hash) : null;
    if (after === t.sha256) tests.push(t);
    else {
      accepted.push({ path, phase, at, before: t.sha256, after });
      if (got.ok)
        tests.push({ path, sha256: after as string, declared: declaredTests(path, decoder.decode(got.bytes)) });
    }
  }
  const entries: FrozenEntry[] = [];
  for (const e of contract.entries) {
    if (e.file !== path) {
      entries.push(e);
      continue;
    }
    const now = await entryHash(e, read, hash);
    const sha = now.ok ? now.sha256 : 'unreadable';
    if (sha !== e.sha256)
      accepted.push({ path: e.key === '' ? path : `${path} ${e.key}`, phase, at, before: e.sha256, after: sha });
    entries.push({ ...e, sha256: sha });
  }
  return { contract: { ...contract, tests, entries, accepted: [...contract.accepted, ...accepted] }, accepted };
}
