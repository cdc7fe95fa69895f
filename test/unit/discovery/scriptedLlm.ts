// Discovery's model for its service tests: the scripted model (test/support/scriptedModel.ts)
// answering each call with the next turn, its text in 3 chunks, as claude-sonnet-4-6 with USAGE.
import { LlmError } from '../../../src/core/llm/llmClient';
import type { LlmUsage } from '../../../src/core/llm/llmClient';
import { scriptedTurns, type ScriptedModel, type Turn } from '../../support/scriptedModel';

export const USAGE: LlmUsage = { inputTokens: 1200, outputTokens: 150, cacheReadTokens: 0, cacheCreationTokens: 0 };

/** A model answering its calls with `turns`, in order. */
export function discoveryModel(turns: readonly Turn[]): ScriptedModel {
  const chunked = turns.map((t) => ('hang' in t || 'error' in t ? t : { chunks: 3, ...t }));
  return scriptedTurns(chunked, { model: 'claude-sonnet-4-6', usage: USAGE });
}

export const overloaded = () => new LlmError('overloaded', 'The model is overloaded. Retry in a minute.', 529);
