// Runs discovery sessions: loads the round file, steps the machine (discoveryMachine.ts) and carries
// out its effects through the store, the audit log and the model port, feeding the model's reply
// back in as an event. One user message is one turn.
import { AuditLog, auditInput } from '../audit/auditLog';
import type { Clock } from '../clock';
import { LlmError } from '../llm/llmClient';
import type { LlmClient, LlmUsage } from '../llm/llmClient';
import type { PriceTable } from '../llm/usage';
import { capText, CAP_BYTES, utf8Length } from '../prompt/cap';
import { isBlankText } from '../prompt/untrustedText';
import type { Role } from '../roles/roleSchema';
import { slugify, uniqueSlug } from '../storage/safeNames';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import type { AgentObserver, AgentReply } from '../session/agentCall';
import { SessionRunner } from '../session/sessionRunner';
import type { SessionTools } from '../session/sessionRunner';
import { sessionTools } from '../session/sessionTools';
import { step, stateOf, isExpired } from './discoveryMachine';
import type { DiscoveryConfig, DiscoveryEffect, DiscoveryEvent, DiscoveryState, ModelCall } from './discoveryMachine';
import { discoveryMessages } from './discoveryMessages';
import { outcomeOf, toView } from './discoveryOutcomes';
import { buildDiscoveryPrompt, MarkerFilter } from './discoveryPrompt';
import { DEFAULT_TTL_MINUTES, DiscoveryError, MAX_ROUNDS } from './discoveryTypes';
import type {
  BriefToSave,
  CappedNotice,
  DiscoveryApi,
  DiscoveryLanguage,
  DiscoveryOutcome,
  DiscoveryView,
  SavedBrief,
  TurnOptions,
  TurnResult,
} from './discoveryTypes';
import { briefTitle, renderIdeaBrief } from './ideaBriefFile';
import { DISCOVERY_TEXT_MAX_BYTES, QUESTIONS_MAX_BYTES, normalizeText, roundFileRel } from './roundFile';
import type { RoundFileData } from './roundFile';
import { RoundFiles } from './roundFiles';
import { DISCOVERY_DIR, PLAN_FILES, PLANS_DIR, planFile } from '../plan/layout';

const DEFAULT_MAX_TOKENS = 4096;

export interface DiscoveryServiceDeps {
  store: WorkspaceStore;
  /** The model port, or a function that makes it on first use (the SDK loads lazily). */
  llm: LlmClient | (() => Promise<LlmClient>);
  clock: Clock;
  /** The `build-discovery` role (loaded through src/core/roles by the caller). */
  role: () => Promise<Role>;
  /** `groundwork.discovery.ttlMinutes`; a function so that a changed setting applies to the next turn. */
  ttlMinutes: number | (() => number);
  /** Defaults to the audit log of the store. */
  audit?: AuditLog;
  /** For `costUsd`; defaults to DEFAULT_PRICES. */
  prices?: PriceTable;
  /** The model's output cap per call (default 4096 tokens). */
  maxTokens?: number;
  /** The agent's read tools; by default the workspace of the store (see SessionRunnerDeps). */
  tools?: SessionTools | false;
}

/** What one turn gathered while its effects ran. */
interface TurnLog {
  session: string;
  lang: DiscoveryLanguage;
  /** The round file as this turn last read or wrote it; undefined when there is none. */
  fileText: string | undefined;
  outcome?: DiscoveryOutcome;
  expired?: boolean;
  usage?: LlmUsage;
  model?: string;
  failure?: unknown;
}

export class DiscoveryService implements DiscoveryApi {
  private readonly audit: AuditLog;
  /** First messages whose model call failed or was stopped: nothing is on disk for them yet. */
  private readonly pendingStarts = new Map<string, DiscoveryState & { kind: 'start-pending' }>();
  private readonly runner: SessionRunner;
  private readonly rounds: RoundFiles;

  constructor(private readonly deps: DiscoveryServiceDeps) {
    this.runner = new SessionRunner({ ...deps, tools: sessionTools(deps.store, deps.tools) });
    this.audit = this.runner.audit;
    this.rounds = new RoundFiles(deps.store);
  }

  async handle(session: string, message: string, options: TurnOptions): Promise<TurnResult> {
    const text = normalizeText(message);
    if (isBlankText(text))
      throw new DiscoveryError(
        'empty',
        'The message is empty (or only invisible characters). Describe what you want to build, or answer the questions.',
      );
    const bytes = utf8Length(text);
    if (bytes > DISCOVERY_TEXT_MAX_BYTES) {
      throw new DiscoveryError(
        'too-large',
        `The message is ${Math.round(bytes / 1024)} KB; discovery keeps at most ${DISCOVERY_TEXT_MAX_BYTES / 1024} KB per message. ` +
          'Shorten it, or save the long text in a file of the workspace and mention the file.',
      );
    }
    return this.turn(session, options, (now) => ({ type: 'message', text, now, force: options.force === true }), text);
  }

  async retry(session: string, options: TurnOptions): Promise<TurnResult> {
    return this.turn(session, options, (now) => ({ type: 'retry', now }));
  }

  async cancel(session: string, lang: DiscoveryLanguage): Promise<{ message: string } | undefined> {
    const rel = this.rounds.rel(session);
    try {
      await this.rounds.load(rel, session);
    } catch (err) {
      // A damaged round file must not block the way out: cancelling removes it.
      if (!(err instanceof DiscoveryError) || err.kind !== 'corrupt' || this.runner.isBusy(lockOf(rel))) throw err;
      await this.audit.append({
        kind: 'discovery.cancel',
        input: auditInput('DISCOVERY', session),
        status: 'error',
        detail: `cancelled; the round file was damaged: ${err.message}`,
      });
      await this.deps.store.remove(rel);
      return { message: discoveryMessages(lang).cancelled() };
    }
    const result = await this.turn(session, { lang, signal: new AbortController().signal }, (now) => ({
      type: 'cancel',
      now,
    }));
    return result.outcome.kind === 'cancelled' ? { message: result.outcome.message } : undefined;
  }

  async view(session: string): Promise<DiscoveryView | undefined> {
    const rel = this.rounds.rel(session);
    const loaded = await this.rounds.load(rel, session);
    if (loaded.data === undefined) return undefined;
    if (isExpired(loaded.data.createdSec, this.deps.clock.now(), this.ttlMs())) {
      await this.expire(session, rel, loaded.data);
      return undefined;
    }
    return toView(session, loaded.data, this.ttlMs());
  }

  async saveBrief(result: BriefToSave): Promise<SavedBrief> {
    const text = renderIdeaBrief(result);
    const base = slugify(briefTitle(result.brief) || result.originalRequest);
    return this.deps.store.withLock(async () => {
      const taken = new Set(await this.deps.store.list(PLANS_DIR));
      const slug = uniqueSlug(base, taken);
      const rel = planFile(slug, PLAN_FILES.ideaBrief);
      await this.deps.store.writeText(rel, text);
      return { slug, path: displayPath(rel) };
    }, PLANS_DIR);
  }

  async cleanupExpired(): Promise<string[]> {
    const removed: string[] = [];
    const now = this.deps.clock.now();
    for (const name of await this.deps.store.list(DISCOVERY_DIR)) {
      if (!name.endsWith('.md')) continue;
      const rel = `${DISCOVERY_DIR}/${name}`;
      let loaded: { data?: RoundFileData };
      try {
        loaded = await this.rounds.load(rel, undefined);
      } catch (err) {
        // A file that is not a round file (or too large to be one) is not ours to delete.
        if (err instanceof DiscoveryError) continue;
        throw err;
      }
      if (loaded.data === undefined || !isExpired(loaded.data.createdSec, now, this.ttlMs())) continue;
      const session = loaded.data.session ?? name.slice(0, -'.md'.length);
      await this.expire(session, rel, loaded.data);
      removed.push(session);
    }
    return removed;
  }

  // ---- the runner ----

  private async turn(
    session: string,
    options: TurnOptions,
    event: (now: number) => DiscoveryEvent,
    userText?: string,
  ): Promise<TurnResult> {
    const rel = this.rounds.rel(session);
    const busy = () =>
      new DiscoveryError(
        'busy',
        `The discovery session ${displayPath(rel)} is waiting for the model (in this window, another one or a groundwork command). Wait for the reply, or stop it first.`,
      );
    return this.runner.exclusive(lockOf(rel), busy, () => this.lockedTurn(session, rel, options, event, userText));
  }

  private async lockedTurn(
    session: string,
    rel: string,
    options: TurnOptions,
    event: (now: number) => DiscoveryEvent,
    userText?: string,
  ): Promise<TurnResult> {
    const loaded = await this.rounds.load(rel, session);
    let state: DiscoveryState = stateOf(loaded.data);
    const pending = this.pendingStarts.get(rel);
    if (state.kind === 'idle' && pending !== undefined) state = pending;

    const log: TurnLog = { session, lang: options.lang, fileText: loaded.text };
    const config = this.config();
    const machine = { step: (s: DiscoveryState, ev: DiscoveryEvent) => step(s, ev, config) };
    state = await this.runner.drive(machine, state, { event: event(this.deps.clock.now()) }, (effect) =>
      this.run(effect, rel, log, options),
    );
    // Set aside only once the turn ran through: a turn that threw leaves the pending start for retry.
    if (state.kind === 'start-pending') this.pendingStarts.set(rel, state);
    else this.pendingStarts.delete(rel);
    if (log.failure !== undefined) throw log.failure;
    if (log.outcome === undefined) throw new Error('discovery: the turn ended without an outcome (a bug)');
    return this.result(log, userText);
  }

  /** Carries out one effect; a model call returns the event its reply makes. */
  private async run(
    effect: DiscoveryEffect,
    rel: string,
    log: TurnLog,
    options: TurnOptions,
  ): Promise<DiscoveryEvent | undefined> {
    switch (effect.type) {
      case 'write-round-file':
        log.fileText = await this.rounds.write(rel, log.session, effect.data, log.fileText);
        return undefined;
      case 'delete-round-file':
        await this.rounds.remove(rel, log.fileText);
        log.fileText = undefined;
        return undefined;
      case 'audit':
        await this.audit.append({
          kind: effect.kind,
          input: auditInput('DISCOVERY', log.session, effect.text),
          status: effect.status,
          ...(effect.detail !== undefined ? { detail: effect.detail } : {}),
          ...this.runner.usageFields(effect.model, effect.usage),
        });
        return undefined;
      case 'notify-expired':
        log.expired = true;
        return undefined;
      case 'end':
        log.outcome = outcomeOf(effect.end, log.session, log.lang, this.ttlMs());
        return undefined;
      case 'reject':
        throw new DiscoveryError(effect.kind, rejectMessage(effect.kind, effect.reason));
      case 'call-model':
        return this.callModel(effect.call, rel, log, options);
    }
  }

  private async callModel(call: ModelCall, rel: string, log: TurnLog, options: TurnOptions): Promise<DiscoveryEvent> {
    const now = () => this.deps.clock.now();
    if (options.signal.aborted) return { type: 'model-stopped', now: now() };
    let reply: AgentReply;
    const filter = options.onText ? new MarkerFilter(options.onText) : undefined;
    try {
      const role = await this.deps.role();
      const prompt = await buildDiscoveryPrompt(call, {
        lang: options.lang,
        maxRounds: MAX_ROUNDS,
        keptIn: displayPath(rel),
      });
      const observer: AgentObserver = {};
      if (filter) observer.onText = (text) => filter.push(text);
      if (options.onRetry) observer.onRetry = options.onRetry;
      if (options.onTool) observer.onTool = options.onTool;
      reply = await this.runner.call(
        role,
        {
          messages: prompt.messages,
          maxTokens: this.deps.maxTokens ?? DEFAULT_MAX_TOKENS,
          stablePrefix: prompt.stablePrefix,
        },
        options.signal,
        observer,
        { kind: 'discovery', what: 'DISCOVERY', name: log.session },
      );
      filter?.end();
      if (reply.usage !== undefined) log.usage = reply.usage;
      if (reply.model !== undefined) log.model = reply.model;
      if (reply.outcome === 'stopped' || options.signal.aborted) return { type: 'model-stopped', now: now() };
      if (reply.outcome === 'refused' && reply.text.trim() === '') {
        throw new LlmError(
          'bad-request',
          'The model declined to answer this discovery round. Rephrase the request or the answer, then retry.',
        );
      }
      if (reply.outcome === 'answered' && isBlankText(reply.text)) {
        throw new LlmError(
          'bad-request',
          'The model sent an empty reply. Retry; if it happens again, rephrase the request or the answer.',
        );
      }
      // The last turn's text then is a preamble to a tool call that never ran, not an answer.
      if (reply.outcome === 'max-turns') {
        throw new LlmError(
          'bad-request',
          `The discovery agent used all its ${role.maxTurns} turns reading the workspace without asking its questions. Retry, or name in your message the files that matter.`,
        );
      }
    } catch (err) {
      if (options.signal.aborted && !(err instanceof LlmError)) return { type: 'model-stopped', now: now() };
      log.failure = err;
      return { type: 'model-failed', reason: err instanceof Error ? err.message : String(err), now: now() };
    }
    const text = capText(reply.text, 'the model reply (cut: too long to keep)', QUESTIONS_MAX_BYTES).text;
    const event: DiscoveryEvent = { type: 'model-replied', text, now: now() };
    if (log.usage !== undefined) event.usage = log.usage;
    if (log.model !== undefined) event.model = log.model;
    return event;
  }

  private async expire(session: string, rel: string, data: RoundFileData): Promise<void> {
    await this.audit.append({
      kind: 'discovery.expire',
      input: auditInput('DISCOVERY', session, data.originalRequest),
      status: 'error',
      detail: `expired after ${Math.round(this.ttlMs() / 60_000)} minutes`,
    });
    await this.deps.store.remove(rel);
  }

  private config(): DiscoveryConfig {
    return { ttlMs: this.ttlMs(), maxRounds: MAX_ROUNDS };
  }

  private ttlMs(): number {
    const raw = typeof this.deps.ttlMinutes === 'function' ? this.deps.ttlMinutes() : this.deps.ttlMinutes;
    const minutes = Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_TTL_MINUTES;
    return minutes * 60_000;
  }

  private result(log: TurnLog, userText: string | undefined): TurnResult {
    const result: TurnResult = { outcome: log.outcome! };
    const m = discoveryMessages(log.lang);
    if (log.expired) result.expiredMessage = m.expired();
    if (log.usage !== undefined) {
      result.usage = log.usage;
      if (log.model !== undefined) {
        result.model = log.model;
        const { costUsd } = this.runner.usageFields(log.model, log.usage);
        if (costUsd !== undefined) result.costUsd = costUsd;
      }
    }
    if (
      userText !== undefined &&
      utf8Length(userText) > CAP_BYTES &&
      log.outcome!.kind !== 'not-a-build' &&
      log.outcome!.kind !== 'cancelled'
    ) {
      const sentBytes = utf8Length(capText(userText, displayPath(roundFileRel(log.session))).text);
      const keptAt = log.fileText !== undefined ? displayPath(roundFileRel(log.session)) : undefined;
      const notice: CappedNotice = {
        originalBytes: utf8Length(userText),
        sentBytes,
        message: m.capped(utf8Length(userText), sentBytes, keptAt),
      };
      if (keptAt !== undefined) notice.keptAt = keptAt;
      result.capped = notice;
    }
    return result;
  }
}

/** The session lock of a round file: `discovery-<stem>`. */
function lockOf(rel: string): string {
  return `discovery-${rel.slice(DISCOVERY_DIR.length + 1, -'.md'.length)}`;
}

function rejectMessage(kind: string, reason: string): string {
  switch (kind) {
    case 'nothing-to-retry':
      return `Nothing to retry: ${reason}. Send a message instead.`;
    case 'busy':
      return `This discovery session is busy: ${reason}. Wait for the reply, or stop it first.`;
    default:
      return reason;
  }
}
