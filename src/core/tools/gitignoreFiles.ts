// Reading the ignore files Git reads: a .gitignore in any folder, and .git/info/exclude. Each is
// read at most once per run, by its real path, whole up to GITIGNORE_MAX_BYTES; it is followed
// through a link only to a file inside the workspace that agents could see by name (never into
// .git, .groundwork or a credential file), so no other file's lines become rules or messages.
import ignore, { type Ignore } from 'ignore';
import { StorageError } from '../storage/storageError';
import { hiddenNameReason } from './hiddenNames';
import { isWindowsRoot, joinUnder, realRoot, relativeInside } from './projectPaths';
import type { ToolContext, ToolRunCache } from './toolTypes';

/** An ignore file is read whole up to this size. */
export const GITIGNORE_MAX_BYTES = 256 * 1024;

/** One ignore file: absent (or not to be read), its rules, or too large to tell what it hides. */
export type IgnoreFile = { kind: 'none' } | { kind: 'rules'; rules: Ignore } | { kind: 'too-large' };

const NONE: IgnoreFile = { kind: 'none' };

async function readRules(context: ToolContext, real: string): Promise<IgnoreFile> {
  let data: Uint8Array | undefined;
  try {
    data = await context.fs.read(real, GITIGNORE_MAX_BYTES);
  } catch (err) {
    // Remembered for the run like rules, so that a huge file is not read again by every call.
    if (err instanceof StorageError && err.code === 'too-large') return { kind: 'too-large' };
    throw err;
  }
  if (data === undefined) return NONE;
  return { kind: 'rules', rules: ignore().add(new TextDecoder().decode(data)) };
}

/** The real path of `path` and its names under the real root; undefined when it leads out or nowhere. */
async function realInside(
  path: string,
  context: ToolContext,
  cache: ToolRunCache,
): Promise<{ real: string; segments: string[] } | undefined> {
  const real = await context.fs.realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const segments = relativeInside(real, await realRoot(context, cache), isWindowsRoot(context.root));
  return segments === undefined ? undefined : { real, segments };
}

/**
 * The .gitignore of the folder at `folder` (names from the root), once per run. `mayExist` false
 * (the folder's listing has none) spares looking. Two folder paths that lead to one file share
 * its single read.
 */
export function folderGitignore(
  folder: readonly string[],
  context: ToolContext,
  cache: ToolRunCache,
  mayExist = true,
): Promise<IgnoreFile> {
  return cache.get(`gitignore-folder:${context.root}:${JSON.stringify(folder)}`, async () => {
    if (!mayExist) return NONE;
    const path = joinUnder(context.root, [...folder, '.gitignore']);
    const info = await context.fs.info(path);
    if (info === undefined || (info.kind !== 'file' && info.kind !== 'symlink')) return NONE;
    const inside = await realInside(path, context, cache);
    if (inside === undefined || hiddenNameReason(inside.segments, false) !== undefined) return NONE;
    if (info.kind === 'symlink' && (await context.fs.info(inside.real))?.kind !== 'file') return NONE;
    const { real } = inside;
    return cache.get(`gitignore-file:${real}`, () => readRules(context, real));
  });
}

/**
 * .git/info/exclude, once per run: read (though agents may not read .git themselves) when it is a
 * regular file whose real path is inside the workspace.
 */
export function infoExclude(context: ToolContext, cache: ToolRunCache): Promise<IgnoreFile> {
  return cache.get(`git-info-exclude:${context.root}`, async () => {
    const path = joinUnder(context.root, ['.git', 'info', 'exclude']);
    // .git may be a file (a worktree's or a submodule's): then there is nothing to read here.
    const info = await context.fs.info(path).catch(() => undefined);
    if (info?.kind !== 'file') return NONE;
    const inside = await realInside(path, context, cache);
    return inside === undefined ? NONE : readRules(context, inside.real);
  });
}
