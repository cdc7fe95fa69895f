// What the acting tools of one agent run reach (the ActingPorts of core/tools): the record of each
// file change kept for Revert Run, commands behind the person's approval, sleeps in the sleep log,
// learnings in the journal. Every step also goes to the transcript and to the front end's events.
import { MANIFEST_TOOL_WORDS, manifestToolCommand } from '../commands/manifests';
import { DEFAULT_COMMAND_TIMEOUT_MS, MODEL_OUTPUT_MAX_BYTES } from '../commands/commandRunner';
import type { Clock } from '../clock';
import type { Journal } from '../journal/journal';
import { commandLogName, runFile } from '../plan/layout';
import { cutText, utf8Length } from '../prompt/cap';
import { wrapUntrusted } from '../prompt/untrustedText';
import type { RandomBytes } from '../prompt/untrustedText';
import type { SpecWriter } from '../annotations/specWriter';
import { parseSleepArgs } from '../sleep/parseSleepArgs';
import type { SleepLog } from '../sleep/sleepLog';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { ToolInputError } from '../tools/toolTypes';
import type { ActingPorts, DiscoveryImpact, DiscoveryToolInput, SleepToolInput } from '../tools/toolTypes';
import { oneLine } from '../tools/toolLines';
import type { ChangeLog } from './changesFile';
import { gateCommand } from './commandGate';
import type { GateDeps, GateState } from './commandGate';
import { manifestWrite } from './manifestWatch';
import { noteInSpecs, noteTask } from './specNotes';
import { runEnded } from './runStore';
import type { RunStore } from './runStore';
import { MANIFEST_WRITE_MAX_CHARS } from './runTypes';
import type { RunDiscoveries, RunEvent, RunRecord, TranscriptRecord } from './runTypes';

/** What a run's acting side needs from its front end and the workspace (commands: see commandGate.ts). */
export interface ActingDeps extends GateDeps {
  runs: RunStore;
  clock: Clock;
  random: RandomBytes;
  /** `groundwork.sleep.maxSeconds`. */
  sleepMaxSeconds: () => number;
  sleepLog: SleepLog;
  journal: Journal;
  /**
   * Discovery cases (core/cases' CaseService fits): what the run learns becomes a numbered case
   * (the service also writes it to the journal) and its prompt carries the discoveries block.
   * Without it, learnings go to the journal only.
   */
  discoveries?: RunDiscoveries;
  /**
   * Writes the spec documents of the run's folder (`specs/*.md`): a new case's note goes after the
   * region of its task there. Without it, specs are not annotated.
   */
  specs?: SpecWriter;
  /** Waits `ms` or until `signal` aborts (then resolves early); tests pass a fast one. */
  wait: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Whether the run or phase named `event` has ended since `since` (ms): what an event sleep waits for. Default: runEnded. */
  eventDone?: (event: string, since: number) => Promise<boolean>;
}

/** How often a sleeper looks for a wake written by someone else (the explorer's Wake, the CLI). */
export const WAKE_POLL_MS = 500;

export class RunActing implements ActingPorts, GateState {
  /** Exact commands the person allowed for the rest of this run; a manifest write drops the script runners. */
  readonly approvedForRun = new Set<string>();
  /** The CLI's `--approve` texts: they hold until a manifest is written. */
  preApproved: ReadonlySet<string> = new Set();
  /** Set once a manifest is (or may have been) written, by this run or earlier in its build: script runners are asked again. */
  manifestWritten = false;
  manifestWhy: string | undefined;
  /** The tool being run now, to tell a write from an edit in the terminal, and the path it was given (a link's own name). */
  currentTool = '';
  currentTarget = '';
  private commandCount = 0;
  private signals: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: ActingDeps & { store?: Pick<WorkspaceStore, 'files'> },
    private readonly run: RunRecord,
    private readonly root: string,
    private readonly changes: ChangeLog,
    private readonly emit: (event: RunEvent) => void,
    private readonly record: (entry: TranscriptRecord) => Promise<void>,
    /** What the run's discoveries name as their task: a build's id, or (absent) the run's task. */
    private readonly taskId?: string,
  ) {}

  async beforeChange(change: { path: string; before: Uint8Array | undefined; after: Uint8Array }): Promise<void> {
    await this.changes.beforeChange(change.path, change.before, change.after);
    const given =
      this.currentTool === 'write_file' || this.currentTool === 'edit_file' ? this.currentTarget : undefined;
    const what = await manifestWrite(this.deps.store?.files, this.root, change.path, given);
    if (what === undefined) return;
    // It now decides what npm, make… execute: what was approved before it changed is asked again.
    for (const command of this.approvedForRun) if (manifestToolCommand(command)) this.approvedForRun.delete(command);
    const first = this.run.manifestWrite === undefined;
    if (first)
      this.emit({
        type: 'notice',
        text: `${what} is written by this run: ${MANIFEST_TOOL_WORDS} are asked again, whatever is pre-approved.`,
      });
    this.manifestWritten = true;
    this.manifestWhy = `${what} was written by this run`;
    // Saved before the write, so that a build's later phases (and its Resume) know, even after a kill.
    if (first) await this.save({ manifestWrite: cutText(what.replace(/\p{Cc}/gu, '?'), MANIFEST_WRITE_MAX_CHARS) });
  }

  /** Fields of run.json that must be on the disk before what they describe happens; a failure costs only the record. */
  private async save(fields: Pick<RunRecord, 'manifestWrite' | 'ranCommand'>): Promise<void> {
    Object.assign(this.run, fields);
    await this.deps.runs.update(this.run.id, fields).catch(() => undefined);
  }

  async afterChange(change: { path: string; after: Uint8Array; created: boolean }): Promise<void> {
    await this.changes.afterChange(change.path, change.after);
    this.emit({
      type: 'wrote',
      path: change.path,
      lines: countLines(change.after),
      created: change.created,
      edit: this.currentTool === 'edit_file',
    });
  }

  async runCommand(input: { command: string; timeoutSeconds?: number }, signal: AbortSignal): Promise<string> {
    const { command } = input;
    const timeoutMs = input.timeoutSeconds !== undefined ? input.timeoutSeconds * 1000 : DEFAULT_COMMAND_TIMEOUT_MS;
    const gated = await gateCommand(this.deps, this, {
      command,
      folder: this.root,
      role: this.run.role,
      timeoutMs,
      signal,
      emit: this.emit,
      beforeRun: async () => {
        if (this.run.ranCommand !== true) await this.save({ ranCommand: true });
      },
    });
    if (gated.decision === 'stopped')
      throw new ToolInputError('The run was stopped while the command waited for approval.');
    if (!gated.ran) return this.refuse(command, gated.decision, gated.why);
    const { result, decision } = gated;
    const n = ++this.commandCount;
    const log = commandLogName(n);
    // The full output is kept even when the model sees only its end; a log that cannot be written costs only the log.
    await this.deps.runs.writeCommandLog(this.run.id, n, `$ ${command}\n${result.output}`).catch(() => undefined);
    await this.record({
      type: 'command',
      at: this.now(),
      command,
      decision,
      durationMs: result.durationMs,
      log,
      ...exitFields(result),
    });
    if (result.cancelled) throw new ToolInputError('The command was stopped: the run was cancelled.');
    return this.commandReport(command, result, displayPath(`${runFile(this.run.id, log)}`));
  }

  async sleep(input: SleepToolInput, signal: AbortSignal): Promise<string> {
    const agent = this.run.id;
    const start = this.deps.clock.now();
    const parsed = parseSleepArgs(
      {
        mode: input.mode,
        ...(input.seconds !== undefined ? { duration_secs: input.seconds } : {}),
        ...(input.event !== undefined ? { agent_id: input.event } : {}),
      },
      this.deps.sleepMaxSeconds(),
      { agent, now: start },
    );
    if (!parsed.ok) throw new ToolInputError(`sleep was refused: ${parsed.error}.`);
    const { state } = parsed;
    await this.deps.sleepLog.recordStart(state);
    const seconds = Math.ceil(state.maxDurationMs / 1000);
    this.emit({
      type: 'sleep',
      mode: input.mode,
      seconds,
      ...(input.event !== undefined ? { event: input.event } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
    });
    await this.record({
      type: 'sleep',
      at: this.now(),
      mode: input.mode,
      seconds,
      ...(input.event !== undefined ? { event: input.event } : {}),
      ...(input.reason ? { reason: input.reason } : {}),
    });
    const reason = await this.waitForWake(state.mode.kind, input.event, start, state.maxDurationMs, signal);
    if (signal.aborted) {
      await this.deps.sleepLog.recordWake(agent, 'The run was stopped.').catch(() => undefined);
      throw new ToolInputError('The sleep ended: the run was stopped.');
    }
    if (reason.record) await this.deps.sleepLog.recordWake(agent, reason.text);
    this.emit({ type: 'woken', reason: reason.text });
    await this.record({ type: 'woken', at: this.now(), reason: reason.text });
    return `Woken after ${formatSeconds(this.deps.clock.now() - start)}: ${reason.text}${parsed.clamped ? ` (the sleep was cut to the cap of ${seconds} s)` : ''}`;
  }

  /** Queues the signals of the model's text (in order: noted one after the other). */
  noteSignals(signals: readonly { scope: 'local' | 'global'; content: string }[]): void {
    for (const s of signals) {
      // Each one caught on its own, so that one that fails does not skip the rest.
      this.signals = this.signals.then(() => this.noteDiscovery(s.scope, s.content).catch(() => undefined));
    }
  }

  /** Resolves when every queued signal is noted (a failed one is not the run's failure). */
  async signalsNoted(): Promise<void> {
    await this.signals.catch(() => undefined);
  }

  /** The discoveries block for the role's system prompt (cached: the same cases give the same bytes); '' on failure, said once. */
  async promptDiscoveries(): Promise<string> {
    if (this.deps.discoveries === undefined) return '';
    try {
      return (await this.deps.discoveries.injection(this.run.role)).text;
    } catch (err) {
      this.emit({
        type: 'notice',
        text: `The run goes on without the project's discoveries: ${err instanceof Error ? err.message : String(err)}`,
      });
      return '';
    }
  }

  async reportDiscovery(input: DiscoveryToolInput): Promise<string> {
    return this.noteDiscovery(input.scope, input.content, input.impact, input.task);
  }

  /** A learning from report_discovery or a signal in the model's text; returns what the model is told. `task`: the requirement it is about, as the model said. */
  async noteDiscovery(
    scope: 'local' | 'global',
    content: string,
    impact?: DiscoveryImpact,
    task?: string,
  ): Promise<string> {
    const noted = await this.toCase(scope, content, impact);
    if (noted === undefined) {
      const title = oneLine(content, 120);
      await this.deps.journal.append({
        title,
        description: cutText(content, 8 * 1024),
        scope,
        agent: this.run.role,
        task: this.taskId ?? oneLine(this.run.task, 200),
      });
    }
    const which = noted === undefined ? {} : { caseId: noted.id, ...(noted.duplicate ? { duplicate: true } : {}) };
    this.emit({ type: 'discovery', scope, content, ...which });
    await this.record({
      type: 'discovery',
      at: this.now(),
      scope,
      content: cutText(content, 8 * 1024),
      ...(impact ? { impact } : {}),
      ...which,
    });
    if (noted !== undefined && !noted.duplicate) {
      const note = { task: noteTask(task, this.taskId ?? this.run.id), caseId: noted.id, content };
      await noteInSpecs({ fs: this.deps.store?.files, writer: this.deps.specs }, this.root, note, this.emit);
    }
    if (noted === undefined) return `Recorded as a ${scope} discovery in the journal.`;
    return noted.duplicate
      ? `Already known as ${noted.id}; nothing new was recorded.`
      : `Recorded as ${noted.id}, a ${scope} discovery.`;
  }

  /** The case a learning became, or undefined when there is no case store or it could not take it (then the journal has it). */
  private async toCase(
    scope: 'local' | 'global',
    content: string,
    impact?: DiscoveryImpact,
  ): Promise<{ id: string; duplicate: boolean } | undefined> {
    if (this.deps.discoveries === undefined) return undefined;
    try {
      const result = await this.deps.discoveries.report({
        scope,
        content,
        ...(impact ? { impact } : {}),
        taskId: this.taskId ?? this.run.id,
        agentId: this.run.role,
      });
      if (result.kind === 'created' && result.hookError !== undefined)
        this.emit({ type: 'notice', text: result.hookError });
      return result.kind === 'created' ? { id: result.case.id, duplicate: false } : { id: result.id, duplicate: true };
    } catch (err) {
      this.emit({
        type: 'notice',
        text: `The discovery was kept in the journal only: ${err instanceof Error ? err.message : String(err)}`,
      });
      return undefined;
    }
  }

  /** Not run: said to the model (an error result), recorded, and shown. */
  private async refuse(command: string, decision: 'refused' | 'denied', why: string): Promise<never> {
    this.emit({ type: 'approval', command, decision, why });
    await this.record({ type: 'command', at: this.now(), command, decision });
    const next =
      decision === 'denied'
        ? 'Do not ask for it again; go on without it or try another way.'
        : 'Go on without running it, or say in your answer what the person should run.';
    throw new ToolInputError(`The command was not run: ${why}. ${next}`);
  }

  private commandReport(
    command: string,
    result: { exitCode: number | undefined; signal?: string; timedOut: boolean; output: string; durationMs: number },
    where: string,
  ): string {
    const how = result.timedOut
      ? `It ran past its timeout and was stopped${result.signal ? ` (${result.signal})` : ''}.`
      : result.exitCode !== undefined
        ? `Exit code ${result.exitCode}.`
        : `It was ended by ${result.signal ?? 'a signal'}.`;
    const size = utf8Length(result.output);
    if (size === 0) return `${how} It printed nothing. (${formatSeconds(result.durationMs)})`;
    const shown = size <= MODEL_OUTPUT_MAX_BYTES ? result.output : headAndTail(result.output);
    const note =
      size <= MODEL_OUTPUT_MAX_BYTES
        ? 'Its output:'
        : `Its output was ${size} bytes; the start and the end of it follow (all of it is in ${where}):`;
    return `${how} (${formatSeconds(result.durationMs)})\n${note}\n${wrapUntrusted(shown, `output of ${oneLine(command, 80)}`, this.deps.random)}`;
  }

  /** Why the sleeper woke, and whether the wake still has to be written (a wake by someone else is in the log already). */
  private async waitForWake(
    kind: 'timer' | 'event' | 'manual',
    event: string | undefined,
    start: number,
    maxMs: number,
    signal: AbortSignal,
  ): Promise<{ text: string; record: boolean }> {
    for (;;) {
      if (signal.aborted) return { text: 'stopped', record: false };
      const elapsed = this.deps.clock.now() - start;
      if (elapsed >= maxMs)
        return {
          text:
            kind === 'timer'
              ? `the timer of ${formatSeconds(maxMs)} elapsed`
              : `nothing woke it within the cap of ${formatSeconds(maxMs)}`,
          record: true,
        };
      const woken = await this.wokenBySomeone(start);
      if (woken !== undefined) return { text: `woken by a person: ${woken}`, record: false };
      if (
        kind === 'event' &&
        event !== undefined &&
        (await (this.deps.eventDone ?? ((e, since) => runEnded(this.deps.runs, e, since)))(event, start).catch(
          () => false,
        ))
      )
        return { text: `${event} has finished`, record: true };
      await this.deps.wait(Math.min(WAKE_POLL_MS, maxMs - elapsed), signal);
    }
  }

  /** A wake of this run written after its sleep started (the explorer's Wake, `groundwork sleep wake`). */
  private async wokenBySomeone(since: number): Promise<string | undefined> {
    return this.deps.sleepLog.wakeAfter(this.run.id, since).catch(() => undefined);
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function exitFields(result: { exitCode: number | undefined; signal?: string; timedOut: boolean }): {
  exitCode?: number;
  signal?: string;
  timedOut?: boolean;
} {
  return {
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(result.signal ? { signal: result.signal } : {}),
    ...(result.timedOut ? { timedOut: true } : {}),
  };
}

/** Lines as a person counts them: '' is 0, 'a' and 'a\n' are 1. */
export function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let n = 0;
  for (const b of bytes) if (b === 10) n++;
  return bytes[bytes.length - 1] === 10 ? n : n + 1;
}

export function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The first 2 KB and the last 6 KB of the output, in bytes (not characters: non-Latin text is up to 3 bytes a character). */
function headAndTail(text: string): string {
  const head = cutText(text, 2 * 1024);
  const bytes = new TextEncoder().encode(text);
  let start = Math.max(0, bytes.length - 6 * 1024);
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++; // not in the middle of a character
  return `${head}\n[… output left out …]\n${new TextDecoder().decode(bytes.subarray(start))}`;
}
