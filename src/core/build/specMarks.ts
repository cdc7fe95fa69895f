// The build's requirements as annotated specs. The analyst's brief lists each requirement on a
// line of its own as `- [task-001] …`; when the analyst passes, Groundwork keeps those lines as
// `specs/requirements.md` in the project folder. When the architect passes, every requirement line
// of the project's specs becomes a blue region (planned), and the tasks its reply lists on an
// `IMPLEMENTED: task-001, task-002` line green; when delivery passes, the tasks it lists green, or
// every region when it lists none (the build is complete). A failure here is a line of the build's
// log, never a failed phase.
import { taskProblem } from '../annotations/markerSyntax';
import { requirementTasks } from '../annotations/specEdits';
import { markSpecs, REQUIREMENTS_FILE, SPECS_DIR, specShown } from '../annotations/specWriter';
import type { SpecPorts, SpecWriter } from '../annotations/specWriter';
import type { WorkspaceFs } from '../storage/workspaceFs';
import type { BuildRecord, PhaseCheck } from './buildTypes';
import { saveProjectFile } from './projectFiles';

/** The most task ids taken from a reply's IMPLEMENTED: lines. */
export const IMPLEMENTED_MAX = 500;
/** The most requirement lines kept in specs/requirements.md, and the longest one. */
const REQUIREMENTS_MAX = 1000;
const REQUIREMENT_MAX_CHARS = 2000;

export const PLANNED_COLOR = 'blue';
export const IMPLEMENTED_COLOR = 'green';

const PREFIX = new Set([0x20, 0x09, 0x3e, 0x23, 0x2a, 0x2b, 0x5f, 0x60, 0x2d]); // space tab > # * + _ ` -
const WRAPS = '`*_"\'[]()';

/** The lines of `text`, without their line breaks; linear. */
function* linesOf(text: string): Generator<string> {
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    yield text.slice(start, text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end);
    start = end + 1;
  }
}

/**
 * The task ids a reply lists on its `IMPLEMENTED:` lines (at the start of a line, after optional
 * indentation, `>`, `#`, a bullet or emphasis, as every build marker), separated by commas or
 * spaces, each maybe in backticks or brackets; ids that cannot be a marker's task are left out.
 * In the order given, each once, at most IMPLEMENTED_MAX.
 */
export function parseImplemented(reply: string): string[] {
  const ids = new Set<string>();
  for (const line of linesOf(reply)) {
    let at = 0;
    while (at < line.length && PREFIX.has(line.charCodeAt(at))) at++;
    if (!line.startsWith('IMPLEMENTED:', at)) continue;
    for (const word of line.slice(at + 'IMPLEMENTED:'.length).split(/[\s,;]+/)) {
      let [from, to] = [0, word.length];
      while (from < to && WRAPS.includes(word[from] ?? '')) from++;
      while (to > from && WRAPS.includes(word[to - 1] ?? '')) to--;
      const id = word.slice(from, to);
      if (id !== '' && taskProblem(id) === undefined && ids.size < IMPLEMENTED_MAX) ids.add(id);
    }
  }
  return [...ids];
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
 * Marks the specs of the project folder `folder` after the phase of `check` passed with `reply`.
 * A spec the writer refuses (a link out of the folder…) is skipped and named in the note, which is
 * then not ok. Never rejects.
 */
export async function markPhaseSpecs(
  ports: { fs: WorkspaceFs; writer: SpecWriter | undefined },
  folder: string,
  check: PhaseCheck,
  reply: string,
): Promise<MarkNote | undefined> {
  const { writer } = ports;
  if (writer === undefined || (check !== 'architecture' && check !== 'delivery')) return undefined;
  const refusals = new Map<string, string>();
  const spec: SpecPorts = { fs: ports.fs, writer, refused: (r) => refusals.set(r.path, r.reason) };
  const listed = parseImplemented(reply);
  const changed = new Set<string>();
  try {
    if (check === 'architecture') {
      for (const path of await markSpecs(spec, folder, { color: PLANNED_COLOR, tasks: 'all', recolor: false }))
        changed.add(path);
      if (listed.length > 0)
        for (const path of await markSpecs(spec, folder, { color: IMPLEMENTED_COLOR, tasks: listed }))
          changed.add(path);
    } else {
      for (const path of await markSpecs(spec, folder, {
        color: IMPLEMENTED_COLOR,
        tasks: listed.length > 0 ? listed : 'all',
      }))
        changed.add(path);
    }
  } catch (err) {
    return { text: `the specs could not be marked: ${err instanceof Error ? err.message : String(err)}`, ok: false };
  }
  const refused = [...refusals]
    .map(([path, reason]) => `${specShown(folder, path)} could not be marked: ${reason}`)
    .join('; ');
  if (changed.size === 0) return refused === '' ? undefined : { text: refused, ok: false };
  const ids =
    listed.length > 10 ? `${listed.slice(0, 10).join(', ')} and ${listed.length - 10} more` : listed.join(', ');
  const what =
    check === 'architecture'
      ? `planned (${PLANNED_COLOR})${listed.length > 0 ? `, ${ids} implemented` : ''}`
      : `implemented (${IMPLEMENTED_COLOR}): ${listed.length > 0 ? ids : 'all'}`;
  const marked = `requirements marked ${what} in ${[...changed].map((p) => specShown(folder, p)).join(', ')}`;
  return refused === '' ? { text: marked, ok: true } : { text: `${marked}; ${refused}`, ok: false };
}
