// The one way a command runs on an agent's behalf — the run_command tool, and the commands a build
// runs itself to check a phase's claim (BUILD:, VERIFY:): the workspace must be trusted (where it is
// asked and again after the person answered), the exact text pre-approved or approved by the person,
// and then the CommandRunner port runs it, its output streamed to the front end. What is recorded
// about it (transcript, logs, the build's record) is the caller's.
import { approvalNeeded } from '../commands/commandPolicy';
import type { ApprovalOptions } from '../commands/commandPolicy';
import type { CommandResult, CommandRunner } from '../commands/commandRunner';
import type { ApprovalDecision, RunEvent } from './runTypes';

export type ApprovalAnswer = 'once' | 'run' | 'deny';

/** The person, asked about one exact command (a modal in VS Code, a y/N prompt on the CLI). */
export interface CommandApprover {
  ask(
    request: { command: string; folder: string; why: string; role: string },
    signal: AbortSignal,
  ): Promise<ApprovalAnswer>;
}

export interface GateDeps {
  commands: CommandRunner;
  /** Absent: nobody can be asked (`--unattended`, or no terminal): what is not pre-approved is refused. */
  approver?: CommandApprover;
  /** Whether the workspace is trusted now. */
  isTrusted: () => boolean;
  /** `groundwork.commands.autoApprove`, parsed (see parseAutoApprove). */
  autoApprove: () => readonly string[];
}

/**
 * What one run (or build) has allowed so far: it changes as the person answers and files are
 * written. A build keeps one for its own check commands from phase to phase (buildRunner.ts), and
 * gives each phase's run what it knows about manifests (AgentRunRequest.manifestBefore).
 */
export interface GateState {
  /** Exact commands the person allowed in the modal for the rest of the run (or build); a manifest write drops the script runners among them. */
  approvedForRun: Set<string>;
  /** Exact commands pre-approved before it began (the CLI's `--approve`): they hold until a manifest is written. */
  preApproved?: ReadonlySet<string>;
  /** A manifest (package.json, a Makefile…) was, or may have been, written: script runners are asked again. */
  manifestWritten: boolean;
  /** What wrote it, in words for the person. */
  manifestWhy?: string;
}

/** What a caller may say about one command: see ApprovalOptions (`frozenContractHolds`). */
export type GateOptions = ApprovalOptions;

export interface GateRequest {
  command: string;
  /** The absolute folder it runs in (the run's root). */
  folder: string;
  /** Who asks, as the person is told: the role, or "Groundwork (build check)". */
  role: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** 'asking', 'approval', 'command', 'output' and 'exit' events, for the terminal. */
  emit: (event: RunEvent) => void;
  /**
   * Groundwork's own re-run of a frozen TEST:/BUILD: command whose manifest entries the build found
   * unchanged: the manifest rule is not applied (pre-approval, the allow-list and the person still are).
   */
  frozenContractHolds?: boolean;
  /** Called once the command is approved, just before it starts (a run records that it ran a command). */
  beforeRun?: () => Promise<void>;
}

export type GateOutcome =
  | { ran: false; decision: 'refused' | 'denied'; why: string }
  | { ran: true; decision: ApprovalDecision; result: CommandResult }
  /** The run was stopped while the person was asked. */
  | { ran: false; decision: 'stopped'; why: string };

const UNTRUSTED = 'the workspace is not trusted, and commands never run in an untrusted workspace';

export async function gateCommand(deps: GateDeps, state: GateState, request: GateRequest): Promise<GateOutcome> {
  const { command, signal, emit } = request;
  if (!deps.isTrusted()) return { ran: false, decision: 'refused', why: UNTRUSTED };
  const needed = approvalNeeded(
    command,
    {
      patterns: deps.autoApprove(),
      approvedForRun: state.approvedForRun,
      ...(state.preApproved !== undefined ? { preApproved: state.preApproved } : {}),
      manifestWritten: state.manifestWritten,
      ...(state.manifestWhy !== undefined ? { manifestWhy: state.manifestWhy } : {}),
    },
    request.frozenContractHolds === true ? { frozenContractHolds: true } : {},
  );
  let decision: ApprovalDecision = 'auto';
  if (!needed.auto) {
    if (deps.approver === undefined)
      return {
        ran: false,
        decision: 'refused',
        why: `nobody can approve it in this run (unattended), and ${needed.why}`,
      };
    emit({ type: 'asking', command, why: needed.why });
    const answer = await deps.approver.ask(
      { command, folder: request.folder, why: needed.why, role: request.role },
      signal,
    );
    if (signal.aborted)
      return { ran: false, decision: 'stopped', why: 'the run was stopped while the command waited for approval' };
    if (answer === 'deny') return { ran: false, decision: 'denied', why: 'the person denied it' };
    if (answer === 'run') state.approvedForRun.add(command);
    decision = answer;
  }
  // Trust may have been withdrawn while the person was asked.
  if (!deps.isTrusted()) return { ran: false, decision: 'refused', why: UNTRUSTED };
  emit({ type: 'approval', command, decision, ...(needed.auto ? { why: needed.by } : {}) });
  await request.beforeRun?.();
  emit({ type: 'command', command });
  const result = await deps.commands.run({
    command,
    cwd: request.folder,
    timeoutMs: request.timeoutMs,
    signal,
    onOutput: (chunk) => emit({ type: 'output', chunk }),
  });
  emit({
    type: 'exit',
    command,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    cancelled: result.cancelled,
    durationMs: result.durationMs,
    ...(result.signal ? { signal: result.signal } : {}),
  });
  return { ran: true, decision, result };
}
