// A model script for agent calls with tools: each turn is text, tool calls, or a hang that waits
// for the signal. The requests are kept (copied, as a provider serializes them).
import type { LlmClient, LlmEvent, LlmRequest, LlmUsage } from '../../../src/core/llm/llmClient';
import type { ToolBox } from '../../../src/core/session/agentCall';
import type { ToolContext, ToolDefinition, ToolResult } from '../../../src/core/tools/toolTypes';

export type Turn =
  { text?: string; tools?: { name: string; input: unknown }[]; usage?: LlmUsage; refuse?: true } | { hang: string };

export const TURN_USAGE: LlmUsage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 5, cacheCreationTokens: 0 };

export class ToolScript implements LlmClient {
  readonly requests: LlmRequest[] = [];
  private ids = 0;
  constructor(private readonly turns: Turn[]) {}

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    this.requests.push(structuredClone(request));
    const turn = this.turns.shift();
    if (turn === undefined) throw new Error('ToolScript: no turn left');
    if ('hang' in turn) {
      yield { type: 'text', text: turn.hang };
      await new Promise<void>((resolve) =>
        signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      yield { type: 'stop', reason: 'cancelled' };
      return;
    }
    if (turn.text) yield { type: 'text', text: turn.text };
    for (const t of turn.tools ?? [])
      yield { type: 'tool_use', id: `toolu_${++this.ids}`, name: t.name, input: t.input };
    yield { type: 'usage', model: 'claude-test', usage: turn.usage ?? TURN_USAGE };
    yield { type: 'stop', reason: turn.refuse ? 'refusal' : turn.tools?.length ? 'tool_use' : 'end_turn' };
  }
}

const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

/** A tool box with `read_file` (returns "text of <path>"), `search` (returns "found"), and `explode` (throws). */
export function fakeToolBox(calls: { name: string; input: unknown; context: ToolContext }[] = []): ToolBox {
  const defs: ToolDefinition[] = ['read_file', 'search', 'explode'].map((name) => ({
    name,
    description: name,
    inputSchema: schema,
    access: 'read-workspace' as const,
  }));
  return {
    definitionsFor: (names) => defs.filter((d) => names.includes(d.name)),
    target: (_name, input) => String((input as { path?: unknown }).path ?? '.'),
    async run(name, input, context): Promise<ToolResult> {
      calls.push({ name, input, context });
      if (name === 'explode') throw new Error('boom');
      return {
        isError: false,
        content: name === 'read_file' ? `text of ${String((input as { path: string }).path)}` : 'found',
      };
    },
  };
}
