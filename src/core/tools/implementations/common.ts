// What the read tools share: walking a folder without following links and without entering what
// agents may not see, telling text from binary, and fitting a result into its cap as a fenced block.
import { cutText, utf8Length } from '../../prompt/cap';
import { wrapUntrusted } from '../../prompt/untrustedText';
import type { EntryInfo } from '../../storage/workspaceFs';
import { entrySkipReason, listsGitignore, type ProjectFilter } from '../projectFilter';
import { joinUnder, type ProjectEntry } from '../projectPaths';
import type { ToolContext } from '../toolTypes';

/** The most a tool result holds, header and fence included, in bytes of UTF-8. */
export const MAX_OUTPUT_BYTES = 64 * 1024;
/** A file with a NUL byte in this many first bytes is binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;
/** Entries a listing or a search looks at before it stops. */
export const MAX_VISITED = 20_000;
/** Room kept for the fence's lines around a block (boundaries, the source label twice). */
const FENCE_RESERVE = 1024;

export function isBinary(data: Uint8Array): boolean {
  return data.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** UTF-8 (a byte order mark dropped; invalid bytes as U+FFFD). */
export function decodeText(data: Uint8Array): string {
  return new TextDecoder('utf-8').decode(data);
}

/** The lines of a text, split where wrapUntrusted would (CRLF, CR, LF); a final newline ends the last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A string field the registry has checked, or the default when it is absent. */
export function optionalString(input: Record<string, unknown>, key: string, fallback: string): string {
  const value = input[key];
  return typeof value === 'string' ? value : fallback;
}

/** Names shown one to a line: a control character in a name becomes '?' so it cannot start a fake line. */
export function lineSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
}

export interface Fitted {
  text: string;
  /** How many of the lines are in the block. */
  shown: number;
  /** The block holds only the start of the first line, which alone is over the cap. */
  cutFirstLine: boolean;
}

/**
 * `header(shown)` on its own line, then as many whole `lines` as fit, fenced as data from
 * `source`; the whole at most MAX_OUTPUT_BYTES. The header may depend on how many lines fit.
 */
export function fitFenced(
  lines: readonly string[],
  source: string,
  context: ToolContext,
  header: (shown: number, cutFirstLine: boolean) => string,
): Fitted {
  let budget = MAX_OUTPUT_BYTES - FENCE_RESERVE;
  for (;;) {
    let used = 0;
    let shown = 0;
    for (const line of lines) {
      const size = utf8Length(line) + 1;
      if (used + size > budget) break;
      used += size;
      shown++;
    }
    const cutFirstLine = shown === 0 && lines.length > 0;
    const head = header(shown, cutFirstLine);
    const bodyBudget = Math.max(64, budget - utf8Length(head));
    const body = cutFirstLine ? cutText(lines[0] as string, bodyBudget) : lines.slice(0, shown).join('\n');
    const text = `${head}\n${wrapUntrusted(body, source, context.random)}`;
    const excess = utf8Length(text) - MAX_OUTPUT_BYTES;
    // Escaping a fake tag ('<' to '&lt;') can make a block longer than its text: fit again, tighter.
    if (excess <= 0 || budget <= 1024) return { text, shown, cutFirstLine };
    budget = Math.max(1024, budget - excess - 256);
  }
}

export interface WalkEntry {
  /** From the root, by the path as given. */
  segments: string[];
  /** From the root, by the start folder's real path (the same below it: no links are followed). */
  realSegments: string[];
  /** Below the start folder. */
  fromStart: string[];
  /** The absolute path to read. */
  real: string;
  kind: EntryInfo['kind'];
  size: number;
}

export interface WalkStats {
  visited: number;
  /** Entries left out as excluded (.git, .groundwork, .gitignore, files.exclude). */
  skipped: number;
  /** Folders below the start that could not be listed. */
  unreadable: number;
  /** Stopped at MAX_VISITED entries. */
  cut: boolean;
  /** Stopped by the run's signal. */
  aborted: boolean;
}

/**
 * Visits the entries of the folder `start` (and, when `recursive`, of every folder below it that
 * agents may see), breadth first, in name order, loading each folder's .gitignore as it enters
 * it. Never follows a symbolic link: a link is an entry of kind 'symlink'. `visit` returns false
 * to stop.
 */
export async function walkFolder(
  start: ProjectEntry,
  context: ToolContext,
  filter: ProjectFilter,
  recursive: boolean,
  visit: (entry: WalkEntry) => boolean | void | Promise<boolean | void>,
): Promise<WalkStats> {
  const stats: WalkStats = { visited: 0, skipped: 0, unreadable: 0, cut: false, aborted: false };
  const queue: string[][] = [[]];
  for (let next = 0; next < queue.length; next++) {
    if (context.signal.aborted) return { ...stats, aborted: true };
    const below = queue[next] as string[];
    let names: string[];
    try {
      names = await context.fs.list(joinUnder(start.real, below));
    } catch (err) {
      if (below.length === 0) throw err;
      stats.unreadable++;
      continue;
    }
    // The folder's own .gitignore rules its entries: loaded as the walk enters it, once per run.
    const mayHaveGitignore = listsGitignore(names);
    await filter.prepare([...start.segments, ...below], mayHaveGitignore);
    await filter.prepare([...start.realSegments, ...below], mayHaveGitignore);
    for (const name of [...names].sort()) {
      if (stats.visited >= MAX_VISITED) return { ...stats, cut: true };
      stats.visited++;
      const fromStart = [...below, name];
      const real = joinUnder(start.real, fromStart);
      const info = await context.fs.info(real).catch(() => undefined);
      if (info === undefined) continue;
      const entry: WalkEntry = {
        segments: [...start.segments, ...fromStart],
        realSegments: [...start.realSegments, ...fromStart],
        fromStart,
        real,
        kind: info.kind,
        size: info.size,
      };
      if (entrySkipReason(filter, entry) !== undefined) {
        stats.skipped++;
        continue;
      }
      if ((await visit(entry)) === false) return stats;
      if (recursive && info.kind === 'directory') queue.push(fromStart);
    }
  }
  return stats;
}

/** What the walk left out or where it stopped, as clauses of the header. */
export function walkNotes(stats: WalkStats): string[] {
  const notes: string[] = [];
  if (stats.skipped > 0)
    notes.push(
      `${plural(stats.skipped, 'entry', 'entries')} hidden (.git, .groundwork, ignored by .gitignore or excluded by the user)`,
    );
  if (stats.unreadable > 0) notes.push(`${plural(stats.unreadable, 'folder')} could not be listed`);
  if (stats.cut)
    notes.push(
      `stopped after looking at ${MAX_VISITED.toLocaleString('en-US')} entries, so some are missing: use a narrower path`,
    );
  return notes;
}

/** "1 file", "3 files". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
