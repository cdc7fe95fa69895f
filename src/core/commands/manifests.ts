// The manifests: the files whose contents decide what a script runner runs (`npm test` runs
// package.json's "test" script, `make` the Makefile's rules), and the commands that run them. A
// pre-approval of `npm test` is a pre-approval of what package.json said when it was given: once a
// manifest is written, those commands are asked again (commandPolicy.ts). Pure, names only: what
// a Makefile on the disk includes, and links to a written file, are core/run/manifestWatch.ts's.
import { forEachWord } from './commandWords';
import type { Word } from './commandWords';

/** Manifests by name, at any depth (a workspace member's package.json is one), compared as a case-insensitive file system does. */
export const MANIFEST_FILES = [
  // npm, pnpm (which also reads package.yaml and package.json5), yarn, bun; and their settings,
  // which can name what they run (npm's script-shell, yarn's yarnPath, pnpm's hooks).
  'package.json',
  'package.yaml',
  'package.json5',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  'pnpm-workspace.yaml',
  'bunfig.toml',
  'deno.json',
  'deno.jsonc',
  // The monorepo runners' own task files.
  'turbo.json',
  'nx.json',
  'project.json',
  'lerna.json',
  'rush.json',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'BSDmakefile',
  'pyproject.toml',
  'Cargo.toml',
] as const;

/** Files a Makefile includes by convention (`include rules.mk`): conservatively a manifest wherever they are. */
export const MANIFEST_EXTENSIONS = ['.mk', '.mak'] as const;

/**
 * The commands that run what a manifest says. `node` counts only with `--run` (a package.json
 * script). Test runners and interpreters (`python -m pytest`, `jest`, `node --test`) are not
 * script runners and keep their pre-approval.
 */
export const MANIFEST_TOOLS = [
  'npm',
  'npx',
  'pnpm',
  'pnpx',
  'yarn',
  'yarnpkg',
  'bun',
  'bunx',
  'deno',
  'corepack',
  'turbo',
  'nx',
  'lerna',
  'rush',
  'rushx',
  'npm-run-all',
  'run-s',
  'run-p',
  'make',
  'gmake',
  'bmake',
  'mingw32-make',
  'nmake',
  'poetry',
  'pdm',
  'hatch',
  'uv',
  'rye',
  'cargo',
] as const;

/** How a notice names them, and (shorter: a build's reasons cut long lines) a refusal. */
export const MANIFEST_TOOL_WORDS = 'script runners (npm, yarn, pnpm, bun, deno, make, cargo, uv, node --run…)';
export const MANIFEST_TOOL_SHORT = 'script runners (npm, make, cargo…)';

// Code points some file systems drop when comparing names (HFS+ ignores them).
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** A name as a case-insensitive, normalising file system compares it; Windows also drops trailing dots and spaces. */
function comparable(name: string): string {
  const n = name.normalize('NFKC').replace(IGNORABLE, '').toLowerCase().normalize('NFKC');
  return n === '.' || n === '..' ? n : n.replace(/[. ]+$/, '');
}

const NAMES = new Set<string>(MANIFEST_FILES.map(comparable));

/** The forms a last name takes on disk: itself, and before an NTFS stream ('package.json::$DATA' is package.json). */
function nameForms(name: string): string[] {
  const colon = name.indexOf(':');
  return colon > 0 ? [name, comparable(name.slice(0, colon))] : [name];
}

function isManifestName(name: string): boolean {
  return nameForms(name).some(
    (form) => NAMES.has(form) || MANIFEST_EXTENSIONS.some((ext) => form.length > ext.length && form.endsWith(ext)),
  );
}

/** The path's names, as compared: '/' or '\\' between them, '' and '.' left out ('./a//b' is a/b). */
export function comparableSegments(path: string): string[] {
  return path
    .split(/[\\/]/)
    .map(comparable)
    .filter((s) => s !== '' && s !== '.');
}

/**
 * Whether writing `path` (relative or absolute, '/' or '\\') writes a manifest, judged by its name
 * at any depth: package.json, packages/a/package.json, rules.mk, pyproject.toml… (MANIFEST_FILES,
 * MANIFEST_EXTENSIONS), and .cargo/config(.toml), .yarn/releases/*, .yarn/plugins/* (files cargo
 * and yarn run or take their settings from). Judge both the path written and its real path: a link
 * named package.json makes its target the manifest, and a link to package.json is one.
 */
export function isManifestFile(path: string): boolean {
  const segments = comparableSegments(path);
  const name = segments[segments.length - 1];
  if (name === undefined || name === '..') return false;
  if (isManifestName(name)) return true;
  if (segments[segments.length - 2] === '.cargo' && (name === 'config' || name === 'config.toml')) return true;
  for (let i = 0; i + 2 < segments.length; i++)
    if (segments[i] === '.yarn' && (segments[i + 1] === 'releases' || segments[i + 1] === 'plugins')) return true;
  return false;
}

/** Whether `name` (a last name) is a Makefile that make reads by itself or by convention includes. */
export function isMakefileName(name: string): boolean {
  const n = comparable(name);
  return (
    n === 'makefile' || n === 'gnumakefile' || n === 'bsdmakefile' || MANIFEST_EXTENSIONS.some((e) => n.endsWith(e))
  );
}

const TOOL_NAMES = new Set<string>(MANIFEST_TOOLS);
/** What Windows appends to a program's name. */
const PROGRAM_SUFFIX = /\.(cmd|exe|bat|ps1|com)$/;

/** The names a word may run as: its last path segment and its whole text ('n\\pm' is npm to sh), without `$`, a Windows suffix or a `:script` ('npm:test' for concurrently). */
function namesOf(word: Word): string[] {
  const names: string[] = [];
  for (const raw of [word.base, word.text]) {
    if (raw === '') continue;
    let name = raw.normalize('NFKC').replace(IGNORABLE, '').toLowerCase();
    if (name.startsWith('$')) name = name.slice(1); // $'npm' is npm to bash
    const colon = name.indexOf(':');
    if (colon > 0) name = name.slice(0, colon);
    names.push(name.replace(PROGRAM_SUFFIX, ''));
  }
  return names;
}

/**
 * Whether `command` may run a manifest's scripts: any word of it is one of MANIFEST_TOOLS (not only
 * the first: `sh -c "npm test"`, `cross-env CI=1 npm test`, `nodemon --exec "npm test"` run npm
 * too; 'npm.cmd', '/usr/bin/npm' and `n\pm` count), or `node` with `--run` after it. Conservative:
 * `git commit -m "make it work"` counts as well, which costs a question, never a run.
 */
export function manifestToolCommand(command: string): boolean {
  let uses = false;
  let node = false;
  forEachWord(command, (word) => {
    if (uses) return;
    const names = namesOf(word);
    if (names.some((n) => TOOL_NAMES.has(n))) uses = true;
    else if (node && (word.text === '--run' || word.text.startsWith('--run='))) uses = true;
    if (names.includes('node')) node = true;
  });
  return uses;
}

/** The former name of manifestToolCommand. */
export const usesManifestTool = manifestToolCommand;
