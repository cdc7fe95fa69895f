// A hand-written LlmClient for discovery's service tests: each call takes the next step of a script
// (a reply streamed in chunks, a failure, or a reply that waits to be stopped) and the requests
// are recorded for the assertions.
import { LlmError } from '../../../src/core/llm/llmClient';
import type { LlmClient, LlmEvent, LlmRequest, LlmUsage } from '../../../src/core/llm/llmClient';

export type ScriptStep =
  | { reply: string; chunks?: number; usage?: LlmUsage; model?: string }
  | { fail: LlmError }
  /** Streams `before`, then waits until the signal aborts and ends with `cancelled`. */
  | { hang: string };

export const USAGE: LlmUsage = { inputTokens: 1200, outputTokens: 150, cacheReadTokens: 0, cacheCreationTokens: 0 };

export class ScriptedLlm implements LlmClient {
  readonly requests: LlmRequest[] = [];
  constructor(private readonly script: ScriptStep[]) {}

  get remaining(): number {
    return this.script.length;
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    // A copy, as a provider serializes the request when it is sent.
    this.requests.push(structuredClone(request));
    const next = this.script.shift();
    if (next === undefined) throw new Error('ScriptedLlm: the script has no step left for this call');
    if ('fail' in next) throw next.fail;
    if ('hang' in next) {
      yield { type: 'text', text: next.hang };
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      yield { type: 'stop', reason: 'cancelled' };
      return;
    }
    const parts = next.chunks ?? 3;
    const size = Math.max(1, Math.ceil(next.reply.length / parts));
    for (let i = 0; i < next.reply.length; i += size) yield { type: 'text', text: next.reply.slice(i, i + size) };
    yield { type: 'usage', model: next.model ?? 'claude-sonnet-4-6', usage: next.usage ?? USAGE };
    yield { type: 'stop', reason: 'end_turn' };
  }
}

export const overloaded = () => new LlmError('overloaded', 'The model is overloaded. Retry in a minute.', 529);
