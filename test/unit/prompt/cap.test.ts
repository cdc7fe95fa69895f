import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CAP_BYTES, capText, truncationMarker, utf8Length } from '../../../src/core/prompt/cap';

const WHERE = '.groundwork/plans/x/.workers/inquisitor-ux.ndjson';
const MARKER = `…[truncated, see ${WHERE}]`;
const MARKER_BYTES = Buffer.byteLength(MARKER);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** No lone surrogate: the cut never splits a code point. */
function wellFormed(s: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

describe('capText', () => {
  test('the cap is 8 KB and the marker names where the whole text is', () => {
    assert.equal(CAP_BYTES, 8192);
    assert.equal(truncationMarker(WHERE), MARKER);
  });

  // Table: text size → truncated?, and the size of what comes back (marker included, at most the cap).
  const table: { what: string; text: string; truncated: boolean; resultBytes?: number }[] = [
    { what: 'empty', text: '', truncated: false, resultBytes: 0 },
    { what: '8 KB − 1', text: 'a'.repeat(CAP_BYTES - 1), truncated: false, resultBytes: CAP_BYTES - 1 },
    { what: 'exactly 8 KB', text: 'a'.repeat(CAP_BYTES), truncated: false, resultBytes: CAP_BYTES },
    { what: '8 KB + 1', text: 'a'.repeat(CAP_BYTES + 1), truncated: true, resultBytes: CAP_BYTES },
    { what: 'a megabyte', text: 'a'.repeat(1 << 20), truncated: true, resultBytes: CAP_BYTES },
    {
      what: 'exactly 8 KB of 4-byte emoji',
      text: '😀'.repeat(CAP_BYTES / 4),
      truncated: false,
      resultBytes: CAP_BYTES,
    },
    { what: '8 KB of 3-byte characters plus one', text: '€'.repeat(2730) + 'ab', truncated: false, resultBytes: 8192 },
    { what: '8 KB of 3-byte characters plus two', text: '€'.repeat(2730) + 'abc', truncated: true },
  ];
  for (const row of table) {
    test(`${row.what}: ${row.truncated ? 'cut, marker included' : 'kept whole'}`, () => {
      const capped = capText(row.text, WHERE);
      assert.equal(capped.truncated, row.truncated);
      assert.equal(capped.fullBytes, bytes(row.text));
      assert.ok(bytes(capped.text) <= CAP_BYTES);
      if (row.truncated) {
        assert.ok(capped.text.endsWith(MARKER));
        assert.ok(row.text.startsWith(capped.text.slice(0, -MARKER.length)), 'the head is a prefix of the text');
        // The head is as long as the cap allows, to the code point.
        assert.ok(CAP_BYTES - bytes(capped.text) < 4);
      } else {
        assert.equal(capped.text, row.text);
      }
      if (row.resultBytes !== undefined) assert.equal(bytes(capped.text), row.resultBytes);
    });
  }

  test('multi-byte characters at the cut: never split, and the longest prefix that fits', () => {
    for (const ch of ['é', '€', '😀', '👩‍👩‍👧']) {
      for (let pad = 0; pad < 4; pad++) {
        const text = 'a'.repeat(pad) + ch.repeat(Math.ceil(CAP_BYTES / bytes(ch)) + 1);
        const capped = capText(text, WHERE);
        const head = capped.text.slice(0, -MARKER.length);
        assert.ok(capped.truncated);
        assert.ok(wellFormed(head), `${ch} pad ${pad}: no lone surrogate`);
        assert.ok(bytes(head) + MARKER_BYTES <= CAP_BYTES, `${ch} pad ${pad}: within the cap`);
        const next = [...text.slice(head.length)][0] ?? '';
        assert.ok(
          bytes(head) + bytes(next) + MARKER_BYTES > CAP_BYTES,
          `${ch} pad ${pad}: one more code point would not fit`,
        );
      }
    }
  });

  test('a smaller cap works the same; a marker longer than the cap is a caller error', () => {
    const capped = capText('0123456789'.repeat(10), 'f', 30);
    assert.deepEqual(capped, { text: '012345678…[truncated, see f]', truncated: true, fullBytes: 100 });
    assert.equal(bytes(capped.text), 30);
    assert.throws(() => capText('x'.repeat(100), 'a/very/long/place/to/look', 10), RangeError);
  });
});

describe('utf8Length', () => {
  test('agrees with Buffer.byteLength, lone surrogates (written as U+FFFD) included', () => {
    for (const s of [
      '',
      'abc',
      'é',
      '€',
      '😀',
      'a😀b',
      '\ud800',
      '\udc00x',
      'x\ud83d',
      '\ud83d\ude00\ud83d',
      '日本語',
    ]) {
      assert.equal(utf8Length(s), Buffer.byteLength(s, 'utf8'), JSON.stringify(s));
    }
  });
});
