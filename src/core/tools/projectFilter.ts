// What agents may not see of the workspace, whichever tool asks: Git's and Groundwork's own
// internals, what the root .gitignore ignores (build output, but also secrets such as .env), and
// what the user excluded in VS Code (`files.exclude`). A path is skipped when it or any folder on
// its way is; the tools test both the path as given and its real path, so a link inside the
// workspace cannot lead to a skipped file.
import ignore, { type Ignore } from 'ignore';
import { compileGlob } from './safeGlob';
import { formatBytes, StorageError } from '../storage/storageError';
import { isWindowsRoot, joinUnder, quoted, realRoot, relativeInside } from './projectPaths';
import { ToolInputError, type ToolContext, type ToolRunCache } from './toolTypes';

/** The root .gitignore is read whole up to this size. */
export const GITIGNORE_MAX_BYTES = 256 * 1024;

export interface ProjectFilter {
  /**
   * Why the entry at `segments` (names relative to the workspace root) is hidden from agents, or
   * undefined when they may see it. `isDirectory` says what the last name is.
   */
  skipReason(segments: readonly string[], isDirectory: boolean): string | undefined;
}

/**
 * Secrets are kept from agents even when no .gitignore names them (only the root .gitignore is
 * read): environment files, private keys and the credential folders of common tools.
 */
const SECRET_FILES = /^(\.env(\..*)?|.*\.(pem|key|p12|pfx)|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|\.npmrc|\.pypirc|\.netrc|\.git-credentials)$/;
const SECRET_FOLDERS = new Set(['.ssh', '.aws', '.gnupg', '.docker']);

function isSecretName(folded: string, isFolder: boolean): boolean {
  return isFolder ? SECRET_FOLDERS.has(folded) : SECRET_FILES.test(folded);
}

/** Compared as Windows and macOS file systems would: case-insensitively, after NFC normalisation. */
function folded(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

type Matcher = { pattern: string; test: (path: string) => boolean };

function compileExcludes(patterns: readonly string[]): Matcher[] {
  const matchers: Matcher[] = [];
  for (const pattern of patterns) {
    if (typeof pattern !== 'string' || pattern.trim() === '') continue;
    // VS Code writes them relative to the folder; a leading './' or '/' means the same there.
    const relative = pattern.replace(/^\.?\//, '');
    try {
      matchers.push({ pattern, test: compileGlob(relative) });
    } catch {
      // A pattern picomatch cannot read matches nothing, as in VS Code; so does one too complex to
      // match safely (see safeGlob.ts).
    }
  }
  return matchers;
}

/**
 * The root .gitignore's rules, read once per run. Through a link only when the link stays inside
 * the workspace; too large a file refuses every call rather than show what it would hide.
 */
async function loadGitignore(context: ToolContext, cache: ToolRunCache): Promise<Ignore> {
  const rules = ignore();
  const path = joinUnder(context.root, ['.gitignore']);
  const info = await context.fs.info(path);
  if (info === undefined) return rules;
  let target = path;
  if (info.kind === 'symlink') {
    const real = await context.fs.realpath(path).catch(() => undefined);
    if (real === undefined || relativeInside(real, await realRoot(context, cache), isWindowsRoot(context.root)) === undefined) return rules;
    if ((await context.fs.info(real))?.kind !== 'file') return rules;
    target = real;
  } else if (info.kind !== 'file') {
    return rules;
  }
  let data: Uint8Array | undefined;
  try {
    data = await context.fs.read(target, GITIGNORE_MAX_BYTES);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'too-large') {
      throw new ToolInputError(
        `The workspace's .gitignore is over ${formatBytes(GITIGNORE_MAX_BYTES)}, so the tools cannot tell which files it hides ` +
          'and refuse to read anything. Tell the user; it needs to be made smaller.',
      );
    }
    throw err;
  }
  if (data !== undefined) rules.add(new TextDecoder().decode(data));
  return rules;
}

/** The filter for this call: the .gitignore's rules from the run cache, the excludes as given. */
export async function loadProjectFilter(context: ToolContext, cache: ToolRunCache): Promise<ProjectFilter> {
  const gitignore = await cache.get(`gitignore:${context.root}`, () => loadGitignore(context, cache));
  const excludes = await cache.get(`exclude:${JSON.stringify(context.exclude)}`, async () => compileExcludes(context.exclude));
  return {
    skipReason(segments, isDirectory) {
      for (const [i, name] of segments.entries()) {
        const f = folded(name);
        if (f === '.git') return "it is inside .git, Git's internal data";
        if (i === 0 && f === '.groundwork') return "it is inside .groundwork, Groundwork's own internal folder";
        if (isSecretName(f, i < segments.length - 1 || isDirectory)) return 'files that usually hold credentials (private keys, tokens, .env files) are never read by agents';
      }
      for (let depth = 1; depth <= segments.length; depth++) {
        const rel = segments.slice(0, depth).join('/');
        const folder = depth < segments.length || isDirectory;
        let ignored: ReturnType<Ignore['test']>;
        try {
          ignored = gitignore.test(folder ? `${rel}/` : rel);
        } catch {
          // A name the ignore rules cannot take (such as '...') is kept out rather than guessed at.
          return `the name ${quoted(rel)} cannot be checked against the workspace's .gitignore`;
        }
        if (ignored.ignored) return `the workspace's .gitignore ignores it (rule ${quoted((ignored.rule?.pattern ?? rel).slice(0, 60))})`;
        const excluded = excludes.find((m) => m.test(rel) || (folder && m.test(`${rel}/`)));
        if (excluded !== undefined) return `it matches the excluded pattern ${quoted(excluded.pattern)} (files.exclude)`;
      }
      return undefined;
    },
  };
}

/** Why `entry` is hidden, by its path as given or by its real path; undefined when it is not. */
export function entrySkipReason(filter: ProjectFilter, entry: { segments: readonly string[]; realSegments: readonly string[]; kind: string }): string | undefined {
  const isDirectory = entry.kind === 'directory';
  return filter.skipReason(entry.segments, isDirectory) ?? filter.skipReason(entry.realSegments, isDirectory);
}

/** The refusal for a skipped path the model asked for by name. */
export function excludedError(shown: string, reason: string): ToolInputError {
  return new ToolInputError(`${quoted(shown)} is excluded from what agents may read (${reason}). Work with the other files.`);
}
