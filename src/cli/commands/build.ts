import { createInterface } from 'node:readline/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { BuildRefusedError } from '../../core/build/buildRunner';
import type { BuildEvent, BuildRequest } from '../../core/build/buildRunner';
import { BuildInputError, loadWorkflow, readBuildInput, readSpecInput } from '../../core/build/buildInputs';
import { specFormatName } from '../../core/build/externalSpec';
import { ceilingProblem, estimateBuild, estimateText } from '../../core/build/buildEstimate';
import { BuildPrinter } from '../../core/build/buildLines';
import { buildSummaryLines } from '../../core/build/buildReport';
import { isBuildId } from '../../core/build/buildRecord';
import { BuildStore } from '../../core/build/buildStore';
import { brainstormDigest, parseContextFile } from '../../core/brainstorm/contextFile';
import type { BuildRecord } from '../../core/build/buildTypes';
import type { Role } from '../../core/roles/roleSchema';
import { secureRandomBytes } from '../../core/prompt/untrustedText';
import { isSlug } from '../../core/storage/safeNames';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { visibleJson, visibleText } from '../../core/visibleText';
import { approvals, cliRun, AUTO_APPROVE_VAR } from '../agentRuntime';
import { MODEL_VARS } from '../modelDeps';
import type { CliRun } from '../agentRuntime';
import { ttyPlacer } from '../placeQuestion';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';
import { ALLOW_WEAKER_FLAG, cliWeakerChecks, weakerLines, weakerRefusal } from './buildChecks';

/** The most a build may cost when --max-cost is given, in USD. */
const MAX_COST_LIMIT = 10_000;

export const build: CliCommand = {
  path: ['build'],
  summary: 'Build a project from a brief, a brainstorm or a spec, phase by phase, checked by Groundwork',
  usage:
    'build (--brief FILE | --from-brainstorm SLUG | --spec PATH | --resume BUILD-ID [--rerun PHASE | --accept-test-change PATH...]) [--into DIR] [--yes] [--approve CMD]... [--max-cost USD] [--unattended [--allow-weaker-checks]] [--json]',
  details: [
    'Runs the build workflow (roles/build.workflow.yaml, or .groundwork/workflows/build.yaml): analyst, architect,',
    'test writer, developer, QA, reviewer, delivery, each a fresh agent run in the project folder. After each,',
    'Groundwork checks the claimed outcome itself (files on disk, exit codes of the BUILD:/VERIFY: commands).',
    '--brief FILE            a saved Idea Brief (or any markdown brief) inside the workspace',
    '--from-brainstorm SLUG  a finished brainstorm: its result and its digest',
    '--spec PATH             a Spec Kit feature folder (specs/<feature>/: spec.md, plan.md, tasks.md) or a Kiro',
    '                        spec (.kiro/specs/<feature>/: requirements.md, design.md, tasks.md) in the workspace',
    '--resume BUILD-ID       continue a stopped, failed or interrupted build from its first phase not passed',
    '--rerun PHASE           with --resume: run PHASE again, and every phase after it',
    '--accept-test-change PATH  with --resume: accept the change to this file of the test contract (a frozen',
    '                        test file, package.json, a test config), which failed the build; repeatable',
    '--into DIR              build a feature on the existing code of DIR (e.g. --into .) instead of a new folder',
    '--yes                   start without asking (the estimate is still printed)',
    '--approve CMD           pre-approve this exact command for every phase and check (repeatable)',
    '--max-cost USD          stop before the next model call once the build has cost this much',
    '--unattended            ask nobody: a command that is not pre-approved is refused at once, and a',
    '                        taken project folder becomes name-2 (never the workspace itself)',
    "--allow-weaker-checks   with --unattended: start even when the workspace's workflow or role files weaken",
    "                        Groundwork's checks (a phase removed, a check changed, QA, reviewer or delivery",
    '                        given write tools or a wider writes:); without it such a build is refused (exit 2)',
    '--json                  print the build record (build.yaml) on stdout at the end',
    'On a terminal the build asks y/N before it starts; without a terminal and without --yes it exits 2.',
    "Before that it names each way the workspace's workflow or role files weaken Groundwork's checks.",
    "On a terminal it also asks where the project goes when the analyst's folder is taken or the analyst",
    'reads the brief as a feature on existing code (TARGET: existing); without one, name-2 and a new folder.',
    `${AUTO_APPROVE_VAR} pre-approves commands as for \`groundwork agent\`. Ctrl-C or SIGTERM stops the build.`,
    'Exit 0 when every phase passed, 1 when the build failed or was stopped, 2 for bad usage or a refused start.',
    'The report is written to .groundwork/builds/<build-id>/report.md; the last line on stderr names the build.',
  ],
  options: {
    brief: { type: 'string' },
    'from-brainstorm': { type: 'string' },
    spec: { type: 'string' },
    resume: { type: 'string' },
    rerun: { type: 'string' },
    'accept-test-change': { type: 'string', multiple: true },
    into: { type: 'string' },
    yes: { type: 'boolean' },
    approve: { type: 'string', multiple: true },
    'max-cost': { type: 'string' },
    unattended: { type: 'boolean' },
    [ALLOW_WEAKER_FLAG]: { type: 'boolean' },
  },
  args: { min: 0, max: 0, name: 'no arguments' },
  async run(ctx) {
    const { values } = ctx;
    const chosen = (['brief', 'from-brainstorm', 'spec', 'resume'] as const).filter((k) => values[k] !== undefined);
    if (chosen.length !== 1)
      throw new UsageError(
        'give exactly one of --brief FILE, --from-brainstorm SLUG, --spec PATH or --resume BUILD-ID',
        'build',
      );
    if (values['rerun'] !== undefined && values['resume'] === undefined)
      throw new UsageError('--rerun PHASE goes with --resume BUILD-ID', 'build');
    const accept = acceptedPaths(values['accept-test-change']);
    if (accept.length > 0 && (values['resume'] === undefined || values['rerun'] !== undefined))
      throw new UsageError('--accept-test-change PATH goes with --resume BUILD-ID (and without --rerun)', 'build');
    const approve = approvals(values['approve'], 'build');
    const maxCostUsd = maxCost(values['max-cost']);
    const { root: workspace, store } = await ctx.workspace();
    const warned = new Set<string>();
    const warn = (line: string) => {
      if (!warned.has(line)) ctx.io.stderr(`groundwork: ${line}\n`);
      warned.add(line);
    };
    const roles = new Map<string, Promise<Role>>();
    const loadRole = (name: string) => {
      if (!roles.has(name)) roles.set(name, ctx.deps.loadRole(name, store, warn));
      return roles.get(name) as Promise<Role>;
    };
    let request: BuildRequest | undefined;
    if (typeof values['resume'] !== 'string') {
      let weaker: string[];
      try {
        ({ request, weaker } = await newRequest(ctx, workspace, store, loadRole, approve, maxCostUsd));
      } catch (err) {
        if (err instanceof BuildInputError) throw new UsageError(visibleText(err.message), 'build');
        throw err;
      }
      if (!(await confirmed(ctx, request, loadRole, weaker))) return EXIT_USAGE;
    } else if (!(await resumeAllowed(ctx, store, values['resume'], loadRole))) return EXIT_USAGE;
    const unattended = values['unattended'] === true;
    const run = await cliRun(ctx, { unattended });
    const asks = !unattended && ctx.deps.terminal.stdinIsTTY();
    const runner = await ctx.deps.buildRunner({
      store,
      builds: new BuildStore(store),
      agents: run.runner,
      gate: run.gate,
      clock: ctx.deps.clock,
      random: secureRandomBytes,
      hash: ctx.deps.hash,
      loadRole,
      origin: 'cli',
      ...(asks ? { place: ttyPlacer(ctx, run.signal) } : {}),
      discoveriesOf: (id) => run.cases.learnedIn(id),
      archiveTask: (id) => run.cases.archiveTask(id),
      ...(run.specs ? { specs: run.specs } : {}),
    });
    const printer = new BuildPrinter();
    const emit = (event: BuildEvent) => run.show(printer.print(event));
    const resumeId = values['resume'];
    const rerun = values['rerun'];
    const options = { approve, ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) };
    return finishBuild(ctx, run, () => {
      if (request !== undefined) return runner.start(request, run.signal, emit);
      if (typeof resumeId !== 'string') throw new UsageError('--resume needs a build id', 'build');
      if (typeof rerun === 'string') return runner.rerunPhase(resumeId, rerun, run.signal, emit, options);
      return runner.resume(resumeId, run.signal, emit, {
        ...options,
        ...(accept.length > 0 ? { acceptTestChange: accept } : {}),
      });
    });
  },
};

/**
 * A resumed build runs its recorded phases with the roles as the workspace has them now: what
 * they weaken is printed, and refused under --unattended without --allow-weaker-checks, as at the
 * start (a role file planted since the start is caught here). A build that cannot be read is left
 * to the runner, which says why.
 */
async function resumeAllowed(
  ctx: CommandContext,
  store: WorkspaceStore,
  id: string,
  loadRole: (name: string) => Promise<Role>,
): Promise<boolean> {
  if (!isBuildId(id)) return true;
  const read = await new BuildStore(store).read(id).catch(() => undefined);
  if (read === undefined || !read.ok) return true;
  const workflow = {
    phases: read.build.phases.map((p) => ({ name: p.name, role: p.role, check: p.check })),
    file: `.groundwork/builds/${id}/build.yaml`,
  };
  let weaker: string[];
  try {
    weaker = await cliWeakerChecks(ctx, workflow, loadRole);
  } catch {
    return true; // a role that cannot be loaded fails its phase, saying which
  }
  const lines = weakerLines(weaker);
  if (lines.length > 0) ctx.io.stderr(`${lines.join('\n')}\n`);
  const refused = weakerRefusal(ctx, weaker);
  if (refused === undefined) return true;
  ctx.io.stderr(`groundwork: ${refused.replace(/^not started/, 'not resumed')}\n`);
  return false;
}

async function newRequest(
  ctx: CommandContext,
  workspace: string,
  store: Awaited<ReturnType<CommandContext['workspace']>>['store'],
  loadRole: (name: string) => Promise<Role>,
  approve: string[],
  maxCostUsd: number | undefined,
): Promise<{ request: BuildRequest; weaker: string[] }> {
  const { values } = ctx;
  const { source, input, name, spec } = await readInput(ctx, workspace, store);
  const { workflow } = await loadWorkflow(store, () => ctx.deps.bundledWorkflow());
  // Every phase's role, loaded now: a missing one is said before anything starts.
  await Promise.all(
    workflow.phases.map((p) =>
      loadRole(p.role).catch((err: unknown) => {
        throw new UsageError(
          `phase ${p.name}: ${err instanceof Error ? visibleText(err.message) : String(err)}`,
          'build',
        );
      }),
    ),
  );
  let into: string | undefined;
  if (values['into'] !== undefined) {
    if (typeof values['into'] !== 'string' || values['into'] === '')
      throw new UsageError('--into needs a folder', 'build');
    into = resolve(ctx.io.cwd, values['into']);
    const rel = relative(workspace, into);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new UsageError(
        `--into '${visibleText(values['into'])}' is not inside the workspace ${visibleText(workspace)}`,
        'build',
      );
    if (!(await ctx.deps.isDirectory(into)))
      throw new UsageError(`--into '${visibleText(values['into'])}' is not an existing folder`, 'build');
  }
  const request: BuildRequest = {
    source,
    ...(spec !== undefined ? { spec } : {}),
    input,
    phases: workflow.phases,
    ...(into !== undefined ? { into } : {}),
    approve,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    name,
  };
  const weaker = await cliWeakerChecks(ctx, workflow, loadRole);
  if (weaker.length > 0) request.weaker = weaker;
  return { request, weaker };
}

/** The build's source and input: --brief, --spec or --from-brainstorm. */
async function readInput(
  ctx: CommandContext,
  workspace: string,
  store: Awaited<ReturnType<CommandContext['workspace']>>['store'],
): Promise<Pick<BuildRequest, 'source' | 'input' | 'name' | 'spec'>> {
  const { values } = ctx;
  for (const flag of ['brief', 'spec'] as const) {
    const given = values[flag];
    if (typeof given !== 'string') continue;
    const rel = relative(workspace, resolve(ctx.io.cwd, given));
    const inside = rel === '' ? flag === 'spec' : !rel.startsWith('..') && !isAbsolute(rel);
    if (!inside)
      throw new UsageError(
        `--${flag} '${visibleText(given)}' is not ${flag === 'spec' ? 'a folder or file' : 'a file'} inside the workspace ${visibleText(workspace)}`,
        'build',
      );
    const path = rel === '' ? '.' : rel.split(/[\\/]/).join('/');
    if (flag === 'spec') return readSpecInput(store, path);
    return { source: { kind: 'brief', path }, ...(await readBuildInput(store, { kind: 'brief', path }, digestOf)) };
  }
  const slug = String(values['from-brainstorm'] ?? '');
  if (!isSlug(slug))
    throw new UsageError(
      `'${visibleText(slug.slice(0, 80))}' is not a plan's name (see \`groundwork brainstorm --list\`)`,
      'build',
    );
  return {
    source: { kind: 'brainstorm', slug },
    ...(await readBuildInput(store, { kind: 'brainstorm', slug }, digestOf)),
  };
}

function digestOf(text: string, where: string): string {
  return brainstormDigest(parseContextFile(text, where));
}

/**
 * The gate: what will run, where, what it may cost and what checks are weaker than Groundwork's;
 * refused under --unattended when some are (unless --allow-weaker-checks); y/N on a terminal,
 * --yes, else exit 2.
 */
async function confirmed(
  ctx: CommandContext,
  request: BuildRequest,
  loadRole: (name: string) => Promise<Role>,
  weaker: readonly string[],
): Promise<boolean> {
  const { io, deps, values } = ctx;
  const phases = await Promise.all(request.phases.map(async (p) => ({ name: p.name, role: await loadRole(p.role) })));
  const estimate = estimateBuild(phases, request.input.length, {
    complex: io.env[MODEL_VARS.complex],
    fast: io.env[MODEL_VARS.fast],
  });
  const from =
    request.spec !== undefined
      ? `the ${specFormatName(request.spec.format)} ${request.spec.path}`
      : request.source.kind === 'brief'
        ? `the brief ${request.source.path}`
        : `the brainstorm ${request.source.slug}`;
  const lines = [
    `Build from ${visibleText(from)}`,
    `  where:  ${request.into === undefined ? "a new folder in the workspace, named by the analyst's PROJECT_NAME" : visibleText(request.into)}`,
    ...estimate.phases.map((e) => `  ${e.phase.padEnd(12)} ${e.role.padEnd(20)} ${e.model} (≤ ${e.maxTurns} turns)`),
    `  cost:   ${estimateText(estimate)}${request.maxCostUsd !== undefined ? `; stops at $${request.maxCostUsd.toFixed(2)}` : ''}`,
    ...weakerLines(weaker),
  ];
  io.stderr(`${lines.join('\n')}\n`);
  const unpriced = ceilingProblem(
    estimate,
    request.maxCostUsd,
    `Choose a model Groundwork has a price for (${MODEL_VARS.complex}, ${MODEL_VARS.fast}), or start without --max-cost.`,
  );
  if (unpriced !== undefined) {
    io.stderr(`groundwork: not started: ${visibleText(unpriced)}\n`);
    return false;
  }
  const refused = weakerRefusal(ctx, weaker);
  if (refused !== undefined) {
    io.stderr(`groundwork: ${refused}\n`);
    return false;
  }
  if (values['yes'] === true) return true;
  if (!deps.terminal.stdinIsTTY()) {
    io.stderr('groundwork: not started: confirm with --yes (there is no terminal to ask)\n');
    return false;
  }
  const rl = createInterface({ input: deps.terminal.stdin(), terminal: false });
  try {
    io.stderr('Start the build? [y/N] ');
    const answer = (await rl.question('')).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return true;
    io.stderr('groundwork: not started\n');
    return false;
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

/** The --accept-test-change paths: relative to the project folder, '/'-separated, each a plain path. */
function acceptedPaths(raw: unknown): string[] {
  if (raw === undefined) return [];
  const paths = (Array.isArray(raw) ? raw : [raw]).filter((p): p is string => typeof p === 'string');
  for (const path of paths) {
    const clean = path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
    if (clean === '' || clean.startsWith('/') || clean.split('/').includes('..') || /[\u0000-\u001f]/.test(clean))
      throw new UsageError(
        `--accept-test-change ${visibleText(JSON.stringify(path))} is not a path inside the project folder (e.g. test/sum.test.js)`,
        'build',
      );
  }
  return paths.map((p) => p.replace(/\\/g, '/').replace(/^(\.\/)+/, ''));
}

function maxCost(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > MAX_COST_LIMIT)
    throw new UsageError(
      `--max-cost must be a number of US dollars above 0 and at most ${MAX_COST_LIMIT}, such as 5 or 2.50`,
      'build',
    );
  return n;
}

async function finishBuild(ctx: CommandContext, run: CliRun, go: () => Promise<BuildRecord>): Promise<number> {
  try {
    const final = await go();
    if (ctx.json) ctx.io.stdout(`${visibleJson(final, 2)}\n`);
    ctx.io.stderr(`\n${buildSummaryLines(final).join('\n')}\n`);
    const by = run.stoppedBy();
    ctx.io.stderr(
      `groundwork: build ${final.id} ${final.status}${by && final.status === 'stopped' ? ` (${by})` : ''}; report: .groundwork/builds/${final.id}/report.md\n`,
    );
    return final.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
  } catch (err) {
    if (err instanceof BuildRefusedError) {
      ctx.io.stderr(`groundwork: ${visibleText(err.message)}\n`);
      return EXIT_USAGE;
    }
    throw err;
  } finally {
    await run.dispose();
  }
}
