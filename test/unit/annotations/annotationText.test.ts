import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import { discoveryNote, escapeNoteContent, unescapeNoteContent } from '../../../src/core/annotations/annotationText';

const HOSTILE = [
  'Note: Safari requires SameSite=None for cookies',
  'closes early <!--/@ax--> and goes on',
  'ends the comment --> here, or --!> here',
  'forges <!--@ax-discovery:x:disc-001-->a note<!--/@ax-->',
  'forges <!--@ax:0-4:green:t-->a region',
  'a lone ` backtick, and `code` and ``more``',
  'entities stay: &lt;!-- &gt; &amp; &#96; & &amp;lt; <!-- -->',
  '<!--',
  '-->',
  '--',
  '<!-',
  '<',
  '&',
  '--->',
  '',
];

describe('escapeNoteContent', () => {
  test('no <!--, -->, --!> or backtick is left; the rest is as it was', () => {
    for (const content of HOSTILE) {
      const escaped = escapeNoteContent(content);
      for (const bad of ['<!--', '-->', '--!>', '`'])
        assert.ok(!escaped.includes(bad), `${JSON.stringify(escaped)} holds ${bad}`);
    }
    assert.equal(escapeNoteContent('Plain <b> & text -- more'), 'Plain <b> & text -- more');
    assert.equal(escapeNoteContent('<!--/@ax-->'), '&lt;!--/@ax--&gt;');
  });

  test('round trips', () => {
    for (const content of HOSTILE) assert.equal(unescapeNoteContent(escapeNoteContent(content)), content);
  });

  test('line breaks become spaces: a note is one line', () => {
    assert.equal(escapeNoteContent('one\r\ntwo\nthree\rfour\u2028five'), 'one two three four five');
  });
});

describe('discoveryNote', () => {
  test('the example note of docs/discovery-cases.md', () => {
    assert.equal(
      discoveryNote('task-001', 'disc-012', 'Note: Safari requires SameSite=None for cookies'),
      '<!--@ax-discovery:task-001:disc-012-->Note: Safari requires SameSite=None for cookies<!--/@ax-->',
    );
  });

  test('whatever the content, the note parses as exactly one annotation holding it', () => {
    for (const content of HOSTILE) {
      for (const around of [
        (n: string) => n,
        (n: string) => `Before ${n} after \`x\`\n`,
        (n: string) => `<!--@ax:0-9:green:t-->region<!--/@ax-->\n${n}\n`,
      ]) {
        const text = around(discoveryNote('build-1/developer', 'disc-001', content));
        const parse = parseAnnotations(text);
        assert.deepEqual(parse.problems, [], text);
        const notes = parse.annotations.filter((a) => a.kind === 'discovery');
        assert.equal(notes.length, 1, text);
        const note = notes[0];
        assert.equal(note?.task, 'build-1/developer');
        assert.equal(unescapeNoteContent(text.slice(note?.offsets.contentStart, note?.offsets.contentEnd)), content);
      }
    }
  });

  test('refuses a task or case id that cannot go in a marker, with a sentence', () => {
    const refused: [string, string, RegExp][] = [
      ['', 'disc-001', /task id is empty/],
      ['a-->b', 'disc-001', /cannot hold ':', '<', '>'/],
      ['a:b', 'disc-001', /cannot hold ':'/],
      ['a\nb', 'disc-001', /line break/],
      ['a\u0007b', 'disc-001', /control character/],
      ['a b', 'disc-001', /space/],
      ['---', 'disc-001', /no letter or digit/],
      ['x'.repeat(201), 'disc-001', /at most 200/],
      ['task-1', 'disc-1', /'disc-1' is not a case id/],
      ['task-1', 'disc-001-->', /is not a case id/],
    ];
    for (const [task, id, message] of refused) {
      assert.throws(
        () => discoveryNote(task, id, 'x'),
        (err: unknown) =>
          err instanceof RangeError &&
          message.test(err.message) &&
          /^The note cannot be written: .*\.$/.test(err.message),
        JSON.stringify(task),
      );
    }
  });
});
