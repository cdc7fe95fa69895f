// The build orchestrator: a brief becomes a project through the workflow's phases, each a fresh
// agent run (phaseAttempt.ts) checked by Groundwork itself. It keeps `build.yaml` true after every
// change (phases, attempts, times, tokens, cost), holds the build's lock while it goes (a build
// whose process died shows as interrupted), retries a phase that failed for a transient reason,
// sends the developer back once when QA fails or the reviewer asks for changes, stops before the
// next model call at the cost ceiling, and ends with `report.md`. Resume continues an interrupted,
// stopped or failed build from its first phase that has not passed; Rerun Phase runs one phase
// (and the ones after it) again.
import type { SpecWriter } from '../annotations/specWriter';
import { AuditLog } from '../audit/auditLog';
import type { Clock } from '../clock';
import { buildFile } from '../plan/layout';
import type { AgentRunner } from '../run/agentRun';
import type { Sha256 } from '../run/changesFile';
import type { GateDeps, GateState } from '../run/commandGate';
import { noteTrace } from '../run/manifestWatch';
import type { RunEvent } from '../run/runTypes';
import type { Role } from '../roles/roleSchema';
import type { RandomBytes } from '../prompt/untrustedText';
import { quotePath, StorageError } from '../storage/storageError';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { isWindowsRoot, relativeInside } from '../tools/projectPaths';
import { protectedReason } from '../tools/writePaths';
import { isBuildId } from './buildRecord';
import type { BuildStore } from './buildStore';
import type { AttemptCause, BuildRecord, PhaseState, SpecPointer, WorkflowPhase } from './buildTypes';
import { BuildCarry } from './buildCarry';
import { BuildNotes } from './buildNotes';
import { absoluteIn } from './projectFiles';
import { contractReader } from './phaseCheckFiles';
import { acceptChange } from './testContract';
import { WEAKER_MAX } from './buildRecordContract';
import type { PlaceAnswer, PlaceQuestion } from './projectPlace';
import { specFormatName } from './externalSpec';

/** The most of a brief (with a brainstorm's digest) a build takes. */
export const BUILD_INPUT_MAX_CHARS = 200_000;
const INPUT_FILE = 'input.md';

export interface BuildDeps {
  store: WorkspaceStore;
  builds: BuildStore;
  agents: AgentRunner;
  /** How Groundwork's own BUILD:/VERIFY: re-runs are approved and run (the same gate as run_command). */
  gate: GateDeps;
  clock: Clock;
  random: RandomBytes;
  hash: Sha256;
  /** The role a phase names (bundled, or the workspace's override); throws when it cannot be loaded. */
  loadRole: (name: string) => Promise<Role>;
  origin: BuildRecord['origin'];
  audit?: AuditLog;
  /** The learnings reported with the build's id as their task (the journal's), for the report. */
  discoveriesOf?: (buildId: string) => Promise<string[]>;
  /** Archives the active local discovery cases of a task (core/cases' CaseService.archiveTask): a completed build's. */
  archiveTask?: (taskId: string) => Promise<readonly unknown[]>;
  /** Asks the person where the project goes when its folder is taken or the analyst sees a feature on existing code; without it, the first free name. */
  place?: (question: PlaceQuestion) => Promise<PlaceAnswer>;
  /** Writes the project's spec documents: a passed architect or delivery phase marks the requirements (specMarks.ts). Without it, they are not marked. */
  specs?: SpecWriter;
}

export interface BuildRequest {
  source: BuildRecord['source'];
  /** A spec written with another tool (buildInputs.ts's readSpecInput): kept in build.yaml as `input`, its files given to the analyst as data blocks of their own. */
  spec?: SpecPointer;
  /** What the analyst is given: the brief's text (a brainstorm's result with its digest, a spec's files as readSpecInput joins them). */
  input: string;
  phases: readonly WorkflowPhase[];
  /** A feature on existing code: the absolute folder (inside the workspace) it is built in. */
  into?: string;
  /** Exact command texts pre-approved for every phase and check (the CLI's --approve). */
  approve?: readonly string[];
  maxCostUsd?: number;
  /** What the workspace weakens of Groundwork's checks (weakerChecks.ts), as the gate showed it: kept in build.yaml and the report. */
  weaker?: readonly string[];
  /** Names the build's folder: the plan's slug or the brief's. */
  name: string;
}

/** What a front end is told as a build goes (see the CLI's build command and the VS Code feature). */
export type BuildEvent =
  /** The record changed (and was saved). */
  | { type: 'build'; build: BuildRecord }
  /** An attempt of a phase begins: a terminal of its own. */
  | { type: 'phase'; build: BuildRecord; phase: PhaseState; attempt: number; cause: AttemptCause }
  /** The attempt's agent run, and Groundwork's own commands, as run events. */
  | { type: 'run'; phase: string; event: RunEvent }
  /** Groundwork's verdict on the attempt. */
  | { type: 'checked'; phase: string; passed: boolean; reason?: string; evidence?: string };

export class BuildRefusedError extends Error {
  override readonly name = 'BuildRefusedError';
}

export class BuildRunner {
  private readonly notes: BuildNotes;
  private readonly carry: BuildCarry;

  constructor(private readonly deps: BuildDeps) {
    this.notes = new BuildNotes(deps, deps.audit ?? AuditLog.of(deps.store, deps.clock));
    this.carry = new BuildCarry(deps, this.notes);
  }

  /** Starts a build and carries it to its end; resolves with its final record. BuildRefusedError before anything is written. */
  async start(request: BuildRequest, signal: AbortSignal, emit: (event: BuildEvent) => void): Promise<BuildRecord> {
    this.refuseUntrusted();
    if (request.input.trim() === '') throw new BuildRefusedError('The brief is empty: there is nothing to build.');
    if (request.input.length > BUILD_INPUT_MAX_CHARS)
      throw new BuildRefusedError(
        `The brief is ${request.input.length} characters; a build takes at most ${BUILD_INPUT_MAX_CHARS}.`,
      );
    if (request.phases.length === 0) throw new BuildRefusedError('The workflow has no phases.');
    // Without a brief phase nothing names a new project's folder, and its phases would write into the workspace itself.
    if (request.into === undefined && !request.phases.some((p) => p.check === 'brief'))
      throw new BuildRefusedError(
        'The workflow has no phase with check brief to name the new project’s folder: add one as its first phase, or build into an existing folder (--into).',
      );
    const into = request.into === undefined ? undefined : await this.insideWorkspace(request.into);
    const now = this.deps.clock.now();
    const at = new Date(now).toISOString();
    const fields: Omit<BuildRecord, 'id'> = {
      version: 1,
      status: 'running',
      source: request.source,
      ...(request.spec !== undefined ? { input: request.spec } : {}),
      ...(into !== undefined ? { projectDir: into } : {}),
      mode: into === undefined ? 'new' : 'feature',
      phases: request.phases.map((p) => ({
        name: p.name,
        role: p.role,
        check: p.check,
        status: 'pending',
        attempts: [],
      })),
      verified: [],
      ...(request.maxCostUsd !== undefined ? { maxCostUsd: request.maxCostUsd } : {}),
      ...(request.weaker !== undefined && request.weaker.length > 0
        ? { weaker: request.weaker.slice(0, WEAKER_MAX).map((l) => l.slice(0, 1000)) }
        : {}),
      startedAt: at,
      updatedAt: at,
      origin: this.deps.origin,
    };
    const slug = request.name;
    return this.deps.builds.createHeld(
      fields,
      slug,
      () => hex(this.deps.random(2)),
      now,
      async (build) => {
        await this.deps.store.writeText(buildFile(build.id, INPUT_FILE), request.input);
        await this.notes.note(
          build,
          `build started from ${describeSource(build)} (${build.phases.length} phases)`,
          'build.start',
          'ok',
        );
        return this.carry.run(
          {
            build,
            input: request.input,
            approve: request.approve ?? [],
            gateState: newGate(request.approve),
            signal,
            emit,
          },
          0,
          'first',
        );
      },
    );
  }

  /**
   * Continues a build that was interrupted, stopped or failed, from its first phase that has not
   * passed. `acceptTestChange`: files of the test contract (relative to the project folder) whose
   * changes the person accepts (Accept Test Change, --accept-test-change): they become the frozen
   * state, and the report lists them.
   */
  async resume(
    id: string,
    signal: AbortSignal,
    emit: (event: BuildEvent) => void,
    options: ReopenOptions & { acceptTestChange?: readonly string[] } = {},
  ): Promise<BuildRecord> {
    return this.reopen(
      id,
      signal,
      emit,
      options,
      (build) => {
        if (build.status === 'completed')
          throw new BuildRefusedError(`Build ${id} completed; use Rerun Phase to run a phase again.`);
        const from = build.phases.findIndex((p) => p.status !== 'passed');
        return { from: from < 0 ? build.phases.length : from, cause: 'resume' };
      },
      options.acceptTestChange,
    );
  }

  /** Runs `phaseName` again, and every phase after it, on a build that is not under way. */
  async rerunPhase(
    id: string,
    phaseName: string,
    signal: AbortSignal,
    emit: (event: BuildEvent) => void,
    options: ReopenOptions = {},
  ): Promise<BuildRecord> {
    return this.reopen(id, signal, emit, options, (build) => {
      const from = build.phases.findIndex((p) => p.name === phaseName);
      if (from < 0) throw new BuildRefusedError(`Build ${id} has no phase ${phaseName}.`);
      if (from > 0 && build.phases.slice(0, from).some((p) => p.status !== 'passed'))
        throw new BuildRefusedError(`An earlier phase of build ${id} has not passed; Resume it instead.`);
      for (const phase of build.phases.slice(from)) phase.status = 'pending';
      return { from, cause: 'rerun' };
    });
  }

  private async reopen(
    id: string,
    signal: AbortSignal,
    emit: (event: BuildEvent) => void,
    options: ReopenOptions,
    plan: (build: BuildRecord) => { from: number; cause: AttemptCause },
    acceptTestChange: readonly string[] = [],
  ): Promise<BuildRecord> {
    this.refuseUntrusted();
    // A mistyped id is refused like a damaged build, not thrown as a storage error.
    if (!isBuildId(id))
      throw new BuildRefusedError(
        `${quotePath(id.slice(0, 120))} is not a build id (YYYYMMDD-HHMMSS-<name>-<4 hex digits>).`,
      );
    try {
      return await this.deps.builds.withBuildLock(id, async () => {
        const read = await this.deps.builds.read(id);
        if (!read.ok) throw new BuildRefusedError(read.problem);
        const build = read.build;
        const input = await this.deps.store.readText(buildFile(id, INPUT_FILE));
        if (input === undefined || input.trim() === '')
          throw new BuildRefusedError(
            `The brief of build ${id} (${INPUT_FILE} in its folder) is missing; start a new build.`,
          );
        if (build.projectDir !== undefined) await this.insideWorkspace(this.absolute(build.projectDir));
        const { from, cause } = plan(build);
        if (acceptTestChange.length > 0) await this.accept(build, from, acceptTestChange);
        // An attempt left 'running' by a process that died is what was interrupted.
        for (const phase of build.phases) {
          for (const attempt of phase.attempts)
            if (attempt.status === 'running')
              Object.assign(attempt, {
                status: 'stopped',
                endedAt: this.notes.stamp(),
                reason: 'Interrupted (the window reloaded or the process ended).',
              });
          if (phase.status === 'running') phase.status = 'stopped';
        }
        build.status = 'running';
        delete build.endedAt;
        delete build.reason;
        if (options.maxCostUsd !== undefined) build.maxCostUsd = options.maxCostUsd;
        await this.notes.note(
          build,
          `build ${cause === 'rerun' ? `rerun from phase ${build.phases[from]?.name ?? ''}` : 'resumed'}`,
          'build.resume',
          'ok',
        );
        return this.carry.run(
          {
            build,
            input,
            approve: options.approve ?? [],
            gateState: await this.gateOf(build, options.approve),
            signal,
            emit,
          },
          from,
          cause,
        );
      });
    } catch (err) {
      if (err instanceof StorageError && err.code === 'busy')
        throw new BuildRefusedError(`Build ${id} is under way in another window or a groundwork command.`);
      throw err;
    }
  }

  /** Takes the changes to `paths` into the build's test contract, before the phase at `from` runs again; BuildRefusedError for a path with no change. */
  private async accept(build: BuildRecord, from: number, paths: readonly string[]): Promise<void> {
    const contract = build.contract;
    if (contract === undefined)
      throw new BuildRefusedError(`Build ${build.id} has no test contract yet: there is no test change to accept.`);
    const root = absoluteIn(this.deps.store.folder, build.projectDir ?? '.');
    const read = contractReader(this.deps.store.files, root);
    const phase = build.phases[from]?.name ?? 'final verification';
    let next = contract;
    for (const path of paths) {
      const done = await acceptChange(
        next,
        path,
        phase,
        new Date(this.deps.clock.now()).toISOString(),
        read,
        this.deps.hash,
      );
      if (done.accepted.length === 0) {
        const known = contract.tests.some((t) => t.path === path) || contract.entries.some((e) => e.file === path);
        throw new BuildRefusedError(
          known
            ? `${quotePath(path)} has not changed since the test contract of build ${build.id} was frozen: there is nothing to accept.`
            : `${quotePath(path)} is not part of the test contract of build ${build.id} (its frozen test files: ${contract.tests.map((t) => t.path).join(', ') || 'none'}).`,
        );
      }
      next = done.contract;
      await this.notes.note(
        build,
        `test change accepted by the person: ${done.accepted.map((a) => a.path).join(', ')}`,
        'build.accept',
        'ok',
        false,
      );
    }
    build.contract = next;
  }

  /**
   * The gate state of a build reopened: what its runs so far did about manifests, from their
   * run.json and changes.json (every try of every phase, those to run again included: their files
   * are still there), so that a resumed build whose earlier phase wrote package.json still asks.
   */
  private async gateOf(build: BuildRecord, approve: readonly string[] | undefined): Promise<GateState> {
    const state = newGate(approve);
    const runs = build.phases.flatMap((p) =>
      p.attempts.flatMap((a) => (a.runId === undefined ? [] : [{ runId: a.runId, phase: p.name }])),
    );
    noteTrace(state, await this.deps.agents.manifestTrace(runs));
    return state;
  }

  private refuseUntrusted(): void {
    if (!this.deps.gate.isTrusted())
      throw new BuildRefusedError(
        'Builds are refused in an untrusted workspace (Restricted Mode): trust the folder first, then start the build again.',
      );
  }

  private absolute(rel: string): string {
    return absoluteIn(this.deps.store.folder, rel);
  }

  /** `abs` relative to the workspace ('.' for it), by name and by real path; BuildRefusedError when it is not inside. */
  private async insideWorkspace(abs: string): Promise<string> {
    const fs = this.deps.store.files;
    const windows = isWindowsRoot(this.deps.store.folder);
    const [real, folder] = await Promise.all([fs.realpath(abs), fs.realpath(this.deps.store.folder)]).catch(() => [
      undefined,
      undefined,
    ]);
    const inside = real !== undefined && folder !== undefined ? relativeInside(real, folder, windows) : undefined;
    if (inside === undefined)
      throw new BuildRefusedError(`The folder '${abs}' does not exist or is not inside the workspace.`);
    // As an agent run's root is judged (agentRun.ts): no phase may be started there.
    const reason = protectedReason(inside) ?? protectedReason([...inside, 'workflows']);
    if (reason !== undefined)
      throw new BuildRefusedError(
        `The folder '${inside.join('/')}' is refused: ${reason}; a build may not work there.`,
      );
    return inside.length === 0 ? '.' : inside.join('/');
  }
}

interface ReopenOptions {
  approve?: readonly string[];
  maxCostUsd?: number;
}

/**
 * A build's gate state, kept from phase to phase (phaseAttempt.ts marks it after each run): the
 * `--approve` texts hold until a phase writes a manifest or runs a command; from then on script
 * runners are asked again, in the phases' runs and in Groundwork's own checks, except the frozen
 * TEST:/BUILD: re-runs the build exempts itself (GateRequest.frozenContractHolds).
 */
function newGate(approve: readonly string[] | undefined): GateState {
  return { approvedForRun: new Set(), preApproved: new Set(approve ?? []), manifestWritten: false };
}

function describeSource(build: BuildRecord): string {
  if (build.input !== undefined) return `the ${specFormatName(build.input.format)} ${build.input.path}`;
  return build.source.kind === 'brief' ? `the brief ${build.source.path}` : `the brainstorm ${build.source.slug}`;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
