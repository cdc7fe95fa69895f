// LlmClient over Anthropic's Messages API through the official SDK. The SDK is loaded on the
// first call, not at activation; every call streams. The retries are this client's, not the SDK's
// (its maxRetries is 0), so that each one can be announced to the caller as a `retry` event and the
// whole call bounded: a first-byte limit per attempt, an idle limit once the reply streams, and a
// retry budget for the call (src/core/llm/retryPolicy.ts). What is left after them becomes one
// LlmError that says what to do, in the words of the front end that made the client
// (anthropicErrors.ts, core/llm/errorAdvice.ts). The API key is read per call and never written
// into an error, a log line or an event.
import type Anthropic from '@anthropic-ai/sdk';
import { VSCODE_ADVICE, type ErrorAdvice } from '../llm/errorAdvice';
import {
  type LlmClient,
  type LlmContent,
  type LlmEvent,
  type LlmMessage,
  type LlmRequest,
  type LlmUsage,
  type ModelTier,
  type StopReason,
} from '../llm/llmClient';
import { decideRetry, resolveLimits, type CallLimits, type RetryDecision } from '../llm/retryPolicy';
import { Watchdog, sleep } from '../llm/watchdog';
import {
  errorText,
  llmError,
  redactError,
  redactText,
  retryability,
  toLlmError,
  urlPassword,
  type Failure,
} from './anthropicErrors';

type Sdk = typeof import('@anthropic-ai/sdk');

/**
 * The SDK's module as its exports. Imported as an ES module its classes are named exports; the
 * extension and the CLI load it from a CommonJS bundle of its own (dist/anthropicSdk.js), whose
 * exports Node cannot list, so there they all sit under `default`.
 */
function namedExports(loaded: Sdk): Sdk {
  return typeof loaded.APIError === 'function' ? loaded : (loaded.default as unknown as Sdk);
}
type Params = Anthropic.MessageCreateParamsStreaming;
type RawEvent = Anthropic.RawMessageStreamEvent;
type BlockParam = Anthropic.ContentBlockParam;

export interface AnthropicClientOptions {
  /** Read on every call, so a key set or cleared mid-session takes effect at the next call. */
  apiKey: () => Promise<string | undefined>;
  /** From user settings only; default https://api.anthropic.com (the environment is not read). */
  baseURL?: string;
  /** The concrete model id for a tier, e.g. `(tier) => modelForTier(tier, settings)`. */
  models: (tier: ModelTier) => string;
  /**
   * Retries, time to first byte, idle time and the retry budget; what is left out takes
   * DEFAULT_CALL_LIMITS. A function is read at the start of every call, so a changed setting
   * applies to the next call of a client a session holds on to.
   */
  limits?: Partial<CallLimits> | (() => Partial<CallLimits>);
  /** Called with every usage event, for the session's ledger. */
  onUsage?: (model: string, usage: LlmUsage) => void;
  /** The SDK's warnings and errors, key redacted; without it the SDK stays silent (no stray stdout in the CLI). */
  log?: (line: string) => void;
  /**
   * How errors name the key, the endpoint, the model ids and the limits: the words of the front
   * end that shows them (the CLI passes its environment variables). Default: the extension's.
   */
  advice?: ErrorAdvice;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const EPHEMERAL = { type: 'ephemeral' } as const;

type Limit = 'first-byte' | 'idle' | 'reply';

export class AnthropicClient implements LlmClient {
  readonly #options: AnthropicClientOptions;
  #sdk: Promise<Sdk> | undefined;
  #client: { key: string; client: Anthropic } | undefined;

  constructor(options: AnthropicClientOptions) {
    this.#options = options;
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmEvent, void, undefined> {
    if (signal.aborted) return yield { type: 'stop', reason: 'cancelled' };
    const key = await this.#readKey();
    const { sdk, client } = await this.#clientFor(key);
    const limits = this.#limits();
    const model = 'tier' in request.model ? this.#options.models(request.model.tier) : request.model.id;
    const params = toParams(request, model);
    const secrets = [key, urlPassword(this.#options.baseURL)];
    const started = performance.now();
    let firstByteMs = limits.firstByteTimeoutMs;
    for (let retries = 0; ; retries++) {
      const reply = new ReplyAssembler();
      const watch = new Watchdog<Limit>(signal);
      let failure: Failure | undefined;
      try {
        watch.arm('first-byte', firstByteMs);
        const events = await client.messages.create(params, {
          signal: watch.signal,
          maxRetries: 0,
          timeout: firstByteMs,
          // What the SDK would send had it retried: the API's own view of the call.
          headers: { 'x-stainless-retry-count': String(retries) },
        });
        let replyEnds: number | undefined;
        read: for await (const event of events) {
          watch.hold();
          if (signal.aborted) break;
          replyEnds ??= performance.now() + limits.replyTimeoutMs;
          for (const out of reply.accept(event)) {
            if (signal.aborted) break read;
            yield out;
          }
          // The next event must come within the idle limit, and the reply end within its own.
          const left = Math.max(0, replyEnds - performance.now());
          if (left < limits.idleTimeoutMs) watch.arm('reply', left);
          else watch.arm('idle', limits.idleTimeoutMs);
        }
      } catch (err) {
        failure = { kind: 'error', error: err };
      } finally {
        watch.dispose();
      }
      if (signal.aborted) {
        // The input was billed even though the reply was cut short, so the ledger hears of it.
        if (reply.usage) yield this.#usageEvent(reply.model, reply.usage);
        return yield { type: 'stop', reason: 'cancelled' };
      }
      // An expired limit aborted the request: whatever the SDK made of that, it is the timeout.
      if (watch.expired) failure = { kind: watch.expired };
      else if (!failure && (!reply.finished || !reply.usage)) failure = { kind: 'ended' };
      if (!failure) {
        yield this.#usageEvent(reply.model, reply.usage!);
        return yield { type: 'stop', reason: reply.stopReason };
      }

      const elapsedMs = Math.floor(performance.now() - started);
      const why = retryability(failure, sdk, reply.begun, limits);
      let stop: Extract<RetryDecision, { retry: false }> | undefined;
      if (why.retryable) {
        const next = decideRetry({ retriesDone: retries, elapsedMs, requestedDelayMs: why.delayMs, limits });
        if (next.retry) {
          yield {
            type: 'retry',
            attempt: retries + 1,
            of: limits.maxRetries,
            reason: redactText(why.reason, secrets),
            delayMs: next.delayMs,
          };
          await sleep(next.delayMs, signal);
          if (signal.aborted) return yield { type: 'stop', reason: 'cancelled' };
          firstByteMs = next.firstByteMs;
          continue;
        }
        stop = next;
      }
      const ctx = {
        baseURL: this.#options.baseURL ?? DEFAULT_BASE_URL,
        attempts: retries + 1,
        elapsedMs,
        limits,
        advice: this.#advice,
        ...(stop ? { stop } : {}),
      };
      throw redactError(toLlmError(failure, sdk, ctx, reply.begun), secrets);
    }
  }

  get #advice(): ErrorAdvice {
    return this.#options.advice ?? VSCODE_ADVICE;
  }

  #limits(): CallLimits {
    const given = this.#options.limits;
    return resolveLimits(typeof given === 'function' ? given() : given);
  }

  #usageEvent(model: string, usage: LlmUsage): LlmEvent {
    this.#options.onUsage?.(model, usage);
    return { type: 'usage', model, usage };
  }

  async #readKey(): Promise<string> {
    let key: string | undefined;
    try {
      // A pasted key often brings a newline, which fetch would reject (quoting the key) as a header value.
      key = (await this.#options.apiKey())?.trim();
    } catch (err) {
      throw llmError('auth', `The Anthropic API key could not be read (${errorText(err)}).`, this.#advice.setKey);
    }
    if (!key) throw llmError('auth', 'No Anthropic API key is set.', this.#advice.setKey);
    return key;
  }

  async #clientFor(key: string): Promise<{ sdk: Sdk; client: Anthropic }> {
    this.#sdk ??= import('@anthropic-ai/sdk').then(namedExports);
    let sdk: Sdk;
    try {
      sdk = await this.#sdk;
    } catch (err) {
      this.#sdk = undefined;
      throw llmError(
        'no-provider',
        `The Anthropic SDK could not be loaded (${errorText(err).slice(0, 300)}).`,
        'Reinstall the Groundwork extension.',
      );
    }
    // One SDK client per key keeps its connection pool warm across calls.
    if (this.#client?.key !== key) {
      const { log } = this.#options;
      const line =
        (level: string) =>
        (...args: unknown[]) =>
          log?.(redactText(`anthropic-sdk ${level}: ${args.map(errorText).join(' ')}`, [key]));
      const client = new sdk.default({
        apiKey: key,
        baseURL: this.#options.baseURL ?? DEFAULT_BASE_URL,
        maxRetries: 0,
        logLevel: log ? 'warn' : 'off',
        logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
        openTelemetry: false,
      });
      this.#client = { key, client };
    }
    return { sdk, client: this.#client.client };
  }
}

// ---- request: the stable prefix carries the cache breakpoints ----

/**
 * Breakpoints (the API allows four) go on the system prompt, the last tool and the last block of
 * the stable prefix of the transcript: the API caches everything up to each, in the order tools,
 * system, messages, so a session's later calls read the role, tools and earlier turns from cache.
 */
function toParams(request: LlmRequest, model: string): Params {
  const prefixEnd = Math.min(request.stablePrefix ?? 0, request.messages.length) - 1;
  const params: Params = {
    model,
    max_tokens: request.maxTokens,
    stream: true,
    messages: request.messages.map((m, i) => toMessage(m, i === prefixEnd)),
  };
  // The API rejects an empty text block, and an empty system prompt has nothing to cache.
  if (request.system) params.system = [{ type: 'text', text: request.system, cache_control: EPHEMERAL }];
  if (request.tools?.length) {
    const last = request.tools.length - 1;
    params.tools = request.tools.map((t, i) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
      ...(i === last ? { cache_control: EPHEMERAL } : {}),
    }));
  }
  return params;
}

function toMessage(message: LlmMessage, breakpoint: boolean): Anthropic.MessageParam {
  const blocks: BlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content.map(toBlock);
  const last = blocks.at(-1);
  if (!breakpoint || !last)
    return { role: message.role, content: typeof message.content === 'string' ? message.content : blocks };
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL } as BlockParam;
  return { role: message.role, content: blocks };
}

function toBlock(c: LlmContent): BlockParam {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: c.text };
    case 'tool_use':
      return { type: 'tool_use', id: c.id, name: c.name, input: c.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: c.toolUseId,
        content: c.content,
        ...(c.isError ? { is_error: true } : {}),
      };
  }
}

// ---- reply: raw stream events → LlmEvents ----

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  // Cut off for lack of room either way; the caller's remedy is the same.
  model_context_window_exceeded: 'max_tokens',
  tool_use: 'tool_use',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
};

/** Text passes through as it comes; a tool call is held until its block ends, then sent whole. */
class ReplyAssembler {
  model = '';
  usage: LlmUsage | undefined;
  stopReason: StopReason = 'other';
  finished = false;
  /** An event arrived: the reply has started, and the attempt is no longer one to repeat. */
  begun = false;
  readonly #tools = new Map<number, { id: string; name: string; json: string; input: unknown }>();

  accept(event: RawEvent): LlmEvent[] {
    this.begun = true;
    switch (event.type) {
      case 'message_start': {
        const u = event.message.usage;
        this.model = event.message.model;
        this.usage = {
          inputTokens: u.input_tokens,
          outputTokens: u.output_tokens,
          cacheReadTokens: u.cache_read_input_tokens ?? 0,
          cacheCreationTokens: u.cache_creation_input_tokens ?? 0,
        };
        return [];
      }
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'text') return b.text ? [{ type: 'text', text: b.text }] : [];
        if (b.type === 'tool_use') this.#tools.set(event.index, { id: b.id, name: b.name, json: '', input: b.input });
        return [];
      }
      case 'content_block_delta': {
        const d = event.delta;
        if (d.type === 'text_delta') return d.text ? [{ type: 'text', text: d.text }] : [];
        const tool = this.#tools.get(event.index);
        if (d.type === 'input_json_delta' && tool) tool.json += d.partial_json;
        return [];
      }
      case 'content_block_stop': {
        const tool = this.#tools.get(event.index);
        if (!tool) return [];
        this.#tools.delete(event.index);
        return [
          { type: 'tool_use', id: tool.id, name: tool.name, input: parseToolInput(tool.name, tool.json, tool.input) },
        ];
      }
      case 'message_delta': {
        this.stopReason = STOP_REASONS[event.delta.stop_reason ?? ''] ?? 'other';
        // message_delta's counts are cumulative; the newer API repeats the input ones there too.
        const u = event.usage;
        if (this.usage) {
          this.usage = {
            inputTokens: u.input_tokens ?? this.usage.inputTokens,
            outputTokens: u.output_tokens,
            cacheReadTokens: u.cache_read_input_tokens ?? this.usage.cacheReadTokens,
            cacheCreationTokens: u.cache_creation_input_tokens ?? this.usage.cacheCreationTokens,
          };
        }
        return [];
      }
      case 'message_stop':
        this.finished = true;
        return [];
      default:
        // Event types newer than this code carry nothing it can use.
        return [];
    }
  }
}

function parseToolInput(name: string, json: string, started: unknown): unknown {
  if (json === '') return started ?? {};
  try {
    return JSON.parse(json) as unknown;
  } catch (err) {
    throw llmError(
      'server',
      `The model sent a malformed call of the tool '${name}' (${errorText(err)}).`,
      'Try again.',
    );
  }
}
