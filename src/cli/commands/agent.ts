import { isAbsolute, relative, resolve } from 'node:path';
import { ROLE_NAME_PATTERN } from '../../core/roles/roleSchema';
import { visibleText } from '../../core/visibleText';
import { approvals, cliRun, finishRun, AUTO_APPROVE_VAR, SLEEP_MAX_VAR } from '../agentRuntime';
import { UsageError } from '../cliTypes';
import type { CliCommand } from '../cliTypes';

export const agent: CliCommand = {
  path: ['agent'],
  summary: 'Run an agent that writes files and runs approved commands',
  usage: 'agent ROLE "TASK" [--dir PATH] [--approve CMD]... [--unattended] [--json]',
  details: [
    "Runs the role (a file in the extension's roles/ folder, or .groundwork/roles/ROLE.md) on the task,",
    'with the tools its file lists. Its text, each tool call, each command and its output go to stderr.',
    '--dir PATH      the folder it works in, inside the workspace (default: the workspace folder)',
    '--approve CMD   pre-approve this exact command text for this run (repeatable)',
    '--unattended    ask nobody: a command that is not pre-approved is refused at once',
    '--json          print the run record (run.json) on stdout at the end',
    'Without --unattended, on a terminal, each other command is asked y/N; without a terminal it is refused.',
    `${AUTO_APPROVE_VAR}: a JSON list of exact commands or prefixes ending in ' *' that are pre-approved,`,
    "like VS Code's groundwork.commands.autoApprove. Chained commands, pipes, redirections, $(…), eval, exec",
    'and sudo are never pre-approved. Commands run with a minimal environment, without the API key.',
    `${SLEEP_MAX_VAR}: the longest sleep, in seconds (default 3600).`,
    'Ctrl-C or SIGTERM stops the run and any command; `groundwork runs resume RUN-ID` continues it.',
    'Exit 0 when the run ends normally, 1 when it fails or is stopped, 2 for bad usage or a refused start.',
    "The last line on stderr names the run's id.",
  ],
  options: { dir: { type: 'string' }, approve: { type: 'string', multiple: true }, unattended: { type: 'boolean' } },
  args: { min: 2, max: 2, name: 'a role and a task' },
  async run(ctx) {
    const [roleName = '', task = ''] = ctx.args;
    if (!ROLE_NAME_PATTERN.test(roleName))
      throw new UsageError(
        `'${visibleText(roleName.slice(0, 64))}' is not a role name (lower-case words joined by '-', such as build-developer)`,
        'agent',
      );
    if (task.trim() === '') throw new UsageError('the task is empty; say what the agent should do', 'agent');
    if (task.length > 20_000)
      throw new UsageError(`the task is ${task.length} characters; the limit is 20000`, 'agent');
    const approve = approvals(ctx.values['approve']);
    const { root: workspace, store } = await ctx.workspace();
    const dir = await runFolder(ctx.values['dir'], workspace, ctx.io.cwd, (p) => ctx.deps.isDirectory(p));
    const role = await ctx.deps.loadRole(roleName, store, (line) => ctx.io.stderr(`groundwork: ${line}\n`));
    const run = await cliRun(ctx, { unattended: ctx.values['unattended'] === true });
    return finishRun(ctx, run, () => run.runner.start({ role, task, root: dir, approve }, run.signal, run.onEvent));
  },
};

/** The run's folder: --dir resolved from the current folder, which must be an existing folder inside the workspace. */
async function runFolder(
  option: unknown,
  workspace: string,
  cwd: string,
  isDirectory: (path: string) => Promise<boolean>,
): Promise<string> {
  if (option === undefined) return workspace;
  if (typeof option !== 'string' || option === '') throw new UsageError('--dir needs a folder', 'agent');
  const dir = resolve(cwd, option);
  const rel = relative(workspace, dir);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new UsageError(
      `--dir '${visibleText(option)}' is not inside the workspace ${visibleText(workspace)}`,
      'agent',
    );
  if (!(await isDirectory(dir)))
    throw new UsageError(`--dir '${visibleText(option)}' is not an existing folder`, 'agent');
  return rel === '' ? workspace : dir;
}
