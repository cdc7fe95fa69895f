// Every path a tool is given comes from a model, which may have read it in a hostile file. So a
// path is checked twice: lexically (plain relative names that any platform can hold, no '..'),
// then by its real location: with every symbolic link resolved it must still be inside the real
// workspace root, compared by path segments, never by string prefix ('/w-evil' is not in '/w').
import { visibleText } from '../visibleText';
import type { EntryInfo } from '../storage/workspaceFs';
import { ToolInputError, type ToolContext, type ToolRunCache } from './toolTypes';

/** A workspace path the tools may use, resolved. */
export interface ProjectEntry {
  /** The path as given, made of plain names relative to the root ([] for the root). */
  segments: string[];
  /** As shown to the model: 'src/a.ts', '.' for the root. */
  shown: string;
  /** The real path (every link resolved), inside the real root: what the tools read. */
  real: string;
  /** `real` relative to the real root, as names ([] for the root). */
  realSegments: string[];
  /** What is at the real path. */
  kind: EntryInfo['kind'];
  size: number;
}

const WINDOWS_ROOT = /^(?:[A-Za-z]:[\\/]|\\\\)/;
// Names Windows keeps for devices, with or without an extension ('nul.txt' is the device too).
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?:\..*)?$/i;
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Quoted for a message: control and invisible characters made visible. */
export function quoted(text: string): string {
  return `'${visibleText(text)}'`;
}

/** How a path of plain names is shown: 'src/a.ts', '.' for the root. */
export function showSegments(segments: readonly string[]): string {
  return segments.length === 0 ? '.' : segments.join('/');
}

function refuse(path: string, reason: string): never {
  throw new ToolInputError(`The path ${quoted(path)} was refused: ${reason}.`);
}

/**
 * The names of a workspace-relative path as a model may give it, or ToolInputError saying why it
 * is refused. '', '.' and './' mean the root; '.' segments and a trailing '/' are dropped.
 */
export function checkProjectPath(path: string): string[] {
  if (path.includes('\0') || CONTROL.test(path)) refuse(path, 'it contains a NUL byte or another control character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\\\')) {
    refuse(
      path,
      "it is an absolute path; give a path relative to the workspace root, such as 'src/index.ts' ('.' for the root)",
    );
  }
  if (path.includes('\\')) refuse(path, "it contains a backslash; separate folder names with '/'");
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  for (const segment of segments) {
    if (segment === '..')
      refuse(
        path,
        "it has a '..' segment; paths may not leave the workspace, so give the path from the workspace root",
      );
    if (WINDOWS_FORBIDDEN.test(segment))
      refuse(path, `the name ${quoted(segment)} contains one of < > : " | ? *, which no workspace file may hold`);
    if (/[. ]$/.test(segment))
      refuse(path, `the name ${quoted(segment)} ends in a dot or a space, which no workspace file may`);
    if (WINDOWS_DEVICE.test(segment))
      refuse(path, `${quoted(segment)} is a device name reserved by Windows, not a workspace file`);
  }
  return segments;
}

/** The absolute path of `segments` under `base` ('/'-joined; Node takes '/' on Windows too). */
export function joinUnder(base: string, segments: readonly string[]): string {
  if (segments.length === 0) return base;
  return /[\\/]$/.test(base) ? `${base}${segments.join('/')}` : `${base}/${segments.join('/')}`;
}

/** Whether the workspace root is a Windows path ('C:\\w', '\\\\server\\share'). */
export function isWindowsRoot(root: string): boolean {
  return WINDOWS_ROOT.test(root);
}

function splitReal(path: string, windows: boolean): string[] {
  return path.split(windows ? /[\\/]/ : '/').filter((s) => s !== '');
}

/**
 * `real` relative to `rootReal` as names, or undefined when it is not inside it. Segments are
 * compared (case-insensitively on Windows), never string prefixes.
 */
export function relativeInside(real: string, rootReal: string, windows: boolean): string[] | undefined {
  const inner = splitReal(real, windows);
  const outer = splitReal(rootReal, windows);
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (inner.length < outer.length || !outer.every((s, i) => same(s, inner[i] as string))) return undefined;
  return inner.slice(outer.length);
}

/** The real path of the workspace root, found once per run. */
export function realRoot(context: ToolContext, cache: ToolRunCache): Promise<string> {
  return cache.get(`real-root:${context.root}`, () => context.fs.realpath(context.root));
}

function notFound(segments: string[]): ToolInputError {
  const parent = showSegments(segments.slice(0, -1));
  return new ToolInputError(
    `Nothing is at ${quoted(showSegments(segments))} in the workspace. Call list_files with path ${quoted(parent)} to see what is there.`,
  );
}

function outside(segments: string[]): ToolInputError {
  return new ToolInputError(
    `${quoted(showSegments(segments))} leads outside the workspace through a symbolic link, so the tools may not use it. ` +
      'Only files inside the workspace can be read.',
  );
}

/**
 * Resolves a path the model gave: checked lexically, then by its real location. Refused with
 * ToolInputError when it leads out of the workspace or nothing is there.
 */
export async function resolveProjectPath(
  path: string,
  context: ToolContext,
  cache: ToolRunCache,
): Promise<ProjectEntry> {
  const segments = checkProjectPath(path);
  const { fs } = context;
  const windows = isWindowsRoot(context.root);
  const rootReal = await realRoot(context, cache);
  const lexical = joinUnder(context.root, segments);
  const info = await fs.info(lexical);
  if (info === undefined) {
    // Whether the missing path's deepest existing folder lies outside is the same refusal: the
    // model learns nothing about what exists outside the workspace.
    for (let depth = segments.length - 1; depth >= 1; depth--) {
      const ancestor = joinUnder(context.root, segments.slice(0, depth));
      if ((await fs.info(ancestor)) === undefined) continue;
      const real = await fs.realpath(ancestor).catch(() => undefined);
      if (real !== undefined && relativeInside(real, rootReal, windows) === undefined) throw outside(segments);
      break;
    }
    throw notFound(segments);
  }
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch (err) {
    // A link to nothing: its target is not revealed, whether inside or out.
    if (info.kind === 'symlink') throw notFound(segments);
    throw err;
  }
  const realSegments = relativeInside(real, rootReal, windows);
  if (realSegments === undefined) throw outside(segments);
  const target = info.kind === 'symlink' ? await fs.info(real) : info;
  if (target === undefined) throw notFound(segments);
  return { segments, shown: showSegments(segments), real, realSegments, kind: target.kind, size: target.size };
}
