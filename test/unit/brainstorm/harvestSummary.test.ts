// A coordinator summary that is not the JSON asked for: why it cannot be read (quoted back when the
// coordinator is asked again), and the summary kept as its prose when the second reply fails too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  parseSummary,
  proseSummary,
  summaryParseError,
  SUMMARY_TEXT_MAX_BYTES,
} from '../../../src/core/brainstorm/harvest';
import { CAP_BYTES, utf8Length } from '../../../src/core/prompt/cap';
import { cpuMsSince } from '../../support/cpuTime';

const KEPT_IN = '.groundwork/plans/x/.workers/brainstorm-coordinator.ndjson';
const SUMMARY = JSON.stringify({ summary: { topic: 't', key_insights: ['k'], decisions: [], open_questions: [] } });

describe('summaryParseError', () => {
  const rows: [string, string, string | undefined][] = [
    ['bare JSON: none', SUMMARY, undefined],
    ['JSON in a fence with prose: none', `Here you are:\n\`\`\`json\n${SUMMARY}\n\`\`\`\nHope it helps {!}`, undefined],
    ['an empty summary object still reads: none', '{"summary":{}}', undefined],
    ['empty', '', 'The reply is empty.'],
    ['only whitespace and a BOM', '\uFEFF \n\t', 'The reply is empty.'],
    [
      'prose',
      'The brainstorm found that accountants export most.',
      'The reply has no JSON object with a "summary" field.',
    ],
    ['questions JSON', '{"questions":[{"text":"Who?"}]}', 'The reply has no JSON object with a "summary" field.'],
    ['summary as text', '{"summary":"It went well."}', 'The "summary" field of the reply is not a JSON object.'],
    ['summary as a list', '{"summary":["a"]}', 'The "summary" field of the reply is not a JSON object.'],
    ['cut off', SUMMARY.slice(0, 40), 'The JSON of the reply is cut off before it ends.'],
    ['invalid JSON that closes', '{"summary": {topic: t}}', 'The reply has no JSON object with a "summary" field.'],
  ];
  for (const [what, reply, expected] of rows) {
    test(what, () => {
      assert.equal(summaryParseError(reply), expected);
      // The same judgement as parseSummary's: an error exactly when it finds no summary.
      assert.equal(parseSummary(reply, KEPT_IN) === undefined, expected !== undefined);
    });
  }

  test('a reply that is not text at all (a caller bypassing the types) is empty, not a throw', () => {
    assert.equal(summaryParseError(undefined as unknown as string), 'The reply is empty.');
  });

  test('megabytes of brackets are judged in bounded time', () => {
    const noise = '{"a":['.repeat(200_000);
    const started = process.cpuUsage();
    assert.equal(summaryParseError(noise), 'The JSON of the reply is cut off before it ends.');
    assert.ok(cpuMsSince(started) < 2000);
  });
});

describe('proseSummary', () => {
  test('keeps the reply trimmed as the text, the topic as given, the lists empty', () => {
    const reply = '\uFEFF\n  ## Summary\n\nThe team agreed on **CSV** first.\n- time zones are open\n\n';
    assert.deepEqual(proseSummary('Invoice export', reply), {
      topic: 'Invoice export',
      keyInsights: [],
      decisions: [],
      openQuestions: [],
      format: 'text',
      text: '## Summary\n\nThe team agreed on **CSV** first.\n- time zones are open',
    });
  });

  test('model text is kept as data: markup, controls and injected instructions are not touched here', () => {
    const reply = 'TASK: summarize\n<img src=x onerror=alert(1)>\n![t](https://e.example/p.png)\u202e\u0000';
    assert.equal(proseSummary('t', reply).text, reply);
  });

  test(`a runaway reply is cut to ${SUMMARY_TEXT_MAX_BYTES / 1024} KB, between code points, ending in …`, () => {
    const text = proseSummary('t', `${'é'.repeat(SUMMARY_TEXT_MAX_BYTES)}👍`).text!;
    assert.ok(utf8Length(text) <= SUMMARY_TEXT_MAX_BYTES, `${utf8Length(text)} bytes`);
    assert.ok(text.endsWith('é…'));
    assert.equal(
      proseSummary('t', 'x'.repeat(SUMMARY_TEXT_MAX_BYTES)).text,
      'x'.repeat(SUMMARY_TEXT_MAX_BYTES),
      'exactly the cap is kept whole',
    );
  });

  test('a topic over what the session file keeps for summary.topic is cut to it', () => {
    const topic = proseSummary('t'.repeat(CAP_BYTES * 3), 'prose').topic;
    assert.ok(utf8Length(topic) <= CAP_BYTES);
  });

  test('an empty reply is an empty text, still a summary kept as prose', () => {
    assert.deepEqual(proseSummary('t', ' \n '), {
      topic: 't',
      keyInsights: [],
      decisions: [],
      openQuestions: [],
      format: 'text',
      text: '',
    });
  });
});
