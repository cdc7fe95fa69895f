import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractSignals, SignalFilter } from '../../../src/core/run/signals';

describe('discovery signals in model text', () => {
  it('takes the signals out of the text, whole or split across chunks', () => {
    const text =
      'Before <axiom>DISCOVERY_LOCAL: uses vitest </axiom>middle<axiom>DISCOVERY_GLOBAL:API needs auth</axiom> after';
    const whole = extractSignals(text);
    assert.equal(whole.text, 'Before middle after');
    assert.deepEqual(whole.signals, [
      { scope: 'local', content: 'uses vitest' },
      { scope: 'global', content: 'API needs auth' },
    ]);
    for (let size = 1; size < 12; size++) {
      const filter = new SignalFilter();
      let shown = '';
      const signals = [];
      for (let i = 0; i < text.length; i += size) {
        const out = filter.push(text.slice(i, i + size));
        shown += out.text;
        signals.push(...out.signals);
      }
      shown += filter.flush();
      assert.equal(shown, whole.text, `chunks of ${size}`);
      assert.deepEqual(signals, whole.signals);
    }
  });

  it('leaves other tags, empty signals and an unclosed one as text', () => {
    assert.equal(extractSignals('<axiom>OTHER:x</axiom>').text, '<axiom>OTHER:x</axiom>');
    assert.equal(extractSignals('<axiom>DISCOVERY_LOCAL:  </axiom>').text, '<axiom>DISCOVERY_LOCAL:  </axiom>');
    assert.equal(
      extractSignals('a <axiom>DISCOVERY_LOCAL: never closed').text,
      'a <axiom>DISCOVERY_LOCAL: never closed',
    );
    assert.equal(extractSignals('x < y and <ax').text, 'x < y and <ax');
  });

  it('releases an over-long unclosed signal as text without holding the stream', () => {
    const filter = new SignalFilter();
    const out = filter.push(`<axiom>DISCOVERY_LOCAL:${'a'.repeat(9000)}`);
    assert.ok(out.text.startsWith('<axiom>'));
  });
});
