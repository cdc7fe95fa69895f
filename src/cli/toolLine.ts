// A tool call as one line of the CLI's progress: "read README.md", "search 'auth' failed: …".
import { describeToolActivity } from '../core/tools/toolActivity';
import type { ToolActivity } from '../core/tools/toolActivity';
import { visibleText } from '../core/visibleText';

const TARGET_MAX_CHARS = 120;

export function toolLine(activity: ToolActivity): string {
  const target = visibleText(activity.target);
  const shown = { tool: activity.tool, target: target.length > TARGET_MAX_CHARS ? `${target.slice(0, TARGET_MAX_CHARS - 1)}…` : target };
  const what = describeToolActivity(shown);
  return activity.status === 'error' ? `${what} — failed: ${visibleText(activity.error ?? 'error')}` : what;
}
