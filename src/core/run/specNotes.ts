// A discovery a run's curator created, shown in the run's specs: its note goes after the region of
// its task in the first spec of the run's folder that has one (core/annotations/specWriter.ts).
// Never fails the run or the report: what went wrong is a notice in the run's output.
import { appendDiscoveryNote, specShown } from '../annotations/specWriter';
import type { SpecRefusal, SpecWriter } from '../annotations/specWriter';
import { taskProblem } from '../annotations/markerSyntax';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { RunEvent } from './runTypes';

/** The task a note names: the one the agent gave when it is a valid id, else the case's own task. */
export function noteTask(given: string | undefined, caseTask: string): string {
  return given !== undefined && taskProblem(given) === undefined ? given : caseTask;
}

/** Appends the note of a new case to the specs of `folder`; tells `emit` where it went or why it did not. */
export async function noteInSpecs(
  ports: { fs: WorkspaceFs | undefined; writer: SpecWriter | undefined },
  folder: string,
  note: { task: string; caseId: string; content: string },
  emit: (event: RunEvent) => void,
): Promise<void> {
  const { fs, writer } = ports;
  if (fs === undefined || writer === undefined || taskProblem(note.task) !== undefined) return;
  try {
    const refused = (r: SpecRefusal): void =>
      emit({
        type: 'notice',
        text: `${note.caseId} could not be noted in the specs: ${r.reason} (${specShown(folder, r.path)})`,
      });
    const path = await appendDiscoveryNote({ fs, writer, refused }, folder, note);
    if (path !== undefined)
      emit({ type: 'notice', text: `${note.caseId} is noted after ${note.task} in ${specShown(folder, path)}.` });
  } catch (err) {
    emit({
      type: 'notice',
      text: `${note.caseId} could not be noted in the specs: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
