// The phase loop of a build (buildRunner.ts starts, resumes and reruns builds; this carries one to
// its end): each phase with its retries, the verification loop that sends the developer back once,
// the cost ceiling, then what a passed phase leaves in the project folder (phaseKeep.ts) and the
// end with report.md (buildEnd.ts). Every change is saved to build.yaml at once, logged to
// build.log and, for phase changes, audited (buildNotes.ts).
import type { GateState } from '../run/commandGate';
import type { RunRecord } from '../run/runTypes';
import type { Role } from '../roles/roleSchema';
import { BuildEnd } from './buildEnd';
import { ContractKeeper } from './contractKeeper';
import { parseCoverage } from './coverage';
import { contractCovers, contractRefusal } from './contractGuards';
import type { BuildNotes } from './buildNotes';
import { VERIFIED_MAX } from './buildRecord';
import { RECORD_TEXT_MAX_CHARS } from './buildRecordParts';
import { phaseData, phaseTask } from './buildPrompt';
import type { BuildDeps, BuildEvent } from './buildRunner';
import { buildTotals } from './buildText';
import type { AttemptCause, BuildRecord, PhaseAttempt, PhaseState } from './buildTypes';
import { runAttempt } from './phaseAttempt';
import type { AttemptResult } from './phaseAttempt';
import { PhaseKeep } from './phaseKeep';
import { projectNameFrom } from './projectName';
import { absoluteIn } from './projectFiles';
import { markPhaseSpecs } from './specMarks';
import { visibleText } from '../visibleText';

/** Tries of one phase before a transient failure stops the build (docs/build-phases.md, "Retries"). */
export const PHASE_TRIES = 3;

/** A build under way: its record (saved on every change), its brief, and what the person allowed. */
export interface Going {
  build: BuildRecord;
  input: string;
  approve: readonly string[];
  gateState: GateState;
  signal: AbortSignal;
  emit: (event: BuildEvent) => void;
}

/** An attempt that failed for a reason worth another try; `checked`: its run completed and Groundwork's check failed it. */
type Retry = { kind: 'retry'; reason: string; checked: boolean };
export type PhaseEnd =
  { kind: 'passed' } | { kind: 'stopped' } | { kind: 'failed'; reason: string; sendBack?: string; cost?: boolean };

/**
 * When the phase at `at` is a developer sent back (by QA or the reviewer) whose fix did not finish,
 * what it was sent back with (the failed check's evidence), so that a Resume of the fix knows it.
 */
function sentBackWith(build: BuildRecord, at: number): { cause: AttemptCause; text: string } | undefined {
  const attempts = build.phases[at]?.attempts ?? [];
  const sent = [...attempts].reverse().find((a) => a.cause !== 'retry' && a.cause !== 'resume');
  if (sent?.cause !== 'qa-failed' && sent?.cause !== 'review-changes') return undefined;
  const by = build.phases
    .slice(at + 1)
    .find((p) => p.check === (sent.cause === 'qa-failed' ? 'verification' : 'review'));
  const text = by?.attempts.filter((a) => a.status === 'failed' && a.evidence !== undefined).pop()?.evidence;
  return text === undefined ? undefined : { cause: sent.cause, text };
}

export class BuildCarry {
  private readonly keeper: PhaseKeep;
  private readonly end: BuildEnd;
  private readonly contract: ContractKeeper;

  constructor(
    private readonly deps: BuildDeps,
    private readonly notes: BuildNotes,
  ) {
    this.keeper = new PhaseKeep(deps, notes);
    this.end = new BuildEnd(deps, notes);
    this.contract = new ContractKeeper(deps, notes);
  }

  /** Runs the phases from `from` to the end (or the first that cannot pass), then ends the build. */
  async run(going: Going, from: number, firstCause: AttemptCause): Promise<BuildRecord> {
    const { build } = going;
    let i = from;
    let cause: AttemptCause = firstCause;
    /** What a developer sent back is to fix, and who sent it (kept for its retries, and for a Resume of its fix). */
    let feedback = firstCause === 'resume' ? sentBackWith(build, from) : undefined;
    let ended: PhaseEnd = { kind: 'passed' };
    // The developer is sent back once per cause: a Resume continues the build's count, a new build
    // or a Rerun Phase (the person asking again) starts a new one.
    const sent = new Set<AttemptCause>(
      firstCause === 'resume'
        ? build.phases
            .flatMap((p) => p.attempts.map((a) => a.cause ?? 'first'))
            .filter((c) => c === 'qa-failed' || c === 'review-changes')
        : [],
    );
    while (i < build.phases.length) {
      const phase = build.phases[i] as PhaseState;
      ended = await this.phase(going, phase, cause, feedback);
      feedback = undefined;
      cause = 'first';
      if (ended.kind === 'passed') {
        i++;
        continue;
      }
      if (ended.kind !== 'failed' || ended.sendBack === undefined) break;
      // The verification loop, once: QA failed (or the reviewer asked for changes), so the
      // developer runs again with the report, then the phases from it on run again.
      const why: AttemptCause = phase.check === 'review' ? 'review-changes' : 'qa-failed';
      const dev = build.phases.findIndex((p, at) => at < i && (p.name === 'developer' || p.check === 'build-command'));
      const developer = build.phases[dev];
      if (developer === undefined || sent.has(why)) {
        const again =
          developer === undefined
            ? 'there is no developer phase to send back to'
            : `the developer was already sent back once`;
        ended = {
          kind: 'failed',
          reason: `${ended.reason} This is the second failure (${again}), so the build stops.`,
        };
        break;
      }
      sent.add(why);
      for (const later of build.phases.slice(dev)) later.status = 'pending';
      i = dev;
      cause = why;
      feedback = { cause: why, text: ended.sendBack };
    }
    if (ended.kind === 'passed' && build.phases.every((p) => p.status === 'passed'))
      ended = await this.contract.verifyAtEnd(
        going,
        this.phaseRoot(build, build.phases[build.phases.length - 1] as PhaseState),
      );
    return this.end.finish(going, ended);
  }

  /** A phase with its retries: passes, stops, or fails (with what to send back, when QA or the reviewer failed it). */
  private async phase(
    going: Going,
    phase: PhaseState,
    cause: AttemptCause,
    feedback: { cause: AttemptCause; text: string } | undefined,
  ): Promise<PhaseEnd> {
    let last: Retry = { kind: 'retry', reason: `Phase ${phase.name} did not run.`, checked: false };
    for (let attempt = 1; attempt <= PHASE_TRIES; attempt++) {
      const over = this.overBudget(going.build, 0);
      if (over !== undefined) return { kind: 'failed', reason: over, cost: true };
      const result = await this.attempt(going, phase, attempt === 1 ? cause : 'retry', feedback);
      if (result.kind !== 'retry') return result;
      last = result;
      if (going.signal.aborted) return { kind: 'stopped' };
    }
    // The fallback name: an analyst that answered but never with a PROJECT_NAME does not stop the build.
    if (phase.check === 'brief' && last.checked && going.build.projectName === undefined)
      return this.namedFromBrief(going, phase, last.reason);
    return { kind: 'failed', reason: `${last.reason} (after ${PHASE_TRIES} tries)` };
  }

  /** One attempt, recorded in the build as it goes. 'retry': it failed for a reason worth another try. */
  private async attempt(
    going: Going,
    phase: PhaseState,
    cause: AttemptCause,
    feedback: { cause: AttemptCause; text: string } | undefined,
  ): Promise<PhaseEnd | Retry> {
    const { build, emit, signal } = going;
    const attempt: PhaseAttempt = { status: 'running', startedAt: this.notes.stamp(), cause };
    phase.attempts.push(attempt);
    phase.status = 'running';
    // Saved once the run exists (onRun, with its id) or when the attempt ends before one does.
    await this.notes.note(
      build,
      `phase ${phase.name} started (try ${phase.attempts.length}, ${cause})`,
      undefined,
      'ok',
      false,
    );
    emit({ type: 'phase', build, phase, attempt: phase.attempts.length, cause });
    const close = async (
      status: PhaseAttempt['status'],
      reason?: string,
      evidence?: string,
      transient?: boolean,
    ): Promise<void> => {
      Object.assign(attempt, { status, endedAt: this.notes.stamp() });
      if (reason !== undefined) attempt.reason = reason.slice(0, RECORD_TEXT_MAX_CHARS);
      if (evidence !== undefined) attempt.evidence = evidence.slice(0, RECORD_TEXT_MAX_CHARS);
      if (transient !== undefined) attempt.transient = transient;
      phase.status = status === 'passed' ? 'passed' : status === 'stopped' ? 'stopped' : 'failed';
      emit({
        type: 'checked',
        phase: phase.name,
        passed: status === 'passed',
        ...(reason !== undefined ? { reason } : {}),
        ...(evidence !== undefined ? { evidence } : {}),
      });
      await this.notes.note(
        build,
        `phase ${phase.name} ${status}${reason ? `: ${reason}` : ''}`,
        'build.phase',
        status === 'passed' ? 'ok' : 'error',
      );
    };
    let role: Role;
    try {
      role = await this.deps.loadRole(phase.role);
    } catch (err) {
      const reason = `The role ${phase.role} of phase ${phase.name} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`;
      await close('failed', reason, undefined, false);
      return { kind: 'failed', reason };
    }
    const root = this.phaseRoot(build, phase);
    let result: AttemptResult;
    let costReason: string | undefined;
    try {
      result = await runAttempt(this.deps, {
        buildId: build.id,
        phase,
        role,
        task: phaseTask(build, phase, going.input, feedback),
        data: phaseData(build, phase, going.input),
        root,
        approve: going.approve,
        gateState: going.gateState,
        ...(build.commands !== undefined ? { commands: build.commands } : {}),
        declared: (build.contract?.tests ?? []).reduce((sum, t) => sum + t.declared, 0),
        frozenTests: (build.contract?.tests ?? []).map((t) => t.path),
        ...this.precheck(build, phase, root),
        // build.costUsd is what the phases before this run spent; the run's own cost comes on top.
        stopWhen: (run) => (costReason = this.overBudget(build, run.costUsd ?? 0, run)),
        signal,
        emit: (event) => {
          if (event.type === 'ended') this.account(build, attempt, event.run);
          emit({ type: 'run', phase: phase.name, event });
        },
        onRun: (run) => {
          attempt.runId = run.id;
          void this.notes.save(build).catch(() => undefined);
        },
      });
    } catch (err) {
      const reason = `Phase ${phase.name} could not run: ${err instanceof Error ? err.message : String(err)}`;
      await close('failed', reason, undefined, false);
      return { kind: 'failed', reason };
    }
    if (result.kind === 'refused') {
      await close('failed', result.reason, undefined, false);
      return { kind: 'failed', reason: result.reason };
    }
    if (result.kind === 'stopped') {
      await close('stopped', 'Stopped before it finished.');
      return { kind: 'stopped' };
    }
    if (result.kind === 'run-failed') {
      const isCost = costReason !== undefined && result.reason === costReason;
      await close('failed', result.reason, undefined, !isCost);
      return isCost
        ? { kind: 'failed', reason: result.reason, cost: true }
        : { kind: 'retry', reason: `Phase ${phase.name}'s run failed: ${result.reason}`, checked: false };
    }
    let { outcome } = result;
    if (outcome.passed && phase.check === 'architecture' && outcome.commands !== undefined)
      build.commands = outcome.commands;
    if (outcome.passed && phase.check === 'tests-created') {
      const unfrozen = await this.contract.freeze(build, phase, root, result.created, parseCoverage(result.reply));
      if (unfrozen !== undefined) outcome = { ...outcome, passed: false, reason: unfrozen, transient: false };
    }
    build.verified.push(...outcome.verified);
    // build.yaml keeps the newest VERIFIED_MAX: a build resumed again and again must still be saved.
    if (build.verified.length > VERIFIED_MAX) build.verified.splice(0, build.verified.length - VERIFIED_MAX);
    if (outcome.passed) {
      try {
        if ((await this.keeper.keep(build, phase, result.reply, outcome)) === 'stopped') {
          await close(
            'stopped',
            'Asked where the project goes, the person stopped the build: Resume runs the analyst again.',
          );
          return { kind: 'stopped' };
        }
      } catch (err) {
        const reason = `Phase ${phase.name} passed its check, but ${err instanceof Error ? err.message : String(err)}`;
        await close('failed', reason, undefined, false);
        return { kind: 'failed', reason };
      }
      await close('passed', outcome.reason, outcome.evidence);
      const marked = await markPhaseSpecs({ fs: this.deps.store.files, writer: this.deps.specs }, root, phase.check);
      if (marked !== undefined)
        await this.notes.note(build, `phase ${phase.name}: ${marked.text}`, undefined, marked.ok ? 'ok' : 'error');
      return { kind: 'passed' };
    }
    const reason = outcome.reason ?? `Phase ${phase.name} failed its check.`;
    await this.keeper.keepReply(build, phase, result.reply).catch(() => undefined);
    await close('failed', reason, outcome.evidence, outcome.transient === true);
    if (outcome.transient === true) return { kind: 'retry', reason, checked: true };
    return { kind: 'failed', reason, ...(outcome.sendBack ? { sendBack: outcome.sendBack.feedback } : {}) };
  }

  /**
   * The analyst gave no PROJECT_NAME in its tries: the fallback name (docs/build-phases.md), a safe
   * name from the brief, and the brief itself as specs/brief.md.
   */
  private async namedFromBrief(going: Going, phase: PhaseState, why: string): Promise<PhaseEnd> {
    const name = projectNameFrom(going.input);
    try {
      if ((await this.keeper.placeProject(going.build, name, going.input, false)) === 'stopped')
        return { kind: 'stopped' };
    } catch (err) {
      return {
        kind: 'failed',
        reason: `${why} The project could not be placed: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    const lastAttempt = phase.attempts[phase.attempts.length - 1];
    if (lastAttempt !== undefined)
      lastAttempt.reason =
        `${why} After ${PHASE_TRIES} tries Groundwork named the project ${name} from the brief, and saved the brief itself as specs/brief.md.`.slice(
          0,
          RECORD_TEXT_MAX_CHARS,
        );
    phase.status = 'passed';
    const named = `No PROJECT_NAME in ${PHASE_TRIES} tries: the project is named ${name} from the brief, and the brief itself is specs/brief.md.`;
    going.emit({ type: 'checked', phase: phase.name, passed: true, reason: named });
    await this.notes.note(going.build, `phase ${phase.name}: ${named}`);
    return { kind: 'passed' };
  }

  private precheck(build: BuildRecord, phase: PhaseState, root: string) {
    const precheck = this.contract.precheck(build, phase, root);
    const contract = build.contract;
    if (precheck === undefined || contract === undefined) return {};
    return {
      precheck,
      exempt: (command: string) => contractCovers(contract, command),
      writeGuard: (path: string, bytes: Uint8Array) => contractRefusal(contract, path, bytes, this.deps.hash),
    };
  }

  /**
   * The reason the build stops at its cost ceiling, or undefined: `extra` is what the current run
   * has spent beyond the record. A ceiling cannot hold over a model without a price (one the server
   * named that no price table knows): the build stops at its next call, saying which model.
   */
  private overBudget(build: BuildRecord, extra: number, run?: RunRecord): string | undefined {
    const ceiling = build.maxCostUsd;
    if (ceiling === undefined) return undefined;
    const unpriced =
      run !== undefined && run.usage !== undefined && run.costUsd === undefined
        ? (run.model ?? 'the model that answered')
        : build.phases.some((p) => p.attempts.some((a) => a.usage !== undefined && a.costUsd === undefined))
          ? 'a model that answered a phase'
          : undefined;
    if (unpriced !== undefined)
      return `The build has a cost ceiling of $${ceiling.toFixed(2)}, but ${visibleText(unpriced)} has no price Groundwork knows, so what it costs cannot be counted: the build stopped before the next model call. Give its price in groundwork.prices (USD per million tokens) and Resume.`;
    const spent = (build.costUsd ?? 0) + extra;
    if (spent < ceiling) return undefined;
    return `The build reached its cost ceiling of $${ceiling.toFixed(2)} (spent $${spent.toFixed(4)}) and stopped before the next model call. Raise groundwork.build.maxCostUsd (or --max-cost) and Resume.`;
  }

  private account(build: BuildRecord, attempt: PhaseAttempt, run: RunRecord): void {
    if (run.usage !== undefined) attempt.usage = run.usage;
    if (run.costUsd !== undefined) attempt.costUsd = run.costUsd;
    Object.assign(build, buildTotals(build));
  }

  private phaseRoot(build: BuildRecord, phase: PhaseState): string {
    if (build.projectDir !== undefined && !(phase.check === 'brief' && build.mode === 'new'))
      return absoluteIn(this.deps.store.folder, build.projectDir);
    return this.deps.store.folder;
  }
}
