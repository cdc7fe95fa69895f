// The project folder as the build orchestrator touches it: whether a folder may hold a new
// project, and the replies it saves there (specs/brief.md, specs/verification.md, specs/review.md).
// The folder was written by agents, so a save goes through the write tools' own confinement: no
// link out of the folder, no protected place (.git, .vscode, .groundwork), no special file.
import type { WorkspaceFs } from '../storage/workspaceFs';
import { resolveWritePath } from '../tools/writePaths';
import { createToolRunCache } from '../tools/registry';

/** `rel` (workspace-relative, '.' for the folder) as an absolute path. */
export function absoluteIn(folder: string, rel: string): string {
  return rel === '.' ? folder : `${folder}/${rel}`;
}

/** Whether `<dir>` exists and is not an empty folder (a file, a link or a folder with anything in it). */
export async function isTaken(fs: WorkspaceFs, abs: string): Promise<boolean> {
  const info = await fs.info(abs);
  if (info === undefined) return false;
  if (info.kind !== 'directory') return true;
  return (await fs.list(abs)).length > 0;
}

/**
 * Writes `text` to `rel` in the project folder `projectDir` (workspace-relative, '.' for the
 * workspace itself; made when missing), atomically; throws a ToolInputError naming the path when
 * it may not be written there.
 */
export async function saveProjectFile(
  fs: WorkspaceFs,
  workspace: string,
  projectDir: string,
  rel: string,
  text: string,
): Promise<void> {
  const path = projectDir === '.' ? rel : `${projectDir}/${rel}`;
  const target = await resolveWritePath(
    path,
    { fs, root: workspace, rootInWorkspace: [], exclude: [], signal: new AbortController().signal },
    createToolRunCache(),
  );
  await fs.writeAtomic(target.real, text.endsWith('\n') ? text : `${text}\n`);
}
