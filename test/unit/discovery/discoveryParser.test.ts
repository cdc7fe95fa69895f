// The reply's markers (DISCOVERY_QUESTIONS, DISCOVERY_COMPLETE, IDEA_BRIEF:), the question list,
// the brief's fields and the brief's preview.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  parseDiscoveryOutput,
  parseIdeaBrief,
  splitQuestions,
  truncateBriefPreview,
} from '../../../src/core/discovery/discoveryParser';

describe('parseDiscoveryOutput', () => {
  test('test_parse_discovery_output_questions_marker', () => {
    assert.deepEqual(parseDiscoveryOutput('DISCOVERY_QUESTIONS\nWhat problem...\nWho uses...'), {
      kind: 'questions',
      text: 'What problem...\nWho uses...',
    });
  });

  test('test_parse_discovery_output_complete_with_brief', () => {
    assert.deepEqual(parseDiscoveryOutput('DISCOVERY_COMPLETE\nIDEA_BRIEF:\nA CRM tool for...'), {
      kind: 'complete',
      brief: 'A CRM tool for...',
    });
  });

  test('test_parse_discovery_output_complete_takes_precedence', () => {
    const both = 'DISCOVERY_QUESTIONS\n1. Who?\nDISCOVERY_COMPLETE\nIDEA_BRIEF:\nOne-line summary: A CRM';
    assert.deepEqual(parseDiscoveryOutput(both), { kind: 'complete', brief: 'One-line summary: A CRM' });
    const reversed = 'DISCOVERY_COMPLETE\nIDEA_BRIEF:\nOne-line summary: A CRM\nDISCOVERY_QUESTIONS';
    assert.deepEqual(parseDiscoveryOutput(reversed), { kind: 'complete', brief: 'One-line summary: A CRM' });
  });

  test('test_parse_discovery_output_no_markers_auto_complete', () => {
    assert.deepEqual(parseDiscoveryOutput('  A CRM for a small real estate team.\nContacts and deals.  '), {
      kind: 'complete',
      brief: 'A CRM for a small real estate team.\nContacts and deals.',
    });
  });

  test('test_parse_discovery_output_empty_input', () => {
    assert.deepEqual(parseDiscoveryOutput(''), { kind: 'complete', brief: '' });
    assert.deepEqual(parseDiscoveryOutput('  \n\n '), { kind: 'complete', brief: '' });
  });

  test('test_parse_discovery_output_questions_with_prose_before', () => {
    const out =
      'Let me think about this request.\nIt is vague.\n\nDISCOVERY_QUESTIONS\n1. Who will use it?\n2. What must it do first?';
    assert.deepEqual(parseDiscoveryOutput(out), {
      kind: 'questions',
      text: '1. Who will use it?\n2. What must it do first?',
    });
  });

  test('test_parse_discovery_output_complete_without_idea_brief_line', () => {
    const out = 'DISCOVERY_COMPLETE\nOne-line summary: A CLI price tracker\nProblem: Missed price moves';
    assert.deepEqual(parseDiscoveryOutput(out), {
      kind: 'complete',
      brief: 'One-line summary: A CLI price tracker\nProblem: Missed price moves',
    });
  });

  test('prose before DISCOVERY_COMPLETE is dropped too', () => {
    assert.deepEqual(parseDiscoveryOutput('Enough detail here.\nDISCOVERY_COMPLETE\nIDEA_BRIEF:\nBrief text'), {
      kind: 'complete',
      brief: 'Brief text',
    });
  });

  test('a brief on the IDEA_BRIEF: line itself is kept', () => {
    assert.deepEqual(parseDiscoveryOutput('DISCOVERY_COMPLETE\nIDEA_BRIEF: A CRM for realtors\nProblem: lost leads'), {
      kind: 'complete',
      brief: 'A CRM for realtors\nProblem: lost leads',
    });
  });

  test('an empty IDEA_BRIEF section falls back to the text after DISCOVERY_COMPLETE', () => {
    assert.deepEqual(parseDiscoveryOutput('DISCOVERY_COMPLETE\nA CRM, briefly.\nIDEA_BRIEF:\n'), {
      kind: 'complete',
      brief: 'A CRM, briefly.',
    });
  });

  test('a reply wrapped in a code fence, and CRLF line endings', () => {
    assert.deepEqual(parseDiscoveryOutput('```\r\nDISCOVERY_QUESTIONS\r\n1. Who?\r\n2. Why?\r\n```'), {
      kind: 'questions',
      text: '1. Who?\n2. Why?',
    });
    assert.deepEqual(parseDiscoveryOutput('```text\nDISCOVERY_COMPLETE\nIDEA_BRIEF:\nOne-line summary: X\n```\n'), {
      kind: 'complete',
      brief: 'One-line summary: X',
    });
  });

  test('bold markers are still markers', () => {
    assert.deepEqual(parseDiscoveryOutput('**DISCOVERY_COMPLETE**\n**IDEA_BRIEF:**\nOne-line summary: X'), {
      kind: 'complete',
      brief: 'One-line summary: X',
    });
  });
});

describe('splitQuestions', () => {
  test('numbered questions with a lead-in line (the role format)', () => {
    const text =
      'Gracias. Antes de construir nada, unas preguntas:\n1. ¿Qué problema?\n2. ¿Cuántas personas?\n3. ¿Qué es lo mínimo?';
    assert.deepEqual(splitQuestions(text), {
      intro: 'Gracias. Antes de construir nada, unas preguntas:',
      questions: ['¿Qué problema?', '¿Cuántas personas?', '¿Qué es lo mínimo?'],
    });
  });

  test('"1)" numbering, continuation lines and nested bullets belong to their question', () => {
    const text = '1) Where will it run?\n   - a web page\n   - a phone app\n2) Who uses it?\nThink of the first week.';
    assert.deepEqual(splitQuestions(text).questions, [
      'Where will it run?\n- a web page\n- a phone app',
      'Who uses it?\nThink of the first week.',
    ]);
  });

  test('bullets when nothing is numbered', () => {
    assert.deepEqual(splitQuestions('A few questions:\n- Who?\n- What?\n* Why?'), {
      intro: 'A few questions:',
      questions: ['Who?', 'What?', 'Why?'],
    });
  });

  test('bold numbers', () => {
    assert.deepEqual(splitQuestions('**1.** Who?\n**2.** What?').questions, ['Who?', 'What?']);
  });

  test('no list: the whole text is one question', () => {
    assert.deepEqual(splitQuestions('Who is this for, and what should it do first?\nTell me anything.'), {
      intro: '',
      questions: ['Who is this for, and what should it do first?\nTell me anything.'],
    });
  });

  test('empty text: no questions', () => {
    assert.deepEqual(splitQuestions('  '), { intro: '', questions: [] });
  });

  test('years or amounts inside a question do not start a new one', () => {
    assert.deepEqual(splitQuestions('1. Budget for 2025?\n2. Launch by 2026. Is that firm?').questions, [
      'Budget for 2025?',
      'Launch by 2026. Is that firm?',
    ]);
  });
});

const ROLE_BRIEF = `One-line summary: A command-line tool that tracks the Bitcoin price.
Problem: The user misses sharp moves.
Users: One technical user.
MVP scope: Poll CoinGecko every 5 minutes;
store each price in SQLite.
Technology: Rust, SQLite.
Out of scope: Other coins.
Key decisions: 5-minute polling (default).
Constraints: CoinGecko's free-tier rate limit.`;

describe('parseIdeaBrief', () => {
  test("the role's format: eight 'Label: value' lines, a value spanning lines", () => {
    assert.deepEqual(parseIdeaBrief(ROLE_BRIEF), {
      summary: 'A command-line tool that tracks the Bitcoin price.',
      problem: 'The user misses sharp moves.',
      users: 'One technical user.',
      mvpScope: 'Poll CoinGecko every 5 minutes;\nstore each price in SQLite.',
      technology: 'Rust, SQLite.',
      outOfScope: 'Other coins.',
      keyDecisions: '5-minute polling (default).',
      constraints: "CoinGecko's free-tier rate limit.",
      text: ROLE_BRIEF,
    });
  });

  test('bold labels, headings and bulleted labels', () => {
    const text = [
      '**One-line summary:** A CRM for realtors',
      '- **Problem**: Leads get lost',
      '## Users',
      'Five agents, not technical.',
      '',
      '### MVP scope',
      '- contacts',
      '- deals',
      '__Technology:__ a web app',
      'out of scope: mobile',
    ].join('\n');
    const brief = parseIdeaBrief(text);
    assert.equal(brief.summary, 'A CRM for realtors');
    assert.equal(brief.problem, 'Leads get lost');
    assert.equal(brief.users, 'Five agents, not technical.');
    assert.equal(brief.mvpScope, '- contacts\n- deals');
    assert.equal(brief.technology, 'a web app');
    assert.equal(brief.outOfScope, 'mobile');
    assert.equal(brief.keyDecisions, '');
    assert.equal(brief.constraints, '');
  });

  test('missing fields are empty; a line that merely starts with a label word is content', () => {
    const brief = parseIdeaBrief(
      'Problem: Users can not find their notes.\nUsers can share notes too.\nUsers: students',
    );
    assert.equal(brief.problem, 'Users can not find their notes.\nUsers can share notes too.');
    assert.equal(brief.users, 'students');
    assert.equal(brief.summary, '');
    assert.equal(brief.mvpScope, '');
  });

  test('"MVP scope" is not read as "MVP" plus text', () => {
    assert.equal(parseIdeaBrief('MVP scope: login').mvpScope, 'login');
  });

  test('no labels at all: every field empty, the text kept', () => {
    const brief = parseIdeaBrief('Just build a simple CRM.');
    assert.equal(brief.text, 'Just build a simple CRM.');
    assert.equal(brief.summary, '');
  });

  test('localized content after English labels', () => {
    const brief = parseIdeaBrief('One-line summary: Un CRM para inmobiliarias\nUsers: Пять агентов');
    assert.equal(brief.summary, 'Un CRM para inmobiliarias');
    assert.equal(brief.users, 'Пять агентов');
  });
});

describe('truncateBriefPreview', () => {
  test('test_truncate_brief_preview_short_text', () => {
    assert.equal(truncateBriefPreview('short', 300), 'short');
  });
  test('test_truncate_brief_preview_long_text', () => {
    assert.equal(truncateBriefPreview('a'.repeat(400), 300), `${'a'.repeat(300)}...`);
  });
  test('test_truncate_brief_preview_exact_limit', () => {
    assert.equal(truncateBriefPreview('b'.repeat(300), 300), 'b'.repeat(300));
  });
  test('test_truncate_brief_preview_unicode', () => {
    assert.equal(truncateBriefPreview('ñ😀'.repeat(10), 5), 'ñ😀ñ😀ñ...');
  });
});
