// The files an agent run changed, as the explorer lists them beneath its row: in the Runs group,
// and beneath a build's try (the build feature reads them itself, without loading agent runs').
import { readChanges } from '../../core/run/changesFile';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { sha256 } from '../agentRuntime/agentRuntime';
import { fileRows, type FileRow } from './runRows';
import { runWords } from './runWords';

/** In the order the run first touched them. Throws with a sentence when they cannot be read. */
export async function readRunFiles(store: WorkspaceStore, runId: string): Promise<FileRow[]> {
  const read = await readChanges(store, runId, sha256);
  if (!read.ok) throw new Error(read.problem);
  return fileRows(runId, read.changes.files, runWords());
}
