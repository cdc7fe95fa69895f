// The agents' read tools over the workspace of a store: what a service uses unless its front end
// says otherwise (`false`: no tools; or its own, e.g. with VS Code's `files.exclude`).
import type { WorkspaceStore } from '../storage/workspaceStore';
import { createToolRunCache, readTools } from '../tools/registry';
import type { SessionTools } from './sessionRunner';

export function sessionTools(
  store: WorkspaceStore,
  given: SessionTools | false | undefined,
  exclude?: () => readonly string[],
): SessionTools | undefined {
  if (given === false) return undefined;
  if (given !== undefined) return given;
  return { box: readTools, root: store.folder, cache: createToolRunCache, ...(exclude ? { exclude } : {}) };
}
