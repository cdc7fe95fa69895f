import { displayStatus, RunStore } from '../../core/run/runStore';
import { revertRun } from '../../core/run/revert';
import { readChanges } from '../../core/run/changesFile';
import { formatTokens, formatUsd, totalTokens } from '../../core/llm/usage';
import type { RunRecord } from '../../core/run/runTypes';
import { oneLine } from '../../core/tools/toolLines';
import { visibleJson, visibleText } from '../../core/visibleText';
import { cliRun, finishRun } from '../agentRuntime';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';

const ID_ARG = { min: 1, max: 1, name: 'a run id (see groundwork runs list)' };

async function statusOf(runs: RunStore, run: RunRecord): Promise<string> {
  return run.status === 'running' ? displayStatus(run, await runs.isHeld(run.id)) : run.status;
}

export const runsList: CliCommand = {
  path: ['runs', 'list'],
  summary: 'List the agent runs of the workspace, newest first',
  usage: 'runs list [--json]',
  details: [
    'A run whose process ended without recording its end (a reload, a kill) is shown as interrupted; `runs resume` continues it.',
  ],
  async run(ctx) {
    const { store } = await ctx.workspace();
    const runs = new RunStore(store);
    const { runs: all, problems } = await runs.list();
    const rows = await Promise.all(all.map(async (run) => ({ run, status: await statusOf(runs, run) })));
    if (ctx.json)
      ctx.io.stdout(
        `${visibleJson(
          rows.map(({ run, status }) => ({ ...run, status })),
          2,
        )}\n`,
      );
    else if (rows.length === 0) ctx.io.stdout('No agent runs yet.\n');
    else {
      for (const { run, status } of rows) {
        ctx.io.stdout(`${run.id}  ${status.padEnd(11)}  ${visibleText(run.role)}: ${oneLine(run.task, 80)}\n`);
      }
    }
    for (const p of problems)
      ctx.io.stderr(`groundwork: run ${visibleText(p.id)} skipped: ${visibleText(p.problem)}\n`);
    return EXIT_OK;
  },
};

export const runsShow: CliCommand = {
  path: ['runs', 'show'],
  summary: 'Show one agent run: its record, the files it changed, its commands',
  usage: 'runs show RUN-ID [--json]',
  args: ID_ARG,
  async run(ctx) {
    const { store } = await ctx.workspace();
    const runs = new RunStore(store);
    const run = await readRun(runs, ctx);
    const status = await statusOf(runs, run);
    const read = await readChanges(store, run.id, ctx.deps.hash);
    if (!read.ok) {
      ctx.io.stderr(`groundwork: ${visibleText(read.problem)} Revert and Resume cannot use it.\n`);
      return EXIT_FAILURE;
    }
    const files = read.changes.files.map((e) => ({ path: e.path, created: e.before === null }));
    if (ctx.json) {
      ctx.io.stdout(`${visibleJson({ ...run, status, changes: files }, 2)}\n`);
      return EXIT_OK;
    }
    const out = (line: string) => ctx.io.stdout(`${line}\n`);
    out(`Run ${run.id}: ${status}`);
    out(`  role    ${visibleText(run.role)}`);
    out(`  task    ${oneLine(run.task, 200)}`);
    out(`  folder  ${visibleText(run.root)}`);
    out(
      `  turns   ${run.turns} · ${run.usage ? formatTokens(totalTokens(run.usage)) : 'no tokens counted'} · ${formatUsd(run.costUsd)}`,
    );
    out(`  started ${run.startedAt}${run.endedAt ? `, ended ${run.endedAt}` : ''}`);
    if (run.reason) out(`  reason  ${oneLine(run.reason, 300)}`);
    if (run.revertedAt) out(`  reverted ${run.revertedAt}`);
    out(
      files.length === 0 ? 'It changed no file.' : `Files it ${files.some((f) => !f.created) ? 'changed' : 'created'}:`,
    );
    for (const f of files) out(`  ${f.created ? 'A' : 'M'} ${visibleText(f.path)}`);
    if (run.summary) out(`\n${visibleText(run.summary.replace(/\n/g, ' ')).slice(0, 2000)}`);
    return EXIT_OK;
  },
};

export const runsRevert: CliCommand = {
  path: ['runs', 'revert'],
  summary: 'Take back every file change of an agent run',
  usage: 'runs revert RUN-ID',
  details: [
    'Restores each file the run changed to its content before the run, and removes the files it created.',
    'Refused, changing nothing, when a file was changed since outside the run (it names them).',
  ],
  args: ID_ARG,
  async run(ctx) {
    const { store } = await ctx.workspace();
    const runs = new RunStore(store);
    const run = await readRun(runs, ctx);
    if (await runs.isHeld(run.id)) throw new UsageError(`run ${run.id} is under way; stop it before reverting it`);
    const root = run.root === '.' ? store.folder : `${store.folder}/${run.root}`;
    const result = await revertRun(store, runs, run.id, ctx.deps.hash, root);
    if (!result.ok) {
      ctx.io.stderr(`groundwork: ${visibleText(result.problem)}\n`);
      for (const path of result.changedOutside) ctx.io.stderr(`  changed outside the run: ${visibleText(path)}\n`);
      return EXIT_FAILURE;
    }
    for (const path of result.restored) ctx.io.stdout(`restored ${visibleText(path)}\n`);
    for (const path of result.removed) ctx.io.stdout(`removed  ${visibleText(path)}\n`);
    ctx.io.stderr(
      `groundwork: run ${run.id} reverted (${result.restored.length} restored, ${result.removed.length} removed, ${result.unchanged.length} already as before)\n`,
    );
    return EXIT_OK;
  },
};

export const runsResume: CliCommand = {
  path: ['runs', 'resume'],
  summary: 'Continue a stopped, failed or interrupted agent run from its last complete turn',
  usage: 'runs resume RUN-ID [--approve CMD]... [--unattended] [--json]',
  options: { approve: { type: 'string', multiple: true }, unattended: { type: 'boolean' } },
  args: ID_ARG,
  async run(ctx) {
    const { store } = await ctx.workspace();
    const runs = new RunStore(store);
    const found = await readRun(runs, ctx);
    const role = await ctx.deps.loadRole(found.role, store, (line) => ctx.io.stderr(`groundwork: ${line}\n`));
    const approve = (Array.isArray(ctx.values['approve']) ? ctx.values['approve'] : []) as string[];
    const run = await cliRun(ctx, { unattended: ctx.values['unattended'] === true });
    return finishRun(ctx, run, () => run.runner.resume(found.id, role, run.signal, run.onEvent, approve));
  },
};

async function readRun(runs: RunStore, ctx: CommandContext): Promise<RunRecord> {
  const id = ctx.args[0] ?? '';
  const found = await runs.read(id);
  if (!found.ok) throw new UsageError(found.problem);
  return found.run;
}
