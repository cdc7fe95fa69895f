// The chat participant's pure core: a request read as a command and its text, where a message goes
// while a round waits, the model that serves it, the answers split from one message, and text from
// a person or a model made inert in chat markdown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MAX_CHAT_TEXT,
  chatModelSource,
  clip,
  escapeMarkdown,
  parseChatRequest,
  routeChat,
  splitAnswers,
} from '../../../src/core/chat/chatRequest';

describe('parseChatRequest', () => {
  test('each command with its text', () => {
    assert.deepEqual(parseChatRequest('discover', '  build me a CRM '), { kind: 'discover', text: 'build me a CRM' });
    assert.deepEqual(parseChatRequest('brainstorm', 'invoice export'), { kind: 'brainstorm', topic: 'invoice export' });
    assert.deepEqual(parseChatRequest('build', ''), { kind: 'build', brief: '' });
    assert.deepEqual(parseChatRequest('build', 'crm'), { kind: 'build', brief: 'crm' });
    assert.deepEqual(parseChatRequest('cases', 'eslint'), { kind: 'cases', query: 'eslint' });
    assert.deepEqual(parseChatRequest('status', 'ignored'), { kind: 'status' });
  });

  test('a command that needs text, or one that does not exist, is help', () => {
    assert.deepEqual(parseChatRequest('discover', '   '), { kind: 'help', command: 'discover' });
    assert.deepEqual(parseChatRequest('brainstorm', ''), { kind: 'help', command: 'brainstorm' });
    assert.deepEqual(parseChatRequest('deploy', 'now'), { kind: 'help', command: 'deploy' });
    assert.deepEqual(parseChatRequest(undefined, ''), { kind: 'help' });
  });

  test('text without a command is a message; text past the limit is refused before anything runs', () => {
    assert.deepEqual(parseChatRequest(undefined, 'the owner'), { kind: 'message', text: 'the owner' });
    assert.deepEqual(parseChatRequest('discover', 'x'.repeat(MAX_CHAT_TEXT + 1)), {
      kind: 'too-long',
      chars: MAX_CHAT_TEXT + 1,
    });
  });
});

describe('routeChat: one session, two views', () => {
  const discover = parseChatRequest('discover', 'build me a CRM');
  const message = parseChatRequest(undefined, 'the owner');

  test('/discover starts a conversation, or answers the round that waits (as the panel composer does)', () => {
    assert.deepEqual(routeChat(discover, { discovery: 'idle' }), { kind: 'discover-start', text: 'build me a CRM' });
    assert.deepEqual(routeChat(discover, { discovery: 'brief' }), { kind: 'discover-start', text: 'build me a CRM' });
    assert.deepEqual(routeChat(discover, { discovery: 'questions' }), {
      kind: 'discover-answer',
      text: 'build me a CRM',
    });
    assert.deepEqual(routeChat(discover, { discovery: 'failed' }), { kind: 'discover-answer', text: 'build me a CRM' });
    assert.deepEqual(routeChat(discover, { discovery: 'running' }), { kind: 'discover-busy' });
  });

  test('a message without a command answers the discovery that waits first, then the brainstorm, else help', () => {
    assert.deepEqual(routeChat(message, { discovery: 'questions', brainstorm: 'questions' }), {
      kind: 'discover-answer',
      text: 'the owner',
    });
    assert.deepEqual(routeChat(message, { discovery: 'idle', brainstorm: 'questions' }), {
      kind: 'brainstorm-answer',
      text: 'the owner',
    });
    assert.deepEqual(routeChat(message, { discovery: 'running' }), { kind: 'discover-busy' });
    assert.deepEqual(routeChat(message, { discovery: 'idle', brainstorm: 'running' }), { kind: 'brainstorm-busy' });
    assert.deepEqual(routeChat(message, { discovery: 'idle', brainstorm: 'none' }), { kind: 'help' });
  });

  test('/brainstorm starts one, answers the round that waits, or says it is busy', () => {
    const b = parseChatRequest('brainstorm', 'exports');
    assert.deepEqual(routeChat(b, { brainstorm: 'none' }), { kind: 'brainstorm-start', topic: 'exports' });
    assert.deepEqual(routeChat(b, { brainstorm: 'complete' }), { kind: 'brainstorm-start', topic: 'exports' });
    assert.deepEqual(routeChat(b, { brainstorm: 'questions' }), { kind: 'brainstorm-answer', text: 'exports' });
    assert.deepEqual(routeChat(b, { brainstorm: 'running' }), { kind: 'brainstorm-busy' });
  });

  test('the other commands pass through', () => {
    assert.deepEqual(routeChat(parseChatRequest('status', ''), { discovery: 'questions' }), { kind: 'status' });
    assert.deepEqual(routeChat(parseChatRequest('build', 'crm'), {}), { kind: 'build', brief: 'crm' });
  });
});

describe('splitAnswers', () => {
  test('numbered lines go to their questions, continuation lines with them; a number left out is skipped', () => {
    assert.deepEqual(splitAnswers('1. The owner\n3) Yes, on a phone\n   at the counter', 3), [
      'The owner',
      null,
      'Yes, on a phone\nat the counter',
    ]);
  });
  test('text without numbers answers the first question', () => {
    assert.deepEqual(splitAnswers('Just the owner', 2), ['Just the owner', null]);
    assert.deepEqual(splitAnswers('  ', 2), [null, null]);
  });
  test('numbers past the questions are text, not answers', () => {
    assert.deepEqual(splitAnswers('1. a\n9. b', 2), ['a\n9. b', null]);
  });
});

describe('chatModelSource', () => {
  test("the chat's model for vscode-lm, and for auto without a key; Groundwork's own otherwise", () => {
    assert.equal(chatModelSource('vscode-lm', true), 'chat');
    assert.equal(chatModelSource('vscode-lm', false), 'chat');
    assert.equal(chatModelSource('auto', false), 'chat');
    assert.equal(chatModelSource('auto', true), 'groundwork');
    assert.equal(chatModelSource('anthropic', false), 'groundwork');
    assert.equal(chatModelSource(undefined, false), 'chat', 'an unset provider is auto');
    assert.equal(chatModelSource('nonsense', true), 'groundwork');
  });
});

describe('escapeMarkdown', () => {
  const unescaped = (md: string) => md.replace(/\\(.)/g, '');

  test('links, images and command links become text', () => {
    const md = escapeMarkdown('[run](command:workbench.action.terminal.new) ![x](https://evil.example/?q=secret)');
    assert.ok(!/(?<!\\)[[\]()!]/.test(md), md);
    assert.ok(!unescaped(md).includes('[') && !unescaped(md).includes('('), md);
  });

  test('raw HTML, headings, lists, code fences and tables are inert', () => {
    for (const text of [
      '<img src=x onerror=alert(1)>',
      '# Heading',
      '- item',
      '```js\ncode\n```',
      '| a | b |',
      '1. one',
      '> quote',
      '***bold***',
      '`code`',
    ]) {
      const md = escapeMarkdown(text);
      assert.ok(!/(?<!\\)[<>#`|*>-]/.test(md.replace(/\\\\/g, '')), `${text} → ${md}`);
    }
  });

  test('indentation is dropped (no indented code block); lines stay lines, or fold into one', () => {
    assert.equal(escapeMarkdown('    indented\nnext'), 'indented  \nnext');
    assert.equal(escapeMarkdown('a\n\nb', true), 'a b');
  });

  test('control and invisible characters are shown, not obeyed', () => {
    const md = escapeMarkdown('safe\u202etxt.exe\u001b[31m');
    assert.ok(!md.includes('\u202e') && !md.includes('\u001b'), md);
    assert.match(md, /u202e/);
  });

  test('a backslash cannot undo the escaping', () => {
    assert.equal(escapeMarkdown('\\[x\\]'), '\\\\\\[x\\\\\\]');
  });
});

describe('clip', () => {
  test('one line, cut with an ellipsis', () => {
    assert.equal(clip('a\n b   c', 10), 'a b c');
    assert.equal(clip('abcdefghij', 5), 'abcd…');
  });
});
