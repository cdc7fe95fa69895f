// What a front end is told about a tool call while a session runs: enough to show "read
// README.md" or "searched 'auth'" as it happens, and whether it worked.

/** One tool call of an agent, as it starts and as it ends. */
export interface ToolActivity {
  /** The call's id (the model's tool_use id): the 'running' and the final report share it. */
  id: string;
  /** The tool's name as the model sees it: `read_file`, `search`, `write_file`, `run_command`… */
  tool: string;
  /**
   * What it touched as the model asked for it: a workspace-relative path (`.` for the root), the
   * search's query, the command, the sleep's mode ('timer 5s'), the discovery's scope. Untrusted
   * model text: show it as text, cut it for a line.
   */
  target: string;
  status: 'running' | 'done' | 'error';
  /** With 'error': what went wrong, in a sentence (the same text the model gets back). */
  error?: string;
}

/** "read README.md", "searched 'auth'", "ran `npm test`", "slept (timer 5s)": plain English, for logs and the CLI. */
export function describeToolActivity(activity: Pick<ToolActivity, 'tool' | 'target'>): string {
  switch (activity.tool) {
    case 'read_file':
      return `read ${activity.target}`;
    case 'list_files':
      return `listed ${activity.target}`;
    case 'search':
      return `searched '${activity.target}'`;
    case 'write_file':
      return `wrote ${activity.target}`;
    case 'edit_file':
      return `edited ${activity.target}`;
    case 'run_command':
      return `ran \`${activity.target}\``;
    case 'sleep':
      return `slept (${activity.target})`;
    case 'report_discovery':
      return `reported a ${activity.target} discovery`;
    default:
      return `${activity.tool} ${activity.target}`;
  }
}
