// The one way the core talks to a model. Providers (Anthropic's SDK, VS Code's Language Model
// API, a test script) implement it; sessions never import a provider.

/** `complex` for discovery, analyst, architect and the brainstorm coordinator; `fast` otherwise. */
export type ModelTier = 'complex' | 'fast';
export const MODEL_TIERS: readonly ModelTier[] = ['complex', 'fast'];

/** A role names a tier or a concrete model id. */
export type ModelChoice = { tier: ModelTier } | { id: string };

export interface LlmTool {
  name: string;
  description: string;
  /** JSON Schema of the tool's input object. */
  inputSchema: Record<string, unknown>;
}

export type LlmContent =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; content: string; isError?: boolean };

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string | LlmContent[];
}

export interface LlmRequest {
  /** The role's system prompt: stable across a session, so it is cached. */
  system: string;
  messages: LlmMessage[];
  tools?: LlmTool[];
  model: ModelChoice;
  maxTokens: number;
  /**
   * How many leading messages are a stable prefix (the earlier part of a growing transcript),
   * worth caching. Providers that cache mark the end of that prefix; others ignore it.
   */
  stablePrefix?: number;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'refusal' | 'cancelled' | 'other';

export type LlmEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  /** Once per call, before `stop`; `model` is the concrete model that answered. */
  | { type: 'usage'; model: string; usage: LlmUsage }
  /**
   * An attempt failed before its reply began and the provider tries again after `delayMs`:
   * retry `attempt` of at most `of` ("waiting for the model… (retry 2 of 3)"). `reason` is a few
   * plain English words for a log or a tooltip ("status 529 (overloaded_error)", "no answer
   * within 60 s"), the key and any password of the base URL redacted. Nothing of the failed
   * attempt reached the caller, so there is nothing to undo; a consumer that shows no progress
   * ignores the event. The retries may stop before `of` when the call's time budget runs out.
   */
  | LlmRetry
  /** Always the last event. Cancelling ends the stream with `cancelled`, it does not throw. */
  | { type: 'stop'; reason: StopReason };

/** See the `retry` event of LlmEvent. */
export interface LlmRetry {
  type: 'retry';
  attempt: number;
  of: number;
  reason: string;
  delayMs: number;
}

/** What went wrong, for the message and the next step shown to the user. */
export type LlmErrorKind =
  'no-provider' | 'auth' | 'rate-limit' | 'overloaded' | 'quota' | 'consent' | 'bad-request' | 'network' | 'server';

/** A failure after the provider's retries; `message` says what happened and what to do. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface LlmClient {
  /**
   * Streams one model call. Text arrives in order as `text` events; a tool call arrives whole as
   * one `tool_use`. Throws LlmError when the call fails; aborting `signal` ends the stream with
   * `{ type: 'stop', reason: 'cancelled' }`.
   */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent>;
}
