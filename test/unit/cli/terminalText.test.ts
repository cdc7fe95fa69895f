import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { blockText, inlineText, safeJson } from '../../../src/cli/terminalText';

// Every character a terminal could act on; none may reach the output raw.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminal text', () => {
  test('inline text shows control characters as visible escapes', () => {
    assert.equal(inlineText('a\nb\r\tc'), 'a\\nb\\r\\tc');
    assert.equal(inlineText('\u001b[31mred\u001b[0m'), '\\x1b[31mred\\x1b[0m');
    assert.equal(inlineText('x\u0000y\u007fz\u009b'), 'x\\x00y\\x7fz\\x9b');
    assert.equal(inlineText('abc\u202edcba'), 'abc\\u202edcba');
    assert.equal(inlineText('plain ünïcødé 🦀 "quotes"'), 'plain ünïcødé 🦀 "quotes"');
  });

  test('block text keeps line breaks, indents them, and escapes the rest', () => {
    assert.equal(blockText('one\r\ntwo\n\tthree\u001b]0;pwned\u0007', '  '), '  one\n  two\n      three\\x1b]0;pwned\\x07');
    assert.equal(blockText('lone\rreturn', ''), 'lone\\rreturn');
  });

  test('safe JSON is the same data with no raw control characters', () => {
    const value = { t: 'a\u001b[2J\u009b\u2028\u202e\nb', n: [1] };
    const json = safeJson(value, 2);
    assert.doesNotMatch(json, RAW_CONTROL);
    assert.deepEqual(JSON.parse(json), value);
    assert.deepEqual(JSON.parse(safeJson(value)), value);
  });
});
