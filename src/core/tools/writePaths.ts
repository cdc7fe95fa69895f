// Where write_file and edit_file may write. A path from the model is checked as the read tools
// check it (projectPaths.ts), and more strictly: writing is how a hostile file would turn into code
// that runs (a task in .vscode, a Git hook, a CI workflow, a role's prompt in .groundwork), so those
// places are refused by name on the path as given AND on the path really written (links resolved),
// compared the way a case-insensitive, Unicode-normalising file system would compare them.
import {
  checkProjectPath,
  isWindowsRoot,
  joinUnder,
  quoted,
  realRoot,
  relativeInside,
  showSegments,
} from './projectPaths';
import { ToolInputError, type ToolContext, type ToolRunCache } from './toolTypes';
import { inWriteScope, scopeText, type WriteScope } from './writeScope';

/** A path write_file or edit_file may write, resolved. */
export interface WriteTarget {
  /** The path as given, as plain names relative to the root (never empty: the root is not a file). */
  segments: string[];
  /** As shown to the model: 'src/a.ts'. */
  shown: string;
  /** The absolute path to write: the real path of the file, or of its deepest existing folder with the missing names appended. */
  real: string;
  /** `real` relative to the real root, as names. */
  realSegments: string[];
  /** Whether a file is there now. */
  exists: boolean;
  kind?: 'file';
}

// Code points some file systems drop when comparing names (HFS+ ignores them: '.g\u200cit' is '.git').
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// A Windows 8.3 short name ('GIT~1' may be '.git'): it would name a protected folder by another name.
const SHORT_NAME = /~\d/;

/** A name as a case-insensitive, normalising file system compares it. */
export function comparable(name: string): string {
  return name.normalize('NFKC').replace(IGNORABLE, '').toLowerCase().normalize('NFKC');
}

/**
 * Why the names are a protected place, or undefined. A folder name is protected at any depth, not
 * only at the root: a nested repository's .git/hooks run as surely as the root's, and a subfolder
 * with its own .vscode may be opened as a workspace of its own.
 */
export function protectedReason(segments: readonly string[]): string | undefined {
  const names = segments.map(comparable);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name === '.git') return "'.git' holds Git's data and hooks (a hook is a program Git runs)";
    if (name === '.vscode') return "'.vscode' holds VS Code's settings and tasks, and a task can run any command";
    if (name === '.groundwork') return "'.groundwork' holds Groundwork's own state (plans, runs, roles)";
    if (name.endsWith('.code-workspace'))
      return 'a .code-workspace file holds VS Code settings and tasks, and a task can run any command';
    if (name === '.github' && names[i + 1] === 'workflows')
      return "GitHub runs the workflows in '.github/workflows' as code";
  }
  return undefined;
}

function refuse(path: string, reason: string): never {
  throw new ToolInputError(`Writing ${quoted(path)} was refused: ${reason}.`);
}

/** Refuses a name that only becomes acceptable, or dangerous, once Unicode is normalised (a fullwidth '／', a one-dot leader '․'). */
function checkNormalised(path: string, segment: string, windows: boolean): void {
  const normal = segment.normalize('NFKC');
  const tricky = () =>
    refuse(
      path,
      `the name ${quoted(segment)} reads as ${quoted(normal)} once Unicode is normalised; use plain characters for '/', '\\' and '.'`,
    );
  if (normal !== segment) {
    if (/[/\\]/.test(normal) || /^\.+$/.test(normal) || (normal.includes('..') && !segment.includes('..'))) tricky();
    try {
      checkProjectPath(normal);
    } catch {
      tricky();
    }
  }
  if (windows && SHORT_NAME.test(segment))
    refuse(
      path,
      `${quoted(segment)} looks like a Windows short name (8.3), which may stand for another name; use the full name`,
    );
}

function checkProtected(path: string, segments: readonly string[], through: string): void {
  const reason = protectedReason(segments);
  if (reason !== undefined)
    refuse(
      path,
      `${through}${reason}. Agents may not write there; if the change is needed, say so in your answer and the person will make it`,
    );
}

/**
 * Refuses a path outside the role's write scope: the path as given must match a pattern exactly,
 * and the path really written (links resolved) as the file system compares names.
 */
function checkScope(path: string, names: readonly string[], scope: WriteScope | undefined, real = false): void {
  if (scope === undefined || inWriteScope(names, scope.patterns, real ? comparable : undefined)) return;
  const through = real ? `a symbolic link on the way leads to ${quoted(showSegments(names))}, and ` : '';
  refuse(
    path,
    `${through}the ${scope.role} role may write only ${scopeText(scope.patterns)} (the writes: of its role file). ` +
      'Leave the file as it is; if it needs a change, say so in your answer',
  );
}

function outside(path: string): never {
  refuse(
    path,
    'it leads outside the workspace through a symbolic link. Write only files inside the workspace, by their path from its root',
  );
}

/**
 * Resolves a path write_file or edit_file was given, or throws ToolInputError saying why it may
 * not be written: refused by checkProjectPath, a protected place (by name or through a link), the
 * root, a folder, something that is not a regular file, through a file as if it were a folder, or
 * outside the real root. A missing file is resolved through its deepest existing folder.
 */
export async function resolveWritePath(path: string, context: ToolContext, cache: ToolRunCache): Promise<WriteTarget> {
  const segments = checkProjectPath(path);
  if (segments.length === 0)
    refuse(path, "it is the workspace root, a folder; give the path of a file, such as 'src/index.ts'");
  const windows = isWindowsRoot(context.root);
  for (const segment of segments) checkNormalised(path, segment, windows);
  const above = context.rootInWorkspace ?? [];
  checkProtected(path, [...above, ...segments], '');
  checkScope(path, segments, context.writeScope);
  const shown = showSegments(segments);

  const { fs } = context;
  const rootReal = await realRoot(context, cache);
  const lexical = joinUnder(context.root, segments);
  const info = await fs.info(lexical);

  let real: string;
  let realSegments: string[];
  let exists: boolean;
  if (info !== undefined) {
    const resolved = await fs.realpath(lexical).catch(() => undefined);
    // A link to nothing: writing through it would create a file wherever it points, which is not revealed.
    if (resolved === undefined)
      refuse(path, 'it is a symbolic link to something that does not exist; write the file by its own path');
    const inside = relativeInside(resolved, rootReal, windows);
    if (inside === undefined) outside(path);
    const target = info.kind === 'symlink' ? await fs.info(resolved) : info;
    if (target?.kind === 'directory') refuse(path, 'it is a folder; give the path of a file in it');
    if (target?.kind !== 'file') refuse(path, 'it is not a regular file (a device, a socket or a pipe)');
    real = resolved;
    realSegments = inside;
    exists = true;
  } else {
    ({ real, realSegments } = await resolveMissing(path, segments, context, rootReal, windows));
    exists = false;
  }
  if (realSegments.length === 0) refuse(path, 'it is the workspace root, a folder; give the path of a file');
  checkProtected(
    path,
    [...above, ...realSegments],
    `a symbolic link on the way leads to ${quoted(showSegments(realSegments))}, and `,
  );
  checkScope(path, realSegments, context.writeScope, true);
  return { segments, shown, real, realSegments, exists, ...(exists ? { kind: 'file' as const } : {}) };
}

/** A file that does not exist yet: its deepest existing ancestor must be a folder inside the real root; the missing names go below it. */
async function resolveMissing(
  path: string,
  segments: string[],
  context: ToolContext,
  rootReal: string,
  windows: boolean,
): Promise<{ real: string; realSegments: string[] }> {
  const { fs } = context;
  for (let depth = segments.length - 1; depth >= 1; depth--) {
    const ancestor = joinUnder(context.root, segments.slice(0, depth));
    const info = await fs.info(ancestor);
    if (info === undefined) continue;
    const shownAncestor = showSegments(segments.slice(0, depth));
    const resolved = await fs.realpath(ancestor).catch(() => undefined);
    if (resolved === undefined)
      refuse(path, `${quoted(shownAncestor)} is a symbolic link to something that does not exist`);
    const inside = relativeInside(resolved, rootReal, windows);
    if (inside === undefined) outside(path);
    const target = info.kind === 'symlink' ? await fs.info(resolved) : info;
    if (target?.kind !== 'directory') {
      const what = target?.kind === 'file' ? 'a file, not a folder' : 'not a folder';
      refuse(path, `${quoted(shownAncestor)} is ${what}, so nothing can be put in it; choose another path`);
    }
    const missing = segments.slice(depth);
    return { real: joinUnder(resolved, missing), realSegments: [...inside, ...missing] };
  }
  return { real: joinUnder(rootReal, segments), realSegments: [...segments] };
}
