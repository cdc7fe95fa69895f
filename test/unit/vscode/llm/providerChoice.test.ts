import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooseProvider } from '../../../../src/vscode/llm/providerChoice';

describe('choosing the provider', () => {
  const table: Array<[unknown, boolean, number, ReturnType<typeof chooseProvider>]> = [
    ['auto', true, 0, { kind: 'anthropic' }],
    ['auto', true, 3, { kind: 'anthropic' }],
    ['auto', false, 2, { kind: 'vscode-lm' }],
    ['auto', false, 0, { kind: 'onboarding', need: 'either' }],
    ['anthropic', true, 2, { kind: 'anthropic' }],
    ['anthropic', false, 2, { kind: 'onboarding', need: 'key' }],
    ['vscode-lm', true, 1, { kind: 'vscode-lm' }],
    ['vscode-lm', true, 0, { kind: 'onboarding', need: 'language-model' }],
    ['nonsense', false, 1, { kind: 'vscode-lm' }],
    [undefined, true, 0, { kind: 'anthropic' }],
  ];
  for (const [setting, hasKey, models, expected] of table) {
    test(`${String(setting)}, key ${hasKey ? 'stored' : 'absent'}, ${models} language models → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(chooseProvider(setting, hasKey, models), expected);
    });
  }
});
