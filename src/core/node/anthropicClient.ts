// LlmClient over Anthropic's Messages API through the official SDK. The SDK is loaded on the
// first call, not at activation; every call streams; retries are the SDK's own (it honours
// retry-after); what is left after them becomes one LlmError that says what to do. The API key
// is read per call and never written into an error, a log line or an event.
import type Anthropic from '@anthropic-ai/sdk';
import {
  LlmError,
  type LlmClient,
  type LlmContent,
  type LlmEvent,
  type LlmMessage,
  type LlmRequest,
  type LlmUsage,
  type ModelTier,
  type StopReason,
} from '../llm/llmClient';

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
  /** Retries after the first attempt, done by the SDK; default 3. */
  maxRetries?: number;
  /** Per attempt, until the reply starts streaming; default 120 s. */
  timeoutMs?: number;
  /** Called with every usage event, for the session's ledger. */
  onUsage?: (model: string, usage: LlmUsage) => void;
  /** The SDK's warnings and errors, key redacted; without it the SDK stays silent (no stray stdout in the CLI). */
  log?: (line: string) => void;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_TIMEOUT_MS = 120_000;
const SET_KEY = "Set one with 'Groundwork: Set Anthropic API Key'.";
const EPHEMERAL = { type: 'ephemeral' } as const;

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
    const model = 'tier' in request.model ? this.#options.models(request.model.tier) : request.model.id;
    const reply = new ReplyAssembler();
    try {
      const events = await client.messages.create(toParams(request, model), { signal });
      read: for await (const event of events) {
        if (signal.aborted) break;
        for (const out of reply.accept(event)) {
          if (signal.aborted) break read;
          yield out;
        }
      }
    } catch (err) {
      // The SDK ends an aborted stream quietly or with an abort error; either way it is a cancel.
      if (!signal.aborted) throw redactError(toLlmError(err, sdk, this.#context(), reply.usage !== undefined), [key, urlPassword(this.#options.baseURL)]);
    }
    if (signal.aborted) {
      // The input was billed even though the reply was cut short, so the ledger hears of it.
      if (reply.usage) yield this.#usageEvent(reply.model, reply.usage);
      return yield { type: 'stop', reason: 'cancelled' };
    }
    if (!reply.finished || !reply.usage) {
      throw new LlmError('network', "The Anthropic API's reply ended before it was complete. Check your network connection and try again.");
    }
    yield this.#usageEvent(reply.model, reply.usage);
    yield { type: 'stop', reason: reply.stopReason };
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
      throw new LlmError('auth', `The Anthropic API key could not be read (${errorText(err)}). ${SET_KEY}`);
    }
    if (!key) throw new LlmError('auth', `No Anthropic API key is set. ${SET_KEY}`);
    return key;
  }

  async #clientFor(key: string): Promise<{ sdk: Sdk; client: Anthropic }> {
    this.#sdk ??= import('@anthropic-ai/sdk').then(namedExports);
    let sdk: Sdk;
    try {
      sdk = await this.#sdk;
    } catch (err) {
      this.#sdk = undefined;
      throw new LlmError('no-provider', `The Anthropic SDK could not be loaded (${errorText(err).slice(0, 300)}). Reinstall the Groundwork extension.`);
    }
    // One SDK client per key keeps its connection pool warm across calls.
    if (this.#client?.key !== key) {
      const { log } = this.#options;
      const line = (level: string) => (...args: unknown[]) => log?.(redact(`anthropic-sdk ${level}: ${args.map(errorText).join(' ')}`, key));
      const client = new sdk.default({
        apiKey: key,
        baseURL: this.#options.baseURL ?? DEFAULT_BASE_URL,
        maxRetries: this.#options.maxRetries ?? DEFAULT_MAX_RETRIES,
        timeout: this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        logLevel: log ? 'warn' : 'off',
        logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
        openTelemetry: false,
      });
      this.#client = { key, client };
    }
    return { sdk, client: this.#client.client };
  }

  #context(): FailureContext {
    return {
      baseURL: this.#options.baseURL ?? DEFAULT_BASE_URL,
      attempts: (this.#options.maxRetries ?? DEFAULT_MAX_RETRIES) + 1,
      timeoutMs: this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
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
  const blocks: BlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content.map(toBlock);
  const last = blocks.at(-1);
  if (!breakpoint || !last) return { role: message.role, content: typeof message.content === 'string' ? message.content : blocks };
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
      return { type: 'tool_result', tool_use_id: c.toolUseId, content: c.content, ...(c.isError ? { is_error: true } : {}) };
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
  readonly #tools = new Map<number, { id: string; name: string; json: string; input: unknown }>();

  accept(event: RawEvent): LlmEvent[] {
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
        return [{ type: 'tool_use', id: tool.id, name: tool.name, input: parseToolInput(tool.name, tool.json, tool.input) }];
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
    throw new LlmError('server', `The model sent a malformed call of the tool '${name}' (${errorText(err)}). Try again.`);
  }
}

// ---- errors: what happened and what to do ----

interface FailureContext {
  baseURL: string;
  attempts: number;
  timeoutMs: number;
}

/** `begun`: the reply had started streaming, so a broken connection broke it mid-reply. */
function toLlmError(err: unknown, sdk: Sdk, ctx: FailureContext, begun: boolean): LlmError {
  if (err instanceof LlmError) return err;
  const where = safeUrl(ctx.baseURL);
  if (err instanceof sdk.APIConnectionTimeoutError) {
    const limit = ctx.timeoutMs < 1000 ? `${ctx.timeoutMs} ms` : `${Math.round(ctx.timeoutMs / 1000)} s`;
    return new LlmError('network', `The Anthropic API at ${where} did not answer within ${limit} (${attempts(ctx)}). Check your network connection and the Anthropic base URL.`);
  }
  if (err instanceof sdk.APIConnectionError) {
    return new LlmError('network', `Could not reach the Anthropic API at ${where} (${causeOf(err)}; ${attempts(ctx)}). Check your network connection and the Anthropic base URL.`);
  }
  if (!(err instanceof sdk.APIError)) {
    // Undici's "terminated" and the like: the connection broke after the reply began.
    if (begun) return new LlmError('network', `The connection to the Anthropic API broke off mid-reply (${causeOf(err)}). Check your network connection and try again.`);
    return new LlmError('network', `The request to the Anthropic API at ${where} failed (${causeOf(err)}). Check the Anthropic base URL and your network connection.`);
  }
  const said = err.apiMessage ?? err.message;
  const ref = err.requestID ? ` [request ${err.requestID}]` : '';
  const status = err.status;
  if (status === undefined) {
    // An `event: error` in a stream that had begun: the SDK does not retry those.
    const kind = err.type === 'overloaded_error' ? 'overloaded' : err.type === 'rate_limit_error' ? 'rate-limit' : 'server';
    return new LlmError(kind, `The Anthropic API stopped mid-reply (${err.type ?? 'error'}: ${said}).${ref} Try again${kind === 'server' ? '' : ' in a few minutes'}.`);
  }
  const retried = ctx.attempts > 1 && err.headers?.get('x-should-retry') !== 'false' ? `, still after ${attempts(ctx)}` : '';
  const head = `${status}: ${said}`;
  if (status === 401) return new LlmError('auth', `The API key was refused by the Anthropic API (${head}).${ref} Set a new one with 'Groundwork: Set Anthropic API Key'.`, status);
  if (status === 403) return new LlmError('auth', `The API key may not make this request (${head}).${ref} Check its permissions in the Anthropic Console, or set another with 'Groundwork: Set Anthropic API Key'.`, status);
  if (status === 402) return new LlmError('quota', `The Anthropic account cannot pay for this request (${head}).${ref} Check the plan and billing in the Anthropic Console.`, status);
  if (status === 429) return new LlmError('rate-limit', `The Anthropic API's rate limit was reached (${head}${retried}).${ref} Wait a minute before trying again, or check your plan's rate limits.`, status);
  if (status === 529) return new LlmError('overloaded', `The Anthropic API is overloaded (${head}${retried}).${ref} Try again in a few minutes.`, status);
  if (status >= 500 || status === 408 || status === 409) {
    return new LlmError('server', `The Anthropic API failed (${head}${retried}).${ref} Try again later; status.anthropic.com shows outages.`, status);
  }
  const hint = status === 404 ? 'Check the model ids in the Groundwork model settings.' : 'If it keeps happening, report it with this message.';
  return new LlmError('bad-request', `The Anthropic API rejected the request (${head}).${ref} ${hint}`, status);
}

function attempts(ctx: FailureContext): string {
  return ctx.attempts === 1 ? '1 attempt' : `${ctx.attempts} attempts`;
}

/**
 * The one place an API error leaves this file: a key echoed by a proxy, or a proxy password that
 * fetch quotes with the URL, goes no further.
 */
function redactError(err: LlmError, secrets: (string | undefined)[]): LlmError {
  const message = secrets.reduce<string>((m, s) => (s ? m.split(s).join('[redacted]') : m), err.message);
  return message === err.message ? err : new LlmError(err.kind, message, err.status);
}

function redact(text: string, key: string): string {
  return key ? text.split(key).join('[redacted]') : text;
}

function urlPassword(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}

function causeOf(err: unknown): string {
  let e: unknown = err;
  // Undici wraps the system error (ECONNREFUSED, ENOTFOUND…) two levels down; that is the useful part.
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : errorText(e);
}

function errorText(v: unknown): string {
  if (v instanceof Error) return v.message;
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Credentials in a proxy URL stay out of messages. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.origin + u.pathname.replace(/\/$/, '');
  } catch {
    return '(an invalid base URL)';
  }
}
