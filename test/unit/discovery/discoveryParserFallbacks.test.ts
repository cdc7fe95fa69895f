// A reply that ignores the discovery protocol (no marker, garbage, nothing, half a marker, a marker
// in the wrong place) still reads as questions or a brief, keeping what the model wrote; and no
// reply, however hostile, makes the parsers work for long (a 64 KB reply once took minutes).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDiscoveryOutput, parseIdeaBrief, splitQuestions } from '../../../src/core/discovery/discoveryParser';
import type { DiscoveryOutput } from '../../../src/core/discovery/discoveryParser';
import { cpuMsSince } from '../../support/cpuTime';

const complete = (brief: string): DiscoveryOutput => ({ kind: 'complete', brief });
const questions = (text: string): DiscoveryOutput => ({ kind: 'questions', text });

describe('parseDiscoveryOutput: a reply that ignores the protocol', () => {
  const rows: [string, string, DiscoveryOutput][] = [
    [
      'no marker: the reply is the brief, whole (the protocol)',
      'A CRM for realtors.\nContacts and deals.',
      complete('A CRM for realtors.\nContacts and deals.'),
    ],
    [
      'garbage is a brief of garbage, kept as written',
      '\u0000\u001b[2J}{][ \ud800 ```',
      complete('\u0000\u001b[2J}{][ \ud800 ```'),
    ],
    ['empty: an empty brief (the protocol)', '', complete('')],
    ['only whitespace and line ends', ' \r\n\t\u00a0\n\r ', complete('')],
    ['half a marker is no marker', 'DISCOVERY_QUEST\n1. Who?', complete('DISCOVERY_QUEST\n1. Who?')],
    ['a marker cut at its underscore', 'DISCOVERY_', complete('DISCOVERY_')],
    [
      'IDEA_BRIEF: without DISCOVERY_COMPLETE: the brief is what follows it',
      'Sure.\nIDEA_BRIEF:\nOne-line summary: X',
      complete('One-line summary: X'),
    ],
    [
      'IDEA_BRIEF: written last: what precedes it, without the marker',
      'One-line summary: X\nIDEA_BRIEF:',
      complete('One-line summary: X'),
    ],
    [
      'the questions marker written last: the questions before it',
      'A few questions:\n1. Who?\n2. Why?\n\nDISCOVERY_QUESTIONS',
      questions('A few questions:\n1. Who?\n2. Why?'),
    ],
    [
      'the questions on the marker line',
      'Questions: **DISCOVERY_QUESTIONS** What is the budget?',
      questions('Questions: What is the budget?'),
    ],
    [
      'the complete marker written last: the brief before it',
      'One-line summary: X\nProblem: Y\n\n**DISCOVERY_COMPLETE**',
      complete('One-line summary: X\nProblem: Y'),
    ],
    [
      'both markers last: the brief (COMPLETE wins) is all that was written',
      '1. Who?\nDISCOVERY_QUESTIONS\nDISCOVERY_COMPLETE',
      complete('1. Who?'),
    ],
    [
      'a fenced reply with the marker last',
      '```text\n1. Who?\n2. Why?\nDISCOVERY_QUESTIONS\n```',
      questions('1. Who?\n2. Why?'),
    ],
    [
      'a code block of its own before a marker written last is kept',
      'Brief:\n```\ncode\n```\nDISCOVERY_COMPLETE',
      complete('Brief:\n```\ncode\n```'),
    ],
    [
      'a marker and nothing else: no questions (the panel still takes an answer)',
      '**DISCOVERY_QUESTIONS**',
      questions(''),
    ],
    ['the complete marker and nothing else: an empty brief', 'DISCOVERY_COMPLETE\nIDEA_BRIEF:\n', complete('')],
  ];
  for (const [what, reply, expected] of rows) {
    test(what, () => {
      assert.deepEqual(parseDiscoveryOutput(reply), expected);
    });
  }

  test('whatever it is, the reply reads as one of the two kinds, and its text as questions or a brief', () => {
    for (const [, reply] of rows) {
      const out = parseDiscoveryOutput(reply);
      if (out.kind === 'questions') {
        const split = splitQuestions(out.text);
        assert.ok(Array.isArray(split.questions) && typeof split.intro === 'string');
      } else {
        assert.equal(parseIdeaBrief(out.brief).text, out.brief.trim());
      }
    }
  });

  test('text after the marker still wins over text before it (the protocol)', () => {
    assert.deepEqual(parseDiscoveryOutput('Let me think.\nDISCOVERY_QUESTIONS\n1. Who?'), questions('1. Who?'));
    assert.deepEqual(parseDiscoveryOutput('Enough.\nDISCOVERY_COMPLETE\nProblem: P'), complete('Problem: P'));
  });
});

describe('the discovery parsers on hostile replies: linear time', () => {
  const SIZE = 64 * 1024;
  const spaces = ' '.repeat(SIZE);
  // U+2028 is a line end to `.`, but no split('\n') removes it: each of these made a regex retry
  // its runs of spaces split by split (the first two took minutes, the others seconds).
  const replies: [string, string][] = [
    ['a heading label, spaces and line separators', `## Problem${spaces}\u2028x\u2028y`],
    ['a label with a colon, spaces and line separators', `Problem:${spaces}\u2028x\u2028y`],
    ['a numbered line, spaces and line separators', `1. ${spaces}\u2028x\u2028y`],
    ['a bullet, spaces and line separators', `- ${spaces}\u2028x\u2028y`],
    ['a value with a long run of spaces inside', `Problem: x${spaces}y`],
    ['a long run of decoration inside a line', `DISCOVERY_QUESTIONS\nx${' *'.repeat(SIZE / 2)}x`],
    ['sixty thousand blank lines', `${'\n'.repeat(SIZE)}x`],
    ['sixty thousand carriage returns', '\r'.repeat(SIZE)],
    ['a marker after sixty thousand blank lines', `${'\n'.repeat(SIZE)}DISCOVERY_QUESTIONS`],
    ['a line of IDEA_BRIEF decoration', `DISCOVERY_COMPLETE\n${'*_#> '.repeat(SIZE / 5)}`],
  ];
  for (const [what, reply] of replies) {
    test(what, () => {
      const started = process.cpuUsage();
      const out = parseDiscoveryOutput(reply);
      parseIdeaBrief(reply);
      splitQuestions(reply);
      if (out.kind === 'questions') splitQuestions(out.text);
      else parseIdeaBrief(out.brief);
      const elapsed = cpuMsSince(started);
      assert.ok(elapsed < 1500, `took ${Math.round(elapsed)} ms`);
    });
  }

  test('a label followed by a line separator is still a label, its value kept whole', () => {
    assert.equal(parseIdeaBrief('Problem: lost\u2028leads\nUsers: agents').problem, 'lost\u2028leads');
    assert.deepEqual(splitQuestions('1. Who\u2028uses it?\n2. Why?').questions, ['Who\u2028uses it?', 'Why?']);
  });
});
