// Specs written with other tools, as a build's input: a Spec Kit feature folder
// (`specs/<feature>/spec.md`, optionally `plan.md` and `tasks.md`) or a Kiro spec
// (`.kiro/specs/<feature>/requirements.md`, optionally `design.md` and `tasks.md`). Pure over the
// WorkspaceFs port. The folder may come from a cloned repository: the path must stay inside the
// workspace (links resolved, file by file), each file is capped and must be UTF-8, and every
// problem is a sentence that says what to do.
import { StorageError } from '../storage/storageError';
import type { WorkspaceFs } from '../storage/workspaceFs';
import { isWindowsRoot, relativeInside } from '../tools/projectPaths';
import { visibleText } from '../visibleText';

export const SPEC_FORMATS = ['spec-kit', 'kiro'] as const;
export type SpecFormat = (typeof SPEC_FORMATS)[number];

/** The most one file of a spec may be, in bytes. */
export const SPEC_FILE_MAX_BYTES = 200_000;
/** The most specs `findExternalSpecs` lists. */
export const EXTERNAL_SPECS_MAX = 200;
/** The most folder names `findExternalSpecs` looks into under each of `specs/` and `.kiro/specs/`. */
const CANDIDATES_MAX = 2_000;

/** Each format's files, the first one required, in the order the analyst is given them. */
export const SPEC_FILES: Readonly<Record<SpecFormat, readonly string[]>> = {
  'spec-kit': ['spec.md', 'plan.md', 'tasks.md'],
  kiro: ['requirements.md', 'design.md', 'tasks.md'],
};

const FORMAT_NAMES: Readonly<Record<SpecFormat, string>> = { 'spec-kit': 'Spec Kit feature folder', kiro: 'Kiro spec' };

export interface ExternalSpecFile {
  /** The file's name in the spec's folder: `spec.md`, `design.md`… */
  name: string;
  /** Its text, without a BOM; never blank for the first file of the format. */
  text: string;
}

export interface ExternalSpec {
  kind: SpecFormat;
  /** The folder's name: `001-todo`. */
  feature: string;
  /** The files present, in SPEC_FILES' order; blank optional files are left out. */
  files: ExternalSpecFile[];
  /** The spec's folder relative to the workspace, '/'-separated: `specs/001-todo`, `.kiro/specs/todo`. */
  path: string;
}

/** A spec found in the workspace (findExternalSpecs): what the explorer lists. */
export interface ExternalSpecEntry {
  kind: SpecFormat;
  feature: string;
  /** The folder relative to the workspace. */
  path: string;
}

export class ExternalSpecError extends Error {
  override readonly name = 'ExternalSpecError';
}

/** A spec format's name as people read it: 'Spec Kit feature folder', 'Kiro spec'. */
export function specFormatName(kind: SpecFormat): string {
  return FORMAT_NAMES[kind];
}

/**
 * The spec at `path` (relative to `workspaceRoot`, '/'-separated): its folder, or one of its files
 * (`specs/001-todo/spec.md` means the folder). ExternalSpecError, a sentence saying what to do,
 * when it is missing, outside the workspace, neither format, lacks its spec.md or
 * requirements.md, or a file is too large or not UTF-8.
 */
export async function readExternalSpec(fs: WorkspaceFs, workspaceRoot: string, path: string): Promise<ExternalSpec> {
  const shown = `'${visibleText(path.slice(0, 300))}'`;
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (
    path.startsWith('/') ||
    /^[A-Za-z]:/.test(path) ||
    path.includes('\\') ||
    /[\u0000-\u001f\u007f]/.test(path) ||
    segments.includes('..')
  )
    throw new ExternalSpecError(
      `The spec ${shown} is not a path inside the workspace: give the spec's folder relative to the workspace, such as specs/001-todo.`,
    );
  const windows = isWindowsRoot(workspaceRoot);
  const rootReal = await fs.realpath(workspaceRoot).catch(() => undefined);
  if (rootReal === undefined) throw new ExternalSpecError(`The workspace folder ${workspaceRoot} cannot be read.`);
  const inside = async (rel: readonly string[]): Promise<'missing' | 'outside' | string> => {
    const real = await fs.realpath(join(workspaceRoot, rel)).catch(() => undefined);
    if (real === undefined) return 'missing';
    return relativeInside(real, rootReal, windows) === undefined ? 'outside' : real;
  };
  const where = await inside(segments);
  if (where === 'missing')
    throw new ExternalSpecError(
      `The spec ${shown} does not exist: give a Spec Kit feature folder (specs/<feature>/) or a Kiro spec (.kiro/specs/<feature>/).`,
    );
  if (where === 'outside')
    throw new ExternalSpecError(
      `The spec ${shown} leads outside the workspace: copy the spec into the workspace first.`,
    );
  const info = await fs.info(where);
  let folder = segments;
  let named: string | undefined;
  if (info?.kind === 'file') {
    named = segments[segments.length - 1] as string;
    if (!Object.values(SPEC_FILES).some((names) => names.includes(named as string)))
      throw new ExternalSpecError(
        `${shown} is neither a Spec Kit file (spec.md, plan.md, tasks.md) nor a Kiro file (requirements.md, design.md, tasks.md): give the spec's folder.`,
      );
    folder = segments.slice(0, -1);
  } else if (info?.kind !== 'directory')
    throw new ExternalSpecError(`The spec ${shown} is neither a folder nor a file.`);
  const rel = folder.length === 0 ? '.' : folder.join('/');
  const present = new Set(
    (await fs.list(join(workspaceRoot, folder))).filter((n) =>
      Object.values(SPEC_FILES).some((names) => names.includes(n)),
    ),
  );
  const kind = formatOf(present, folder, named);
  if (kind === undefined)
    throw new ExternalSpecError(
      `'${visibleText(rel)}' is neither a Spec Kit feature folder (spec.md, plan.md, tasks.md) nor a Kiro spec (requirements.md, design.md, tasks.md): give the folder that holds spec.md or requirements.md.`,
    );
  const [main = '', ...optional] = SPEC_FILES[kind];
  if (!present.has(main))
    throw new ExternalSpecError(
      `'${visibleText(rel)}' looks like a ${FORMAT_NAMES[kind]} but has no ${main}: write ${main} first, or give another folder.`,
    );
  const files: ExternalSpecFile[] = [];
  for (const name of [main, ...optional]) {
    if (!present.has(name)) continue;
    const text = await readSpecFile(fs, [...folder, name], inside);
    if (text.trim() === '' && name !== main) continue;
    if (text.trim() === '')
      throw new ExternalSpecError(
        `'${visibleText(`${rel}/${name}`)}' is empty: there is nothing to build; write the spec first.`,
      );
    files.push({ name, text });
  }
  return { kind, feature: folder[folder.length - 1] ?? 'spec', files, path: rel };
}

/**
 * The specs in the workspace: `specs/<feature>/spec.md` and `.kiro/specs/<feature>/requirements.md`
 * (folders and files themselves, not links), sorted by path, at most EXTERNAL_SPECS_MAX. Nothing
 * is read but folder listings and lstat; a problem with one folder leaves it out.
 */
export async function findExternalSpecs(fs: WorkspaceFs, root: string): Promise<ExternalSpecEntry[]> {
  const found: ExternalSpecEntry[] = [];
  for (const [kind, base] of [
    ['spec-kit', ['specs']],
    ['kiro', ['.kiro', 'specs']],
  ] as const) {
    const main = SPEC_FILES[kind][0] as string;
    if (!(await isFolder(fs, root, base)) || (base.length > 1 && !(await isFolder(fs, root, base.slice(0, 1)))))
      continue;
    const names = await fs.list(join(root, base)).catch(() => [] as string[]);
    for (const feature of names.filter(plainName).sort().slice(0, CANDIDATES_MAX)) {
      if (found.length >= EXTERNAL_SPECS_MAX) return found;
      if (!(await isFolder(fs, root, [...base, feature]))) continue;
      const file = await fs.info(join(root, [...base, feature, main])).catch(() => undefined);
      if (file?.kind === 'file') found.push({ kind, feature, path: [...base, feature].join('/') });
    }
  }
  return found;
}

/** The format of a folder holding `present`: the named file decides, then the files, then where it is (`.kiro/`). */
function formatOf(
  present: ReadonlySet<string>,
  folder: readonly string[],
  named: string | undefined,
): SpecFormat | undefined {
  const kiroPlace = folder.includes('.kiro');
  const only = (kind: SpecFormat) => SPEC_FILES[kind].filter((n) => n !== 'tasks.md');
  if (named !== undefined && named !== 'tasks.md') return only('kiro').includes(named) ? 'kiro' : 'spec-kit';
  const has = (kind: SpecFormat) => only(kind).some((n) => present.has(n));
  if (has('spec-kit') && has('kiro')) return kiroPlace ? 'kiro' : 'spec-kit';
  if (has('spec-kit')) return 'spec-kit';
  if (has('kiro')) return 'kiro';
  if (present.has('tasks.md') && kiroPlace) return 'kiro';
  return undefined;
}

async function readSpecFile(
  fs: WorkspaceFs,
  segments: readonly string[],
  inside: (rel: readonly string[]) => Promise<string>,
): Promise<string> {
  const shown = `'${visibleText(segments.join('/'))}'`;
  const real = await inside(segments);
  if (real === 'missing') throw new ExternalSpecError(`${shown} does not exist any more: give the spec again.`);
  if (real === 'outside')
    throw new ExternalSpecError(`${shown} leads outside the workspace: copy the file into the workspace first.`);
  if ((await fs.info(real))?.kind !== 'file') throw new ExternalSpecError(`${shown} is not a file.`);
  const bytes = await fs.read(real, SPEC_FILE_MAX_BYTES).catch((err: unknown) => {
    if (err instanceof StorageError && err.code === 'too-large')
      throw new ExternalSpecError(
        `${shown} is larger than ${SPEC_FILE_MAX_BYTES} bytes: shorten it, or split what the build needs into a smaller spec.`,
      );
    throw new ExternalSpecError(`${shown} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (bytes === undefined) throw new ExternalSpecError(`${shown} does not exist any more: give the spec again.`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\ufeff/, '');
  } catch {
    throw new ExternalSpecError(`${shown} is not UTF-8 text: save it as UTF-8, then start the build again.`);
  }
}

async function isFolder(fs: WorkspaceFs, root: string, segments: readonly string[]): Promise<boolean> {
  return (await fs.info(join(root, segments)).catch(() => undefined))?.kind === 'directory';
}

/** A folder name worth listing: no control characters, no separators, not '.' or '..'. */
function plainName(name: string): boolean {
  return name !== '.' && name !== '..' && name.length <= 255 && !/[\u0000-\u001f\u007f/\\]/.test(name);
}

function join(root: string, segments: readonly string[]): string {
  if (segments.length === 0) return root;
  return /[\\/]$/.test(root) ? `${root}${segments.join('/')}` : `${root}/${segments.join('/')}`;
}

const FILE_LINE = /^<!-- groundwork spec file ([a-z]+\.md): (\d{1,9}) characters -->\n/;

/**
 * The spec as one text (a build's `input.md`, what Resume gives the analyst again): the feature as
 * its title, then each file after a line giving its name and length, so `specInputFiles` can split
 * it back exactly whatever the files hold.
 */
export function specInput(spec: ExternalSpec): string {
  const parts = [`# ${spec.feature}\n\nFrom the ${FORMAT_NAMES[spec.kind]} ${spec.path}.\n\n`];
  for (const file of spec.files)
    parts.push(`<!-- groundwork spec file ${file.name}: ${file.text.length} characters -->\n${file.text}\n`);
  return parts.join('');
}

/** The files `specInput` wrote into `input`, or undefined when it is not such a text (a hand-edited input.md). */
export function specInputFiles(input: string): ExternalSpecFile[] | undefined {
  let at = input.indexOf('\n<!-- groundwork spec file ');
  if (at < 0) return undefined;
  at += 1;
  const files: ExternalSpecFile[] = [];
  while (at < input.length) {
    const line = FILE_LINE.exec(input.slice(at, at + 80));
    if (line === null) return undefined;
    const start = at + line[0].length;
    const end = start + Number(line[2]);
    if (end > input.length || input[end] !== '\n') return undefined;
    files.push({ name: line[1] as string, text: input.slice(start, end) });
    at = end + 1;
  }
  return files.length === 0 ? undefined : files;
}
