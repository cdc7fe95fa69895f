// One agent run carried to its end: the model conversation with the role's tools, every message in
// the transcript, run.json kept up to date, the final record, the audit entry and the events the
// terminal shows. Apart from agentRun.ts, whose start and resume check the folder, the lock and
// the transcript before a run is carried here.
import { AuditLog, auditInput } from '../audit/auditLog';
import { LlmError } from '../llm/llmClient';
import type { LlmClient, LlmMessage, LlmUsage } from '../llm/llmClient';
import { addUsage, costOf } from '../llm/usage';
import { cutText } from '../prompt/cap';
import type { Role } from '../roles/roleSchema';
import { callAgent } from '../session/agentCall';
import type { AgentReply } from '../session/agentCall';
import { agentTools, createToolRunCache } from '../tools/registry';
import type { AgentRunDeps, AgentRunRequest } from './agentRun';
import type { ChangeLog } from './changesFile';
import { RunActing } from './runActing';
import { SignalFilter, extractSignals } from './signals';
import { REASON_MAX_CHARS, SUMMARY_MAX_CHARS } from './runTypes';
import type { RunEvent, RunRecord, RunStatus, TranscriptRecord } from './runTypes';

/** Output tokens per turn: room for a whole file in one write_file call. */
export const AGENT_MAX_TOKENS = 16_384;
/** What the tools of one run may send back in all; past it, the next turn is the last. */
export const AGENT_MAX_RESULT_BYTES = 4 * 1024 * 1024;
/** run.json's turns and usage are brought up to date at most this often while a run goes (its end is always written). */
export const PROGRESS_EVERY_MS = 1000;

export class RunCarry {
  private llmClient: LlmClient | undefined;
  private readonly audit: AuditLog;

  constructor(private readonly deps: AgentRunDeps) {
    this.audit = deps.audit ?? AuditLog.of(deps.store, deps.clock);
  }

  async carry(
    run: RunRecord,
    role: Role,
    /** The run's folder, and its place in the workspace (what the write tools judge protected places by). */
    where: { abs: string; segments: readonly string[] },
    messages: LlmMessage[],
    changes: ChangeLog,
    /** The `--approve` texts, and why script runners are asked from the start (a manifest written before: see AgentRunRequest). */
    approvals: { approved: ReadonlySet<string>; manifestWhy?: string | undefined },
    signal: AbortSignal,
    onEvent: (event: RunEvent) => void,
    resumed = false,
    /** taskId: what the run's discoveries name as their task (a build's id; default the run's task); stopWhen: see AgentRunRequest. */
    extra: { taskId?: string; stopWhen?: AgentRunRequest['stopWhen']; writeGuard?: AgentRunRequest['writeGuard'] } = {},
  ): Promise<RunRecord> {
    const { taskId, stopWhen, writeGuard } = extra;
    // The run's own stop: the caller's signal, or stopWhen's reason.
    const inner = new AbortController();
    const passOn = () => inner.abort();
    if (signal.aborted) inner.abort();
    else signal.addEventListener('abort', passOn, { once: true });
    let stoppedFor: string | undefined;
    const transcript = this.deps.runs.transcript(run.id);
    const stamp = () => new Date(this.deps.clock.now()).toISOString();
    // Appends in order; one that fails is reported once and the run goes on (the model's work is not lost for a log).
    // This run holds the run's lock, so it is the transcript's only writer: no log lock per line.
    let logFailed = false;
    const record = async (entry: TranscriptRecord) => {
      try {
        await transcript.appendHeld(entry);
      } catch (err) {
        if (!logFailed)
          onEvent({
            type: 'notice',
            text: `The run's transcript could not be written: ${err instanceof Error ? err.message : String(err)}`,
          });
        logFailed = true;
      }
    };
    const acting = new RunActing(this.deps, run, where.abs, changes, onEvent, record, taskId);
    acting.preApproved = approvals.approved;
    acting.manifestWritten = approvals.manifestWhy !== undefined;
    acting.manifestWhy = approvals.manifestWhy;
    onEvent({ type: 'started', run, resumed });
    if (!resumed) await record({ type: 'message', at: stamp(), turn: 0, message: messages[0] as LlmMessage });

    const filter = new SignalFilter();
    const turnsBefore = run.turns;
    let progressAt = Number.NEGATIVE_INFINITY;
    const usageBefore: LlmUsage | undefined = run.usage;
    let status: RunStatus = 'completed';
    let reason: string | undefined;
    let reply: AgentReply | undefined;
    try {
      const llm = await this.llm();
      const discoveries = await acting.promptDiscoveries();
      reply = await callAgent(
        llm,
        {
          role: {
            ...role,
            prompt: discoveries === '' ? role.prompt : `${role.prompt}\n\n${discoveries}`,
            maxTurns: Math.max(1, role.maxTurns - turnsBefore),
          },
          messages,
          maxTokens: AGENT_MAX_TOKENS,
          stablePrefix: messages.length,
          maxResultBytes: AGENT_MAX_RESULT_BYTES,
          tools: {
            box: agentTools,
            context: {
              fs: this.deps.store.files,
              root: where.abs,
              rootInWorkspace: where.segments,
              exclude: this.deps.exclude?.() ?? [],
              random: this.deps.random,
              acting,
              ...(role.writes !== undefined ? { writeScope: { role: role.name, patterns: role.writes } } : {}),
              ...(writeGuard !== undefined ? { writeGuard } : {}),
            },
            cache: createToolRunCache(),
          },
        },
        inner.signal,
        {
          onText: (text) => {
            const out = filter.push(text);
            if (out.text !== '') onEvent({ type: 'text', text: out.text });
            acting.noteSignals(out.signals);
          },
          onRetry: (retry) => onEvent({ type: 'retry', retry }),
          onTool: (activity) => {
            if (activity.status === 'running')
              [acting.currentTool, acting.currentTarget] = [activity.tool, activity.target];
            onEvent({ type: 'tool', activity });
          },
          onMessage: async (message, progress) => {
            const rest = filter.flush();
            if (rest !== '') onEvent({ type: 'text', text: rest });
            await acting.signalsNoted();
            await record({ type: 'message', at: stamp(), turn: turnsBefore + progress.turns, message });
            run.turns = turnsBefore + progress.turns;
            this.account(run, usageBefore, progress.usage, progress.model);
            // run.json follows at most every PROGRESS_EVERY_MS (the explorer reads it; the end is always written).
            const now = this.deps.clock.now();
            if (now - progressAt >= PROGRESS_EVERY_MS) {
              progressAt = now;
              await this.deps.runs.update(run.id, this.progressFields(run, stamp())).catch(() => undefined);
            }
            if (message.role === 'user' && stopWhen !== undefined && stoppedFor === undefined) {
              stoppedFor = stopWhen(run);
              if (stoppedFor !== undefined) inner.abort();
            }
          },
        },
      );
      run.turns = turnsBefore + reply.turns;
      this.account(run, usageBefore, reply.usage, reply.model);
      if (reply.outcome === 'stopped')
        [status, reason] =
          stoppedFor !== undefined && !signal.aborted
            ? ['failed', stoppedFor]
            : ['stopped', 'Stopped before it finished.'];
      else if (reply.outcome === 'refused') [status, reason] = ['failed', 'The model declined to go on with the task.'];
      else if (reply.outcome === 'max-turns')
        [status, reason] = ['failed', `It used all ${role.maxTurns} turns of its role without finishing.`];
    } catch (err) {
      [status, reason] = signal.aborted
        ? ['stopped', 'Stopped before it finished.']
        : stoppedFor !== undefined
          ? ['failed', stoppedFor]
          : ['failed', failureText(err)];
    } finally {
      signal.removeEventListener('abort', passOn);
    }
    const rest = filter.flush();
    if (rest !== '') onEvent({ type: 'text', text: rest });
    await acting.signalsNoted();
    const ended = stamp();
    const summary =
      reply && status === 'completed' ? cutText(extractSignals(reply.text).text.trim(), SUMMARY_MAX_CHARS) : undefined;
    const final: RunRecord = {
      ...run,
      status,
      updatedAt: ended,
      endedAt: ended,
      ...(reason ? { reason: cutText(reason, REASON_MAX_CHARS) } : {}),
      ...(summary ? { summary } : {}),
    };
    if (status !== 'completed') delete final.summary;
    await record({ type: 'end', at: ended, status, ...(reason ? { reason: final.reason as string } : {}) });
    await this.deps.runs.update(run.id, {
      status,
      updatedAt: ended,
      endedAt: ended,
      turns: final.turns,
      ...this.usageFieldsOf(final),
      ...(final.reason ? { reason: final.reason } : {}),
      ...(final.summary ? { summary: final.summary } : {}),
    });
    await this.audit
      .append({
        kind: 'agent.run',
        input: auditInput('AGENT', run.id, run.task),
        status: status === 'completed' ? 'ok' : 'error',
        detail: `${run.role}: ${status}${reason ? ` (${reason})` : ''}`,
        ...this.usageFieldsOf(final),
      })
      .catch(() => undefined);
    onEvent({ type: 'ended', run: final, ...(reply ? { reply: extractSignals(reply.text).text } : {}) });
    return final;
  }

  /** Adds this call's usage to what the run had before it (a resumed run keeps counting). */
  private account(
    run: RunRecord,
    before: LlmUsage | undefined,
    usage: LlmUsage | undefined,
    model: string | undefined,
  ): void {
    if (usage === undefined) return;
    run.usage = before === undefined ? usage : addUsage(before, usage);
    if (model !== undefined) run.model = model;
    const usd = run.model !== undefined ? costOf(run.model, run.usage, this.deps.prices) : undefined;
    if (usd !== undefined) run.costUsd = usd;
  }

  private usageFieldsOf(run: RunRecord): Partial<Pick<RunRecord, 'usage' | 'model' | 'costUsd'>> {
    return {
      ...(run.usage ? { usage: run.usage } : {}),
      ...(run.model ? { model: run.model } : {}),
      ...(run.costUsd !== undefined ? { costUsd: run.costUsd } : {}),
    };
  }

  private progressFields(run: RunRecord, at: string): Partial<RunRecord> {
    return { turns: run.turns, updatedAt: at, ...this.usageFieldsOf(run) };
  }

  private async llm(): Promise<LlmClient> {
    if (this.llmClient === undefined) {
      const llm = this.deps.llm;
      this.llmClient = typeof llm === 'function' ? await llm() : llm;
    }
    return this.llmClient;
  }
}

function failureText(err: unknown): string {
  if (err instanceof LlmError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
