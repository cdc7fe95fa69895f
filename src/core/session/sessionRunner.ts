// What every session (a discovery, a brainstorm, later a build) needs to run its state machine:
// one step at a time per session (in this process and across windows and the CLI), the machine's
// effects carried out in order with its replies fed back, and model calls with tool turns, usage,
// cost and audit. A feature's service keeps only what is its own: its machine, its files, its
// prompts and what its effects mean.
import { AuditLog, auditInput } from '../audit/auditLog';
import type { AuditInput } from '../audit/auditLog';
import type { Clock } from '../clock';
import type { LlmClient, LlmUsage } from '../llm/llmClient';
import { costOf } from '../llm/usage';
import type { PriceTable } from '../llm/usage';
import type { RandomBytes } from '../prompt/untrustedText';
import { StorageError } from '../storage/storageError';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { describeToolActivity } from '../tools/toolActivity';
import type { ToolRunCache } from '../tools/toolTypes';
import { callAgent } from './agentCall';
import type { AgentObserver, AgentReply, AgentRequest, AgentRole, ToolBox } from './agentCall';

/** A pure state machine: `step` never throws for an event it cannot take; it says so in an effect. */
export interface Machine<S, Ev, Ef> {
  step(state: S, event: Ev): { state: S; effects: Ef[] };
}

export interface SessionRunnerDeps {
  store: WorkspaceStore;
  /** The model port, or a function that makes it on first use (the SDK loads lazily). */
  llm: LlmClient | (() => Promise<LlmClient>);
  clock: Clock;
  audit?: AuditLog;
  prices?: PriceTable;
  random?: RandomBytes;
  /**
   * The read tools for agents whose roles list them. Without it, agents get no tools (a front end
   * that has no workspace folder on disk).
   */
  tools?: SessionTools;
}

export interface SessionTools {
  box: ToolBox;
  /** The workspace folder the tools read, absolute. */
  root: string;
  /** Globs skipped like `.gitignore`d files (VS Code's `files.exclude`); read at each call. */
  exclude?: () => readonly string[];
  /** The run cache of one agent call (see createToolRunCache in core/tools). */
  cache: () => ToolRunCache;
}

/** Who a model call is for in the audit log: the entry's kind prefix and its input. */
export interface AuditSubject {
  /** e.g. 'discovery' → 'discovery.tool'. */
  kind: string;
  what: 'DISCOVERY' | 'BRAINSTORM';
  name: string;
}

export class SessionRunner {
  readonly audit: AuditLog;
  private readonly busy = new Set<string>();
  private llmClient: LlmClient | undefined;

  constructor(private readonly deps: SessionRunnerDeps) {
    this.audit = deps.audit ?? AuditLog.of(deps.store, deps.clock);
  }

  /** Whether this process runs a step of session `lock` now. */
  isBusy(lock: string): boolean {
    return this.busy.has(lock);
  }

  /**
   * Runs `fn` as the one step of session `lock` under way: refused with `busy()` when this process
   * runs one (before anything is read), or when another window or the CLI holds the session's lock
   * (`.groundwork/locks/<lock>.lock`, held through the model calls so a second step never pays for
   * a call the first one is making).
   */
  async exclusive<T>(lock: string, busy: () => Error, fn: () => Promise<T>): Promise<T> {
    if (this.busy.has(lock)) throw busy();
    this.busy.add(lock);
    try {
      return await this.deps.store.withSessionLock(lock, fn);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'busy') throw busy();
      throw err;
    } finally {
      this.busy.delete(lock);
    }
  }

  /**
   * Steps `machine` from `state`: applies `first` (an event, or effects already due), then carries
   * out the effects in order, each reply event stepping the machine again and queueing its effects
   * behind the others. Returns the final state.
   */
  async drive<S, Ev, Ef>(
    machine: Machine<S, Ev, Ef>,
    state: S,
    first: { event: Ev } | { effects: Ef[] },
    run: (effect: Ef, state: S) => Promise<Ev | undefined>,
  ): Promise<S> {
    const queue: Ef[] = [];
    const apply = (event: Ev) => {
      const next = machine.step(state, event);
      state = next.state;
      queue.push(...next.effects);
    };
    if ('event' in first) apply(first.event);
    else queue.push(...first.effects);
    while (queue.length > 0) {
      const reply = await run(queue.shift()!, state);
      if (reply !== undefined) apply(reply);
    }
    return state;
  }

  /**
   * One agent call with its tool turns (see agentCall.ts). Each tool call is recorded in the audit
   * log under `<subject.kind>.tool`. Throws LlmError when the model call fails.
   */
  async call(
    role: AgentRole,
    request: Omit<AgentRequest, 'role' | 'tools'>,
    signal: AbortSignal,
    observer: AgentObserver,
    subject: AuditSubject,
  ): Promise<AgentReply> {
    const llm = await this.llm();
    const tools = this.deps.tools;
    const full: AgentRequest = { ...request, role };
    if (tools !== undefined && role.tools.length > 0) {
      full.tools = {
        box: tools.box,
        context: {
          fs: this.deps.store.files,
          root: tools.root,
          exclude: tools.exclude?.() ?? [],
          ...(this.deps.random ? { random: this.deps.random } : {}),
        },
        cache: tools.cache(),
      };
    }
    // Best effort: a tool call that could not be logged must not cost the reply it is part of.
    const audits: Promise<unknown>[] = [];
    const reply = await callAgent(llm, full, signal, {
      ...observer,
      onTool: (activity) => {
        observer.onTool?.(activity);
        if (activity.status === 'running') return;
        audits.push(
          this.audit
            .append({
              kind: `${subject.kind}.tool`,
              input: auditInput(subject.what, subject.name),
              status: activity.status === 'done' ? 'ok' : 'error',
              detail: `${role.name}: ${describeToolActivity(activity)}${activity.error ? ` (${activity.error.slice(0, 200)})` : ''}`,
            })
            .catch(() => undefined),
        );
      },
    });
    await Promise.all(audits);
    return reply;
  }

  /** The audit entry's usage, model and cost, for a call that has them. */
  usageFields(model: string | undefined, usage: LlmUsage | undefined): Pick<AuditInput, 'usage' | 'model' | 'costUsd'> {
    const usd = model !== undefined && usage !== undefined ? costOf(model, usage, this.deps.prices) : undefined;
    return {
      ...(usage !== undefined ? { usage } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(usd !== undefined ? { costUsd: usd } : {}),
    };
  }

  private async llm(): Promise<LlmClient> {
    if (this.llmClient === undefined) {
      const llm = this.deps.llm;
      this.llmClient = typeof llm === 'function' ? await llm() : llm;
    }
    return this.llmClient;
  }
}
