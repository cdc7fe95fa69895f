// One attempt of one build phase: a fresh agent run of the phase's role in the project folder, then
// Groundwork's own check of what it claims (phaseChecks.ts), with the commands Groundwork re-runs
// going through the same approval gate as any agent's command. Returns what the orchestrator
// needs to decide what comes next; the build record is the orchestrator's.
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../commands/commandRunner';
import type { AgentRunner, AgentRunRequest } from '../run/agentRun';
import { RunRefusedError } from '../run/agentRun';
import { readChanges } from '../run/changesFile';
import type { Sha256 } from '../run/changesFile';
import { gateCommand } from '../run/commandGate';
import type { GateDeps, GateOptions, GateState } from '../run/commandGate';
import { noteTrace } from '../run/manifestWatch';
import type { RunEvent, RunRecord } from '../run/runTypes';
import type { Role } from '../roles/roleSchema';
import type { WorkspaceStore } from '../storage/workspaceStore';
import type { CheckOutcome, VerifyOutcome } from './phaseChecks';
import { checkPhase } from './phaseChecks';
import type { PhaseState, ProjectCommands } from './buildTypes';

/** Who the person is told asks to run Groundwork's own check commands. */
export const CHECK_ROLE = 'Groundwork (build check)';

export interface AttemptDeps {
  store: WorkspaceStore;
  agents: AgentRunner;
  gate: GateDeps;
  hash: Sha256;
}

export interface AttemptRequest {
  buildId: string;
  phase: PhaseState;
  role: Role;
  task: string;
  /** Texts given with the task, each a data block of its own (AgentRunRequest.data). */
  data?: AgentRunRequest['data'];
  /** The absolute folder the run works in and the check reads. */
  root: string;
  approve: readonly string[];
  /**
   * The build's approvals for Groundwork's own commands (the --approve texts, and "for this build"
   * answers), and what its phases did about manifests: given to the run, and marked after it.
   */
  gateState: GateState;
  stopWhen?: (run: RunRecord) => string | undefined;
  signal: AbortSignal;
  /** The run's events, and Groundwork's own commands as the same events. */
  emit: (event: RunEvent) => void;
  /** Called once the run exists (its id goes into build.yaml at once). */
  onRun: (run: RunRecord) => void;
  /** The architect's commands as build.yaml froze them (absent: a build recorded before they were, read from the file). */
  commands?: ProjectCommands;
  /** How many tests the frozen test files declare (0 before the contract is frozen). */
  declared?: number;
  /** The frozen test files (phaseChecks.ts's CheckInput.frozenTests). */
  frozenTests?: readonly string[];
  /** Checked after the run and before the phase's own check (the test contract): a failure here is the attempt's. */
  precheck?: () => Promise<CheckOutcome | undefined>;
  /** Refuses a write of the phase's run that would break the test contract (testContract.ts's contractRefusal). */
  writeGuard?: AgentRunRequest['writeGuard'];
  /** Once precheck passed: whether a frozen command may skip the manifest rule (phaseChecks.ts's CheckInput.exempt). */
  exempt?: (command: string) => boolean;
}

export type AttemptResult =
  | { kind: 'refused'; reason: string }
  | { kind: 'stopped'; run?: RunRecord }
  /** The run itself failed (a model error, its turn limit, the cost ceiling). */
  | { kind: 'run-failed'; run: RunRecord; reason: string }
  /** `created`: the files the run created, relative to its folder. */
  | { kind: 'checked'; run: RunRecord; reply: string; outcome: CheckOutcome; created: string[] };

export async function runAttempt(deps: AttemptDeps, request: AttemptRequest): Promise<AttemptResult> {
  const { phase, signal, emit, gateState } = request;
  let reply = '';
  let run: RunRecord;
  let runId: string | undefined;
  try {
    run = await deps.agents.start(
      {
        role: request.role,
        task: request.task,
        ...(request.data !== undefined ? { data: request.data } : {}),
        root: request.root,
        approve: request.approve,
        ...(gateState.manifestWritten ? { manifestBefore: gateState.manifestWhy ?? 'a manifest was written' } : {}),
        phase: { name: phase.name, buildId: request.buildId },
        ...(request.writeGuard !== undefined ? { writeGuard: request.writeGuard } : {}),
        ...(request.stopWhen ? { stopWhen: request.stopWhen } : {}),
      },
      signal,
      (event) => {
        if (event.type === 'started') {
          runId = event.run.id;
          request.onRun(event.run);
        }
        if (event.type === 'ended') reply = event.reply ?? '';
        emit(event);
      },
    );
  } catch (err) {
    if (err instanceof RunRefusedError) return { kind: 'refused', reason: err.message };
    throw err;
  } finally {
    // What the run did about manifests holds for Groundwork's check now and for every later phase.
    if (runId !== undefined) noteTrace(gateState, await deps.agents.manifestTrace([{ runId, phase: phase.name }]));
  }
  if (run.status === 'stopped' || signal.aborted) return { kind: 'stopped', run };
  if (run.status !== 'completed') return { kind: 'run-failed', run, reason: run.reason ?? 'The run failed.' };
  const fs = deps.store.files;
  const created = await createdBy(deps, run.id);
  const commands =
    phase.check === 'build-command' || phase.check === 'verification'
      ? (request.commands ?? (await projectCommands(deps, request)))
      : undefined;
  // phaseChecks passes { frozenContractHolds: true } for a frozen TEST:/BUILD: whose manifest entries are unchanged.
  const runCommand = (command: string, options?: GateOptions) => runCheckCommand(deps, request, command, options);
  try {
    const broken = await request.precheck?.();
    if (broken !== undefined) return { kind: 'checked', run, reply, outcome: broken, created };
    const exempt = request.precheck !== undefined ? request.exempt : undefined;
    const outcome = await checkPhase({
      check: phase.check,
      phase: phase.name,
      reply,
      projectRoot: request.root,
      fs,
      created,
      ...(commands ? { commands } : {}),
      ...(request.declared !== undefined ? { declared: request.declared } : {}),
      ...(request.frozenTests !== undefined ? { frozenTests: request.frozenTests } : {}),
      ...(exempt !== undefined ? { exempt } : {}),
      runCommand,
    });
    return { kind: 'checked', run, reply, outcome, created };
  } catch (err) {
    if (signal.aborted) return { kind: 'stopped', run };
    throw err;
  }
}

/** The files the run created (not changed), relative to its root: what the test writer's check looks at. */
async function createdBy(deps: AttemptDeps, runId: string): Promise<string[]> {
  const read = await readChanges(deps.store, runId, deps.hash);
  return read.ok ? read.changes.files.filter((f) => f.before === null).map((f) => f.path) : [];
}

/** The architecture's TEST:/BUILD: commands as the project folder has them now. */
async function projectCommands(deps: AttemptDeps, request: AttemptRequest): Promise<ProjectCommands | undefined> {
  const found = await checkPhase({
    check: 'architecture',
    phase: request.phase.name,
    reply: '',
    projectRoot: request.root,
    fs: deps.store.files,
    created: [],
    runCommand: () => Promise.reject(new Error('no command runs here')),
  });
  return found.commands;
}

/** One command Groundwork runs itself to check a claim, behind the approval gate; a stop rejects. */
export async function runCheckCommand(
  deps: Pick<AttemptDeps, 'gate'>,
  request: Pick<AttemptRequest, 'signal' | 'gateState' | 'root' | 'emit'>,
  command: string,
  options: GateOptions = {},
): Promise<VerifyOutcome> {
  const { signal } = request;
  const gated = await gateCommand(deps.gate, request.gateState, {
    command,
    folder: request.root,
    role: CHECK_ROLE,
    timeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
    signal,
    emit: request.emit,
    ...(options.frozenContractHolds === true ? { frozenContractHolds: true } : {}),
  });
  if (!gated.ran) {
    if (gated.decision === 'stopped' || signal.aborted) throw new Error('stopped');
    request.emit({ type: 'approval', command, decision: gated.decision, why: gated.why });
    return { ran: false, exitCode: null, output: '', refusal: gated.why };
  }
  if (signal.aborted || gated.result.cancelled) throw new Error('stopped');
  const { result } = gated;
  const exitCode = result.timedOut || result.exitCode === undefined ? null : result.exitCode;
  return {
    ran: true,
    exitCode,
    output:
      result.output +
      (result.timedOut ? `\n(stopped after its timeout of ${DEFAULT_COMMAND_TIMEOUT_MS / 1000} s)` : ''),
  };
}
