import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { parseAnnotations } from '../../../src/core/annotations/annotationParser';
import type { Annotation } from '../../../src/core/annotations/annotationParser';
import { unescapeNoteContent } from '../../../src/core/annotations/annotationText';
import { annotationsPreview } from '../../../src/core/annotations/previewPlugin';
import { markRegions, requirementTasks } from '../../../src/core/annotations/specEdits';
import { applyInsertion, noteInsertion, planNote } from '../../../src/core/annotations/specNotePlan';

const markdown = new MarkdownIt({ html: true });
const preview = new MarkdownIt({ html: true }).use(annotationsPreview);

const SPEC = `# Requirements

- [task-001] Users can log in with email and password.
- [task-002] Users can reset their password.
`;

const regions = (text: string) => parseAnnotations(text).annotations.filter((a) => a.kind === 'region');
const notes = (text: string) => parseAnnotations(text).annotations.filter((a) => a.kind === 'discovery');
const content = (text: string, a: Annotation) => text.slice(a.offsets.contentStart, a.offsets.contentEnd);

/** The text with the note of `caseId` inserted; fails when there is none. */
function noted(text: string, task: string, caseId: string, note: string): string {
  const ins = noteInsertion(text, task, caseId, note);
  assert.ok(ins, `a note of ${caseId} goes into ${JSON.stringify(text)}`);
  return applyInsertion(text, ins);
}

describe('requirementTasks', () => {
  test('lines starting with [TASK] after optional indentation and a list marker', () => {
    const text =
      '[task-001] plain\n  - [task-002] dash\n* [task-003] star\n+ [task-004] plus\n12. [task-005] numbered\n3) [task-006] paren\n- not [task-007] here\n';
    assert.deepEqual(
      requirementTasks(text).map((r) => [r.task, text.slice(r.start, r.end)]),
      [
        ['task-001', '[task-001] plain'],
        ['task-002', '[task-002] dash'],
        ['task-003', '[task-003] star'],
        ['task-004', '[task-004] plus'],
        ['task-005', '[task-005] numbered'],
        ['task-006', '[task-006] paren'],
      ],
    );
  });

  test('not in fenced code, not in an annotation, not a link definition, not a bad task id; trailing spaces left out', () => {
    const text =
      '```\n- [task-001] in a fence\n```\n<!--@ax:0-1:green:x-->- [task-002] inside<!--/@ax-->\n[task-003]: https://example.com\n- [a b] spaced\n- [] empty\n- [a:b] colon\n- [task-004] kept  \n';
    const found = requirementTasks(text);
    assert.deepEqual(
      found.map((r) => [r.task, text.slice(r.start, r.end)]),
      [['task-004', '[task-004] kept']],
    );
  });
});

describe('markRegions', () => {
  test('wraps each requirement line in a region whose START-END are the offsets of its text', () => {
    const { text, changed } = markRegions(SPEC, { color: 'green', tasks: 'all' });
    assert.deepEqual(changed, ['task-001', 'task-002']);
    const found = regions(text);
    assert.equal(found.length, 2);
    for (const r of found) {
      assert.equal(r.kind === 'region' && r.color, 'green');
      assert.equal(r.kind === 'region' && SPEC.slice(r.from, r.to), content(text, r));
    }
    assert.match(
      text,
      /^- <!--@ax:\d+-\d+:green:task-001-->\[task-001\] Users can log in with email and password\.<!--\/@ax-->$/m,
    );
    assert.deepEqual(parseAnnotations(text).problems, []);
  });

  test('only the tasks asked; idempotent; re-colours existing regions by their COLOR field alone', () => {
    const blue = markRegions(SPEC, { color: 'blue', tasks: ['task-002'] });
    assert.deepEqual(blue.changed, ['task-002']);
    assert.equal(regions(blue.text).length, 1);
    assert.deepEqual(markRegions(blue.text, { color: 'blue', tasks: ['task-002'] }), { text: blue.text, changed: [] });
    const green = markRegions(blue.text, { color: 'green', tasks: 'all' });
    assert.deepEqual(green.changed, ['task-001', 'task-002']);
    assert.equal(green.text, markRegions(SPEC, { color: 'green', tasks: 'all' }).text);
    assert.deepEqual(
      regions(green.text).map((r) => r.kind === 'region' && [r.task, r.color]),
      [
        ['task-001', 'green'],
        ['task-002', 'green'],
      ],
    );
    assert.deepEqual(markRegions(green.text, { color: 'green', tasks: 'all' }), { text: green.text, changed: [] });
    // recolor: false leaves the colour of existing regions.
    const kept = markRegions(blue.text, { color: 'green', tasks: 'all', recolor: false });
    assert.deepEqual(
      regions(kept.text).map((r) => r.kind === 'region' && [r.task, r.color]),
      [
        ['task-001', 'green'],
        ['task-002', 'blue'],
      ],
    );
  });

  test('keeps CRLF and never touches fenced code', () => {
    const text = '# R\r\n\r\n- [task-001] one\r\n```\r\n- [task-002] code\r\n```\r\n';
    const marked = markRegions(text, { color: 'green', tasks: 'all' }).text;
    assert.equal(marked.replace(/<!--[^>]*-->/g, ''), text);
    assert.equal(regions(marked).length, 1);
    assert.ok(marked.includes('```\r\n- [task-002] code\r\n```\r\n'));
  });

  test('a line whose text would take the closing marker along is left as it is', () => {
    const text =
      '- [task-004] fine\n- [task-001] a lone ` backtick\nand ` another\n- [task-002] ends a comment --> here\n- [task-003] opens <!-- one\n- [task-005] hidden by it once markers follow\n';
    const marked = markRegions(text, { color: 'green', tasks: 'all' });
    assert.deepEqual(parseAnnotations(marked.text).problems, []);
    for (const r of regions(marked.text))
      assert.equal(r.kind === 'region' && text.slice(r.from, r.to), content(marked.text, r));
    assert.deepEqual(marked.changed, ['task-004', 'task-002']);
  });

  test('a bad colour is a RangeError', () => {
    assert.throws(() => markRegions(SPEC, { color: 'gr:een', tasks: 'all' }), RangeError);
  });
});

describe('noteInsertion', () => {
  const marked = markRegions(SPEC, { color: 'green', tasks: 'all' }).text;

  test('on a line of its own after the region, indented as the list item, with the escaped note', () => {
    const text = noted(marked, 'task-001', 'disc-001', 'Safari needs SameSite=None');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes(':task-001-->'));
    assert.equal(lines[at + 1], '  <!--@ax-discovery:task-001:disc-001-->Safari needs SameSite=None<!--/@ax-->');
    assert.match(lines[at + 2] ?? '', /task-002/);
    assert.deepEqual(parseAnnotations(text).problems, []);
  });

  test('after the notes already following the region; idempotent per case', () => {
    const one = noted(marked, 'task-001', 'disc-001', 'first');
    const two = noted(one, 'task-001', 'disc-002', 'second');
    assert.deepEqual(
      notes(two).map((n) => content(two, n)),
      ['first', 'second'],
    );
    const lines = two.split('\n');
    const at = lines.findIndex((l) => l.includes(':task-001-->'));
    assert.match(lines[at + 2] ?? '', /disc-002/);
    assert.equal(noteInsertion(two, 'task-001', 'disc-002', 'second'), undefined);
    assert.equal(noteInsertion(two, 'task-002', 'disc-001', 'again'), undefined, 'a case has one note');
    assert.deepEqual(planNote(two, 'task-001', 'disc-002', 'x'), { kind: 'noted' });
  });

  test('no region of the task: undefined', () => {
    assert.equal(noteInsertion(SPEC, 'task-001', 'disc-001', 'x'), undefined);
    assert.deepEqual(planNote(marked, 'task-009', 'disc-001', 'x'), { kind: 'no-region' });
  });

  test('after the last region of the task, the outermost when regions of one task nest; adjacent regions', () => {
    const nested = '<!--@ax:0-9:green:t-->outer <!--@ax:0-1:blue:t-->inner<!--/@ax--> rest<!--/@ax--> tail\nnext\n';
    const text = noted(nested, 't', 'disc-001', 'n');
    assert.equal(text, `${nested.split('\n')[0]}\n<!--@ax-discovery:t:disc-001-->n<!--/@ax-->\nnext\n`);
    const adjacent =
      '<!--@ax:0-1:green:a-->A<!--/@ax--><!--@ax:1-2:green:b-->B<!--/@ax-->\n<!--@ax:2-3:green:a-->A2<!--/@ax-->\n';
    const after = noted(adjacent, 'a', 'disc-002', 'n');
    assert.equal(after, `${adjacent}<!--@ax-discovery:a:disc-002-->n<!--/@ax-->\n`);
    const b = noted(adjacent, 'b', 'disc-003', 'n');
    assert.equal(b.split('\n')[1], '<!--@ax-discovery:b:disc-003-->n<!--/@ax-->');
    for (const t of [text, after, b]) assert.deepEqual(parseAnnotations(t).problems, []);
  });

  test('CRLF: the note takes the document line breaks', () => {
    const crlf = markRegions(SPEC.replace(/\n/g, '\r\n'), { color: 'green', tasks: 'all' }).text;
    const text = noted(crlf, 'task-001', 'disc-001', 'x');
    assert.ok(!/[^\r]\n/.test(text), 'no lone LF');
    assert.equal(notes(text).length, 1);
  });

  test('a region in fenced code is no region', () => {
    const text = '```\n<!--@ax:0-1:green:task-001-->x<!--/@ax-->\n```\n';
    assert.equal(noteInsertion(text, 'task-001', 'disc-001', 'x'), undefined);
  });

  test('hostile content: exactly one note, which parses back with the content (line breaks as spaces)', () => {
    const hostile = [
      'ends --> early',
      'closes <!--/@ax--> here',
      'forges <!--@ax-discovery:task-001:disc-009-->x<!--/@ax-->',
      'a ` backtick and ``code``',
      'two\nlines\r\nhere',
      '&lt; stays',
    ];
    for (const c of hostile) {
      const text = noted(marked, 'task-001', 'disc-001', c);
      const found = notes(text);
      assert.equal(found.length, 1, c);
      assert.deepEqual(parseAnnotations(text).problems, [], c);
      const [note] = found;
      assert.ok(note?.kind === 'discovery' && note.caseId === 'disc-001' && note.task === 'task-001');
      assert.equal(unescapeNoteContent(content(text, note)), c.replace(/\r\n|\n/g, ' '), c);
      assert.equal(regions(text).length, 2, c);
    }
  });

  test('a bad task or case id is a RangeError', () => {
    assert.throws(() => noteInsertion(marked, 'task-001', 'case-1', 'x'), RangeError);
  });
});

describe('a leading BOM', () => {
  const text = '\ufeff- [task-001] first\n- [task-002] second\n';

  test('requirementTasks sees the first line after it; offsets into the text given', () => {
    assert.deepEqual(
      requirementTasks(text).map((r) => [r.task, text.slice(r.start, r.end)]),
      [
        ['task-001', '[task-001] first'],
        ['task-002', '[task-002] second'],
      ],
    );
  });

  test('markRegions wraps the first line too, keeps the BOM, and counts START-END without it (as VS Code does)', () => {
    const marked = markRegions(text, { color: 'green', tasks: 'all' });
    assert.deepEqual(marked.changed, ['task-001', 'task-002']);
    assert.ok(marked.text.startsWith('\ufeff- <!--@ax:'));
    const withoutBom = markRegions(text.slice(1), { color: 'green', tasks: 'all' });
    assert.equal(marked.text, `\ufeff${withoutBom.text}`);
    const seen = marked.text.slice(1);
    for (const r of regions(seen))
      assert.equal(r.kind === 'region' && text.slice(1).slice(r.from, r.to), content(seen, r));
    assert.deepEqual(markRegions(marked.text, { color: 'green', tasks: 'all' }), { text: marked.text, changed: [] });
  });

  test('a fence on the first line is code', () => {
    const fenced = '\ufeff```\n- [task-001] example\n```\n- [task-002] real\n';
    assert.deepEqual(markRegions(fenced, { color: 'green', tasks: 'all' }).changed, ['task-002']);
  });

  test('planNote: the offset is into the text given, the indentation the list item’s', () => {
    const marked = markRegions(text, { color: 'green', tasks: 'all' }).text;
    const out = noted(marked, 'task-001', 'disc-001', 'n');
    assert.ok(out.startsWith('\ufeff- <!--@ax:'));
    assert.equal(out.split('\n')[1], '  <!--@ax-discovery:task-001:disc-001-->n<!--/@ax-->');
  });
});

describe('which requirement lines are wrapped', () => {
  test('an unclosed <!-- in prose: the lines before it are marked, not the ones after', () => {
    const text = '- [t1] ok\n\nProse: write a <!-- to start a comment.\n\n- [t3] ok\n- [t4] ok\n- [t5] ok\n';
    const marked = markRegions(text, { color: 'green', tasks: 'all' });
    assert.deepEqual(marked.changed, ['t1']);
    assert.deepEqual(parseAnnotations(marked.text).problems, []);
    assert.equal(marked.text.replace(/<!--@ax:[^>]*-->|<!--\/@ax-->/g, ''), text);
    // One closed later: the lines inside the comment are not marked, the ones after it are.
    const closed = '- [t1] ok\n<!-- hidden\n- [t2] no\n-->\n- [t3] ok\n';
    assert.deepEqual(markRegions(closed, { color: 'green', tasks: 'all' }).changed, ['t1', 't3']);
  });

  test('a line ending with a backslash is not wrapped (`\\<` would be an escape); two backslashes are', () => {
    const text = '- [task-014] Paths use a backslash: C:\\\n- [task-015] Two: C:\\\\\n';
    const marked = markRegions(text, { color: 'green', tasks: 'all' });
    assert.deepEqual(marked.changed, ['task-015']);
    assert.ok(!/(^|[^\\])(\\\\)*\\<!--/.test(marked.text), 'no marker after an odd run of backslashes');
    assert.equal(markdown.render(marked.text.replace(/<!--@ax:[^>]*-->|<!--\/@ax-->/g, '')), markdown.render(text));
  });

  test('only list items and paragraphs of their own: a [TASK] line inside a paragraph would be cut by an HTML block', () => {
    const text =
      'Requirements:\n[task-001] in a paragraph\nmore\n\n[task-002] a paragraph of its own\n\n    [task-003] indented code\n\n- [task-004] listed\n1. [task-005] numbered\n';
    const marked = markRegions(text, { color: 'green', tasks: 'all' });
    assert.deepEqual(marked.changed, ['task-002', 'task-004', 'task-005']);
    const html = preview.render(marked.text);
    assert.match(html, /<p>Requirements:\n\[task-001\] in a paragraph\nmore<\/p>/, 'the paragraph is whole');
    assert.match(html, /<p><span [^>]*>\[task-002\] a paragraph of its own<\/span><\/p>/);
    assert.match(html, /<pre><code>\[task-003\] indented code\n<\/code><\/pre>/);
    assert.ok(markRegions('[task-001] alone', { color: 'green', tasks: 'all' }).text.startsWith('<!--@ax:0-'));
  });

  test('linear: a large spec with an unclosed comment halfway is marked in one go', () => {
    const half = Array.from({ length: 2000 }, (_, i) => `- [t${i}] ok`).join('\n');
    const text = `${half}\n\nA <!-- here\n\n${half.replace(/\[t/g, '[u')}\n`;
    const marked = markRegions(text, { color: 'green', tasks: 'all' });
    assert.equal(marked.changed.length, 2000);
    assert.ok(marked.changed.every((t) => t.startsWith('t')));
  });
});

describe('planNote checks the annotations, not only their count', () => {
  test('a note that would move a code span (hiding one note, showing another) is unsafe', () => {
    const text =
      'Intro [t1] <!--@ax:0-1:green:t1-->Req<!--/@ax--> see `\np <!--@ax-discovery:t2:disc-002-->B<!--/@ax--> ` <!--@ax-discovery:t2:disc-003-->A<!--/@ax--> `\n';
    assert.deepEqual(
      notes(text).map((n) => n.kind === 'discovery' && n.caseId),
      ['disc-003'],
    );
    assert.deepEqual(planNote(text, 't1', 'disc-077', 'learned'), { kind: 'unsafe' });
  });
});

describe('notes in tables and block quotes', () => {
  const cells = (html: string) => (html.match(/<td>/g) ?? []).length;

  test('a region in a table row: the note goes after the table, which stays whole', () => {
    const text =
      '| id | requirement |\n|----|-------------|\n| 1 | <!--@ax:0-1:green:task-001-->Users log in<!--/@ax--> |\n| 2 | Users log out |\n| 3 | Users reset |\n\nAfter.\n';
    const out = noted(text, 'task-001', 'disc-004', 'learned');
    assert.equal(
      out,
      text.replace(
        '| 3 | Users reset |\n',
        '| 3 | Users reset |\n<!--@ax-discovery:task-001:disc-004-->learned<!--/@ax-->\n',
      ),
    );
    const html = markdown.render(out);
    assert.equal(cells(html), 6, 'every row is still in the table');
    assert.ok(html.indexOf('learned') > html.indexOf('</table>'));
    assert.deepEqual(parseAnnotations(out).problems, []);
    // Another note of the task goes after the first.
    const two = noted(out, 'task-001', 'disc-005', 'again');
    assert.match(
      two,
      /disc-004-->learned<!--\/@ax-->\n<!--@ax-discovery:task-001:disc-005-->again<!--\/@ax-->\n\nAfter/,
    );
  });

  test('a region in a block quote: the note line takes the quote markers and stays in the quote', () => {
    const text = '> - <!--@ax:0-1:green:task-001-->[task-001] Users log in<!--/@ax-->\n> - [task-002] next\n\nAfter.\n';
    const out = noted(text, 'task-001', 'disc-004', 'learned');
    assert.equal(out.split('\n')[1], '>   <!--@ax-discovery:task-001:disc-004-->learned<!--/@ax-->');
    const html = markdown.render(out);
    assert.equal((html.match(/<blockquote>/g) ?? []).length, 1);
    assert.ok(html.indexOf('learned') < html.indexOf('</blockquote>'));
    assert.equal((html.match(/<li>/g) ?? []).length, 2);
    const nested = '> > <!--@ax:0-1:green:t-->[t] deep<!--/@ax-->\n';
    assert.equal(noted(nested, 't', 'disc-001', 'n').split('\n')[1], '> > <!--@ax-discovery:t:disc-001-->n<!--/@ax-->');
  });
});
