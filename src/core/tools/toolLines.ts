// The tool calls of an agent as a front end lists them: one line per call, in the order the calls
// began, each with its latest status. Shared by the discovery and brainstorm views (and the CLI).
import type { ToolActivity } from './toolActivity';
import { visibleText } from '../visibleText';

/** How long a target (a path, a query) may be on its line; the rest is cut with an ellipsis. */
export const TOOL_TARGET_MAX_CHARS = 80;
/** How long a tool's error may be on its line. */
export const TOOL_ERROR_MAX_CHARS = 160;

/** What a call did, for its icon and its words: the front end says it in its own language. */
export type ToolKind = 'read' | 'list' | 'search' | 'write' | 'command' | 'other';

export interface ToolLine {
  /** The call's id: the line a later report of the same call replaces. */
  id: string;
  kind: ToolKind;
  /** The tool's name as the model sees it (`read_file`…), for a tool without its own words. */
  tool: string;
  /** The path or the query, on one line: control and invisible characters escaped, cut. */
  target: string;
  status: ToolActivity['status'];
  /** With 'error': what went wrong, on one line, cut. */
  error?: string;
}

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  list_files: 'list',
  search: 'search',
  write_file: 'write',
  edit_file: 'write',
  run_command: 'command',
};

/** `text` as one visible line of at most `max` code points, the last one an ellipsis when cut. */
export function oneLine(text: string, max: number): string {
  const flat = visibleText(text.replace(/\s+/g, ' ').trim());
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** One call as its line. */
export function toolLine(activity: ToolActivity): ToolLine {
  const line: ToolLine = {
    id: activity.id,
    kind: KINDS[activity.tool] ?? 'other',
    tool: oneLine(activity.tool, TOOL_TARGET_MAX_CHARS),
    target: oneLine(activity.target, TOOL_TARGET_MAX_CHARS),
    status: activity.status,
  };
  if (activity.status === 'error' && activity.error !== undefined)
    line.error = oneLine(activity.error, TOOL_ERROR_MAX_CHARS);
  return line;
}

/**
 * The lines of a session's reports, as they arrived (a 'running' report, then its 'done' or
 * 'error'): one line per call, where its first report put it, with its latest status.
 */
export function toolLines(activities: readonly ToolActivity[]): ToolLine[] {
  const lines = new Map<string, ToolLine>();
  for (const activity of activities) lines.set(activity.id, toolLine(activity));
  return [...lines.values()];
}
