// The scripted model's script: rules that match a Messages API request body and say how to reply
// (text streamed in chunks, tool calls, an API error, a black hole, a hang-up). One script, two
// ways to serve it: over HTTP as api.anthropic.com would (scriptedModelServer.ts: the unit tests of
// the Anthropic client, the CLI in a child process, the in-VS Code tests, the benches), and in the
// test's own process as an LlmClient (scriptedModel.ts: the unit tests of the core). Plain
// TypeScript, no test-framework or Node imports, so it runs anywhere.
import type { LlmRequest } from '../../src/core/llm/llmClient';
import type { ReplyBlock, StreamFailure, StreamTiming, WireUsage } from './sse';

/** The parts of a Messages API request body the matchers look at; the rest passes through. */
export interface MessagesBody {
  model: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | { type: string; text: string; cache_control?: unknown }[];
  messages: { role: string; content: string | Record<string, unknown>[] }[];
  tools?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface StreamReply extends StreamTiming {
  blocks: ReplyBlock[];
  /** Default: `tool_use` when a block is a tool call, else `end_turn`. */
  stopReason?: string;
  /** Overrides the computed usage (input from the prompt cache stand-in, output estimated). */
  usage?: Partial<WireUsage>;
  /** Default: the request's model. */
  model?: string;
  headerDelayMs?: number;
  fail?: StreamFailure;
}

export interface ErrorReply {
  error: {
    status: number;
    /** Default: the API's type for the status (rate_limit_error, overloaded_error, …). */
    type?: string;
    message?: string;
    /** Seconds, the `retry-after` header the API sends. */
    retryAfter?: number;
    /** The SDK also honours `retry-after-ms`, which keeps retry tests fast. */
    retryAfterMs?: number;
    /** Any other headers, as sent (a malformed `retry-after`, `x-should-retry`). */
    headers?: Record<string, string>;
  };
  headerDelayMs?: number;
}

/**
 * A black hole: the request is read and never answered. `before-headers` sends nothing at all (a
 * proxy that lost its upstream); `after-headers` sends the 200 and its SSE headers, then nothing.
 * The connection stays open until the client gives up or the server closes.
 */
export interface StallReply {
  stall: 'before-headers' | 'after-headers';
  headerDelayMs?: number;
}

/** The connection is closed without a reply, as a crashing proxy does (the client sees a reset or a closed socket). */
export interface HangUpReply {
  hangUp: true;
  headerDelayMs?: number;
}

export type Reply = StreamReply | ErrorReply | StallReply | HangUpReply;

/** What a reply function is told besides the body. */
export interface ReplyCall {
  /** Aborted when the client gives up (the HTTP request closes, or the in-process call's signal). */
  signal: AbortSignal;
  /** The call as the core made it, when the model is served in-process. */
  request?: LlmRequest;
}

export interface ScriptRule {
  name?: string;
  /** Default: matches any request. */
  match?: (body: MessagesBody) => boolean;
  /** The reply, or a function making it (it may wait, and may throw: the call fails). */
  reply: Reply | ((body: MessagesBody, call: ReplyCall) => Reply | Promise<Reply>);
  /** How many requests the rule answers; default 1, `Infinity` for every matching request. */
  times?: number;
}

export const reply = {
  text(chunks: string | string[], options: Omit<StreamReply, 'blocks'> = {}): StreamReply {
    return { ...options, blocks: [{ type: 'text', chunks: typeof chunks === 'string' ? [chunks] : chunks }] };
  },
  /** A tool call, optionally after some text, as the model writes "Let me check." first. */
  toolUse(
    name: string,
    input: Record<string, unknown>,
    options: Omit<StreamReply, 'blocks'> & { text?: string[]; id?: string; jsonChunks?: number } = {},
  ): StreamReply {
    const { text, id, jsonChunks, ...rest } = options;
    const tool: ReplyBlock = {
      type: 'tool_use',
      name,
      input,
      ...(id ? { id } : {}),
      ...(jsonChunks ? { jsonChunks } : {}),
    };
    return { ...rest, blocks: text ? [{ type: 'text', chunks: text }, tool] : [tool] };
  },
  error(status: number, options: Omit<ErrorReply['error'], 'status'> & { headerDelayMs?: number } = {}): ErrorReply {
    const { headerDelayMs, ...error } = options;
    return { error: { status, ...error }, ...(headerDelayMs !== undefined ? { headerDelayMs } : {}) };
  },
  /** Accepts the request and never answers (see StallReply). */
  blackHole(after: StallReply['stall'] = 'before-headers'): StallReply {
    return { stall: after };
  },
  hangUp(): HangUpReply {
    return { hangUp: true };
  },
};

/**
 * Rules for a flaky endpoint: the first `n` requests get `failure` (an error, a black hole, a
 * hang-up), the next one `success`. Named `<name> failure` and `<name>`, for `pending()`.
 */
export function failThenSucceed(n: number, failure: Reply, success: Reply, name = 'flaky'): ScriptRule[] {
  return [...(n > 0 ? [{ name: `${name} failure`, times: n, reply: failure }] : []), { name, reply: success }];
}

/** One reply per request, in order, whatever it asks: `turn 1`, `turn 2`, … */
export function inOrder(...replies: ScriptRule['reply'][]): ScriptRule[] {
  return replies.map((r, i) => ({ name: `turn ${i + 1}`, reply: r }));
}

function textOf(content: MessagesBody['messages'][number]['content'] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b['type'] === 'text' && typeof b['text'] === 'string' ? b['text'] : '')).join('');
}

const matches = (pattern: string | RegExp, text: string) =>
  typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);

export function lastUserText(body: MessagesBody): string {
  return textOf([...body.messages].reverse().find((m) => m.role === 'user')?.content);
}

export function systemText(body: MessagesBody): string {
  return typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('');
}

/** Matchers for `ScriptRule.match`; strings match as substrings. */
export const match = {
  lastUserText: (pattern: string | RegExp) => (body: MessagesBody) => matches(pattern, lastUserText(body)),
  system: (pattern: string | RegExp) => (body: MessagesBody) => matches(pattern, systemText(body)),
  model: (id: string) => (body: MessagesBody) => body.model === id,
  hasTools: () => (body: MessagesBody) => (body.tools?.length ?? 0) > 0,
  /** The last message carries a tool_result (for `toolUseId` when given). */
  toolResult: (toolUseId?: string) => (body: MessagesBody) => {
    const last = body.messages.at(-1)?.content;
    return (
      Array.isArray(last) &&
      last.some((b) => b['type'] === 'tool_result' && (toolUseId === undefined || b['tool_use_id'] === toolUseId))
    );
  },
  /** Every one of `matchers` matches. */
  all:
    (...matchers: ((body: MessagesBody) => boolean)[]) =>
    (body: MessagesBody) =>
      matchers.every((m) => m(body)),
};

const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A request as a failure message names it: its model and the start of its last user text. */
export function describeBody(body: Partial<MessagesBody> | undefined): string {
  return body?.messages
    ? `model ${String(body.model)}, last user text "${clip(lastUserText(body as MessagesBody))}"`
    : 'no Messages API body';
}

/** The rules, each with the answers it has left: the first live rule that matches answers. */
export class ModelScript {
  readonly #live: { rule: ScriptRule; label: string; left: number }[] = [];

  constructor(rules: ScriptRule[] = []) {
    this.add(...rules);
  }

  /** Appends rules; earlier rules win when several match. */
  add(...rules: ScriptRule[]): void {
    for (const rule of rules)
      this.#live.push({ rule, label: rule.name ?? `rule ${this.#live.length + 1}`, left: rule.times ?? 1 });
  }

  /** The rule that answers `body` (one of its answers used up), or undefined when none matches. */
  take(body: MessagesBody): { label: string; reply: ScriptRule['reply'] } | undefined {
    const found = this.#live.find((l) => l.left > 0 && (l.rule.match?.(body) ?? true));
    if (found === undefined) return undefined;
    found.left--;
    return { label: found.label, reply: found.rule.reply };
  }

  /** Names of once-or-more rules that still have answers left (not the repeatable ones). */
  pending(): string[] {
    return this.#live.filter((l) => l.left > 0 && Number.isFinite(l.left)).map((l) => l.label);
  }

  /** Why `body` got no answer, naming the rules that have answers left. */
  noRuleFor(what: string): string {
    const left = this.#live.filter((l) => l.left > 0).map((l) => l.label);
    return `no rule matches ${what}; rules with answers left: ${left.length ? left.join(', ') : 'none'}`;
  }
}
