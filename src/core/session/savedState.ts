// A session's state file is saved with a compare: under the lock of its area (its top folder), and only when the
// file is still what this step read or last wrote. Another window, the CLI or a hand edit that
// changed it meanwhile wins, and the step is refused with `conflict()` instead of overwriting it.
import type { WorkspaceStore } from '../storage/workspaceStore';

/**
 * Replaces `rel` with `next` (or removes it when `next` is undefined) if its text is still
 * `expected` (undefined: it must not exist); else throws `conflict()`.
 */
export async function replaceIfUnchanged(
  store: WorkspaceStore,
  rel: string,
  expected: string | undefined,
  next: string | undefined,
  maxBytes: number,
  conflict: () => Error,
  mode?: number,
): Promise<void> {
  // The lock of the file's area (its top folder): a save in plans/ does not wait for discovery/.
  await store.withLock(async () => {
    const current = await store.readText(rel, maxBytes);
    if (current !== expected) throw conflict();
    if (next === undefined) await store.remove(rel);
    else await store.writeText(rel, next, mode);
  }, rel.split('/')[0]);
}
