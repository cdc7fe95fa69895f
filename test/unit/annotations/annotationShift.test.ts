import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import { shiftedParse } from '../../../src/core/annotations/annotationShift';
import type { TextChange } from '../../../src/core/annotations/annotationShift';

const apply = (text: string, c: TextChange) =>
  text.slice(0, c.rangeOffset) + c.text + text.slice(c.rangeOffset + c.rangeLength);

const SPEC = [
  '# Login',
  '',
  'Prose before the region, with - dashes - and words.',
  '<!--@ax:0-45:green:task-001-->Users log in with email.<!--/@ax-->',
  '<!--@ax-discovery:task-001:disc-012-->Safari needs SameSite=None<!--/@ax-->',
  'More prose after it.',
  '<!--@ax:50-90:blue:task-002-->A region',
  'over two lines<!--/@ax-->',
  'Tail text.',
].join('\n');

describe('shiftedParse: a keystroke in prose moves offsets only', () => {
  test('typing a letter in prose before the annotations: same ranges, offsets after it moved by one', () => {
    const before = parseAnnotations(SPEC);
    const change = { rangeOffset: SPEC.indexOf('dashes'), rangeLength: 0, text: 'x' };
    const after = apply(SPEC, change);
    const shifted = shiftedParse(before, SPEC, after, change);
    assert.ok(shifted, 'an edit in prose is shifted, not re-parsed');
    assert.deepEqual(shifted, parseAnnotations(after));
    assert.equal(shifted.annotations[0]?.offsets.start, (before.annotations[0]?.offsets.start ?? 0) + 1);
    assert.deepEqual(shifted.annotations[0]?.range, before.annotations[0]?.range);
  });

  test('deleting a word in the middle of a two-line region moves its end only', () => {
    const before = parseAnnotations(SPEC);
    const change = { rangeOffset: SPEC.indexOf('over '), rangeLength: 5, text: '' };
    const after = apply(SPEC, change);
    // "over two lines<!--/@ax-->" holds '<': this line is a marker's line, so it is parsed again.
    assert.equal(shiftedParse(before, SPEC, after, change), undefined);
    const prose = { rangeOffset: SPEC.indexOf('Tail'), rangeLength: 4, text: 'End' };
    assert.deepEqual(shiftedParse(before, SPEC, apply(SPEC, prose), prose), parseAnnotations(apply(SPEC, prose)));
  });

  test('edits that can change the parse are refused: a marker line, a line break, a backtick, a blank line filled, a line emptied', () => {
    const before = parseAnnotations(SPEC);
    const refused: TextChange[] = [
      { rangeOffset: SPEC.indexOf('task-001'), rangeLength: 1, text: 'T' },
      { rangeOffset: SPEC.indexOf('More'), rangeLength: 0, text: '\n' },
      { rangeOffset: SPEC.indexOf('More'), rangeLength: 0, text: '`' },
      { rangeOffset: SPEC.indexOf('More'), rangeLength: 0, text: '~' },
      { rangeOffset: SPEC.indexOf('More'), rangeLength: 0, text: '<' },
      { rangeOffset: SPEC.indexOf('\n\n') + 1, rangeLength: 0, text: 'x' },
      { rangeOffset: SPEC.indexOf('Tail text.'), rangeLength: 'Tail text.'.length, text: '' },
    ];
    // A letter typed between two backticks splits their run: the marker below stops being code.
    const spanned = 'x `` y\nz <!--@ax-discovery:t1:disc-001-->n<!--/@ax--> ``\n';
    const split = { rangeOffset: 3, rangeLength: 0, text: 'q' };
    assert.equal(parseAnnotations(apply(spanned, split)).annotations.length, 1);
    assert.equal(shiftedParse(parseAnnotations(spanned), spanned, apply(spanned, split), split), undefined);
    // A line that becomes a list item ends the paragraph the code span ran on: the marker is no longer code.
    const listed = 'a ` b\n-c\nz <!--@ax-discovery:t1:disc-001-->n<!--/@ax--> `\n';
    const item = { rangeOffset: 7, rangeLength: 0, text: ' ' };
    assert.notEqual(
      parseAnnotations(apply(listed, item)).annotations.length,
      parseAnnotations(listed).annotations.length,
    );
    assert.equal(shiftedParse(parseAnnotations(listed), listed, apply(listed, item), item), undefined);
    // A fence of tildes loses a tilde: the marker after it stops being code.
    const fenced = '~~~\n<!--@ax:1-2:green:t1-->x<!--/@ax-->\n~~~\n';
    const shorter = { rangeOffset: 0, rangeLength: 1, text: '' };
    assert.equal(shiftedParse(parseAnnotations(fenced), fenced, apply(fenced, shorter), shorter), undefined);
    for (const change of refused)
      assert.equal(shiftedParse(before, SPEC, apply(SPEC, change), change), undefined, JSON.stringify(change));
  });

  test('random edits: whenever a shift is given it equals a full parse of the new text', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const lines = [
      'Prose with `code` and words - and dashes.',
      'a ``double`` span and ` one',
      'arrow -- here',
      '   ~~ not a fence ~~~',
      ' ``',
      'Prose with words - and dashes.',
      'More - prose !',
      '  indented prose',
      '',
      ' ',
      '<!--@ax:1-2:green:t1-->Region text',
      '<!--@ax-discovery:t1:disc-001-->note<!--/@ax-->',
      'ends here<!--/@ax-->',
      '<!-- a comment',
      'still a comment -->',
      'a `code <!--/@ax--> span',
      'span ends` here',
      '```',
      '~~~',
      '<!--@ax:1-2:red:t2-->',
    ];
    const breaks = ['\n', '\n', '\r\n', '\r'];
    const alphabet = ['a', ' ', '-', '!', '@', ':', '`', '<', '>', '~', '\n', '\t', 'ab', 'xyz'];
    let shifted = 0;
    for (let round = 0; round < 3000; round++) {
      let text = '';
      for (let i = 0, n = 3 + random(20); i < n; i++)
        text += (lines[random(lines.length)] ?? '') + (breaks[random(breaks.length)] ?? '');
      const before = parseAnnotations(text);
      const at = random(text.length + 1);
      const change = {
        rangeOffset: at,
        rangeLength: random(Math.min(4, text.length - at) + 1),
        text: random(3) === 0 ? '' : (alphabet[random(alphabet.length)] ?? ''),
      };
      const after = apply(text, change);
      const result = shiftedParse(before, text, after, change);
      if (result === undefined) continue;
      shifted++;
      assert.deepEqual(result, parseAnnotations(after), JSON.stringify({ text, change }));
    }
    assert.ok(shifted > 300, `only ${shifted} of the random edits were shifted: the check proves little`);
  });
});
