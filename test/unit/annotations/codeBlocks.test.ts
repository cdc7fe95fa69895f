import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';

const NOTE = '<!--@ax-discovery:t2:disc-001-->Safari needs SameSite<!--/@ax-->';
const ids = (text: string) =>
  parseAnnotations(text).annotations.map((a) => (a.kind === 'discovery' ? a.caseId : a.task));

describe('code spans end where CommonMark ends a paragraph: list items and headings', () => {
  test('a backtick in one list item does not open code that hides a note in the next', () => {
    const text = ['- [t1] type a backtick (`) to start code', `- [t2] ${NOTE}`, '- [t3] end it with another (`)'].join(
      '\n',
    );
    assert.deepEqual(ids(text), ['disc-001']);
  });

  test('an ATX heading is a paragraph of its own', () => {
    assert.deepEqual(ids(['# Title with a ` tick', `Body ${NOTE} and \` another`].join('\n')), ['disc-001']);
    assert.deepEqual(
      ids([`#Not a heading \` ${NOTE} \``].join('\n')),
      [],
      'without a space it is text, and the span is code',
    );
  });

  test("a list item's continuation lines are the same paragraph: the span still hides the note", () => {
    assert.deepEqual(ids(['- an item `code', `  more ${NOTE} code\``].join('\n')), []);
  });
});

describe('a byte order mark before the first line', () => {
  test('a fence on the first line is still a fence: markers in it are code, the ones after it are not', () => {
    const text = [
      '\uFEFF```markdown',
      '- <!--@ax:0-1:green:task-009-->[task-009] example<!--/@ax-->',
      '```',
      '',
      `- [t2] ${NOTE}`,
    ].join('\n');
    assert.deepEqual(ids(text), ['disc-001']);
  });
});

describe('task ids that look alike', () => {
  test('a task id with a zero-width space or a direction mark is a malformed marker, not a second task', () => {
    for (const task of ['task\u200b-001', 'task-\u202e001', 'ta\u00adsk']) {
      const parse = parseAnnotations(`<!--@ax:0-1:green:${task}-->x<!--/@ax-->`);
      assert.deepEqual(parse.annotations, []);
      assert.match(parse.problems[0]?.message ?? '', /invisible character/);
    }
  });
});
