// Which provider serves Groundwork's agents. No vscode import: unit-tested as a table.

export type ProviderSetting = 'auto' | 'anthropic' | 'vscode-lm';
export const PROVIDER_SETTINGS: readonly ProviderSetting[] = ['auto', 'anthropic', 'vscode-lm'];

export type ProviderChoice =
  | { kind: 'anthropic' }
  | { kind: 'vscode-lm' }
  /** Nothing to talk to yet: the panel shows how to connect one instead of failing. */
  | { kind: 'onboarding'; need: 'key' | 'language-model' | 'either' };

export function chooseProvider(setting: unknown, hasKey: boolean, languageModels: number): ProviderChoice {
  const wanted: ProviderSetting = PROVIDER_SETTINGS.includes(setting as ProviderSetting)
    ? (setting as ProviderSetting)
    : 'auto';
  switch (wanted) {
    case 'anthropic':
      return hasKey ? { kind: 'anthropic' } : { kind: 'onboarding', need: 'key' };
    case 'vscode-lm':
      return languageModels > 0 ? { kind: 'vscode-lm' } : { kind: 'onboarding', need: 'language-model' };
    case 'auto':
      if (hasKey) return { kind: 'anthropic' };
      if (languageModels > 0) return { kind: 'vscode-lm' };
      return { kind: 'onboarding', need: 'either' };
  }
}
