// Every message from the webview is untrusted: each feature's parser (src/shared/protocol/*.ts)
// accepts only what its message says, and the host finds the parser by the message's type.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BRIEF_FIELDS as CORE_BRIEF_FIELDS } from '../../../src/core/discovery/discoveryTypes';
import { fill } from '../../../src/shared/panelStrings';
import { BRAINSTORM_INBOUND, brainstormStream, brainstormStreamOf } from '../../../src/shared/protocol/brainstorm';
import {
  MAX_MESSAGE_CHARS,
  PendingRequests,
  parseInbound,
  streamFeature,
  type InboundSet,
} from '../../../src/shared/protocol/common';
import { BRIEF_FIELDS, DISCOVERY_INBOUND, discoveryStream } from '../../../src/shared/protocol/discovery';
import { JOURNAL_INBOUND, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS } from '../../../src/shared/protocol/journal';
import { MODEL_INBOUND } from '../../../src/shared/protocol/model';
import { PANEL_INBOUND } from '../../../src/shared/protocol/panel';
import { SLEEP_INBOUND } from '../../../src/shared/protocol/sleep';
import { BUILD_COMMANDS, BUILD_INBOUND, buildStream } from '../../../src/shared/protocol/build';
import { BRIEF_FIELDS as A_BRIEF } from '../../support/brief';

const SETS = [
  PANEL_INBOUND,
  DISCOVERY_INBOUND,
  BRAINSTORM_INBOUND,
  JOURNAL_INBOUND,
  SLEEP_INBOUND,
  MODEL_INBOUND,
  BUILD_INBOUND,
] as InboundSet<{ type: string }>[];
const parseWebviewMessage = (value: unknown) => {
  const { feature: _feature, ...parsed } = parseInbound(SETS, value);
  return parsed;
};

const brief = A_BRIEF;

const accepted: Array<[string, unknown, unknown]> = [
  ['ready', { type: 'ready' }, { type: 'ready' }],
  ['ready drops extra fields', { type: 'ready', extra: '<script>' }, { type: 'ready' }],
  [
    'a response to the host',
    { type: 'response', requestId: 'host-1', result: 'hello' },
    { type: 'response', requestId: 'host-1', result: 'hello' },
  ],
  [
    'a response with an empty result',
    { type: 'response', requestId: 'host-1', result: '' },
    { type: 'response', requestId: 'host-1', result: '' },
  ],
  [
    'journal.add trims',
    { type: 'journal.add', requestId: 'r1', title: '  Cache keys  ', description: ' use the path\n' },
    { type: 'journal.add', requestId: 'r1', title: 'Cache keys', description: 'use the path' },
  ],
  [
    'journal.add at the limits',
    {
      type: 'journal.add',
      requestId: 'r',
      title: 't'.repeat(MAX_TITLE_CHARS),
      description: 'd'.repeat(MAX_DESCRIPTION_CHARS),
    },
    {
      type: 'journal.add',
      requestId: 'r',
      title: 't'.repeat(MAX_TITLE_CHARS),
      description: 'd'.repeat(MAX_DESCRIPTION_CHARS),
    },
  ],
  ['sleep.wake', { type: 'sleep.wake', agent: 'build-qa' }, { type: 'sleep.wake', agent: 'build-qa' }],
  [
    'panel.command',
    { type: 'panel.command', command: 'manageTrust' },
    { type: 'panel.command', command: 'manageTrust' },
  ],
  ['model.command', { type: 'model.command', command: 'checkModel' }, { type: 'model.command', command: 'checkModel' }],
  ['journal.open', { type: 'journal.open' }, { type: 'journal.open' }],
  [
    'discovery.send',
    { type: 'discovery.send', text: 'build me a CRM' },
    { type: 'discovery.send', text: 'build me a CRM' },
  ],
  [
    'a 100 KB paste',
    { type: 'discovery.send', text: 'x'.repeat(100_000) },
    { type: 'discovery.send', text: 'x'.repeat(100_000) },
  ],
  ['discovery.start', { type: 'discovery.start', text: 'a note app' }, { type: 'discovery.start', text: 'a note app' }],
  [
    'answers with one skipped',
    { type: 'discovery.answer', answers: ['Bakers', ''], extra: '' },
    { type: 'discovery.answer', answers: ['Bakers', ''], extra: '' },
  ],
  [
    'only the free-text box',
    { type: 'discovery.answer', answers: ['', ''], extra: 'all of it' },
    { type: 'discovery.answer', answers: ['', ''], extra: 'all of it' },
  ],
  ['discovery.cancel', { type: 'discovery.cancel' }, { type: 'discovery.cancel' }],
  ['discovery.retry', { type: 'discovery.retry' }, { type: 'discovery.retry' }],
  ['brief.save', { type: 'brief.save', brief }, { type: 'brief.save', brief }],
  ['resync', { type: 'resync' }, { type: 'resync' }],
  ['brainstorm.new', { type: 'brainstorm.new' }, { type: 'brainstorm.new' }],
  ['brainstorm.resume', { type: 'brainstorm.resume' }, { type: 'brainstorm.resume' }],
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
  [
    'brainstorm.open document',
    { type: 'brainstorm.open', file: 'document' },
    { type: 'brainstorm.open', file: 'document' },
  ],
  [
    'brainstorm.open context',
    { type: 'brainstorm.open', file: 'context' },
    { type: 'brainstorm.open', file: 'context' },
  ],
  ['brainstorm.retry', { type: 'brainstorm.retry' }, { type: 'brainstorm.retry' }],
  ['brainstorm.stop', { type: 'brainstorm.stop' }, { type: 'brainstorm.stop' }],
  ['brainstorm.close', { type: 'brainstorm.close' }, { type: 'brainstorm.close' }],
  ['brief.brainstorm', { type: 'brief.brainstorm' }, { type: 'brief.brainstorm' }],
  [
    'notice.dismiss',
    { type: 'notice.dismiss', id: 'notice-1', extra: true },
    { type: 'notice.dismiss', id: 'notice-1' },
  ],
];

const rejected: Array<[string, unknown, RegExp]> = [
  ['null', null, /not an object/],
  ['a string', 'ready', /not an object/],
  ['an array', [{ type: 'ready' }], /not an object/],
  ['no type', { title: 'x' }, /not an object/],
  ['numeric type', { type: 7 }, /not an object/],
  ['unknown type', { type: 'runCommand', command: 'rm -rf /' }, /unknown message type "runCommand"/],
  ['a response without its id', { type: 'response', result: 'x' }, /"requestId" must be a string/],
  [
    'a response with a result that is not text',
    { type: 'response', requestId: 'r', result: 5 },
    /"result" must be a string/,
  ],
  ['an old-style command', { type: 'command', command: 'manageTrust' }, /unknown message type "command"/],
  ['a model command for the panel', { type: 'panel.command', command: 'setApiKey' }, /unknown command/],
  ['a panel command for the model', { type: 'model.command', command: 'manageTrust' }, /unknown command/],
  [
    'journal.add empty title',
    { type: 'journal.add', requestId: 'r', title: '   ', description: 'd' },
    /"title" must not be empty/,
  ],
  [
    'journal.add title too long',
    { type: 'journal.add', requestId: 'r', title: 't'.repeat(MAX_TITLE_CHARS + 1), description: 'd' },
    /"title" is 201 characters; the limit is 200/,
  ],
  [
    'journal.add description too long',
    { type: 'journal.add', requestId: 'r', title: 't', description: 'd'.repeat(MAX_DESCRIPTION_CHARS + 1) },
    /"description" is 8193 characters; the limit is 8192/,
  ],
  [
    'journal.add numeric title',
    { type: 'journal.add', requestId: 'r', title: 5, description: 'd' },
    /"title" must be a string/,
  ],
  [
    'journal.add without request id',
    { type: 'journal.add', title: 't', description: 'd' },
    /"requestId" must be a string/,
  ],
  ['sleep.wake without agent', { type: 'sleep.wake' }, /"agent" must be a string/],
  [
    'command not on the list',
    { type: 'panel.command', command: 'workbench.action.terminal.sendSequence' },
    /unknown command/,
  ],
  ['command prototype key', { type: 'model.command', command: 'toString' }, /unknown command/],
  ['a type that is a prototype key', { type: 'toString' }, /unknown message type/],
  ['an empty message', { type: 'discovery.send', text: '  ' }, /"text" must not be empty/],
  [
    'a message over the limit',
    { type: 'discovery.send', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) },
    /the limit is 1000000/,
  ],
  ['all answers empty', { type: 'discovery.answer', answers: ['', ' '], extra: '' }, /the answers are empty/],
  ['answers not strings', { type: 'discovery.answer', answers: [1], extra: '' }, /"answers" must be a list/],
  ['too many answers', { type: 'discovery.answer', answers: Array(21).fill('a'), extra: '' }, /at most 20/],
  ['a brief without a summary', { type: 'brief.save', brief: { ...brief, summary: ' ' } }, /one-line summary/],
  [
    'too many brainstorm answers',
    { type: 'brainstorm.answer', answers: Array(21).fill(null), action: 'more' },
    /at most 20 strings or nulls/,
  ],
  [
    'brainstorm answers not a list',
    { type: 'brainstorm.answer', answers: 'yes', action: 'more' },
    /"answers" must be a list/,
  ],
  [
    'a brainstorm answer that is a number',
    { type: 'brainstorm.answer', answers: ['a', 3], action: 'more' },
    /strings or nulls/,
  ],
  [
    'a brainstorm answer that is an object',
    { type: 'brainstorm.answer', answers: [{ text: 'a' }], action: 'more' },
    /strings or nulls/,
  ],
  ['brainstorm answers without a list', { type: 'brainstorm.answer', action: 'more' }, /"answers" must be a list/],
  [
    'brainstorm answers over the length limit',
    { type: 'brainstorm.answer', answers: ['x'.repeat(MAX_MESSAGE_CHARS), 'y'], action: 'more' },
    /the answers are 1000001 characters; the limit is 1000000/,
  ],
  [
    'a bad brainstorm action',
    { type: 'brainstorm.answer', answers: ['a'], action: 'finish' },
    /"action" must be "more" or "summarize"/,
  ],
  [
    'a brainstorm answer without an action',
    { type: 'brainstorm.answer', answers: ['a'] },
    /"action" must be "more" or "summarize"/,
  ],
  [
    'brainstorm.open of another file',
    { type: 'brainstorm.open', file: '../../etc/passwd' },
    /"file" must be "document" or "context"/,
  ],
  ['brainstorm.open without a file', { type: 'brainstorm.open' }, /"file" must be "document" or "context"/],
  [
    'a brief missing a field',
    { type: 'brief.save', brief: { summary: 'x' } },
    /brief\.field "problem" must be a string/,
  ],
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

describe('each feature owns its messages', () => {
  test('no type belongs to two features', () => {
    const all = SETS.flatMap((set) => set.types);
    assert.deepEqual(all, [...new Set(all)]);
  });

  test('a message is routed to its feature', () => {
    assert.equal(parseInbound(SETS, { type: 'brief.save', brief: { ...brief } }).feature, 'discovery');
    assert.equal(parseInbound(SETS, { type: 'sleep.wake', agent: 'a' }).feature, 'sleep');
    assert.equal(parseInbound(SETS, { type: 'ready' }).feature, 'panel');
  });

  test('the panel’s copy of the brief’s fields is the core’s list, in its order', () => {
    assert.deepEqual([...BRIEF_FIELDS], [...CORE_BRIEF_FIELDS]);
  });
});

describe('requests and their answers (one helper on both sides)', () => {
  test('each request has its own id; its answer settles it once', async () => {
    const pending = new PendingRequests('panel');
    const a = pending.open();
    const b = pending.open();
    assert.notEqual(a.requestId, b.requestId);
    assert.equal(pending.settle(b.requestId, { error: 'refused' }), true);
    assert.equal(pending.settle(b.requestId, { result: 'again' }), false, 'an answer comes once');
    assert.equal(pending.settle('panel-forged', {}), false, 'an answer nobody waits for is ignored');
    assert.equal(pending.settle(a.requestId, { result: 'ok' }), true);
    assert.deepEqual(await a.settled, { result: 'ok' });
    assert.deepEqual(await b.settled, { error: 'refused' });
    assert.equal(pending.size, 0);
  });
});

describe('build messages', () => {
  test('each of the buttons’ commands, and nothing else; Build This of the brief and the brainstorm take no fields', () => {
    for (const command of BUILD_COMMANDS)
      assert.deepEqual(parseWebviewMessage({ type: 'build.command', command }), {
        ok: true,
        message: { type: 'build.command', command },
      });
    for (const command of ['rm -rf', 'Stop', 1, undefined])
      assert.equal(parseWebviewMessage({ type: 'build.command', command }).ok, false, String(command));
    assert.deepEqual(parseWebviewMessage({ type: 'brief.build', path: '/etc/passwd' }), {
      ok: true,
      message: { type: 'brief.build' },
    });
    assert.deepEqual(parseWebviewMessage({ type: 'brainstorm.build', slug: '../x' }), {
      ok: true,
      message: { type: 'brainstorm.build' },
    });
  });
});

describe('stream ids', () => {
  test('name their feature, session and agent', () => {
    assert.equal(discoveryStream('panel'), 'discovery:panel');
    assert.equal(brainstormStream('invoices', 'coordinator'), 'brainstorm:invoices:coordinator');
    assert.deepEqual(brainstormStreamOf(brainstormStream('invoices', 'edge-cases')), {
      slug: 'invoices',
      agent: 'edge-cases',
    });
    assert.deepEqual(brainstormStreamOf(brainstormStream('', 'ux')), { slug: '', agent: 'ux' });
    assert.equal(brainstormStreamOf('discovery:panel'), undefined);
    assert.equal(streamFeature('discovery:panel'), 'discovery');
    assert.equal(streamFeature('brainstorm:a:ux'), 'brainstorm');
    assert.equal(buildStream('20250102-030405-adder-0a1f', 'qa', 2), 'build:20250102-030405-adder-0a1f:qa:2');
    assert.equal(streamFeature(buildStream('x', 'qa', 1)), 'build');
    assert.equal(streamFeature('terminal:1'), undefined);
    assert.equal(streamFeature('nocolon'), undefined);
  });
});

describe('panel string templates', () => {
  test('fill puts values in their places and leaves unknown ones', () => {
    assert.equal(fill('Round {0}/{1}', 2, 3), 'Round 2/3');
    assert.equal(fill('{1} before {0}', 'a', 'b'), 'b before a');
    assert.equal(fill('Saved to {0} {1}', 'x'), 'Saved to x {1}');
  });
});
