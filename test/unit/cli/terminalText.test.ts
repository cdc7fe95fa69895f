import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { blockText } from '../../../src/cli/terminalText';
import { quotePath } from '../../../src/core/storage/storageError';
import { visibleJson, visibleText } from '../../../src/core/visibleText';

// Every character a terminal could act on, or that hides itself; none may reach the output raw.
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u200b\u200c\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

describe('text shown to people', () => {
  test('control characters become visible escapes', () => {
    assert.equal(visibleText('a\nb\r\tc'), 'a\\nb\\r\\tc');
    assert.equal(visibleText('\u001b[31mred\u001b[0m'), '\\x1b[31mred\\x1b[0m');
    assert.equal(visibleText('x\u0000y\u007fz\u009b'), 'x\\x00y\\x7fz\\x9b');
    assert.equal(visibleText('plain ünïcødé 🦀 "quotes" привет'), 'plain ünïcødé 🦀 "quotes" привет');
  });

  test('bidi controls and invisible characters become visible escapes', () => {
    assert.equal(visibleText('abc\u202edcba'), 'abc\\u202edcba');
    assert.equal(visibleText('\u2067x\u2069 \u200fy'), '\\u2067x\\u2069 \\u200fy');
    assert.equal(visibleText('pl\u200ban\ufeff soft\u00adhyphen'), 'pl\\u200ban\\ufeff soft\\xadhyphen');
    assert.equal(visibleText('a\u200db'), 'a\\u200db');
  });

  test('a zero-width joiner inside an emoji sequence is kept, so the emoji stays one', () => {
    const family = '👨\u200d👩\u200d👧';
    const runner = '🏃🏻\u200d♀️';
    assert.equal(visibleText(`${family} ${runner}`), `${family} ${runner}`);
    assert.equal(visibleText('👩\u200d'), '👩\\u200d');
  });

  test('paths in storage messages use the same escapes', () => {
    assert.equal(quotePath('plans/x\u0000\n\u202e.md'), "'plans/x\\x00\\n\\u202e.md'");
  });

  test('block text keeps line breaks, indents them, and escapes the rest', () => {
    assert.equal(
      blockText('one\r\ntwo\n\tthree\u001b]0;pwned\u0007', '  '),
      '  one\n  two\n      three\\x1b]0;pwned\\x07',
    );
    assert.equal(blockText('lone\rreturn', ''), 'lone\\rreturn');
  });

  test('visible JSON is the same data with no unsafe character raw', () => {
    const value = { t: 'a\u001b[2J\u009b\u2028\u202e\u200b\ufeff\nb 👨\u200d👩', n: [1] };
    const json = visibleJson(value, 2);
    assert.doesNotMatch(json, UNSAFE);
    assert.deepEqual(JSON.parse(json), value);
    assert.deepEqual(JSON.parse(visibleJson(value)), value);
  });
});
