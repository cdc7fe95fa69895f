import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DUPLICATE_SIMILARITY, MAX_QUESTIONS } from '../../../src/core/brainstorm/brainstormTypes';
import type { Angle, Question } from '../../../src/core/brainstorm/brainstormTypes';
import { jaccard, mergeQuestions, normalizeQuestion, tokenSet } from '../../../src/core/brainstorm/merge';

const q = (text: string, angle: Angle, priority: number): Question => ({ text, angle, priority });
const texts = (questions: Question[]) => questions.map((question) => question.text);

/** A seeded shuffle, so a failing order can be reproduced. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('normalizeQuestion, tokenSet, jaccard', () => {
  const rows: [string, string][] = [
    ['What’s the LIMIT?', 'what s the limit'],
    ['  Should   exports\n\trun  nightly?? ', 'should exports run nightly'],
    ['ＡＰＩ keys — who owns them?', 'api keys who owns them'],
    ['Is the ﬁle (CSV/PDF) signed?', 'is the file csv pdf signed'],
    ['Café or cafe?', 'café or cafe'],
    ['?!…', ''],
  ];
  for (const [text, normalized] of rows) {
    test(`${JSON.stringify(text)} → ${JSON.stringify(normalized)}`, () =>
      assert.equal(normalizeQuestion(text), normalized));
  }

  test('tokens are a set: order and repeats do not matter', () => {
    assert.deepEqual([...tokenSet('Export, export the invoices!')].sort(), ['export', 'invoices', 'the']);
    assert.deepEqual(tokenSet('?'), new Set());
  });

  test('jaccard is shared over all tokens', () => {
    assert.equal(jaccard(tokenSet('a b c d'), tokenSet('a b c e')), 3 / 5);
    assert.equal(jaccard(tokenSet('a b'), tokenSet('c d')), 0);
    assert.equal(jaccard(tokenSet('b a'), tokenSet('a b')), 1);
    assert.equal(jaccard(tokenSet('?'), tokenSet('!')), 1);
    assert.equal(jaccard(tokenSet('?'), tokenSet('a')), 0);
  });
});

describe('mergeQuestions: near-duplicates', () => {
  interface Row {
    what: string;
    input: Question[];
    expected: Question[];
  }
  const FAILS_UX = q('What should happen when the export of a large period fails halfway?', 'ux', 1);
  const FAILS_EDGE = q('What should happen when an export of a large period fails halfway through?', 'edge-cases', 4);
  const WHO = q('Who exports invoices, the owner or the accountant?', 'ux', 2);
  const WHERE = q('Where would someone look for the export first?', 'ux', 3);

  const rows: Row[] = [
    {
      what: 'the same question from two angles: the less represented angle keeps its wording, with the more urgent priority',
      input: [FAILS_UX, WHO, WHERE, FAILS_EDGE],
      expected: [{ ...FAILS_EDGE, priority: 1 }, WHO, WHERE],
    },
    {
      what: 'angles equally represented: the more urgent priority keeps it',
      input: [
        q('Which formats should the export offer to accountants?', 'technical', 3),
        q('Which formats should the export offer accountants?', 'ux', 2),
      ],
      expected: [q('Which formats should the export offer accountants?', 'ux', 2)],
    },
    {
      what: 'same angle count and priority: the alphabetically first (normalized) wording keeps it',
      input: [
        q('Should exports run at night for big accounts?', 'ux', 2),
        q('should exports run at night for big accounts, too?', 'technical', 2),
      ],
      expected: [q('Should exports run at night for big accounts?', 'ux', 2)],
    },
    {
      what: 'exact duplicates differing in case and punctuation',
      input: [
        q('Who exports invoices?', 'ux', 2),
        q('WHO EXPORTS INVOICES', 'ux', 2),
        q('who exports invoices?!', 'ux', 1),
      ],
      expected: [q('who exports invoices?!', 'ux', 1)],
    },
    {
      what: 'the same words reordered',
      input: [q('Invoices: who exports them?', 'technical', 2), q('Who exports them, invoices?', 'technical', 3)],
      expected: [q('Invoices: who exports them?', 'technical', 2)],
    },
    {
      // 3 shared of 5 distinct tokens: exactly the threshold, which counts as the same question.
      what: `similarity exactly ${DUPLICATE_SIMILARITY}: one question`,
      input: [q('Export invoices as PDF?', 'ux', 1), q('Export invoices as CSV?', 'technical', 1)],
      expected: [q('Export invoices as CSV?', 'technical', 1)],
    },
    {
      // 4 shared of 7 distinct tokens: 0.571, just below.
      what: 'similarity 4/7, just below: both kept',
      input: [
        q('Can owners export yearly invoices?', 'ux', 1),
        q('Can owners export yearly credit notes?', 'technical', 2),
      ],
      expected: [
        q('Can owners export yearly invoices?', 'ux', 1),
        q('Can owners export yearly credit notes?', 'technical', 2),
      ],
    },
    {
      // 4 shared of 6 distinct tokens: 0.667, just above.
      what: 'similarity 4/6, just above: one question',
      input: [q('Can owners export yearly invoices?', 'ux', 1), q('Can owners export yearly notes?', 'technical', 2)],
      expected: [q('Can owners export yearly invoices?', 'ux', 1)],
    },
    {
      what: 'a chain a~b~c: the preferred one stays and blocks its neighbours only',
      input: [q('a b c d e', 'edge-cases', 1), q('a b c d f', 'ux', 1), q('a b c f g', 'ux', 1)],
      // 'a b c d e' is kept (edge-cases asked least); 'a b c d f' is its duplicate (4/6);
      // 'a b c f g' shares only 3 of 7 tokens with it and is kept.
      expected: [q('a b c f g', 'ux', 1), q('a b c d e', 'edge-cases', 1)],
    },
  ];
  for (const row of rows) {
    test(row.what, () => {
      assert.deepEqual(mergeQuestions(row.input), row.expected);
      for (let seed = 1; seed <= 5; seed++)
        assert.deepEqual(mergeQuestions(shuffled(row.input, seed)), row.expected, `seed ${seed}`);
    });
  }

  test('the similarity rows are really at the thresholds they claim', () => {
    const similarity = (a: string, b: string) => jaccard(tokenSet(a), tokenSet(b));
    assert.equal(similarity('Export invoices as PDF?', 'Export invoices as CSV?'), 0.6);
    assert.equal(similarity('Can owners export yearly invoices?', 'Can owners export yearly credit notes?'), 4 / 7);
    assert.equal(similarity('Can owners export yearly invoices?', 'Can owners export yearly notes?'), 4 / 6);
  });
});

describe('mergeQuestions: at most eight, every angle heard', () => {
  const ux = [
    q('Who exports invoices: the account owner, their accountant, or both?', 'ux', 1),
    q('Do people export one invoice at a time or a whole period at once?', 'ux', 1),
    q('Where would someone look for the export button first?', 'ux', 2),
    q('Should a finished export download at once or arrive by email?', 'ux', 2),
    q('What does a person see while a large export is still running?', 'ux', 2),
    q('How does someone pick the date range of an export?', 'ux', 3),
    q('Which file formats do accountants expect to receive?', 'ux', 3),
    q('Should the export remember the last settings a person used?', 'ux', 3),
    q('What should someone with no invoices yet see on the export page?', 'ux', 4),
    q('Can a keyboard-only user reach every export control?', 'ux', 4),
    q('Should the export page be translated into every supported language?', 'ux', 5),
    q('Would mobile users ever export invoices from a phone?', 'ux', 5),
  ];
  const technical = [
    q('Does the export run as a background job or inside the web request?', 'technical', 1),
    q('Which service renders PDF invoices today, and can it batch them?', 'technical', 2),
    q('Are exported files stored, and for how long, before they are deleted?', 'technical', 2),
    q("Should the CSV columns follow an accounting package's import schema?", 'technical', 3),
    q('How are currencies and tax rates represented in the exported data?', 'technical', 3),
    q('Does the public API need an export endpoint too?', 'technical', 4),
    q('What is the largest number of invoices a single customer has per year?', 'technical', 4),
    q('Should exports be signed so auditors can verify them?', 'technical', 5),
  ];
  const edge = [
    q('What happens when an invoice is corrected after it was exported?', 'edge-cases', 3),
    q('Which time zone decides the period an invoice belongs to?', 'edge-cases', 4),
    q('What if two exports of the same period are started at once?', 'edge-cases', 4),
    q('How is a cancelled invoice shown in an export?', 'edge-cases', 5),
  ];
  const all = [...ux, ...technical, ...edge];

  // The eight a person is asked: the best of each angle (the edge case at priority 3 gets in over
  // a technical question at priority 2), then the most urgent, alphabetically within a priority.
  const EXPECTED = [
    'Do people export one invoice at a time or a whole period at once?',
    'Who exports invoices: the account owner, their accountant, or both?',
    'Does the export run as a background job or inside the web request?',
    'Should a finished export download at once or arrive by email?',
    'What does a person see while a large export is still running?',
    'Where would someone look for the export button first?',
    'Are exported files stored, and for how long, before they are deleted?',
    'What happens when an invoice is corrected after it was exported?',
  ];

  test('the 24 questions are distinct (no pair at the duplicate threshold)', () => {
    for (const [i, a] of all.entries()) {
      for (const b of all.slice(i + 1))
        assert.ok(jaccard(tokenSet(a.text), tokenSet(b.text)) < DUPLICATE_SIMILARITY, `${a.text} ~ ${b.text}`);
    }
  });

  test('12 ux, 8 technical and 4 edge-case questions become these 8', () => {
    const merged = mergeQuestions(all);
    assert.equal(merged.length, MAX_QUESTIONS);
    assert.deepEqual(texts(merged), EXPECTED);
    assert.deepEqual(new Set(merged.map((question) => question.angle)), new Set(['ux', 'technical', 'edge-cases']));
    assert.ok(
      !texts(merged).includes('Which service renders PDF invoices today, and can it batch them?'),
      'a priority-2 question gave way to the edge-case floor',
    );
  });

  test('the same 8 in the same order whatever order the questions arrive in', () => {
    for (let seed = 1; seed <= 50; seed++)
      assert.deepEqual(texts(mergeQuestions(shuffled(all, seed))), EXPECTED, `seed ${seed}`);
  });

  test('the angles and priorities come through unchanged', () => {
    const merged = mergeQuestions(all);
    for (const question of merged)
      assert.ok(
        all.some((original) => original === question),
        question.text,
      );
    assert.deepEqual(
      merged.map((question) => `${question.angle}:${question.priority}`),
      ['ux:1', 'ux:1', 'technical:1', 'ux:2', 'ux:2', 'ux:2', 'technical:2', 'edge-cases:3'],
    );
  });

  test('a smaller max keeps the floor of one per angle, then priority', () => {
    assert.deepEqual(texts(mergeQuestions(all, { max: 3 })), [
      'Do people export one invoice at a time or a whole period at once?',
      'Does the export run as a background job or inside the web request?',
      'What happens when an invoice is corrected after it was exported?',
    ]);
    assert.deepEqual(texts(mergeQuestions(all, { max: 4 })), [
      'Do people export one invoice at a time or a whole period at once?',
      'Who exports invoices: the account owner, their accountant, or both?',
      'Does the export run as a background job or inside the web request?',
      'What happens when an invoice is corrected after it was exported?',
    ]);
    assert.deepEqual(mergeQuestions(all, { max: 0 }), []);
  });

  test('fewer than eight: all kept (minus duplicates), most urgent first, ux before technical before edge cases', () => {
    const input = [
      q('What happens when an invoice is corrected after it was exported?', 'edge-cases', 3),
      q('Are exported files stored, and for how long, before they are deleted?', 'technical', 2),
      q('How does someone pick the date range of an export?', 'ux', 3),
      q('Who exports invoices: the account owner, their accountant, or both?', 'ux', 1),
      q('WHO exports invoices: the account owner, their accountant or both', 'technical', 2),
    ];
    assert.deepEqual(texts(mergeQuestions(input)), [
      'Who exports invoices: the account owner, their accountant, or both?',
      'Are exported files stored, and for how long, before they are deleted?',
      'How does someone pick the date range of an export?',
      'What happens when an invoice is corrected after it was exported?',
    ]);
  });

  test('one angle only: its eight most urgent, alphabetically within a priority', () => {
    assert.deepEqual(texts(mergeQuestions(shuffled(ux, 3))), [
      'Do people export one invoice at a time or a whole period at once?',
      'Who exports invoices: the account owner, their accountant, or both?',
      'Should a finished export download at once or arrive by email?',
      'What does a person see while a large export is still running?',
      'Where would someone look for the export button first?',
      'How does someone pick the date range of an export?',
      'Should the export remember the last settings a person used?',
      'Which file formats do accountants expect to receive?',
    ]);
  });

  test('nothing in, nothing out', () => {
    assert.deepEqual(mergeQuestions([]), []);
  });
});

describe('mergeQuestions: earlier rounds (asked)', () => {
  const asked = [
    q('Who exports invoices, the owner or the accountant?', 'ux', 1),
    q('Should exports run as a background job?', 'technical', 2),
  ];

  test('a follow-up that repeats an earlier question is dropped; a new one is kept', () => {
    const followUps = [
      q('Who exports the invoices, the owner or the accountant?', 'ux', 1),
      q('should exports run as a background job', 'edge-cases', 1),
      q('You said the accountant exports: monthly or at year end?', 'ux', 2),
    ];
    assert.deepEqual(texts(mergeQuestions(followUps, { asked })), [
      'You said the accountant exports: monthly or at year end?',
    ]);
  });

  test('a question merely on the same subject is not a repeat', () => {
    const followUp = q('Should the background job email the owner when the export is ready?', 'technical', 2);
    assert.deepEqual(mergeQuestions([followUp], { asked }), [followUp]);
  });

  test('everything already asked: an empty round', () => {
    assert.deepEqual(mergeQuestions(asked, { asked }), []);
  });
});
