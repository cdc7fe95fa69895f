// The changes to a failed build's test contract that the person could accept: what Accept Test
// Change (VS Code) and --accept-test-change (CLI) offer. Read from the project folder as it is now.
import type { Sha256 } from '../run/changesFile';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { BuildRecord } from './buildTypes';
import { contractReader } from './phaseCheckFiles';
import { absoluteIn } from './projectFiles';
import { changeText, contractChanges } from './testContract';

/** The files of `build`'s contract that differ from what was frozen, each once, with what changed; [] when none or no contract. */
export async function pendingTestChanges(
  fs: WorkspaceFs,
  workspace: string,
  build: BuildRecord,
  hash: Sha256,
): Promise<{ file: string; text: string }[]> {
  if (build.contract === undefined || build.status === 'running') return [];
  const root = absoluteIn(workspace, build.projectDir ?? '.');
  const changes = await contractChanges(build.contract, contractReader(fs, root), hash);
  const out: { file: string; text: string }[] = [];
  for (const c of changes) {
    const seen = out.find((o) => o.file === c.file);
    if (seen) seen.text += `; ${changeText(c)}`;
    else out.push({ file: c.file, text: changeText(c) });
  }
  return out;
}
