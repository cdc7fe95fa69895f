// Revert Run: put back every file an agent run changed, as `changes.json` recorded it. All or
// nothing: a file changed since the run wrote it (by the person, another run, a formatter) is never
// overwritten, so one such file refuses the whole revert before anything is touched. `changes.json`
// may come from a cloned repository, so every path is confined again before it is written: inside
// the run's real root, never in a place no run may write (.git, .vscode, .groundwork…).
import { protectedReason } from '../tools/writePaths';
import { systemClock } from '../clock';
import type { Clock } from '../clock';
import { RUN_FILES, runFile } from '../plan/layout';
import { StorageError, quotePath } from '../storage/storageError';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { isWindowsRoot, joinUnder, relativeInside } from '../tools/projectPaths';
import { decodeBefore, readChanges } from './changesFile';
import type { Sha256 } from './changesFile';
import type { RunStore } from './runStore';
import type { ChangeEntry } from './runTypes';

export type RevertResult =
  | { ok: true; restored: string[]; removed: string[]; unchanged: string[] }
  | { ok: false; changedOutside: string[]; problem: string };

/** Files larger than this are not hashed: no run writes one, so it was changed outside. */
const CURRENT_MAX_BYTES = 64 * 1024 * 1024;

type Action = { entry: ChangeEntry; abs: string; action: 'restore' | 'remove'; mode?: number };

/**
 * Reverts run `id`, whose root is `rootAbs`. Refused while the run is live (it holds its lock), when
 * `changes.json` is damaged or names a place a run never writes, and when any file changed outside
 * the run; a second revert finds every file unchanged and does nothing. Sets `revertedAt`.
 * Folders the run created are left, empty or not: the record does not say which they were.
 */
export async function revertRun(
  store: WorkspaceStore,
  runs: RunStore,
  id: string,
  hash: Sha256,
  rootAbs: string,
  clock: Clock = systemClock,
): Promise<RevertResult> {
  const found = await runs.read(id);
  if (!found.ok) return refused(found.problem);
  try {
    // Patiently: a list's liveness probe (isHeld) holds the lock for a moment.
    return await runs.withRunLockPatiently(
      id,
      async () => {
        const result = await revertLocked(store, id, hash, rootAbs);
        if (result.ok && (result.restored.length + result.removed.length > 0 || found.run.revertedAt === undefined)) {
          const at = new Date(clock.now()).toISOString();
          await runs.update(id, { revertedAt: at, updatedAt: at });
        }
        return result;
      },
      (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    );
  } catch (err) {
    if (err instanceof StorageError && err.code === 'busy')
      return refused(
        `Run ${id} is under way in another window or a groundwork command. Stop it first, then revert it.`,
      );
    throw err;
  }
}

async function revertLocked(store: WorkspaceStore, id: string, hash: Sha256, rootAbs: string): Promise<RevertResult> {
  const files = store.files;
  const read = await readChanges(store, id, hash);
  if (!read.ok) return refused(`${read.problem} Nothing was reverted.`);
  const windows = isWindowsRoot(store.folder);
  const workspaceReal = await files.realpath(store.folder);
  const rootReal = await files.realpath(rootAbs).catch(() => undefined);
  if (rootReal === undefined)
    return refused(`The run's folder ${quotePath(rootAbs)} is not there any more. Nothing was reverted.`);
  const rootInWorkspace = relativeInside(rootReal, workspaceReal, windows);
  if (rootInWorkspace === undefined)
    return refused(`The run's folder ${quotePath(rootAbs)} is outside the workspace. Nothing was reverted.`);

  const shown = quotePath(displayPath(runFile(id, RUN_FILES.changes)));
  const hostile: string[] = [];
  const changedOutside: string[] = [];
  const unchanged: string[] = [];
  const actions: Action[] = [];
  for (const entry of read.changes.files) {
    const segments = entry.path.split('/');
    // By name first: a path into .git is refused whatever is on disk.
    if (protectedPlace([...rootInWorkspace, ...segments])) {
      hostile.push(entry.path);
      continue;
    }
    const abs = joinUnder(rootReal, segments);
    const info = await files.info(abs);
    if (info === undefined) {
      (entry.before === null ? unchanged : changedOutside).push(entry.path);
      continue;
    }
    // A link, a folder or a device where the run wrote a file was put there by someone else.
    if (info.kind !== 'file') {
      changedOutside.push(entry.path);
      continue;
    }
    if (!(await confined(store, segments, rootReal, workspaceReal, windows))) {
      hostile.push(entry.path);
      continue;
    }
    const current = await currentHash(store, abs, hash);
    if (entry.beforeSha256 !== null && current === entry.beforeSha256) unchanged.push(entry.path);
    else if (current === entry.afterSha256)
      actions.push({ entry, abs, action: entry.before === null ? 'remove' : 'restore', mode: info.mode });
    else changedOutside.push(entry.path);
  }
  if (hostile.length > 0) {
    return refused(
      `${shown} names ${list(hostile)}, which no run writes (a protected place, or through a symbolic link out of the run's folder): ` +
        'the file was altered, perhaps in a cloned repository. Nothing was reverted.',
    );
  }
  if (changedOutside.length > 0) {
    return {
      ok: false,
      changedOutside,
      problem:
        `${list(changedOutside)} changed after run ${id} wrote ${changedOutside.length === 1 ? 'it' : 'them'}, so nothing was reverted (a revert would lose those changes). ` +
        `Undo those changes or copy them elsewhere, then revert again; or put the files back by hand from ${shown}, which keeps what each held before the run.`,
    };
  }

  const restored: string[] = [];
  const removed: string[] = [];
  const failed: string[] = [];
  for (const { entry, abs, action, mode } of actions) {
    try {
      if (action === 'remove') await files.remove(abs);
      else
        await files.writeAtomic(
          abs,
          decodeBefore(entry.before as NonNullable<ChangeEntry['before']>) as Uint8Array,
          mode,
        );
      (action === 'remove' ? removed : restored).push(entry.path);
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      failed.push(`${quotePath(entry.path)} (${err.message})`);
    }
  }
  if (failed.length > 0) {
    // What was put back stays back: it now equals its before, so the next revert counts it unchanged.
    return refused(`Run ${id} was reverted only in part: ${failed.join('; ')}. Fix that, then revert again to finish.`);
  }
  return { ok: true, restored, removed, unchanged };
}

function refused(problem: string): RevertResult {
  return { ok: false, changedOutside: [], problem };
}

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).map(quotePath).join(', ');
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}

/**
 * The file's folder, links resolved, must be inside the run's real root and, relative to the
 * workspace, not a protected place: a link planted since the run (or named by a hostile record)
 * must not carry the write elsewhere.
 */
async function confined(
  store: WorkspaceStore,
  segments: string[],
  rootReal: string,
  workspaceReal: string,
  windows: boolean,
): Promise<boolean> {
  const parentReal = await store.files.realpath(joinUnder(rootReal, segments.slice(0, -1))).catch(() => undefined);
  if (parentReal === undefined || relativeInside(parentReal, rootReal, windows) === undefined) return false;
  const inWorkspace = relativeInside(parentReal, workspaceReal, windows);
  return inWorkspace !== undefined && !protectedPlace([...inWorkspace, segments.at(-1) as string]);
}

async function currentHash(store: WorkspaceStore, abs: string, hash: Sha256): Promise<string> {
  try {
    const bytes = await store.files.read(abs, CURRENT_MAX_BYTES);
    return bytes === undefined ? 'missing' : hash(bytes);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'too-large') return 'too-large';
    throw err;
  }
}

/** The places write_file and edit_file refuse: a run never wrote there, so a record that names one was altered. */
function protectedPlace(segments: readonly string[]): boolean {
  return protectedReason(segments) !== undefined;
}
