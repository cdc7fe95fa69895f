// `groundwork cases …`: the discovery cases of the workspace, listed, added and reviewed from a
// terminal. Every subcommand goes through the CaseService (core/cases/caseService.ts), the module
// the explorer and the agents use too, so that the journal and the views follow each change; each
// waits for the views before it exits, and a view that could not be rewritten is a failure.
import { ARCHIVE_OUTDATED_AFTER_DAYS } from '../../core/cases/archival';
import type { CaseAction } from '../../core/cases/caseActions';
import { CASE_IMPACTS, CASE_SCOPES, CASE_STATUSES, caseToJson, labelProblem } from '../../core/cases/caseRecord';
import type { DiscoveryCase } from '../../core/cases/caseRecord';
import { CASES_FILE } from '../../core/plan/layout';
import { displayPath } from '../../core/storage/workspaceStore';
import { visibleJson, visibleText } from '../../core/visibleText';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';
import { CASES_HELP } from '../help';
import { reportProblems } from '../readProblems';
import { caseIdArg, choice, shown } from './casesArgs';
import { caseLine, caseState, metricsLines, stalenessLines } from './casesOutput';
import { withCases } from './casesSession';

const FILE_SHOWN = displayPath(CASES_FILE);
const ID_ARG = { min: 1, max: 1, name: 'a case id (see groundwork cases list)' };

function printJson(ctx: CommandContext, value: unknown): void {
  ctx.io.stdout(`${visibleJson(value, 2)}\n`);
}

export const casesList: CliCommand = {
  path: ['cases', 'list'],
  summary: 'List the discovery cases',
  usage: 'cases list [--status S] [--scope local|global] [--json]',
  details: CASES_HELP.list,
  options: { status: { type: 'string' }, scope: { type: 'string' } },
  async run(ctx) {
    const status = choice(ctx, 'status', CASE_STATUSES, 'cases list');
    const scope = choice(ctx, 'scope', CASE_SCOPES, 'cases list');
    return withCases(ctx, 'cases list', async (service) => {
      const { cases, problems } = await service.list();
      const shownCases = cases.filter(
        (c) => (status === undefined || c.status === status) && (scope === undefined || c.metadata.scope === scope),
      );
      if (ctx.json) printJson(ctx, shownCases.map(caseToJson));
      else if (shownCases.length > 0) {
        const width = Math.max(...shownCases.map((c) => c.id.length));
        ctx.io.stdout(shownCases.map((c) => `${caseLine(c, width)}\n`).join(''));
      } else if (cases.length > 0) ctx.io.stdout('No discovery case matches.\n');
      else ctx.io.stdout(problems.length === 0 ? 'No discovery cases yet.\n' : 'No readable discovery cases.\n');
      reportProblems(ctx.io, FILE_SHOWN, problems);
      return EXIT_OK;
    });
  },
};

export const casesAdd: CliCommand = {
  path: ['cases', 'add'],
  summary: 'Add a discovery case (or find the one that already says it)',
  usage: 'cases add --scope local|global --content TEXT [--impact I] [--task T] [--agent A] [--json]',
  details: CASES_HELP.add,
  options: {
    scope: { type: 'string' },
    content: { type: 'string' },
    impact: { type: 'string' },
    task: { type: 'string' },
    agent: { type: 'string' },
  },
  async run(ctx) {
    const topic = 'cases add';
    const scope = choice(ctx, 'scope', CASE_SCOPES, topic);
    if (scope === undefined) throw new UsageError('cases add needs --scope local or global', topic);
    const content = ctx.values['content'];
    if (typeof content !== 'string') throw new UsageError('cases add needs --content', topic);
    const impact = choice(ctx, 'impact', CASE_IMPACTS, topic);
    const labels: { taskId?: string; agentId?: string } = {};
    for (const [option, field] of [
      ['task', 'taskId'],
      ['agent', 'agentId'],
    ] as const) {
      const value = ctx.values[option];
      if (typeof value === 'string') labels[field] = value;
    }
    return withCases(ctx, topic, async (service) => {
      const result = await service.report({ scope, content, ...(impact !== undefined ? { impact } : {}), ...labels });
      const duplicate = result.kind === 'duplicate';
      const superseded = result.kind === 'created' ? (result.superseded ?? []) : [];
      if (ctx.json) printJson(ctx, { ...caseToJson(result.case), duplicate, superseded });
      else ctx.io.stdout(`${result.case.id}${duplicate ? ' duplicate' : ''}\n`);
      // Beside the id, not in its place: a script reads the first line.
      if (!ctx.json && superseded.length > 0)
        ctx.io.stderr(
          `${result.case.id} says otherwise than ${superseded.join(', ')}: marked outdated, superseded by ${result.case.id}.\n`,
        );
      if (result.kind === 'created' && result.hookError !== undefined) {
        ctx.io.stderr(`groundwork: ${visibleText(result.hookError)}\n`);
        return EXIT_FAILURE;
      }
      return EXIT_OK;
    });
  },
};

/** A review action's command: `cases <word> ID`, printing `disc-004 <done> (now <status>, <scope>)`. */
function actionCommand(
  word: string,
  summary: string,
  details: readonly string[],
  action: CaseAction,
  done: string,
): CliCommand {
  const topic = `cases ${word}`;
  return {
    path: ['cases', word],
    summary,
    usage: `cases ${word} ID [--json]`,
    details: [...details, ...CASES_HELP.transitions],
    args: ID_ARG,
    async run(ctx) {
      const id = caseIdArg(ctx, topic);
      return withCases(ctx, topic, async (service) => {
        const next = await service.apply(id, action);
        printChange(ctx, next, done);
        return EXIT_OK;
      });
    },
  };
}

function printChange(ctx: CommandContext, c: DiscoveryCase, done: string): void {
  if (ctx.json) printJson(ctx, caseToJson(c));
  else ctx.io.stdout(`${c.id} ${done} (now ${caseState(c)})\n`);
}

export const casesEdit: CliCommand = {
  path: ['cases', 'edit'],
  summary: "Replace a discovery case's content",
  usage: 'cases edit ID --content TEXT [--json]',
  details: [...CASES_HELP.edit, ...CASES_HELP.transitions],
  options: { content: { type: 'string' } },
  args: ID_ARG,
  async run(ctx) {
    const topic = 'cases edit';
    const id = caseIdArg(ctx, topic);
    const content = ctx.values['content'];
    if (typeof content !== 'string') throw new UsageError('cases edit needs --content', topic);
    return withCases(ctx, topic, async (service) => {
      const before = await service.cases.get(id);
      const next = await service.apply(id, { kind: 'edit', content: content.trim() });
      const same = before !== undefined && JSON.stringify(caseToJson(before)) === JSON.stringify(caseToJson(next));
      printChange(ctx, next, same ? 'unchanged: it says this already' : 'edited');
      return EXIT_OK;
    });
  },
};

export const casesPromote = actionCommand(
  'promote',
  'Make a local discovery case global',
  CASES_HELP.promote,
  { kind: 'promote' },
  'promoted',
);
export const casesValidate = actionCommand(
  'validate',
  'Confirm that a discovery case holds',
  CASES_HELP.validate,
  { kind: 'validate' },
  'validated',
);
export const casesOutdated = actionCommand(
  'outdated',
  'Mark a discovery case outdated',
  CASES_HELP.outdated,
  { kind: 'outdated', reason: 'marked by user' },
  'marked outdated',
);
export const casesArchive = actionCommand(
  'archive',
  'Archive a discovery case',
  CASES_HELP.archive,
  { kind: 'archive' },
  'archived',
);
export const casesResurrect = actionCommand(
  'resurrect',
  'Make an archived discovery case active again',
  CASES_HELP.resurrect,
  { kind: 'resurrect', by: 'user' },
  'resurrected',
);
export const casesDelete = actionCommand(
  'delete',
  'Delete an outdated discovery case',
  CASES_HELP.delete,
  { kind: 'delete' },
  'deleted',
);

export const casesCheckOutdated: CliCommand = {
  path: ['cases', 'check-outdated'],
  summary: 'Find the discovery cases that no longer hold, and archive the long-outdated ones',
  usage: `cases check-outdated [--archive-after-days N] [--json]`,
  details: CASES_HELP.checkOutdated,
  options: { 'archive-after-days': { type: 'string' } },
  async run(ctx) {
    const topic = 'cases check-outdated';
    const given = ctx.values['archive-after-days'];
    const days = typeof given === 'string' ? Number(given) : ARCHIVE_OUTDATED_AFTER_DAYS;
    if (typeof given === 'string' && (!/^\d+$/.test(given) || !Number.isSafeInteger(days) || days < 1)) {
      throw new UsageError(`--archive-after-days must be a whole number of days from 1, not '${shown(given)}'`, topic);
    }
    return withCases(
      ctx,
      topic,
      async (service) => {
        const report = await service.checkStaleness(days);
        if (report.skipped !== undefined) ctx.io.stderr(`groundwork: ${visibleText(report.skipped)}\n`);
        if (ctx.json) printJson(ctx, { ...report, archived: report.archived.map(caseToJson) });
        else {
          const lines = stalenessLines(report, days);
          if (lines.length > 0) ctx.io.stdout(lines.map((l) => `${l}\n`).join(''));
          else ctx.io.stderr('groundwork: no discovery case changed\n');
        }
        return EXIT_OK;
      },
      true,
    );
  },
};

export const casesViews: CliCommand = {
  path: ['cases', 'views'],
  summary: "Rewrite the discovery views (.groundwork/discoveries.md and each agent's)",
  usage: 'cases views [--json]',
  details: CASES_HELP.views,
  async run(ctx) {
    return withCases(ctx, 'cases views', async (service) => {
      const { written, skipped } = await service.writeViews();
      const paths = written.map(displayPath);
      if (ctx.json) printJson(ctx, { written: paths, skipped });
      else {
        if (paths.length > 0) ctx.io.stdout(paths.map((p) => `${visibleText(p)}\n`).join(''));
        else ctx.io.stderr('groundwork: the views are up to date\n');
        for (const agent of skipped)
          ctx.io.stderr(
            `groundwork: warning: no view for the agent '${shown(agent)}': its name cannot name a folder\n`,
          );
      }
      return EXIT_OK;
    });
  },
};

export const casesMetrics: CliCommand = {
  path: ['cases', 'metrics'],
  summary: 'Show the discovery metrics',
  usage: 'cases metrics [--json]',
  details: CASES_HELP.metrics,
  async run(ctx) {
    return withCases(ctx, 'cases metrics', async (service) => {
      const metrics = await service.metrics();
      if (ctx.json) printJson(ctx, metrics);
      else
        ctx.io.stdout(
          metricsLines(metrics)
            .map((l) => `${l}\n`)
            .join(''),
        );
      reportProblems(ctx.io, FILE_SHOWN, (await service.list()).problems);
      return EXIT_OK;
    });
  },
};

export const casesArchiveTask: CliCommand = {
  path: ['cases', 'archive-task'],
  summary: "Archive a finished task's local discovery cases",
  usage: 'cases archive-task TASK [--json]',
  details: CASES_HELP.archiveTask,
  args: { min: 1, max: 1, name: "a task id (a build's or an agent run's)" },
  async run(ctx) {
    const topic = 'cases archive-task';
    const task = ctx.args[0] ?? '';
    const problem = task.trim() === '' ? 'the task id is empty' : labelProblem('the task id', task);
    if (problem !== undefined) throw new UsageError(problem, topic);
    return withCases(ctx, topic, async (service) => {
      const archived = await service.archiveTask(task);
      if (ctx.json) printJson(ctx, archived.map(caseToJson));
      else if (archived.length > 0) ctx.io.stdout(archived.map((c) => `${c.id}\n`).join(''));
      else ctx.io.stderr(`groundwork: no active local case was learned in '${shown(task)}'; nothing archived\n`);
      return EXIT_OK;
    });
  },
};

/** Every `cases` subcommand, in the order help lists them. */
export const CASES_COMMANDS: readonly CliCommand[] = [
  casesList,
  casesAdd,
  casesEdit,
  casesPromote,
  casesValidate,
  casesOutdated,
  casesArchive,
  casesResurrect,
  casesDelete,
  casesCheckOutdated,
  casesViews,
  casesMetrics,
  casesArchiveTask,
];
