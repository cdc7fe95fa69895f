// What agents may not see of the workspace, whichever tool asks: Git's and Groundwork's own
// internals, what Git ignores (every .gitignore on the way, and .git/info/exclude: build output,
// but also secrets such as .env), and what the user excluded in VS Code (`files.exclude`). A path
// is skipped when it or any folder on its way is; the tools test both the path as given and its
// real path, so a link inside the workspace cannot lead to a skipped file.
import { compileGlob } from './safeGlob';
import { formatBytes } from '../storage/storageError';
import { folderGitignore, GITIGNORE_MAX_BYTES, infoExclude, type IgnoreFile } from './gitignoreFiles';
import { folded, hiddenNameReason } from './hiddenNames';
import { quoted, showSegments } from './projectPaths';
import { ToolInputError, type ToolContext, type ToolRunCache } from './toolTypes';

export { GITIGNORE_MAX_BYTES } from './gitignoreFiles';

export interface ProjectFilter {
  /**
   * Loads what skipReason needs for the entries of the folder at `folder` (names relative to the
   * workspace root): the .gitignore of that folder and of each folder above it, each read once per
   * run, down from the root. Stops at a folder that is itself skipped: Git reads nothing inside an
   * ignored folder, and skipReason never needs it. `mayHaveGitignore` false (the folder's listing
   * has no .gitignore) spares a look. ToolInputError when one is too large to be read.
   */
  prepare(folder: readonly string[], mayHaveGitignore?: boolean): Promise<void>;
  /**
   * Why the entry at `segments` is hidden from agents, or undefined when they may see it.
   * `isDirectory` says what the last name is. The folders above it must have been prepared.
   */
  skipReason(segments: readonly string[], isDirectory: boolean): string | undefined;
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

/** Too large a file refuses the calls it concerns rather than show what it would hide. */
function tooLargeError(what: string, where: string): ToolInputError {
  return new ToolInputError(
    `${what} is over ${formatBytes(GITIGNORE_MAX_BYTES)}, so the tools cannot tell which files it hides ` +
      `and refuse to read ${where}. Tell the user; it needs to be made smaller.`,
  );
}

/** Who ignores a path: the ignore file of the folder `depth` names deep (-1: .git/info/exclude). */
function ignoreFileName(segments: readonly string[], depth: number): string {
  if (depth < 0) return "the workspace's .git/info/exclude";
  if (depth === 0) return "the workspace's .gitignore";
  return `the .gitignore in ${quoted(showSegments(segments.slice(0, depth)))}`;
}

/**
 * The filter for this call: the ignore files from the run cache (the root's .gitignore and
 * .git/info/exclude loaded now, so that too large a one refuses every call), the excludes as given.
 */
export async function loadProjectFilter(context: ToolContext, cache: ToolRunCache): Promise<ProjectFilter> {
  const excludes = await cache.get(`exclude:${JSON.stringify(context.exclude)}`, async () =>
    compileExcludes(context.exclude),
  );
  const exclude = await infoExclude(context, cache);
  if (exclude.kind === 'too-large') throw tooLargeError("The workspace's .git/info/exclude", 'anything');
  // Each prepared folder's .gitignore; a folder is here only when it and those above it are not skipped.
  const folders = new Map<string, IgnoreFile>();
  const key = (segments: readonly string[]) => segments.join('/');

  /**
   * What Git's ignore files say of the first `depth` names of `segments`: the deepest file with a
   * rule for that path decides (.git/info/exclude last), and within a file its last matching rule,
   * so a deeper '!' rule re-includes what a shallower file ignores. (The ignore package also counts
   * a folder a file's own rules ignore for the paths below it; should a deeper file have
   * re-included that folder, those paths stay hidden, which errs on the side of hiding.)
   */
  function ignoredReason(segments: readonly string[], depth: number, folder: boolean): string | undefined {
    for (let from = depth - 1; from >= -1; from--) {
      const file = from < 0 ? exclude : folders.get(key(segments.slice(0, from)));
      if (file === undefined)
        throw new Error(
          `The ignore rules of ${showSegments(segments.slice(0, from))} were used before they were loaded.`,
        );
      if (file.kind !== 'rules') continue;
      const rel = segments.slice(Math.max(from, 0), depth).join('/');
      let result: ReturnType<typeof file.rules.test>;
      try {
        result = file.rules.test(folder ? `${rel}/` : rel);
      } catch {
        // A name the ignore rules cannot take (such as '...') is kept out rather than guessed at.
        return `the name ${quoted(showSegments(segments.slice(0, depth)))} cannot be checked against the workspace's .gitignore files`;
      }
      if (result.ignored)
        return `${ignoreFileName(segments, from)} ignores it (rule ${quoted((result.rule?.pattern ?? rel).slice(0, 60))})`;
      if (result.unignored) return undefined;
    }
    return undefined;
  }

  const filter: ProjectFilter = {
    async prepare(folder, mayHaveGitignore = true) {
      for (let depth = 0; depth <= folder.length; depth++) {
        const here = folder.slice(0, depth);
        if (folders.has(key(here))) continue;
        if (depth > 0 && filter.skipReason(here, true) !== undefined) return;
        const file = await folderGitignore(here, context, cache, depth < folder.length || mayHaveGitignore);
        if (file.kind === 'too-large') {
          if (depth === 0) throw tooLargeError("The workspace's .gitignore", 'anything');
          throw tooLargeError(`The .gitignore in ${quoted(showSegments(here))}`, `anything in that folder`);
        }
        folders.set(key(here), file);
      }
    },
    skipReason(segments, isDirectory) {
      const hidden = hiddenNameReason(segments, isDirectory);
      if (hidden !== undefined) return hidden;
      for (let depth = 1; depth <= segments.length; depth++) {
        const folder = depth < segments.length || isDirectory;
        const ignored = ignoredReason(segments, depth, folder);
        if (ignored !== undefined) return ignored;
        const rel = segments.slice(0, depth).join('/');
        const excluded = excludes.find((m) => m.test(rel) || (folder && m.test(`${rel}/`)));
        if (excluded !== undefined)
          return `it matches the excluded pattern ${quoted(excluded.pattern)} (files.exclude)`;
      }
      return undefined;
    },
  };
  await filter.prepare([]);
  return filter;
}

interface Entry {
  segments: readonly string[];
  realSegments: readonly string[];
  kind: string;
}

/** Why `entry` is hidden, by its path as given or by its real path; both paths' folders must be prepared. */
export function entrySkipReason(filter: ProjectFilter, entry: Entry): string | undefined {
  const isDirectory = entry.kind === 'directory';
  return filter.skipReason(entry.segments, isDirectory) ?? filter.skipReason(entry.realSegments, isDirectory);
}

/** entrySkipReason for an entry a tool was asked for by name: the folders above it prepared first. */
export async function namedEntrySkipReason(filter: ProjectFilter, entry: Entry): Promise<string | undefined> {
  await filter.prepare(entry.segments.slice(0, -1));
  await filter.prepare(entry.realSegments.slice(0, -1));
  return entrySkipReason(filter, entry);
}

/** Whether a folder's listing has a .gitignore (as the file system may match the name). */
export function listsGitignore(names: readonly string[]): boolean {
  return names.some((name) => folded(name) === '.gitignore');
}

/** The refusal for a skipped path the model asked for by name. */
export function excludedError(shown: string, reason: string): ToolInputError {
  return new ToolInputError(
    `${quoted(shown)} is excluded from what agents may read (${reason}). Work with the other files.`,
  );
}
