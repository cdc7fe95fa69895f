// The build's requirements as annotated specs. The analyst's brief lists each requirement on a
// line of its own as `- [task-001] …`; when the analyst passes, Groundwork keeps those lines as
// `specs/requirements.md` in the project folder. When the architect passes, every requirement line
// of the project's specs becomes a blue region (planned); a requirement turns green (or red) only
// by the tests of the final verification (requirementEvidence.ts). A failure here is a line of the
// build's log, never a failed phase.
import { requirementTasks } from '../annotations/specEdits';
import { markSpecs, REQUIREMENTS_FILE, SPECS_DIR, specShown } from '../annotations/specWriter';
import type { SpecPorts, SpecWriter } from '../annotations/specWriter';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { BuildRecord, PhaseCheck } from './buildTypes';
import { saveProjectFile } from './projectFiles';

/** The most requirement lines kept in specs/requirements.md, and the longest one. */
const REQUIREMENTS_MAX = 1000;
const REQUIREMENT_MAX_CHARS = 2000;

export const PLANNED_COLOR = 'blue';
export const IMPLEMENTED_COLOR = 'green';

/** The lines of `text`, without their line breaks; linear. */
function* linesOf(text: string): Generator<string> {
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    yield text.slice(start, text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end);
    start = end + 1;
  }
}

/** `specs/requirements.md` from the analyst's reply: its `[task-NNN]` lines as a list, each task once; undefined when it has none. */
export function requirementsDocument(reply: string): string | undefined {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const line of linesOf(reply)) {
    if (items.length >= REQUIREMENTS_MAX) break;
    if (!line.includes('[')) continue;
    const found = requirementTasks(line)[0];
    if (found === undefined || seen.has(found.task)) continue;
    seen.add(found.task);
    items.push(`- ${line.slice(found.start, found.end).slice(0, REQUIREMENT_MAX_CHARS)}`);
  }
  return items.length === 0 ? undefined : `# Requirements\n\n${items.join('\n')}\n`;
}

/** Where requirements.md goes in the project folder (relative to it). */
export const REQUIREMENTS_PATH = `${SPECS_DIR}/${REQUIREMENTS_FILE}`;

/**
 * Saves the brief's `[task-NNN]` lines as specs/requirements.md in the build's project folder: a
 * new project's, or a feature's when the folder has none (a person's own file is not written
 * over). What happened, for the build's log, when it is worth a line; never rejects.
 */
export async function keepRequirements(
  fs: WorkspaceFs,
  workspace: string,
  build: BuildRecord,
  reply: string,
): Promise<MarkNote | undefined> {
  const doc = requirementsDocument(reply);
  if (doc === undefined || build.projectDir === undefined) return undefined;
  try {
    const folder = build.projectDir === '.' ? workspace : `${workspace}/${build.projectDir}`;
    if (build.mode !== 'new' && (await fs.info(`${folder}/${REQUIREMENTS_PATH}`)) !== undefined) {
      return {
        text: `${REQUIREMENTS_PATH} is there already: the brief's requirements were not written over it`,
        ok: true,
      };
    }
    await saveProjectFile(fs, workspace, build.projectDir, REQUIREMENTS_PATH, doc);
    return undefined;
  } catch (err) {
    return {
      text: `${REQUIREMENTS_PATH} could not be written: ${err instanceof Error ? err.message : String(err)}`,
      ok: false,
    };
  }
}

/** What marking a passed phase's specs did, for the build's log; undefined when there was nothing to do. */
export interface MarkNote {
  readonly text: string;
  readonly ok: boolean;
}

/**
 * Marks the specs of the project folder `folder` after the phase of `check` passed: the architect's
 * pass makes every requirement line a blue region (planned). Nothing turns green here, whatever a
 * reply claims (an `IMPLEMENTED:` line included): only the final verification does, for the
 * requirements a passing test names (requirementEvidence.ts). A spec the writer refuses (a link
 * out of the folder…) is skipped and named in the note, which is then not ok. Never rejects.
 */
export async function markPhaseSpecs(
  ports: { fs: WorkspaceFs; writer: SpecWriter | undefined },
  folder: string,
  check: PhaseCheck,
): Promise<MarkNote | undefined> {
  const { writer } = ports;
  if (writer === undefined || check !== 'architecture') return undefined;
  const refusals = new Map<string, string>();
  const spec: SpecPorts = { fs: ports.fs, writer, refused: (r) => refusals.set(r.path, r.reason) };
  const changed = new Set<string>();
  try {
    for (const path of await markSpecs(spec, folder, { color: PLANNED_COLOR, tasks: 'all', recolor: false }))
      changed.add(path);
  } catch (err) {
    return { text: `the specs could not be marked: ${err instanceof Error ? err.message : String(err)}`, ok: false };
  }
  const refused = [...refusals]
    .map(([path, reason]) => `${specShown(folder, path)} could not be marked: ${reason}`)
    .join('; ');
  if (changed.size === 0) return refused === '' ? undefined : { text: refused, ok: false };
  const marked = `requirements marked planned (${PLANNED_COLOR}) in ${[...changed].map((p) => specShown(folder, p)).join(', ')}`;
  return refused === '' ? { text: marked, ok: true } : { text: `${marked}; ${refused}`, ok: false };
}
