// Writing Groundwork's annotations into the spec documents of a folder: the port a front end gives
// (SpecWriter: the CLI's reads and replaces the file, core/node/nodeSpecWriter.ts; VS Code's may
// apply a WorkspaceEdit so an open editor keeps its undo history), and the two things done through
// it: a discovery note after its task's region, and the requirement lines marked in a colour.
//
// The specs of a folder are the markdown files directly under its `specs/`: `requirements.md`
// first, then the others in name order, at most SPEC_FILES_MAX of them. A note goes into the first
// that has a region of its task. Nothing here throws for what a spec holds: specEdits.ts edits
// only what parses back as intended. A spec the writer refuses (rejects: a link out of the folder,
// a file that kept changing) is skipped, the others are still done, and the refusal is told to
// SpecPorts.refused.
import type { WorkspaceFs } from '../storage/workspaceFs';
import { isWindowsRoot, joinUnder, relativeInside } from '../tools/projectPaths';
import { colorProblem, taskProblem } from './markerSyntax';
import { markRegions } from './specEdits';
import { applyInsertion, planNote } from './specNotePlan';
import type { MarkOptions, SpecInsertion } from './specEdits';

/** What a change makes of a spec's text: one insertion, or the whole new text. */
export type SpecChange = SpecInsertion | { readonly text: string };

/**
 * Edits spec files. `edit` reads the file at `absPath` (a missing file, one that is not a regular
 * file, or one over SPEC_MAX_BYTES is skipped: false), asks `change` what to make of its text
 * (undefined: nothing) and writes the result; true when the file changed. Rejects when the path
 * may not be written (outside the writer's folder, through a link).
 */
export interface SpecWriter {
  edit(absPath: string, change: (text: string) => SpecChange | undefined): Promise<boolean>;
}

/** A spec larger than this is not annotated. */
export const SPEC_MAX_BYTES = 2 * 1024 * 1024;
/** The most spec files looked at in one folder. */
export const SPEC_FILES_MAX = 50;
/** The folder of a project that holds its specs. */
export const SPECS_DIR = 'specs';
/** The spec looked at first: where the requirements are. */
export const REQUIREMENTS_FILE = 'requirements.md';

/** The text a change gives. */
export function changedText(text: string, change: SpecChange): string {
  return 'text' in change ? change.text : applyInsertion(text, change);
}

/** The absolute paths of the specs of `folder`: `requirements.md` first, then the other `*.md` files directly in `specs/` by name. */
export async function specFiles(fs: WorkspaceFs, folder: string): Promise<string[]> {
  const dir = joinUnder(folder, [SPECS_DIR]);
  const names = (await fs.list(dir)).filter((n) => n.toLowerCase().endsWith('.md') && n.length > 3);
  names.sort((a, b) => (a === REQUIREMENTS_FILE ? -1 : b === REQUIREMENTS_FILE ? 1 : a < b ? -1 : a > b ? 1 : 0));
  return names.slice(0, SPEC_FILES_MAX).map((n) => joinUnder(dir, [n]));
}

/** `abs` as shown: relative to `folder` when inside it ('specs/requirements.md'). */
export function specShown(folder: string, abs: string): string {
  return relativeInside(abs, folder, isWindowsRoot(folder))?.join('/') ?? abs;
}

export interface SpecPorts {
  /** Lists the specs folder. */
  readonly fs: WorkspaceFs;
  readonly writer: SpecWriter;
  /** Told of each spec the writer refused (it was skipped); the caller reports them. */
  readonly refused?: (refusal: SpecRefusal) => void;
}

/** A spec the writer refused to edit, and why (the rejection's message). */
export interface SpecRefusal {
  readonly path: string;
  readonly reason: string;
}

/** The writer's edit of `path`, or undefined when it refused (told to `ports.refused`). */
async function editSpec(
  ports: SpecPorts,
  path: string,
  change: (text: string) => SpecChange | undefined,
): Promise<boolean | undefined> {
  try {
    return await ports.writer.edit(path, change);
  } catch (err) {
    ports.refused?.({ path, reason: err instanceof Error ? err.message : String(err) });
    return undefined;
  }
}

/**
 * Appends the note of case `caseId` about `task` after the task's last region in the first spec of
 * `folder` that has one. Resolves with the spec written (absolute), or undefined when no spec has
 * a region of the task, the note is there already, it would not parse back whole, or the writer
 * refused the spec that has the region. A spec the writer refuses before its text was read is
 * skipped. Never rejects for a spec.
 */
export async function appendDiscoveryNote(
  ports: SpecPorts,
  folder: string,
  note: { task: string; caseId: string; content: string },
): Promise<string | undefined> {
  if (taskProblem(note.task) !== undefined) return undefined;
  for (const path of await specFiles(ports.fs, folder)) {
    let found = false;
    const changed = await editSpec(ports, path, (text) => {
      const plan = planNote(text, note.task, note.caseId, note.content);
      found = plan.kind !== 'no-region';
      return plan.kind === 'insert' ? plan.insertion : undefined;
    });
    if (changed) return path;
    if (found) return undefined;
  }
  return undefined;
}

/**
 * Marks the requirement lines (and, unless `recolor` is false, the regions) of the tasks asked in
 * every spec of `folder` (see markRegions). Resolves with the specs changed; a spec the writer
 * refuses is skipped (told to `ports.refused`) and the others are still marked.
 */
export async function markSpecs(ports: SpecPorts, folder: string, options: MarkOptions): Promise<string[]> {
  if (colorProblem(options.color) !== undefined) return [];
  const changed: string[] = [];
  for (const path of await specFiles(ports.fs, folder)) {
    const wrote = await editSpec(ports, path, (text) => {
      const marked = markRegions(text, options);
      return marked.changed.length > 0 && marked.text !== text ? { text: marked.text } : undefined;
    });
    if (wrote === true) changed.push(path);
  }
  return changed;
}
