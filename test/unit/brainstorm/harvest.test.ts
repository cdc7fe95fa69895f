import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_PRIORITY } from '../../../src/core/brainstorm/brainstormTypes';
import type { Angle, Question } from '../../../src/core/brainstorm/brainstormTypes';
import { harvestQuestions, parseSummary } from '../../../src/core/brainstorm/harvest';
import { CAP_BYTES } from '../../../src/core/prompt/cap';
import { cpuMsSince } from '../../support/cpuTime';

const KEPT_IN = '.groundwork/plans/x/.workers/inquisitor-ux.ndjson';
const MARKER = `…[truncated, see ${KEPT_IN}]`;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

const q = (text: string, angle: Angle = 'ux', priority = DEFAULT_PRIORITY): Question => ({ text, angle, priority });
const WHO = 'Who exports invoices, the owner or the accountant?';
const WHERE = 'Where would someone look for the export first?';
const GOOD = JSON.stringify({
  questions: [
    { text: WHO, angle: 'ux', priority: 1 },
    { text: WHERE, angle: 'ux', priority: 2 },
  ],
});
const GOOD_QUESTIONS = [q(WHO, 'ux', 1), q(WHERE, 'ux', 2)];

interface Row {
  what: string;
  reply: string;
  status: 'success' | 'parse_error' | 'empty';
  questions?: Question[];
  detail?: string;
  fallback?: Angle;
}

// Each row is a reply as a model might really send it, and what the person is then asked.
const table: Row[] = [
  { what: 'bare JSON, as the role asks', reply: GOOD, status: 'success', questions: GOOD_QUESTIONS },
  {
    what: 'prose before and after',
    reply: `Here are my questions for this topic:\n\n${GOOD}\n\nLet me know if you want more.`,
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  { what: 'a ```json fence', reply: '```json\n' + GOOD + '\n```', status: 'success', questions: GOOD_QUESTIONS },
  {
    what: 'a plain ``` fence with prose',
    reply: 'Sure!\n```\n' + GOOD + '\n```\nDone.',
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'two fences, the first code that is not JSON',
    reply:
      'The current handler:\n```ts\nfunction exportAll() { return [invoices]; }\n```\nMy questions:\n```json\n' +
      GOOD +
      '\n```',
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'two fences, the first JSON without questions',
    reply: '```json\n{"note":"read src/export.ts","files":["a.ts"]}\n```\n```json\n' + GOOD + '\n```',
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'CRLF line ends, pretty-printed',
    reply: `Questions:\r\n${JSON.stringify(JSON.parse(GOOD), null, 2).replace(/\n/g, '\r\n')}\r\n`,
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  { what: 'a BOM first', reply: '\uFEFF' + GOOD, status: 'success', questions: GOOD_QUESTIONS },
  {
    what: 'a bare array of question objects',
    reply: JSON.stringify([
      { text: WHO, angle: 'ux', priority: 1 },
      { text: WHERE, angle: 'ux', priority: 2 },
    ]),
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'trailing prose with braces, balanced and not',
    reply: `${GOOD}\nNote: I skipped {internal} details } and [others.`,
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'a stray opening brace in the prose before the JSON',
    reply: `Use { to open an object. ${GOOD}`,
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'braces, brackets and escaped quotes inside the strings',
    reply:
      JSON.stringify({
        questions: [{ text: 'Should "{total}" be shown as [EUR] or as "}"?', angle: 'technical', priority: 2 }],
      }) + ' }',
    status: 'success',
    questions: [q('Should "{total}" be shown as [EUR] or as "}"?', 'technical', 2)],
  },
  {
    what: 'a raw line break inside a string (invalid JSON, one line anyway)',
    reply:
      '{"questions":[{"text":"Who exports\ninvoices, the owner\r\nor the accountant?","angle":"ux","priority":1}]}',
    status: 'success',
    questions: [q('Who exports invoices, the owner or the accountant?', 'ux', 1)],
  },
  {
    what: 'the questions object one level down',
    reply: JSON.stringify({ response: JSON.parse(GOOD) }),
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'a trailing comma in the outer object: the list inside is still read',
    reply: GOOD.slice(0, -1) + ',}',
    status: 'success',
    questions: GOOD_QUESTIONS,
  },
  {
    what: 'missing angle and priority: the fallback angle and the default priority',
    reply: '{"questions":[{"text":"What happens when two exports run at once?"}]}',
    fallback: 'edge-cases',
    status: 'success',
    questions: [q('What happens when two exports run at once?', 'edge-cases', DEFAULT_PRIORITY)],
  },
  {
    what: 'angle values: wrong ones fall back, spelling variants are read',
    reply: JSON.stringify({
      questions: [
        { text: 'A?', angle: 'design', priority: 1 },
        { text: 'B?', angle: 'UX', priority: 1 },
        { text: 'C?', angle: 'edge cases', priority: 1 },
        { text: 'D?', angle: 'Edge_Cases', priority: 1 },
        { text: 'E?', angle: 7, priority: 1 },
        { text: 'F?', angle: ' technical ', priority: 1 },
      ],
    }),
    fallback: 'technical',
    status: 'success',
    questions: [
      q('A?', 'technical', 1),
      q('B?', 'ux', 1),
      q('C?', 'edge-cases', 1),
      q('D?', 'edge-cases', 1),
      q('E?', 'technical', 1),
      q('F?', 'technical', 1),
    ],
  },
  {
    what: 'priorities out of range, fractional, as strings, or not numbers',
    reply: JSON.stringify({
      questions: [
        { text: 'Zero?', priority: 0 },
        { text: 'Nine?', priority: 9 },
        { text: 'String two?', priority: '2' },
        { text: 'Two point six?', priority: 2.6 },
        { text: 'Minus four?', priority: -4 },
        { text: 'High?', priority: 'high' },
        { text: 'Null?', priority: null },
        { text: 'Blank?', priority: ' ' },
        { text: 'True?', priority: true },
        { text: 'Four point four string?', priority: ' 4.4 ' },
      ],
    }),
    status: 'success',
    questions: [
      q('Zero?', 'ux', 1),
      q('Nine?', 'ux', 5),
      q('String two?', 'ux', 2),
      q('Two point six?', 'ux', 3),
      q('Minus four?', 'ux', 1),
      q('High?', 'ux', 3),
      q('Null?', 'ux', 3),
      q('Blank?', 'ux', 3),
      q('True?', 'ux', 3),
      q('Four point four string?', 'ux', 4),
    ],
  },
  {
    what: 'questions as plain strings',
    reply: '{"questions":["Who exports invoices?", "  Where is the button?  ", ""]}',
    status: 'success',
    questions: [q('Who exports invoices?'), q('Where is the button?')],
  },
  {
    what: 'questions without usable text are dropped, the rest kept',
    reply: JSON.stringify({
      questions: [
        { angle: 'ux', priority: 1 },
        { text: '   ', priority: 1 },
        { text: 42 },
        null,
        [WHO],
        { text: WHERE, priority: 2 },
      ],
    }),
    status: 'success',
    questions: [q(WHERE, 'ux', 2)],
  },
  {
    what: 'whitespace collapsed and exact duplicates (any case) dropped',
    reply: JSON.stringify({
      questions: [
        { text: '  Who exports\n\n invoices?\t', priority: 1 },
        { text: 'WHO EXPORTS INVOICES?', priority: 2 },
        { text: 'Who exports invoices?', angle: 'technical', priority: 1 },
        { text: 'Who exports invoices today?', priority: 4 },
      ],
    }),
    status: 'success',
    questions: [q('Who exports invoices?', 'ux', 1), q('Who exports invoices today?', 'ux', 4)],
  },
  {
    what: 'JSON cut off at the token limit',
    reply: GOOD.slice(0, GOOD.length - 30),
    status: 'parse_error',
    detail: 'the JSON is cut off',
  },
  {
    what: 'JSON cut off inside a fence',
    reply: '```json\n{"questions":[{"text":"Who exports',
    status: 'parse_error',
    detail: 'the JSON is cut off',
  },
  {
    what: 'plain prose',
    reply: 'I think the main questions are who exports invoices and where the button goes.',
    status: 'parse_error',
    detail: 'no JSON object with a questions list in the reply',
  },
  {
    what: 'prose with a brace that never closes is not "cut off JSON"',
    reply: 'Exports look like { this, and that is all I have.',
    status: 'parse_error',
    detail: 'no JSON object with a questions list in the reply',
  },
  {
    what: 'JSON of another shape (the summary)',
    reply: '{"summary":{"topic":"x","key_insights":["a"],"decisions":[],"open_questions":["b?"]}}',
    status: 'parse_error',
    detail: 'no JSON object with a questions list in the reply',
  },
  {
    what: 'questions is not a list',
    reply: '{"questions":"Who exports invoices?"}',
    status: 'parse_error',
    detail: 'the questions field is not a list',
  },
  {
    what: 'questions is an object, not a list',
    reply: `{"questions":{"text":"${WHO}"}}`,
    status: 'parse_error',
    detail: 'the questions field is not a list',
  },
  {
    what: 'an empty questions list',
    reply: '{"questions":[]}',
    status: 'empty',
    detail: 'the questions list is empty',
  },
  {
    what: 'a list where no question has text',
    reply: '{"questions":[{"angle":"ux"},{"text":""}]}',
    status: 'empty',
    detail: 'none of the 2 questions has a text',
  },
  { what: 'a blank reply', reply: '', status: 'empty', detail: 'the reply is empty' },
  { what: 'whitespace and a BOM only', reply: '\uFEFF \r\n\t ', status: 'empty', detail: 'the reply is empty' },
];

describe('harvestQuestions: replies as models send them', () => {
  for (const row of table) {
    test(`${row.what} → ${row.status}`, () => {
      const harvest = harvestQuestions(row.reply, row.fallback ?? 'ux', KEPT_IN);
      assert.equal(harvest.status, row.status, `detail: ${harvest.detail}`);
      assert.deepEqual(harvest.questions, row.questions ?? []);
      if (row.status === 'success') assert.equal(harvest.detail, undefined);
      else assert.equal(harvest.detail, row.detail);
    });
  }

  test('the first fence with a questions list wins over a later one', () => {
    const later = JSON.stringify({ questions: [{ text: 'Later?', angle: 'ux', priority: 1 }] });
    const harvest = harvestQuestions('```json\n' + GOOD + '\n```\n```json\n' + later + '\n```', 'ux', KEPT_IN);
    assert.deepEqual(harvest.questions, GOOD_QUESTIONS);
  });
});

describe('harvestQuestions: a question is capped at 8 KB', () => {
  const reply = (text: string) => JSON.stringify({ questions: [{ text, angle: 'technical', priority: 2 }] });
  for (const size of [CAP_BYTES - 1, CAP_BYTES]) {
    test(`${size} bytes: kept whole`, () => {
      const text = 'a'.repeat(size);
      const harvest = harvestQuestions(reply(text), 'ux', KEPT_IN);
      assert.equal(harvest.status, 'success');
      assert.deepEqual(harvest.questions, [q(text, 'technical', 2)]);
    });
  }
  test(`${CAP_BYTES + 1} bytes: cut, ending in the marker that says where the whole is kept`, () => {
    const text = 'a'.repeat(CAP_BYTES + 1);
    const [question] = harvestQuestions(reply(text), 'ux', KEPT_IN).questions;
    assert.ok(question);
    assert.ok(question.text.endsWith(MARKER), question.text.slice(-80));
    assert.equal(bytes(question.text), CAP_BYTES);
    assert.equal(question.text, 'a'.repeat(CAP_BYTES - bytes(MARKER)) + MARKER);
  });
  test('the cap counts bytes after whitespace is collapsed, and multi-byte text stays within it', () => {
    const collapsed = harvestQuestions(reply('a\n\n\n'.repeat(CAP_BYTES / 2)), 'ux', KEPT_IN).questions[0];
    assert.ok(collapsed);
    assert.equal(
      collapsed.text,
      'a '.repeat(CAP_BYTES / 2 - 1) + 'a',
      'whitespace runs became single spaces, so it fits',
    );
    const euro = harvestQuestions(reply('€'.repeat(3000)), 'ux', KEPT_IN).questions[0];
    assert.ok(euro);
    assert.ok(euro.text.endsWith(MARKER));
    assert.ok(bytes(euro.text) <= CAP_BYTES);
  });
});

describe('harvestQuestions: bounded work on huge or hostile replies', () => {
  /** Deterministic noise, heavy in brackets and quotes, the worst case for the search. */
  function garbage(length: number, seed: number): string {
    const alphabet = '{}[]"\\:, ax\n';
    const out = Buffer.alloc(length);
    let state = seed;
    for (let i = 0; i < length; i++) {
      state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
      out[i] = alphabet.charCodeAt(state % alphabet.length);
    }
    return out.toString('latin1');
  }

  const hostile: { what: string; reply: () => string }[] = [
    { what: '4 MB of bracket-and-quote noise', reply: () => garbage(4 << 20, 7) },
    { what: '2 MB of opening braces', reply: () => '{'.repeat(2 << 20) },
    { what: '2 MB of "[" then one "]"', reply: () => '['.repeat(2 << 20) + ']' },
    { what: '1 MB deep nested arrays that are valid JSON', reply: () => '['.repeat(1 << 19) + ']'.repeat(1 << 19) },
    { what: 'many small objects without questions', reply: () => '{"a":1} '.repeat(200_000) + GOOD },
  ];
  for (const row of hostile) {
    test(`${row.what}: parse_error, quickly`, () => {
      const reply = row.reply();
      const started = process.cpuUsage();
      const harvest = harvestQuestions(reply, 'ux', KEPT_IN);
      const elapsed = cpuMsSince(started);
      assert.equal(harvest.status, 'parse_error');
      assert.deepEqual(harvest.questions, []);
      assert.ok(elapsed < 2000, `took ${Math.round(elapsed)} ms`);
    });
  }

  test('the JSON first and megabytes of noise after it: still harvested', () => {
    const harvest = harvestQuestions(GOOD + garbage(3 << 20, 11), 'ux', KEPT_IN);
    assert.equal(harvest.status, 'success');
    assert.deepEqual(harvest.questions, GOOD_QUESTIONS);
  });

  test('a reply that is not text at all (a caller bypassing the types) does not throw', () => {
    const harvest = harvestQuestions(undefined as unknown as string, 'ux', KEPT_IN);
    assert.equal(harvest.status, 'empty');
  });
});

describe('parseSummary', () => {
  const SUMMARY = {
    summary: {
      topic: 'Let account owners export a period of invoices',
      key_insights: ['Accountants do most exports'],
      decisions: ['CSV and PDF only: the accountants asked use CSV (technical, round 1)'],
      open_questions: ['Which time zone decides the period?'],
    },
  };
  const EXPECTED = {
    topic: 'Let account owners export a period of invoices',
    keyInsights: ['Accountants do most exports'],
    decisions: ['CSV and PDF only: the accountants asked use CSV (technical, round 1)'],
    openQuestions: ['Which time zone decides the period?'],
  };

  const rows: { what: string; reply: string; expected: ReturnType<typeof parseSummary> }[] = [
    { what: 'bare JSON', reply: JSON.stringify(SUMMARY), expected: EXPECTED },
    {
      what: 'in a fence with prose',
      reply: 'Here it is:\r\n```json\r\n' + JSON.stringify(SUMMARY, null, 2) + '\r\n```\r\nThanks {!}',
      expected: EXPECTED,
    },
    {
      what: 'after a BOM and an unrelated object',
      reply: '\uFEFF{"thinking":"done"} ' + JSON.stringify(SUMMARY),
      expected: EXPECTED,
    },
    {
      what: 'missing lists are empty, missing topic is blank',
      reply: '{"summary":{"decisions":["Ship CSV first"]}}',
      expected: { topic: '', keyInsights: [], decisions: ['Ship CSV first'], openQuestions: [] },
    },
    {
      what: 'non-string and blank items dropped, items trimmed and made one line',
      reply: JSON.stringify({
        summary: {
          topic: '  Invoices \n export ',
          key_insights: [1, null, '  a\n b  ', '', { text: 'x' }],
          decisions: 'not a list',
          open_questions: ['  Why?  '],
        },
      }),
      expected: { topic: 'Invoices export', keyInsights: ['a b'], decisions: [], openQuestions: ['Why?'] },
    },
    {
      what: 'camelCase keys a model drifted to',
      reply: '{"summary":{"topic":"t","keyInsights":["k"],"decisions":[],"openQuestions":["o?"]}}',
      expected: { topic: 't', keyInsights: ['k'], decisions: [], openQuestions: ['o?'] },
    },
    { what: 'no summary: questions JSON', reply: '{"questions":[]}', expected: undefined },
    { what: 'summary is not an object', reply: '{"summary":"It went well."}', expected: undefined },
    { what: 'summary is a list', reply: '{"summary":["a"]}', expected: undefined },
    { what: 'cut off', reply: JSON.stringify(SUMMARY).slice(0, 60), expected: undefined },
    { what: 'plain prose', reply: 'The brainstorm found that accountants export most.', expected: undefined },
    { what: 'blank', reply: '  \n', expected: undefined },
  ];
  for (const row of rows) {
    test(`${row.what}`, () => {
      assert.deepEqual(parseSummary(row.reply, KEPT_IN), row.expected);
    });
  }

  test('a runaway item is capped with the marker naming where the whole reply is kept', () => {
    const long = 'x'.repeat(CAP_BYTES + 100);
    const summary = parseSummary(JSON.stringify({ summary: { topic: long, key_insights: [long, 'short'] } }), KEPT_IN);
    assert.ok(summary);
    assert.ok(summary.topic.endsWith(MARKER));
    assert.equal(bytes(summary.topic), CAP_BYTES);
    assert.equal(summary.keyInsights.length, 2);
    assert.ok(summary.keyInsights[0]?.endsWith(MARKER));
    assert.equal(summary.keyInsights[1], 'short');
  });
});
