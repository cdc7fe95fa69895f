import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ANNOTATIONS_MAX, PROBLEMS_MAX, parseAnnotations } from '../../../src/core/annotations/annotationParser';
import type { Annotation, AnnotationParse } from '../../../src/core/annotations/annotationParser';

const REGION = '<!--@ax:0-45:green:task-001-->Users should be able to login with email/password.<!--/@ax-->';
const NOTE = '<!--@ax-discovery:task-001:disc-012-->Note: Safari requires SameSite=None for cookies<!--/@ax-->';
const CLOSE = '<!--/@ax-->';

/** What an annotation is, in a line: kind, id or colour, its content, depth and parent. */
function brief(text: string, a: Annotation): string {
  const id = a.kind === 'region' ? `${a.color} ${a.from}-${a.to}` : a.caseId;
  return `${a.kind} ${a.task} ${id} "${text.slice(a.offsets.contentStart, a.offsets.contentEnd)}" d${a.depth} p${a.parent}`;
}
const briefs = (text: string, parse: AnnotationParse) => parse.annotations.map((a) => brief(text, a));
const kinds = (parse: AnnotationParse) => parse.problems.map((p) => p.kind);
const pos = (line: number, character: number) => ({ line, character });

describe('parseAnnotations: the markers of docs/discovery-cases.md', () => {
  test('a green region and the discovery note after it, with their ranges', () => {
    const text = `# Login\n\n${REGION}\n${NOTE}\n`;
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.deepEqual(briefs(text, parse), [
      'region task-001 green 0-45 "Users should be able to login with email/password." d0 p-1',
      'discovery task-001 disc-012 "Note: Safari requires SameSite=None for cookies" d0 p-1',
    ]);
    const [region, note] = parse.annotations;
    assert.deepEqual(region?.range, { start: pos(2, 0), end: pos(2, REGION.length) });
    assert.deepEqual(region?.openRange, { start: pos(2, 0), end: pos(2, 30) });
    assert.deepEqual(region?.contentRange, { start: pos(2, 30), end: pos(2, REGION.length - CLOSE.length) });
    assert.deepEqual(region?.closeRange, { start: pos(2, REGION.length - CLOSE.length), end: pos(2, REGION.length) });
    assert.deepEqual(note?.range, { start: pos(3, 0), end: pos(3, NOTE.length) });
    assert.equal(text.slice(note?.offsets.start, note?.offsets.end), NOTE);
  });

  test('nested: a note inside a region inside a region, closed innermost first', () => {
    const text =
      '<!--@ax:0-99:blue:t1-->A <!--@ax:3-9:green:t2-->B <!--@ax-discovery:t2:disc-001-->n<!--/@ax--> C<!--/@ax--> D<!--/@ax-->';
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.deepEqual(briefs(text, parse), [
      'region t1 blue 0-99 "A <!--@ax:3-9:green:t2-->B <!--@ax-discovery:t2:disc-001-->n<!--/@ax--> C<!--/@ax--> D" d0 p-1',
      'region t2 green 3-9 "B <!--@ax-discovery:t2:disc-001-->n<!--/@ax--> C" d1 p0',
      'discovery t2 disc-001 "n" d2 p1',
    ]);
  });

  test('adjacent: markers back to back, and empty content', () => {
    const text = `${REGION}${NOTE}<!--@ax-discovery:task-001:disc-013--><!--/@ax-->`;
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.equal(parse.annotations.length, 3);
    assert.deepEqual(
      parse.annotations.map((a) => [a.offsets.start, a.offsets.end]),
      [
        [0, REGION.length],
        [REGION.length, REGION.length + NOTE.length],
        [REGION.length + NOTE.length, text.length],
      ],
    );
    assert.deepEqual(parse.annotations[2]?.contentRange.start, parse.annotations[2]?.contentRange.end);
  });

  test('a task id may hold slashes, dots and letters of any script; colours are names', () => {
    const text = '<!--@ax:10-10:light-blue2:build-3/développeur.1-->x<!--/@ax-->';
    assert.deepEqual(briefs(text, parseAnnotations(text)), [
      'region build-3/développeur.1 light-blue2 10-10 "x" d0 p-1',
    ]);
  });
});

describe('parseAnnotations: unbalanced markers', () => {
  test('an opening marker never closed is left out and reported at the marker', () => {
    const text = `intro\n<!--@ax-discovery:t:disc-002-->never closed\n${REGION}\n`;
    const parse = parseAnnotations(text);
    assert.deepEqual(kinds(parse), ['unclosed']);
    assert.deepEqual(parse.problems[0]?.range, { start: pos(1, 0), end: pos(1, 31) });
    assert.match(parse.problems[0]?.message ?? '', /never closed: add <!--\/@ax--> after the text it marks/);
    // The closing marker of the region closes the region (the innermost), so the note stays open.
    assert.deepEqual(
      parse.annotations.map((a) => [a.kind, a.depth, a.parent]),
      [['region', 0, -1]],
    );
  });

  test('a closing marker with nothing open is reported; the rest still parses', () => {
    const text = `${CLOSE}\n${NOTE}\n${CLOSE}`;
    const parse = parseAnnotations(text);
    assert.deepEqual(kinds(parse), ['unopened', 'unopened']);
    assert.deepEqual(parse.problems[1]?.range, { start: pos(2, 0), end: pos(2, CLOSE.length) });
    assert.match(parse.problems[0]?.message ?? '', /closes no annotation: remove it/);
    assert.equal(parse.annotations.length, 1);
  });
});

describe('parseAnnotations: malformed markers', () => {
  const cases: [string, RegExp][] = [
    ['<!--@ax:a-45:green:t-->', /'a-45' is not START-END/],
    ['<!--@ax:45:green:t-->', /'45' is not START-END/],
    ['<!--@ax:-1-4:green:t-->', /is not START-END/],
    ['<!--@ax:50-45:green:t-->', /the start 50 is after the end 45; write the smaller number first/],
    ['<!--@ax:0-45:gr een:t-->', /colour 'gr een' holds something other than letters/],
    ['<!--@ax:0-45::t-->', /the colour is empty/],
    ['<!--@ax:0-45:green:-->', /the task id is empty/],
    ['<!--@ax:0-45:green-->', /needs offsets, a colour and a task/],
    ['<!--@ax:0-45:green:t x-->', /holds a space/],
    ['<!--@ax-discovery:t:disc-12-->', /'disc-12' is not a case id/],
    ['<!--@ax-discovery:t:case-012-->', /'case-012' is not a case id/],
    ['<!--@ax-discovery::disc-012-->', /the task id is empty/],
    ['<!--@ax-discovery:disc-012-->', /needs a task and a case id/],
    ['<!--@ax-discovery-->', /is not an annotation marker/],
    [
      '<!--@axiom:0-1:green:t-->',
      /'<!--@axiom:0-1:green:t-->' is not an annotation marker: write <!--@ax:START-END:COLOR:TASK-->/,
    ],
  ];
  for (const [marker, message] of cases) {
    test(marker, () => {
      const text = `before\n  ${marker}content${CLOSE}\n`;
      const parse = parseAnnotations(text);
      assert.deepEqual(kinds(parse), ['malformed'], 'one problem: its closing marker is not reported again');
      assert.match(parse.problems[0]?.message ?? '', message);
      assert.deepEqual(parse.problems[0]?.range, { start: pos(1, 2), end: pos(1, 2 + marker.length) });
      assert.deepEqual(parse.annotations, []);
    });
  }

  test('a closing marker with more in it closes, and is reported', () => {
    const text = `${REGION.slice(0, -CLOSE.length)}<!--/@ax x-->`;
    const parse = parseAnnotations(text);
    assert.deepEqual(kinds(parse), ['malformed']);
    assert.match(parse.problems[0]?.message ?? '', /written exactly <!--\/@ax-->/);
    assert.equal(parse.annotations.length, 1);
  });

  test('a marker with no --> on its line is reported to the end of the line, and the next line still parses', () => {
    const text = `<!--@ax-discovery:t:disc-001 oops\n${NOTE}`;
    const parse = parseAnnotations(text);
    assert.deepEqual(kinds(parse), ['unterminated']);
    assert.deepEqual(parse.problems[0]?.range, { start: pos(0, 0), end: pos(0, 33) });
    assert.match(parse.problems[0]?.message ?? '', /no --> on its line: end it with -->/);
    assert.equal(parse.annotations.length, 1);
  });

  test('ordinary HTML comments are not markers, and hide what they hold', () => {
    const text = `<!-- a comment --> <!-- <!--@ax:0-1:green:t --> ${NOTE}`;
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.equal(parse.annotations.length, 1);
  });
});

describe('parseAnnotations: code', () => {
  test('backtick and tilde fences hide markers; a longer closing fence closes', () => {
    const text = [
      '```md',
      REGION,
      '<!--@ax:oops-->',
      '```',
      '~~~',
      CLOSE,
      '~~~~~',
      NOTE,
      '  ````',
      CLOSE,
      '```',
      '`````  ',
    ].join('\n');
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.deepEqual(
      parse.annotations.map((a) => a.range.start.line),
      [7],
    );
  });

  test('a fence of the other character, or a shorter one, does not close', () => {
    const text = ['````', '~~~~', '```', NOTE, '````', NOTE].join('\n');
    const parse = parseAnnotations(text);
    assert.deepEqual(
      parse.annotations.map((a) => a.range.start.line),
      [5],
    );
  });

  test('an unclosed fence runs to the end of the document', () => {
    const parse = parseAnnotations(`${NOTE}\n\n~~~\n${REGION}\n${CLOSE}\n`);
    assert.deepEqual(parse.problems, []);
    assert.equal(parse.annotations.length, 1);
  });

  test('four spaces of indent, or a backtick in the info string, make no fence', () => {
    const parse = parseAnnotations(`    \`\`\`\n${NOTE}\n\`\`\` a\`b\n${NOTE}\n`);
    assert.equal(parse.annotations.length, 2);
  });

  test('inline code hides markers; unmatched backticks are text', () => {
    const text = `Write \`${CLOSE}\` or \`\`${NOTE}\`\` in code, but \` alone is text: ${REGION}`;
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.deepEqual(
      parse.annotations.map((a) => a.kind),
      ['region'],
    );
  });

  test('inline code ends at a blank line; a comment opened first hides backticks', () => {
    const text = `a \` b\n\nx ${NOTE} <!-- \` --> and \`${CLOSE}\``;
    const parse = parseAnnotations(text);
    assert.deepEqual(parse.problems, []);
    assert.equal(parse.annotations.length, 1);
  });

  test('a line that begins with a comment is HTML: backticks there are no code', () => {
    const text = `<!--@ax-discovery:t:disc-001-->Use \` here<!--/@ax--> and \` there`;
    assert.equal(parseAnnotations(text).annotations.length, 1);
  });
});

describe('parseAnnotations: positions', () => {
  test('CRLF: a \\r\\n is one break, and no character of the line', () => {
    const text = `# Spec\r\n\r\nText ${REGION}\r\n${NOTE}\r\n`;
    const [region, note] = parseAnnotations(text).annotations;
    assert.deepEqual(region?.range, { start: pos(2, 5), end: pos(2, 5 + REGION.length) });
    assert.deepEqual(note?.range, { start: pos(3, 0), end: pos(3, NOTE.length) });
    assert.equal(note?.offsets.start, text.indexOf(NOTE));
  });

  test('a lone \\r is a break too, as VS Code counts it', () => {
    const [note] = parseAnnotations(`a\rb\r\n\n${NOTE}`).annotations;
    assert.deepEqual(note?.range.start, pos(3, 0));
  });

  test('a leading byte order mark is not a character of line 0; offsets still count it', () => {
    const text = `\uFEFF${NOTE}\n${NOTE}`;
    const [first, second] = parseAnnotations(text).annotations;
    assert.deepEqual(first?.range, { start: pos(0, 0), end: pos(0, NOTE.length) });
    assert.equal(first?.offsets.start, 1);
    assert.deepEqual(second?.range.start, pos(1, 0));
  });

  test('a multi-line annotation ends on its closing line', () => {
    const text = `<!--@ax:0-9:green:t-->line one\nline two<!--/@ax-->`;
    const [a] = parseAnnotations(text).annotations;
    assert.deepEqual(a?.contentRange, { start: pos(0, 22), end: pos(1, 8) });
  });
});

describe('parseAnnotations: size', () => {
  test('10 MB with one unclosed marker: one problem (linear: see npm run bench:annotations)', () => {
    const filler = 'Plain spec text, with `code` and <!-- comments --> and - dashes -.\n';
    const text = `<!--@ax:0-1:green:t-->${filler.repeat(Math.ceil(10_000_000 / filler.length))}`;
    const parse = parseAnnotations(text);
    assert.deepEqual(kinds(parse), ['unclosed']);
    assert.deepEqual(parse.annotations, []);
  });

  test('100,000 markers with no --> : each reported, at most PROBLEMS_MAX, then how many more', () => {
    const parse = parseAnnotations('<!--@ax'.repeat(100_000));
    assert.equal(parse.problems.length, PROBLEMS_MAX + 1);
    assert.equal(parse.problems[PROBLEMS_MAX]?.kind, 'tooMany');
    assert.match(
      parse.problems[PROBLEMS_MAX]?.message ?? '',
      /^99,000 more problems are not shown; fix the ones above first\.$/,
    );
  });

  test('at most ANNOTATIONS_MAX annotations, then a problem at the first left out', () => {
    const text = `${NOTE}\n`.repeat(ANNOTATIONS_MAX + 5);
    const parse = parseAnnotations(text);
    assert.equal(parse.annotations.length, ANNOTATIONS_MAX);
    assert.deepEqual(kinds(parse), ['tooMany']);
    assert.equal(parse.problems[0]?.range.start.line, ANNOTATIONS_MAX);
    assert.match(parse.problems[0]?.message ?? '', /10,005 annotations; the 5 from here on are not shown/);
  });

  test('deep nesting of unreadable markers stays linear and closes cleanly', () => {
    const text = `${'<!--@ax:x-->'.repeat(50_000)}${NOTE}${CLOSE.repeat(50_000)}`;
    const parse = parseAnnotations(text);
    assert.equal(parse.annotations.length, 1);
    assert.equal(parse.annotations[0]?.parent, -1);
    assert.equal(parse.problems.length, PROBLEMS_MAX + 1);
  });
});
