// The five messages (and the extra ones) in the eight languages, questions with the round (n/3).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { discoveryMessages, LANGUAGE_NAMES, toDiscoveryLanguage } from '../../../src/core/discovery/discoveryMessages';
import { DISCOVERY_LANGUAGES } from '../../../src/core/discovery/discoveryTypes';

const QUESTIONS = '1. Who will use it?\n2. What must it do first?';
const PREVIEW = 'One-line summary: A CRM for a real estate team';

describe('discoveryMessages', () => {
  for (const lang of DISCOVERY_LANGUAGES) {
    test(`${lang}: every message non-empty; questions and preview included; round shown as (n/3)`, () => {
      const m = discoveryMessages(lang);
      const intro = m.intro(QUESTIONS);
      assert.ok(intro.includes(QUESTIONS), intro);
      assert.ok(intro.includes('(1/3)'), intro);
      for (const n of [2, 3]) {
        const follow = m.followUp(QUESTIONS, n, 3);
        assert.ok(follow.includes(QUESTIONS), follow);
        assert.ok(follow.includes(`(${n}/3)`), follow);
      }
      assert.ok(m.complete(PREVIEW).includes(PREVIEW));
      for (const text of [
        m.expired(),
        m.cancelled(),
        m.stopped(),
        m.notABuild(),
        m.capped(100 * 1024, 8 * 1024, '.groundwork/discovery/s.md'),
      ]) {
        assert.ok(text.trim().length > 0);
      }
      const capped = m.capped(100 * 1024, 8 * 1024, '.groundwork/discovery/s.md');
      assert.ok(
        capped.includes('100 KB') && capped.includes('8 KB') && capped.includes('.groundwork/discovery/s.md'),
        capped,
      );
    });
  }

  test('English intro says "before I start building"; the other languages are not English', () => {
    assert.match(discoveryMessages('en').intro(QUESTIONS), /before I start building/i);
    const english = discoveryMessages('en');
    for (const lang of DISCOVERY_LANGUAGES.filter((l) => l !== 'en')) {
      const m = discoveryMessages(lang);
      assert.notEqual(m.intro(QUESTIONS), english.intro(QUESTIONS), lang);
      assert.notEqual(m.expired(), english.expired(), lang);
      assert.notEqual(m.cancelled(), english.cancelled(), lang);
      assert.notEqual(m.complete(PREVIEW), english.complete(PREVIEW), lang);
    }
  });

  test('Spanish intro is in Spanish', () => {
    assert.match(discoveryMessages('es').intro(QUESTIONS), /Antes de empezar a construir/);
  });

  test('the messages of the eight languages are all different', () => {
    const intros = new Set(DISCOVERY_LANGUAGES.map((l) => discoveryMessages(l).intro('')));
    assert.equal(intros.size, 8);
  });
});

describe('toDiscoveryLanguage', () => {
  test('locales, codes and names; English otherwise', () => {
    assert.equal(toDiscoveryLanguage('pt-br'), 'pt');
    assert.equal(toDiscoveryLanguage('pt'), 'pt');
    assert.equal(toDiscoveryLanguage('de-AT'), 'de');
    assert.equal(toDiscoveryLanguage('zh-cn'), 'en');
    assert.equal(toDiscoveryLanguage('Spanish'), 'es');
    assert.equal(toDiscoveryLanguage(undefined), 'en');
    assert.equal(LANGUAGE_NAMES.ru, 'Russian');
  });
});
