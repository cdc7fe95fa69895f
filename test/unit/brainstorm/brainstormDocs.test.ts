// The brainstorm's markdown for people: round files, the result document, the pointer files, and
// that no topic, question or answer can add a heading, close a fence or hide behind invisible
// characters in any of them (the digest included, which a build feeds to a model).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AWAITING_ANSWER,
  inlineText,
  parseBrainstormsPointer,
  renderBrainstormDocument,
  renderBrainstormsPointer,
  renderRoundFile,
  renderSeededFromPointer,
} from '../../../src/core/brainstorm/brainstormDocs';
import { BrainstormError, SKIPPED_ANSWER } from '../../../src/core/brainstorm/brainstormTypes';
import type { BrainstormRound, BrainstormSession } from '../../../src/core/brainstorm/brainstormTypes';
import { brainstormDigest, toContext } from '../../../src/core/brainstorm/contextFile';

/** A complete two-round brainstorm seeded from plan `crm-brief`; `over` replaces any part. */
function session(over: Partial<BrainstormSession> = {}): BrainstormSession {
  const rounds: BrainstormRound[] = [
    {
      round: 1,
      questions: [
        { text: 'Which database?', angle: 'technical', priority: 2 },
        { text: 'Who will use it day to day?', angle: 'ux', priority: 1 },
        { text: 'What if two agents edit one contact?', angle: 'edge-cases', priority: 4 },
      ],
      answers: [
        { kind: 'answered', text: 'Postgres.' },
        { kind: 'answered', text: 'Five agents,\non phones.' },
        { kind: 'skipped' },
      ],
    },
    {
      round: 2,
      questions: [{ text: 'Must it work offline?', angle: 'technical', priority: 3 }],
      answers: [{ kind: 'answered', text: 'Yes, in open houses.' }],
    },
  ];
  return {
    slug: 'crm',
    topic: 'A CRM for realtors',
    seed: { slug: 'crm-brief', file: 'idea-brief.md', text: 'the brief' },
    createdAt: Date.UTC(2025, 0, 2, 9, 30),
    minRounds: 1,
    maxRounds: 5,
    inquisitors: {
      ux: { status: 'success' },
      technical: { status: 'parse_error', detail: 'no JSON object in the reply' },
      'edge-cases': { status: 'success' },
    },
    rounds,
    summary: {
      topic: 'A phone-first CRM for a small realty team',
      keyInsights: ['Agents work from phones', 'Deals matter more than contacts'],
      decisions: ['Postgres behind a web app'],
      openQuestions: ['How is it priced?'],
    },
    phase: { kind: 'complete' },
    ...over,
  };
}

/**
 * What a CommonMark reader sees of the block structure: the ATX headings outside fences, the
 * contents of each fenced block, and whether a fence is left open at the end.
 */
function structure(md: string): { headings: string[]; blocks: string[]; outside: string; unclosed: boolean } {
  const headings: string[] = [];
  const blocks: string[] = [];
  const outside: string[] = [];
  let open: { char: string; length: number; lines: string[] } | undefined;
  for (const line of md.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open !== undefined) {
      if (fence && fence[1]![0] === open.char && fence[1]!.length >= open.length && fence[2]!.trim() === '') {
        blocks.push(open.lines.join('\n'));
        open = undefined;
      } else {
        open.lines.push(line);
      }
    } else if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
      open = { char: fence[1]![0]!, length: fence[1]!.length, lines: [] };
    } else {
      outside.push(line);
      if (/^ {0,3}#{1,6}(\s|$)/.test(line)) headings.push(line);
    }
  }
  return { headings, blocks, outside: outside.join('\n'), unclosed: open !== undefined };
}

function section(md: string, heading: string): string {
  const start = md.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `a section ${heading}`);
  const level = heading.indexOf(' ');
  const next = md.slice(start + heading.length + 2).search(new RegExp(`^#{1,${level}} `, 'm'));
  return next < 0 ? md.slice(start) : md.slice(start, start + heading.length + 2 + next);
}

describe('renderRoundFile', () => {
  test('round 1: the topic, the inquisitor statuses, each question numbered with angle and priority, and its answer', () => {
    const md = renderRoundFile(session(), 1);
    assert.match(md, /^# Brainstorm round 1: A CRM for realtors\n/);
    assert.match(
      section(md, '## Inquisitors'),
      /- UX: success\n- Technical: parse_error — no JSON object in the reply\n- Edge cases: success/,
    );
    assert.match(
      md,
      /### 1\. Technical, priority 2\n\n```text\nWhich database\?\n```\n\n\*\*Answer\*\*\n\n```text\nPostgres\.\n```/,
    );
    assert.match(
      md,
      /### 2\. UX, priority 1\n\n```text\nWho will use it day to day\?\n```\n\n\*\*Answer\*\*\n\n```text\nFive agents,\non phones\.\n```/,
    );
    assert.match(
      md,
      /### 3\. Edge cases, priority 4\n\n```text\nWhat if two agents edit one contact\?\n```\n\n\*\*Answer:\*\* \[skipped by user\]\n$/,
    );
    assert.ok(md.includes(SKIPPED_ANSWER));
    assert.doesNotMatch(md, /Must it work offline/, 'only its own round');
  });

  test('later rounds carry no inquisitor statuses', () => {
    const md = renderRoundFile(session(), 2);
    assert.match(md, /^# Brainstorm round 2: A CRM for realtors\n/);
    assert.doesNotMatch(md, /Inquisitors|parse_error/);
    assert.match(
      md,
      /### 1\. Technical, priority 3\n\n```text\nMust it work offline\?\n```\n\n\*\*Answer\*\*\n\n```text\nYes, in open houses\.\n```/,
    );
  });

  test('a round waiting for the person says so for every question, and skips none', () => {
    const s = session();
    s.rounds[1] = {
      round: 2,
      questions: [...s.rounds[1]!.questions, { text: 'Which phones?', angle: 'ux', priority: 2 }],
    };
    const md = renderRoundFile(s, 2);
    assert.equal(md.split(`**Answer:** ${AWAITING_ANSWER}`).length - 1, 2);
    assert.doesNotMatch(md, /skipped by user|\*\*Answer\*\*\n/);
  });

  test('an inquisitor that left no outcome is shown as empty', () => {
    const { inquisitors: _inq, ...rest } = session();
    assert.match(renderRoundFile(rest, 1), /- UX: empty\n- Technical: empty\n- Edge cases: empty/);
  });

  test('a round that does not exist is a caller error', () => {
    assert.throws(() => renderRoundFile(session(), 3), RangeError);
  });
});

describe('renderBrainstormDocument', () => {
  const md = renderBrainstormDocument(session());

  test('the title, when, how many rounds, what it was seeded from, and the topic as understood', () => {
    assert.match(md, /^# Brainstorm: A CRM for realtors\n/);
    assert.match(md, /^- Created: 2025-01-02 09:30 UTC$/m);
    assert.match(md, /^- Rounds: 2$/m);
    assert.match(md, /^- Seeded from: \[crm-brief\/idea-brief\.md\]\(\.\.\/crm-brief\/idea-brief\.md\)$/m);
    assert.match(md, /^- Topic as understood: A phone-first CRM for a small realty team$/m);
  });

  test('the summary as bullet lists, "None." where empty', () => {
    assert.equal(
      section(md, '## Key insights').trim(),
      '## Key insights\n\n- Agents work from phones\n- Deals matter more than contacts',
    );
    assert.equal(section(md, '## Decisions').trim(), '## Decisions\n\n- Postgres behind a web app');
    assert.equal(section(md, '## Open questions').trim(), '## Open questions\n\n- How is it priced?');
    const s = session();
    s.summary = { ...s.summary!, decisions: [], openQuestions: [] };
    const empty = renderBrainstormDocument(s);
    assert.equal(section(empty, '## Decisions').trim(), '## Decisions\n\nNone.');
    assert.equal(section(empty, '## Open questions').trim(), '## Open questions\n\nNone.');
  });

  test('questions and answers grouped by round, then by angle in the order UX, technical, edge cases', () => {
    const qa = section(md, '## Questions and answers');
    assert.deepEqual(structure(qa).headings, [
      '## Questions and answers',
      '### Round 1',
      '#### UX',
      '##### Question 2 (priority 1)',
      '#### Technical',
      '##### Question 1 (priority 2)',
      '#### Edge cases',
      '##### Question 3 (priority 4)',
      '### Round 2',
      '#### Technical',
      '##### Question 1 (priority 3)',
    ]);
    assert.match(qa, /Who will use it day to day\?\n```\n\n\*\*Answer\*\*\n\n```text\nFive agents,\non phones\.\n```/);
    assert.match(qa, /What if two agents edit one contact\?\n```\n\n\*\*Answer:\*\* \[skipped by user\]/);
  });

  test('no seed: no seeded-from line; no summary yet: every list "None."', () => {
    const { seed: _seed, summary: _summary, ...rest } = session();
    const doc = renderBrainstormDocument(rest);
    assert.doesNotMatch(doc, /Seeded from|Topic as understood/);
    assert.equal(doc.split('\n\nNone.\n').length - 1, 3);
  });
});

describe('untrusted text cannot shape the markdown', () => {
  const FAKE = 'What about this?\n```````\n## Fake heading\n~~~\n# Another';
  const hostile = (): BrainstormSession =>
    session({
      topic: 'CRM\n# Injected title <img src=x onerror=alert(1)>',
      rounds: [
        {
          round: 1,
          questions: [
            { text: FAKE, angle: 'ux', priority: 1 },
            { text: '``` closes?\n## Fake too', angle: 'technical', priority: 2 },
          ],
          answers: [{ kind: 'answered', text: '````\n## Fake answer heading\n````' }, { kind: 'skipped' }],
        },
      ],
      inquisitors: {
        ux: { status: 'success' },
        technical: { status: 'timeout', detail: 'late\n## Fake status heading' },
        'edge-cases': { status: 'empty' },
      },
      summary: {
        topic: 'x\n## Fake summary heading',
        keyInsights: ['one\n## Fake insight heading', '- nested?', '1. numbered?'],
        decisions: ['[click](javascript:alert(1)) ![track](https://example.com/p.png)'],
        openQuestions: ['<script>alert(1)</script>'],
      },
    });

  /** The headings of round 1's first two questions, in the document and in the digest. */
  const qaHeadings = [
    '## Questions and answers',
    '### Round 1',
    '#### UX',
    '##### Question 1 (priority 1)',
    '#### Technical',
    '##### Question 2 (priority 2)',
  ];
  const docs: [string, (s: BrainstormSession) => string, string[]][] = [
    [
      'the round file',
      (s) => renderRoundFile(s, 1),
      [
        '# Brainstorm round 1: ',
        '## Inquisitors',
        '## Questions',
        '### 1. UX, priority 1',
        '### 2. Technical, priority 2',
      ],
    ],
    [
      'the document',
      renderBrainstormDocument,
      ['# Brainstorm: ', '## Key insights', '## Decisions', '## Open questions', ...qaHeadings],
    ],
    [
      'the digest',
      (s) => brainstormDigest(toContext(s)),
      ['# Brainstorm digest: ', '## Vision', '## Constraints', '## Open questions', ...qaHeadings],
    ],
  ];
  for (const [name, render, expected] of docs) {
    test(`${name}: only its own headings, every fence closed, each question and answer verbatim in one`, () => {
      const md = render(hostile());
      const { headings, blocks, outside, unclosed } = structure(md);
      assert.equal(unclosed, false, 'no fence is left open');
      assert.deepEqual(
        headings.map((h, i) => (i === 0 ? h.slice(0, expected[0]!.length) : h)),
        expected,
      );
      assert.ok(blocks.includes(FAKE), 'the question with the backtick run is one fenced block, whole');
      assert.ok(blocks.includes('``` closes?\n## Fake too'));
      // Outside fences, no HTML tag and no link but ours (to a sibling plan) is left unescaped.
      assert.doesNotMatch(outside, /(?<!\\)<[a-z/!]/i, 'no raw HTML');
      assert.doesNotMatch(outside, /(?<!\\)\]\((?!\.\.\/)/, 'no link or image from the model');
    });
  }

  test('the title stays one line, with markdown escaped', () => {
    const md = renderBrainstormDocument(hostile());
    assert.equal(md.split('\n')[0], '# Brainstorm: CRM \\# Injected title \\<img src=x onerror=alert(1)\\>');
  });

  test('bullets cannot nest a list or start a heading', () => {
    const md = renderBrainstormDocument(hostile());
    assert.equal(
      section(md, '## Key insights').trim(),
      '## Key insights\n\n- one \\#\\# Fake insight heading\n- \\- nested?\n- 1\\. numbered?',
    );
  });

  test('invisible and control characters are shown, tabs and emoji kept', () => {
    const s = session();
    s.topic = 'CRM \u202eevil';
    s.rounds[0]!.answers![0] = { kind: 'answered', text: 'tab\there \u200b zero-width, esc \u001b[31m, family 👨‍👩‍👧' };
    for (const md of [renderRoundFile(s, 1), renderBrainstormDocument(s), brainstormDigest(toContext(s))]) {
      assert.doesNotMatch(md, /[\u202e\u200b\u001b]/, 'no raw bidi, zero-width or escape character');
      assert.ok(
        md.includes('CRM \\\\u202eevil'),
        'the override is shown in the title (its backslash escaped for markdown)',
      );
      assert.ok(md.includes('tab\there \\u200b zero-width, esc \\x1b[31m, family 👨‍👩‍👧'), 'shown in the fenced answer');
    }
  });

  test('inlineText: one line, markdown punctuation escaped', () => {
    assert.equal(
      inlineText('  a *b*\n\n_c_ `d` [e](f) <g> &amp; #h ~i~ |j|  '),
      'a \\*b\\* \\_c\\_ \\`d\\` \\[e\\](f) \\<g\\> \\&amp; \\#h \\~i\\~ \\|j\\|',
    );
    assert.equal(inlineText('+ plus'), '\\+ plus');
    assert.equal(inlineText('12) twelve'), '12\\) twelve');
    assert.equal(inlineText('Plain words, 2024.'), 'Plain words, 2024.');
  });
});

describe('pointer files', () => {
  test("seeded-from.md links to the seed plan's file beside this plan", () => {
    const md = renderSeededFromPointer({ slug: 'crm-brief', file: 'idea-brief.md' });
    assert.match(md, /^# Seeded from\n/);
    assert.match(md, /\[crm-brief\/idea-brief\.md\]\(\.\.\/crm-brief\/idea-brief\.md\)/);
    assert.match(
      renderSeededFromPointer({ slug: 'crm', file: 'my notes (v2).md' }),
      /\]\(\.\.\/crm\/my%20notes%20\(v2\)\.md\)/,
    );
  });

  test("brainstorms.md lists each brainstorm's document, and reads back to the same slugs", () => {
    const md = renderBrainstormsPointer(['crm-deeper', 'crm-2']);
    assert.match(md, /^# Brainstorms from this plan\n/);
    assert.match(md, /^- \[crm-deeper\/00-brainstorming\.md\]\(\.\.\/crm-deeper\/00-brainstorming\.md\)$/m);
    assert.match(md, /^- \[crm-2\/00-brainstorming\.md\]\(\.\.\/crm-2\/00-brainstorming\.md\)$/m);
    assert.deepEqual(parseBrainstormsPointer(md), ['crm-deeper', 'crm-2']);
  });

  test('a new brainstorm is appended: read, add, render keeps the old ones in order, once each', () => {
    const before = renderBrainstormsPointer(['crm-deeper']);
    const after = renderBrainstormsPointer([...parseBrainstormsPointer(before), 'crm-3', 'crm-deeper']);
    assert.deepEqual(parseBrainstormsPointer(after), ['crm-deeper', 'crm-3']);
  });

  test('no brainstorms yet: an empty list that reads back empty', () => {
    const md = renderBrainstormsPointer([]);
    assert.deepEqual(parseBrainstormsPointer(md), []);
    assert.deepEqual(parseBrainstormsPointer(''), []);
  });

  test('reading a hand-edited file keeps only links to real plan names', () => {
    const text = [
      '# Brainstorms',
      '- [ok](../good-one/00-brainstorming.md)',
      '- [renamed label](../second/00-brainstorming.md) with a note',
      '- [up](../../etc/00-brainstorming.md)',
      '- [caps](../Bad/00-brainstorming.md)',
      '- [nested](../a/b/00-brainstorming.md)',
      '- [other file](../third/notes.md)',
      '- [dup](../good-one/00-brainstorming.md)',
    ].join('\n');
    assert.deepEqual(parseBrainstormsPointer(text), ['good-one', 'second']);
  });

  test('a name that is no plan name is refused, not written into a link', () => {
    for (const bad of ['../x', 'Upper', '', 'a/b']) {
      assert.throws(
        () => renderBrainstormsPointer(['ok', bad]),
        (e: unknown) => e instanceof BrainstormError && e.kind === 'invalid',
      );
      assert.throws(
        () => renderSeededFromPointer({ slug: bad, file: 'idea-brief.md' }),
        (e: unknown) => e instanceof BrainstormError && e.kind === 'invalid',
      );
    }
  });
});
