// Which folder `--workspace` names: a folder, or a VS Code `.code-workspace` file of several
// folders, of which `--folder NAME` picks one; without it, the one folder with a `.groundwork/`
// (as the extension's plan explorer shows it). A workspace file is JSON with comments and trailing
// commas, as VS Code writes it; it may come from a cloned repository, so every field is checked.
import { basename, dirname, resolve } from 'node:path';
import { UsageError } from './cliTypes';

export const WORKSPACE_FILE_SUFFIX = '.code-workspace';
const WORKSPACE_FILE_MAX_CHARS = 1_000_000;

export interface WorkspaceFolderEntry {
  name: string;
  path: string;
}

/** The text without `//` and `/* *\/` comments and without commas before `]` or `}`, strings kept as they are. */
export function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else if (c === ',' && closesNext(text, i + 1)) {
      out += ' ';
    } else out += c;
  }
  return out;
}

/** Whether only blanks and comments stand between `from` and a `]` or `}` (a trailing comma's). */
function closesNext(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === ']' || c === '}') return true;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 1;
    } else if (!/\s/.test(c)) return false;
  }
  return false;
}

/** The folders a workspace file lists, paths resolved against its own folder; a folder given only as a URI is left out. */
export function workspaceFolders(text: string, file: string): WorkspaceFolderEntry[] {
  if (text.length > WORKSPACE_FILE_MAX_CHARS) throw new UsageError(`${file} is larger than a workspace file can be`);
  let value: unknown;
  try {
    value = JSON.parse(stripJsonc(text.replace(/^\uFEFF/, '')));
  } catch (err) {
    throw new UsageError(`${file} is not a workspace file (${err instanceof Error ? err.message : String(err)})`);
  }
  const folders = typeof value === 'object' && value !== null ? (value as { folders?: unknown }).folders : undefined;
  if (!Array.isArray(folders)) throw new UsageError(`${file} lists no "folders"`);
  const entries: WorkspaceFolderEntry[] = [];
  for (const folder of folders) {
    const path = typeof folder === 'object' && folder !== null ? (folder as { path?: unknown }).path : undefined;
    if (typeof path !== 'string' || path === '' || path.length > 4096) continue;
    const absolute = resolve(dirname(file), path);
    const name = (folder as { name?: unknown }).name;
    entries.push({
      name: typeof name === 'string' && name.trim() !== '' ? name.trim() : basename(absolute),
      path: absolute,
    });
  }
  if (entries.length === 0) throw new UsageError(`${file} lists no folder on this disk`);
  return entries;
}

/**
 * The folder of a workspace file to work in: the one `--folder` names (by its name or its folder's
 * name), else the only one with a `.groundwork/`, else the only folder; otherwise a UsageError that
 * lists the choices.
 */
export async function chooseWorkspaceFolder(
  folders: readonly WorkspaceFolderEntry[],
  wanted: string | undefined,
  file: string,
  isDirectory: (path: string) => Promise<boolean>,
): Promise<string> {
  const names = folders.map((f) => f.name).join(', ');
  if (wanted !== undefined) {
    const byName = folders.filter((f) => f.name === wanted);
    const found = byName.length > 0 ? byName : folders.filter((f) => basename(f.path) === wanted);
    if (found.length === 0) throw new UsageError(`${file} has no folder named '${wanted}'; its folders: ${names}`);
    if (found.length > 1)
      throw new UsageError(
        `${file} has ${found.length} folders named '${wanted}' (${found.map((f) => f.path).join(', ')}); pass the one you mean with --workspace DIR`,
      );
    return found[0]!.path;
  }
  if (folders.length === 1) return folders[0]!.path;
  const withState: WorkspaceFolderEntry[] = [];
  for (const folder of folders) if (await isDirectory(resolve(folder.path, '.groundwork'))) withState.push(folder);
  if (withState.length === 1) return withState[0]!.path;
  const which =
    withState.length === 0
      ? 'none has a .groundwork/ yet'
      : `${withState.map((f) => f.name).join(' and ')} have a .groundwork/`;
  throw new UsageError(
    `${file} has ${folders.length} folders and ${which}; choose one with --folder NAME (one of: ${names})`,
  );
}
