// Which concrete model a tier means. The defaults are current Claude models for each tier (not
// claude-sonnet-4-5: the SDK lists it as reaching end-of-life on 30 Nov 2026); settings override
// them per tier, and a role that names an id gets that id as is.
import type { ModelChoice, ModelTier } from './llmClient';

export const DEFAULT_MODELS: Readonly<Record<ModelTier, string>> = {
  complex: 'claude-sonnet-4-6',
  fast: 'claude-haiku-4-5',
};

/** The user's per-tier overrides; a missing or blank entry keeps the default. */
export type ModelSettings = Partial<Record<ModelTier, string | undefined>>;

export function modelForTier(tier: ModelTier, settings: ModelSettings = {}): string {
  // A blank setting is what an emptied settings field leaves behind, not a model id.
  const chosen = settings[tier]?.trim();
  return chosen ? chosen : DEFAULT_MODELS[tier];
}

export function resolveModel(choice: ModelChoice, settings: ModelSettings = {}): string {
  return 'tier' in choice ? modelForTier(choice.tier, settings) : choice.id;
}
