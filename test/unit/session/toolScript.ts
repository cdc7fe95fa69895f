// The agent tests' model: the scripted model (test/support/scriptedModel.ts) answering each call
// with the next turn, every call's usage TURN_USAGE; and a fake tool box for the session's tests.
import type { LlmUsage } from '../../../src/core/llm/llmClient';
import type { ToolBox } from '../../../src/core/session/agentCall';
import type { ToolContext, ToolDefinition, ToolResult } from '../../../src/core/tools/toolTypes';
import { scriptedTurns, type ScriptedModel, type Turn } from '../../support/scriptedModel';

export type { Turn };

export const TURN_USAGE: LlmUsage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 5, cacheCreationTokens: 0 };

/** A model answering its calls with `turns`, in order (model claude-test, usage TURN_USAGE). */
export function toolScript(turns: readonly Turn[]): ScriptedModel {
  return scriptedTurns(turns, { model: 'claude-test', usage: TURN_USAGE });
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
