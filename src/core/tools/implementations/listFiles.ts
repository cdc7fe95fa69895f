// list_files: a folder's entries, or with a glob every path below it that matches. Folders end in
// '/', symbolic links in '@' (and are never followed); what agents may not see is left out.
import { compileGlob, globProblem } from '../safeGlob';
import { formatBytes } from '../../storage/storageError';
import { visibleText } from '../../visibleText';
import { excludedError, loadProjectFilter, namedEntrySkipReason, type ProjectFilter } from '../projectFilter';
import { quoted, resolveProjectPath, type ProjectEntry } from '../projectPaths';
import { ToolInputError, type ToolContext, type ToolImplementation, type ToolRunCache } from '../toolTypes';
import {
  fitFenced,
  lineSafe,
  MAX_OUTPUT_BYTES,
  optionalString,
  plural,
  walkFolder,
  walkNotes,
  type WalkEntry,
} from './common';

/** The most entries one listing returns. */
export const LIST_MAX_ENTRIES = 500;

interface Listed {
  name: string;
  kind: WalkEntry['kind'];
}

const KIND_NAMES = {
  directory: ['folder', 'folders'],
  file: ['file', 'files'],
  symlink: ['symbolic link', 'symbolic links'],
  other: ['other entry', 'other entries'],
} as const;

function suffix(entry: WalkEntry): string {
  return entry.kind === 'directory' ? '/' : entry.kind === 'symlink' ? '@' : '';
}

function render(
  listed: Listed[],
  more: boolean,
  head: string,
  notes: string[],
  source: string,
  context: ToolContext,
): string {
  const shownLines = listed.slice(0, LIST_MAX_ENTRIES).map((l) => l.name);
  const cut = more || listed.length > LIST_MAX_ENTRIES;
  return fitFenced(shownLines, source, context, (count) => {
    const all = [...notes];
    if (count < shownLines.length)
      all.push(
        `only the first ${count} are shown (cut at ${formatBytes(MAX_OUTPUT_BYTES)}): narrow the path or pattern`,
      );
    else if (cut) all.push(`only the first ${count} are shown: narrow the path or pattern`);
    return [head, ...all].join('; ');
  }).text;
}

async function listFolder(start: ProjectEntry, context: ToolContext, filter: ProjectFilter): Promise<string> {
  const listed: Listed[] = [];
  const stats = await walkFolder(start, context, filter, false, (entry) => {
    listed.push({ name: lineSafe(entry.fromStart.join('/')) + suffix(entry), kind: entry.kind });
  });
  listed.sort((a, b) =>
    (a.kind === 'directory') !== (b.kind === 'directory')
      ? a.kind === 'directory'
        ? -1
        : 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0,
  );
  const notes = walkNotes(stats);
  if (listed.length === 0) return [`The folder ${visibleText(start.shown)} is empty`, ...notes].join('; ');
  const counts = (['directory', 'file', 'symlink', 'other'] as const)
    .map((kind) => [listed.filter((l) => l.kind === kind).length, KIND_NAMES[kind]] as const)
    .filter(([count]) => count > 0)
    .map(([count, [one, many]]) => plural(count, one, many));
  const head = `Folder ${visibleText(start.shown)}: ${counts.join(', ')}`;
  return render(listed, false, head, notes, `listing of ${start.shown}`, context);
}

async function listMatching(
  start: ProjectEntry,
  pattern: string,
  context: ToolContext,
  filter: ProjectFilter,
): Promise<string> {
  const problem = globProblem(pattern);
  if (problem !== undefined)
    throw new ToolInputError(
      `The pattern ${quoted(pattern)} is refused: ${problem}. Use a simpler one, such as '**/*.ts', or list a folder.`,
    );
  let matches: (path: string) => boolean;
  try {
    matches = compileGlob(pattern.replace(/^\.?\/+/, ''));
  } catch {
    throw new ToolInputError(
      `The pattern ${quoted(pattern)} is not a glob list_files can read; use one such as '**/*.ts' or 'src/**/test*'.`,
    );
  }
  const listed: Listed[] = [];
  let more = false;
  const stats = await walkFolder(start, context, filter, true, (entry) => {
    const rel = entry.fromStart.join('/');
    if (!matches(rel)) return;
    if (listed.length >= LIST_MAX_ENTRIES) {
      more = true;
      return false;
    }
    listed.push({ name: lineSafe(rel) + suffix(entry), kind: entry.kind });
  });
  listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const notes = walkNotes(stats);
  const what = `under ${visibleText(start.shown)} matching ${quoted(pattern)}`;
  if (listed.length === 0) return [`Nothing ${what}`, ...notes].join('; ');
  const head = `${more ? 'More than ' : ''}${plural(listed.length, 'entry', 'entries')} ${what}`;
  return render(listed, more, head, notes, `listing of ${start.shown}`, context);
}

async function run(input: Record<string, unknown>, context: ToolContext, cache: ToolRunCache): Promise<string> {
  const start = await resolveProjectPath(optionalString(input, 'path', ''), context, cache);
  if (start.kind === 'file')
    throw new ToolInputError(`${quoted(start.shown)} is a file, not a folder: use read_file to read it.`);
  if (start.kind !== 'directory') throw new ToolInputError(`${quoted(start.shown)} is not a folder.`);
  const filter = await loadProjectFilter(context, cache);
  const reason = await namedEntrySkipReason(filter, start);
  if (reason !== undefined) throw excludedError(start.shown, reason);
  const pattern = typeof input.pattern === 'string' ? input.pattern : undefined;
  const listing = await (pattern === undefined
    ? listFolder(start, context, filter)
    : listMatching(start, pattern, context, filter));
  if (context.signal.aborted) throw new ToolInputError('The listing was stopped: the run was cancelled.');
  return listing;
}

export const listFiles: ToolImplementation = {
  target: (input) => (typeof input.path === 'string' && input.path !== '' ? input.path : '.'),
  run,
};
