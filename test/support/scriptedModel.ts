// The scripted model in the test's own process: an LlmClient serving the rules of modelScript.ts,
// the same rules and replies scriptedModelServer.ts serves over HTTP. Each call is matched as the
// server matches it (as the Messages API body the Anthropic client would send), and its reply
// becomes what the Anthropic client would yield: a text event per chunk, each tool call whole,
// the usage, the stop; an API error or a hang-up an LlmError; a black hole, or a reply that hangs
// mid-way, waits until the call is stopped and ends `cancelled`. `Turn` writes the usual replies
// short, for the tests that script a conversation turn by turn.
import { LlmError } from '../../src/core/llm/llmClient';
import type {
  LlmClient,
  LlmContent,
  LlmErrorKind,
  LlmEvent,
  LlmMessage,
  LlmRequest,
  LlmUsage,
  StopReason,
} from '../../src/core/llm/llmClient';
import { resolveModel } from '../../src/core/llm/models';
import {
  ModelScript,
  describeBody,
  type MessagesBody,
  type Reply,
  type ScriptRule,
  type StreamReply,
} from './modelScript';
import { PromptCache } from './promptCache';
import { errorType, outputTokens, splitInto, type ReplyBlock, type WireUsage } from './sse';

export interface ScriptedModelOptions {
  /** The model the usage names, unless the reply names one (default: the request's). */
  model?: string;
  /** Every call's usage, unless the reply sets its own (default: estimated, as the server does). */
  usage?: LlmUsage;
}

const EPHEMERAL = { type: 'ephemeral' };

/**
 * The request as the Anthropic client sends it (core/node/anthropicClient.ts, toParams): what the
 * rules match, and what the prompt cache stand-in counts, breakpoints included.
 */
export function messagesBody(request: LlmRequest): MessagesBody {
  const block = (c: LlmContent): Record<string, unknown> =>
    c.type === 'tool_result'
      ? { type: 'tool_result', tool_use_id: c.toolUseId, content: c.content, ...(c.isError ? { is_error: true } : {}) }
      : { ...c };
  const prefixEnd = Math.min(request.stablePrefix ?? 0, request.messages.length) - 1;
  const message = (m: LlmMessage, i: number): MessagesBody['messages'][number] => {
    if (i !== prefixEnd)
      return { role: m.role, content: typeof m.content === 'string' ? m.content : m.content.map(block) };
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content.map(block);
    if (blocks.length > 0) blocks[blocks.length - 1] = { ...blocks.at(-1), cache_control: EPHEMERAL };
    return { role: m.role, content: blocks };
  };
  const last = (request.tools?.length ?? 0) - 1;
  return {
    model: resolveModel(request.model),
    max_tokens: request.maxTokens,
    stream: true,
    messages: request.messages.map(message),
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }] } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((t, i) => ({
            name: t.name,
            description: t.description,
            input_schema: t.inputSchema,
            ...(i === last ? { cache_control: EPHEMERAL } : {}),
          })),
        }
      : {}),
  };
}

/** The stop reasons as the Anthropic client reads them; any other is `other`. */
const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  tool_use: 'tool_use',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
};

/** The kind the Anthropic client gives an API error of `status` (core/node/anthropicErrors.ts). */
function errorKind(status: number): LlmErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'quota';
  if (status === 429) return 'rate-limit';
  if (status === 529) return 'overloaded';
  return status >= 500 || status === 408 || status === 409 ? 'server' : 'bad-request';
}

/** Resolves when `signal` aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve())));

/** Waits `ms`, or less if the call is stopped; whether it was. */
function wait(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (!ms || ms <= 0 || signal.aborted) return Promise.resolve(signal.aborted);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(signal.aborted);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

export class ScriptedModel implements LlmClient {
  /** Every call's request, copied (as a provider serializes it when it is sent). */
  readonly requests: LlmRequest[] = [];
  /** The same calls as the Messages API bodies the rules matched. */
  readonly bodies: MessagesBody[] = [];
  /** The bodies no rule matched (each of those calls threw). */
  readonly unmatched: MessagesBody[] = [];
  inFlight = 0;
  maxInFlight = 0;
  readonly #script: ModelScript;
  readonly #cache = new PromptCache();
  #toolIds = 0;

  constructor(
    rules: ScriptRule[] = [],
    private readonly options: ScriptedModelOptions = {},
  ) {
    this.#script = new ModelScript(rules);
  }

  /** Appends rules; earlier rules win when several match. */
  add(...rules: ScriptRule[]): void {
    this.#script.add(...rules);
  }

  /** Names of once-or-more rules that still have answers left. */
  pending(): string[] {
    return this.#script.pending();
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    this.requests.push(structuredClone(request));
    const body = messagesBody(request);
    this.bodies.push(body);
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      const found = this.#script.take(body);
      if (found === undefined) {
        this.unmatched.push(body);
        throw new Error(
          `scripted model: ${this.#script.noRuleFor(`call #${this.bodies.length} (${describeBody(body)})`)}`,
        );
      }
      const r = typeof found.reply === 'function' ? await found.reply(body, { signal, request }) : found.reply;
      yield* this.#serve(r, body, signal);
    } finally {
      this.inFlight--;
    }
  }

  async *#serve(r: Reply, body: MessagesBody, signal: AbortSignal): AsyncGenerator<LlmEvent> {
    const cancelled: LlmEvent = { type: 'stop', reason: 'cancelled' };
    if (await wait(r.headerDelayMs, signal)) return yield cancelled;
    if ('stall' in r) {
      await aborted(signal);
      return yield cancelled;
    }
    if ('hangUp' in r) throw new LlmError('network', 'The connection was closed before a reply (scripted hang-up).');
    if ('error' in r) {
      const { status, type = errorType(status), message = `scripted ${status} ${type}` } = r.error;
      throw new LlmError(errorKind(status), message, status);
    }
    const fail = () =>
      r.fail?.mode === 'drop'
        ? new LlmError('network', 'The connection was closed in the middle of the reply (scripted).')
        : new LlmError('overloaded', r.fail?.error?.message ?? 'Overloaded', 529);
    let deltas = 0;
    for (const block of r.blocks) {
      const pieces =
        block.type === 'text' ? block.chunks : splitInto(JSON.stringify(block.input), block.jsonChunks ?? 3);
      for (const piece of pieces) {
        if (r.fail && deltas === r.fail.afterDeltas) throw fail();
        if (await wait(deltas === 0 ? r.firstChunkDelayMs : r.chunkDelayMs, signal)) return yield cancelled;
        if (r.hold && deltas === r.hold.afterDeltas) await Promise.race([r.hold.until, aborted(signal)]);
        if (signal.aborted) return yield cancelled;
        deltas++;
        if (block.type === 'text') yield { type: 'text', text: piece };
      }
      if (block.type === 'tool_use') yield this.#toolUse(block);
    }
    if (r.fail && deltas === r.fail.afterDeltas && deltas > 0) throw fail();
    if (r.openEnded) {
      await aborted(signal);
      return yield cancelled;
    }
    yield { type: 'usage', model: r.model ?? this.options.model ?? body.model, usage: this.#usage(r, body) };
    const stop = r.stopReason ?? (r.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    yield { type: 'stop', reason: STOP_REASONS[stop] ?? 'other' };
  }

  /** The options' usage, unless the reply sets its own; else estimated, as the server does. */
  #usage(r: StreamReply, body: MessagesBody): LlmUsage {
    if (r.usage === undefined && this.options.usage) return this.options.usage;
    const wire: WireUsage = { ...this.#cache.usageFor(body), output_tokens: outputTokens(r.blocks), ...r.usage };
    return {
      inputTokens: wire.input_tokens,
      outputTokens: wire.output_tokens,
      cacheReadTokens: wire.cache_read_input_tokens,
      cacheCreationTokens: wire.cache_creation_input_tokens,
    };
  }

  #toolUse(block: Extract<ReplyBlock, { type: 'tool_use' }>): LlmEvent {
    return { type: 'tool_use', id: block.id ?? `toolu_${++this.#toolIds}`, name: block.name, input: block.input };
  }
}

/**
 * One model call written short: text, tool calls (after the text), or both; `refuse` ends it as a
 * refusal; `hang` streams its text and then waits until the call is stopped; `error` fails it
 * (an LlmError as it is, a string as the API's overloaded error).
 */
export type Turn =
  | {
      text?: string;
      /** How many text events the text comes in (default 1). */
      chunks?: number;
      tools?: { name: string; input: unknown }[];
      usage?: LlmUsage;
      model?: string;
      refuse?: true;
    }
  | { hang: string }
  | { error: LlmError | string };

/** The reply a turn stands for. */
export function turnReply(turn: Turn): ScriptRule['reply'] {
  if ('hang' in turn) return { blocks: [{ type: 'text', chunks: [turn.hang] }], openEnded: true };
  if ('error' in turn) {
    const err = turn.error;
    if (typeof err === 'string') return { error: { status: 529, message: err } };
    return () => {
      throw err;
    };
  }
  const blocks: ReplyBlock[] = [
    ...(turn.text ? [{ type: 'text' as const, chunks: splitInto(turn.text, turn.chunks ?? 1) }] : []),
    ...(turn.tools ?? []).map((t) => ({
      type: 'tool_use' as const,
      name: t.name,
      input: t.input as Record<string, unknown>,
    })),
  ];
  const usage = turn.usage && {
    input_tokens: turn.usage.inputTokens,
    output_tokens: turn.usage.outputTokens,
    cache_read_input_tokens: turn.usage.cacheReadTokens,
    cache_creation_input_tokens: turn.usage.cacheCreationTokens,
  };
  return {
    blocks,
    ...(usage ? { usage } : {}),
    ...(turn.model ? { model: turn.model } : {}),
    ...(turn.refuse ? { stopReason: 'refusal' } : {}),
  };
}

/** A reply written either way: as a Turn, or as a Reply of modelScript.ts. */
export function replyOf(x: Turn | Reply): ScriptRule['reply'] {
  const isReply =
    'blocks' in x ||
    'stall' in x ||
    'hangUp' in x ||
    ('error' in x && typeof x.error === 'object' && !(x.error instanceof Error));
  return isReply ? (x as Reply) : turnReply(x as Turn);
}

/** Rules answering one call each with `turns`, in order, whatever the call: `turn 1`, `turn 2`, … */
export function turns(list: readonly Turn[]): ScriptRule[] {
  return list.map((t, i) => ({ name: `turn ${i + 1}`, reply: turnReply(t) }));
}

/** A model answering its calls with `list`, in order. */
export function scriptedTurns(list: readonly Turn[], options: ScriptedModelOptions = {}): ScriptedModel {
  return new ScriptedModel(turns(list), options);
}
