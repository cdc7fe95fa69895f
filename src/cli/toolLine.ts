// A tool call as one line of the CLI's progress: "read README.md", "search 'auth' — failed: …".
// The line itself (one visible line, cut) is core's, shared with the panel.
import { describeToolActivity } from '../core/tools/toolActivity';
import type { ToolActivity } from '../core/tools/toolActivity';
import { toolLine as lineOf } from '../core/tools/toolLines';

export function toolLine(activity: ToolActivity): string {
  const line = lineOf(activity);
  const what = describeToolActivity(line);
  return line.status === 'error' ? `${what} — failed: ${line.error ?? 'error'}` : what;
}
