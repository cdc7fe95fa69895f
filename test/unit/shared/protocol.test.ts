import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_DESCRIPTION_CHARS, MAX_MESSAGE_CHARS, MAX_TITLE_CHARS, parseWebviewMessage } from '../../../src/shared/protocol';
import { fill } from '../../../src/shared/panelStrings';

const brief = { summary: 'A CRM', problem: 'p', users: 'u', mvpScope: 'm', technology: 't', outOfScope: 'o', keyDecisions: 'k', constraints: 'c' };

const accepted: Array<[string, unknown, unknown]> = [
  ['ready', { type: 'ready' }, { type: 'ready' }],
  ['ready drops extra fields', { type: 'ready', extra: '<script>' }, { type: 'ready' }],
  ['pong', { type: 'pong', id: 'p1', text: 'hello' }, { type: 'pong', id: 'p1', text: 'hello' }],
  ['pong with empty text', { type: 'pong', id: 'p1', text: '' }, { type: 'pong', id: 'p1', text: '' }],
  [
    'journal.add trims',
    { type: 'journal.add', requestId: 'r1', title: '  Cache keys  ', description: ' use the path\n' },
    { type: 'journal.add', requestId: 'r1', title: 'Cache keys', description: 'use the path' },
  ],
  [
    'journal.add at the limits',
    { type: 'journal.add', requestId: 'r', title: 't'.repeat(MAX_TITLE_CHARS), description: 'd'.repeat(MAX_DESCRIPTION_CHARS) },
    { type: 'journal.add', requestId: 'r', title: 't'.repeat(MAX_TITLE_CHARS), description: 'd'.repeat(MAX_DESCRIPTION_CHARS) },
  ],
  ['sleep.wake', { type: 'sleep.wake', agent: 'build-qa' }, { type: 'sleep.wake', agent: 'build-qa' }],
  ['command', { type: 'command', command: 'manageTrust' }, { type: 'command', command: 'manageTrust' }],
  ['discovery.send', { type: 'discovery.send', text: 'build me a CRM' }, { type: 'discovery.send', text: 'build me a CRM' }],
  ['a 100 KB paste', { type: 'discovery.send', text: 'x'.repeat(100_000) }, { type: 'discovery.send', text: 'x'.repeat(100_000) }],
  ['discovery.start', { type: 'discovery.start', text: 'a note app' }, { type: 'discovery.start', text: 'a note app' }],
  ['answers with one skipped', { type: 'discovery.answer', answers: ['Bakers', ''], extra: '' }, { type: 'discovery.answer', answers: ['Bakers', ''], extra: '' }],
  ['only the free-text box', { type: 'discovery.answer', answers: ['', ''], extra: 'all of it' }, { type: 'discovery.answer', answers: ['', ''], extra: 'all of it' }],
  ['discovery.cancel', { type: 'discovery.cancel' }, { type: 'discovery.cancel' }],
  ['discovery.retry', { type: 'discovery.retry' }, { type: 'discovery.retry' }],
  ['brief.save', { type: 'brief.save', brief }, { type: 'brief.save', brief }],
  ['resync', { type: 'resync' }, { type: 'resync' }],
  ['command brainstorm', { type: 'command', command: 'brainstorm' }, { type: 'command', command: 'brainstorm' }],
  ['command resumeBrainstorm', { type: 'command', command: 'resumeBrainstorm' }, { type: 'command', command: 'resumeBrainstorm' }],
  [
    'brainstorm answers with skipped (null) and blank ones',
    { type: 'brainstorm.answer', answers: ['Bakers', null, ''], action: 'more' },
    { type: 'brainstorm.answer', answers: ['Bakers', null, ''], action: 'more' },
  ],
  [
    'brainstorm answers all skipped, then the summary',
    { type: 'brainstorm.answer', answers: [null, null], action: 'summarize' },
    { type: 'brainstorm.answer', answers: [null, null], action: 'summarize' },
  ],
  [
    'brainstorm answers at the count limit',
    { type: 'brainstorm.answer', answers: Array(20).fill(null), action: 'more' },
    { type: 'brainstorm.answer', answers: Array(20).fill(null), action: 'more' },
  ],
  [
    'brainstorm answers drop extra fields',
    { type: 'brainstorm.answer', answers: ['a'], action: 'more', html: '<img src=x>' },
    { type: 'brainstorm.answer', answers: ['a'], action: 'more' },
  ],
  ['brainstorm.open document', { type: 'brainstorm.open', file: 'document' }, { type: 'brainstorm.open', file: 'document' }],
  ['brainstorm.open context', { type: 'brainstorm.open', file: 'context' }, { type: 'brainstorm.open', file: 'context' }],
  ['brainstorm.retry', { type: 'brainstorm.retry' }, { type: 'brainstorm.retry' }],
  ['brainstorm.stop', { type: 'brainstorm.stop' }, { type: 'brainstorm.stop' }],
  ['brainstorm.close', { type: 'brainstorm.close' }, { type: 'brainstorm.close' }],
  ['brainstorm.deeper', { type: 'brainstorm.deeper' }, { type: 'brainstorm.deeper' }],
  ['notice.dismiss', { type: 'notice.dismiss', id: 'notice-1', extra: true }, { type: 'notice.dismiss', id: 'notice-1' }],
];

const rejected: Array<[string, unknown, RegExp]> = [
  ['null', null, /not an object/],
  ['a string', 'ready', /not an object/],
  ['an array', [{ type: 'ready' }], /not an object/],
  ['no type', { title: 'x' }, /not an object/],
  ['numeric type', { type: 7 }, /not an object/],
  ['unknown type', { type: 'runCommand', command: 'rm -rf /' }, /unknown message type "runCommand"/],
  ['pong without id', { type: 'pong', text: 'x' }, /"id" must be a string/],
  ['journal.add empty title', { type: 'journal.add', requestId: 'r', title: '   ', description: 'd' }, /"title" must not be empty/],
  ['journal.add title too long', { type: 'journal.add', requestId: 'r', title: 't'.repeat(MAX_TITLE_CHARS + 1), description: 'd' }, /"title" is 201 characters; the limit is 200/],
  ['journal.add description too long', { type: 'journal.add', requestId: 'r', title: 't', description: 'd'.repeat(MAX_DESCRIPTION_CHARS + 1) }, /"description" is 8193 characters; the limit is 8192/],
  ['journal.add numeric title', { type: 'journal.add', requestId: 'r', title: 5, description: 'd' }, /"title" must be a string/],
  ['journal.add without request id', { type: 'journal.add', title: 't', description: 'd' }, /"requestId" must be a string/],
  ['sleep.wake without agent', { type: 'sleep.wake' }, /"agent" must be a string/],
  ['command not on the list', { type: 'command', command: 'workbench.action.terminal.sendSequence' }, /unknown command/],
  ['command prototype key', { type: 'command', command: 'toString' }, /unknown command/],
  ['an empty message', { type: 'discovery.send', text: '  ' }, /"text" must not be empty/],
  ['a message over the limit', { type: 'discovery.send', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }, /the limit is 1000000/],
  ['all answers empty', { type: 'discovery.answer', answers: ['', ' '], extra: '' }, /the answers are empty/],
  ['answers not strings', { type: 'discovery.answer', answers: [1], extra: '' }, /"answers" must be a list/],
  ['too many answers', { type: 'discovery.answer', answers: Array(21).fill('a'), extra: '' }, /at most 20/],
  ['a brief without a summary', { type: 'brief.save', brief: { ...brief, summary: ' ' } }, /one-line summary/],
  ['too many brainstorm answers', { type: 'brainstorm.answer', answers: Array(21).fill(null), action: 'more' }, /at most 20 strings or nulls/],
  ['brainstorm answers not a list', { type: 'brainstorm.answer', answers: 'yes', action: 'more' }, /"answers" must be a list/],
  ['a brainstorm answer that is a number', { type: 'brainstorm.answer', answers: ['a', 3], action: 'more' }, /strings or nulls/],
  ['a brainstorm answer that is an object', { type: 'brainstorm.answer', answers: [{ text: 'a' }], action: 'more' }, /strings or nulls/],
  ['brainstorm answers without a list', { type: 'brainstorm.answer', action: 'more' }, /"answers" must be a list/],
  [
    'brainstorm answers over the length limit',
    { type: 'brainstorm.answer', answers: ['x'.repeat(MAX_MESSAGE_CHARS), 'y'], action: 'more' },
    /the answers are 1000001 characters; the limit is 1000000/,
  ],
  ['a bad brainstorm action', { type: 'brainstorm.answer', answers: ['a'], action: 'finish' }, /"action" must be "more" or "summarize"/],
  ['a brainstorm answer without an action', { type: 'brainstorm.answer', answers: ['a'] }, /"action" must be "more" or "summarize"/],
  ['brainstorm.open of another file', { type: 'brainstorm.open', file: '../../etc/passwd' }, /"file" must be "document" or "context"/],
  ['brainstorm.open without a file', { type: 'brainstorm.open' }, /"file" must be "document" or "context"/],
  ['a brief missing a field', { type: 'brief.save', brief: { summary: 'x' } }, /brief\.field "problem" must be a string/],
  ['notice.dismiss without an id', { type: 'notice.dismiss' }, /"id" must be a string/],
  ['notice.dismiss with an object id', { type: 'notice.dismiss', id: { toString: 'x' } }, /"id" must be a string/],
  ['notice.dismiss with a huge id', { type: 'notice.dismiss', id: 'n'.repeat(129) }, /the limit is 128/],
  ['brief.save with a brief that is a list', { type: 'brief.save', brief: [brief] }, /"brief" must be an object/],
  ['sleep.wake with an agent that is a list', { type: 'sleep.wake', agent: ['build-qa'] }, /"agent" must be a string/],
];

describe('messages from the webview are validated', () => {
  for (const [name, input, expected] of accepted) {
    test(`accepts ${name}`, () => {
      const parsed = parseWebviewMessage(input);
      assert.deepEqual(parsed, { ok: true, message: expected });
    });
  }
  for (const [name, input, reason] of rejected) {
    test(`rejects ${name}`, () => {
      const parsed = parseWebviewMessage(input);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.error, reason);
    });
  }
});

describe('panel string templates', () => {
  test('fill puts values in their places and leaves unknown ones', () => {
    assert.equal(fill('Round {0}/{1}', 2, 3), 'Round 2/3');
    assert.equal(fill('{1} before {0}', 'a', 'b'), 'b before a');
    assert.equal(fill('Saved to {0} {1}', 'x'), 'Saved to x {1}');
  });
});
