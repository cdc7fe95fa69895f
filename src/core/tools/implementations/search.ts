// search: a literal text, ignoring case, in the text files under a folder (or in one file). Each
// match is 'path:line: text'; the search stops at its caps and says so, and between files when the
// run is cancelled.
import { formatBytes, StorageError } from '../../storage/storageError';
import { visibleText } from '../../visibleText';
import { excludedError, loadProjectFilter, namedEntrySkipReason } from '../projectFilter';
import { quoted, resolveProjectPath, showSegments } from '../projectPaths';
import { ToolInputError, type ToolContext, type ToolImplementation, type ToolRunCache } from '../toolTypes';
import {
  decodeText,
  fitFenced,
  isBinary,
  lineSafe,
  MAX_OUTPUT_BYTES,
  optionalString,
  plural,
  splitLines,
  walkFolder,
  walkNotes,
  type WalkStats,
} from './common';

export const SEARCH_MAX_MATCHES = 100;
export const SEARCH_MAX_FILE_BYTES = 1024 * 1024;
export const SEARCH_MAX_FILES = 5000;
export const SEARCH_MAX_TOTAL_BYTES = 50 * 1024 * 1024;
/** A matching line is shown up to this many characters, around its first match. */
export const SEARCH_LINE_MAX_CHARS = 200;

interface Progress {
  matches: string[];
  files: number;
  bytes: number;
  tooLarge: number;
  binary: number;
  unreadable: number;
  /** Stopped at SEARCH_MAX_MATCHES with more to find. */
  moreMatches: boolean;
  /** Stopped at SEARCH_MAX_FILES or SEARCH_MAX_TOTAL_BYTES. */
  budgetCut: boolean;
}

/** The line cut to SEARCH_LINE_MAX_CHARS characters, keeping its first match in view. */
export function excerpt(line: string, needle: string): string {
  const chars = [...line.trim()];
  if (chars.length <= SEARCH_LINE_MAX_CHARS) return chars.join('');
  const text = chars.join('');
  const lower = text.toLowerCase();
  // Lower-casing keeps the length of nearly every text; where it does not, show the line's start.
  const at = lower.length === text.length ? lower.indexOf(needle) : -1;
  const atChar = at < 0 ? 0 : [...text.slice(0, at)].length;
  const start = Math.max(0, Math.min(atChar - 60, chars.length - SEARCH_LINE_MAX_CHARS));
  const window = chars.slice(start, start + SEARCH_LINE_MAX_CHARS);
  // The marks of a cut take the place of a character each, so the excerpt stays within the limit.
  if (start > 0) window[0] = '…';
  if (start + SEARCH_LINE_MAX_CHARS < chars.length) window[window.length - 1] = '…';
  return window.join('');
}

/** Searches one file; false when the search must stop. */
async function searchFile(
  file: { real: string; size: number; segments: string[] },
  needle: string,
  context: ToolContext,
  progress: Progress,
): Promise<boolean> {
  if (context.signal.aborted) return false;
  if (file.size > SEARCH_MAX_FILE_BYTES) {
    progress.tooLarge++;
    return true;
  }
  if (progress.files >= SEARCH_MAX_FILES || progress.bytes + file.size > SEARCH_MAX_TOTAL_BYTES) {
    progress.budgetCut = true;
    return false;
  }
  let data: Uint8Array | undefined;
  try {
    data = await context.fs.read(file.real, SEARCH_MAX_FILE_BYTES);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'too-large') progress.tooLarge++;
    else progress.unreadable++;
    return true;
  }
  if (data === undefined) return true;
  progress.files++;
  progress.bytes += data.length;
  if (isBinary(data)) {
    progress.binary++;
    return true;
  }
  const text = decodeText(data);
  if (!text.toLowerCase().includes(needle)) return true;
  const path = lineSafe(showSegments(file.segments));
  for (const [i, line] of splitLines(text).entries()) {
    if (!line.toLowerCase().includes(needle)) continue;
    if (progress.matches.length >= SEARCH_MAX_MATCHES) {
      progress.moreMatches = true;
      return false;
    }
    progress.matches.push(`${path}:${i + 1}: ${excerpt(line, needle)}`);
  }
  return true;
}

function notes(progress: Progress, stats: WalkStats | undefined): string[] {
  const all: string[] = [];
  if (progress.moreMatches)
    all.push(`stopped at ${SEARCH_MAX_MATCHES} matches: narrow the query or the path to see the rest`);
  if (progress.budgetCut) {
    all.push(
      `stopped after reading ${SEARCH_MAX_FILES.toLocaleString('en-US')} files or ${formatBytes(SEARCH_MAX_TOTAL_BYTES)}, ` +
        'so some files were not searched: use a narrower path',
    );
  }
  if (progress.tooLarge > 0)
    all.push(`${plural(progress.tooLarge, 'file')} over ${formatBytes(SEARCH_MAX_FILE_BYTES)} not searched`);
  if (progress.binary > 0) all.push(`${plural(progress.binary, 'binary file')} not searched`);
  if (progress.unreadable > 0) all.push(`${plural(progress.unreadable, 'file')} could not be read`);
  return stats === undefined ? all : [...all, ...walkNotes(stats)];
}

async function run(input: Record<string, unknown>, context: ToolContext, cache: ToolRunCache): Promise<string> {
  const query = optionalString(input, 'query', '');
  const needle = query.toLowerCase();
  const start = await resolveProjectPath(optionalString(input, 'path', ''), context, cache);
  const filter = await loadProjectFilter(context, cache);
  const reason = await namedEntrySkipReason(filter, start);
  if (reason !== undefined) throw excludedError(start.shown, reason);
  if (start.kind !== 'file' && start.kind !== 'directory')
    throw new ToolInputError(`${quoted(start.shown)} is neither a file nor a folder.`);

  const progress: Progress = {
    matches: [],
    files: 0,
    bytes: 0,
    tooLarge: 0,
    binary: 0,
    unreadable: 0,
    moreMatches: false,
    budgetCut: false,
  };
  let stats: WalkStats | undefined;
  if (start.kind === 'file') await searchFile(start, needle, context, progress);
  else
    stats = await walkFolder(start, context, filter, true, (entry) =>
      entry.kind === 'file' ? searchFile(entry, needle, context, progress) : undefined,
    );
  if (context.signal.aborted) throw new ToolInputError('The search was stopped: the run was cancelled.');

  const where = `in ${visibleText(start.shown)} (${plural(progress.files - progress.binary, 'file')} searched)`;
  if (progress.matches.length === 0)
    return [`No matches for ${quoted(query)} ${where}`, ...notes(progress, stats)].join('; ');
  const lines = progress.matches;
  return fitFenced(lines, `search results for ${query}`, context, (count) => {
    const all = notes(progress, stats);
    if (count < lines.length)
      all.unshift(
        `only the first ${count} are shown (cut at ${formatBytes(MAX_OUTPUT_BYTES)}): narrow the query or the path`,
      );
    return [`${plural(lines.length, 'match', 'matches')} for ${quoted(query)} ${where}`, ...all].join('; ');
  }).text;
}

export const search: ToolImplementation = {
  target: (input) => (typeof input.query === 'string' ? input.query : '?'),
  run,
};
