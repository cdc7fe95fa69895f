import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MODELS, modelForTier, resolveModel } from '../../../src/core/llm/models';

describe('models', () => {
  test('tiers map to the default models', () => {
    assert.deepEqual(DEFAULT_MODELS, { complex: 'claude-sonnet-4-6', fast: 'claude-haiku-4-5' });
    assert.equal(resolveModel({ tier: 'complex' }), 'claude-sonnet-4-6');
    assert.equal(resolveModel({ tier: 'fast' }), 'claude-haiku-4-5');
  });

  test('settings override a tier; a blank setting keeps the default', () => {
    const settings = { complex: ' claude-opus-4-1 ', fast: '  ' };
    assert.equal(resolveModel({ tier: 'complex' }, settings), 'claude-opus-4-1');
    assert.equal(resolveModel({ tier: 'fast' }, settings), 'claude-haiku-4-5');
    assert.equal(modelForTier('fast', { complex: 'x' }), 'claude-haiku-4-5');
  });

  test('a role that names a model id gets that id, whatever the settings', () => {
    assert.equal(
      resolveModel({ id: 'claude-3-5-haiku-20241022' }, { fast: 'claude-opus-4-1' }),
      'claude-3-5-haiku-20241022',
    );
  });
});
