// Shared by the LLM tests: an AnthropicClient pointed at a scripted server, a request builder and
// a collector that records when each event arrived.
import { AnthropicClient, type AnthropicClientOptions } from '../../../src/core/node/anthropicClient';
import type { LlmEvent, LlmRequest } from '../../../src/core/llm/llmClient';
import { modelForTier } from '../../../src/core/llm/models';
import type { CallLimits } from '../../../src/core/llm/retryPolicy';

/** Looks like a key and is unique enough to grep for anywhere it might leak. */
export const CANARY_KEY = 'sk-ant-canary-0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c';

/** The client's options, with `limits` merged over the tests' own (short waits, two retries). */
export type TestClientOptions = Partial<Omit<AnthropicClientOptions, 'limits'>> & { limits?: Partial<CallLimits> };

export function clientFor(baseURL: string, options: TestClientOptions = {}): AnthropicClient {
  const { limits, ...rest } = options;
  return new AnthropicClient({
    apiKey: async () => CANARY_KEY,
    baseURL,
    models: (tier) => modelForTier(tier),
    ...rest,
    limits: { maxRetries: 2, firstByteTimeoutMs: 5_000, ...limits },
  });
}

export function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    system: 'You are a scripted test role.',
    messages: [{ role: 'user', content: 'hello' }],
    model: { tier: 'fast' },
    maxTokens: 256,
    ...overrides,
  };
}

export interface Timed {
  event: LlmEvent;
  at: number;
}

export async function collect(stream: AsyncIterable<LlmEvent>, onEvent?: (e: LlmEvent) => void): Promise<Timed[]> {
  const out: Timed[] = [];
  for await (const event of stream) {
    out.push({ event, at: performance.now() });
    onEvent?.(event);
  }
  return out;
}

export const events = (timed: Timed[]) => timed.map((t) => t.event);
export const texts = (timed: Timed[]) => timed.flatMap((t) => (t.event.type === 'text' ? [t.event.text] : []));

/** The error a promise rejects with, or a failure if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection, but it resolved');
}
