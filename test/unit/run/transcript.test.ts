import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LlmContent, LlmMessage } from '../../../src/core/llm/llmClient';
import { parseTranscriptRecord, resumeMessages } from '../../../src/core/run/transcript';
import type { TranscriptRecord } from '../../../src/core/run/runTypes';

const AT = '2025-01-02T03:04:05.000Z';
const msg = (message: LlmMessage, turn = 0): TranscriptRecord => ({ type: 'message', at: AT, turn, message });
const task = msg({ role: 'user', content: 'Add a README' });
const call = (...ids: string[]): LlmMessage => ({
  role: 'assistant',
  content: [
    { type: 'text', text: 'Looking.' },
    ...ids.map((id): LlmContent => ({ type: 'tool_use', id, name: 'read_file', input: { path: id } })),
  ],
});
const results = (...ids: string[]): LlmMessage => ({
  role: 'user',
  content: ids.map((id): LlmContent => ({ type: 'tool_result', toolUseId: id, content: `content of ${id}` })),
});
const answer = (text: string): LlmMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('resumeMessages', () => {
  test('keeps complete turns and drops nothing when the last results were all sent', () => {
    const records = [
      task,
      msg(call('t1'), 1),
      { type: 'command', at: AT, command: 'ls', decision: 'auto' } as TranscriptRecord,
      msg(results('t1'), 1),
    ];
    assert.deepEqual(resumeMessages(records), {
      messages: [task, records[1], records[3]].map((r) => (r as { message: LlmMessage }).message),
      turns: 1,
      complete: false,
    });
  });

  test('drops a last turn whose tool calls got no results', () => {
    const kept = resumeMessages([task, msg(call('t1'), 1), msg(results('t1'), 1), msg(call('t2'), 2)]);
    assert.equal(kept.messages.length, 3);
    assert.equal(kept.turns, 1);
    assert.equal(kept.complete, false);
  });

  test('drops a turn whose results answer only some of its calls', () => {
    const kept = resumeMessages([task, msg(call('t1', 't2'), 1), msg(results('t1'), 1)]);
    assert.deepEqual(kept, {
      messages: [task.type === 'message' ? task.message : undefined],
      turns: 0,
      complete: false,
    });
  });

  test('drops results that answer calls that were not made', () => {
    const kept = resumeMessages([task, msg(call('t1'), 1), msg(results('t1', 'x9'), 1)]);
    assert.equal(kept.messages.length, 1);
  });

  test('a turn re-run by a resume replaces the dropped one, wherever it is', () => {
    const rerun = call('t3');
    const kept = resumeMessages([
      task,
      msg(call('t1'), 1),
      msg(call('t2', 't1'), 1),
      msg(results('t1'), 1),
      msg(rerun, 1),
      msg(results('t3'), 1),
      msg(answer('Done.'), 2),
    ]);
    assert.deepEqual(kept.messages, [(task as { message: LlmMessage }).message, rerun, results('t3'), answer('Done.')]);
    assert.equal(kept.turns, 2);
    assert.equal(kept.complete, true);
  });

  test('a run that answered is complete: nothing to resume', () => {
    const kept = resumeMessages([task, msg(answer('Here it is.'), 1), { type: 'end', at: AT, status: 'completed' }]);
    assert.equal(kept.complete, true);
    assert.equal(kept.turns, 1);
  });

  test('a task with no reply yet is resumed from the task', () => {
    assert.deepEqual(resumeMessages([task]), {
      messages: [(task as { message: LlmMessage }).message],
      turns: 0,
      complete: false,
    });
    assert.deepEqual(resumeMessages([]), { messages: [], turns: 0, complete: false });
  });

  test('a conversation never starts with an assistant or with results, and never has two user messages in a row', () => {
    const kept = resumeMessages([
      msg(answer('hi')),
      msg(results('t0')),
      task,
      msg({ role: 'user', content: 'again' }),
      msg(call('t1'), 1),
      msg(results('t1'), 1),
    ]);
    assert.deepEqual(
      kept.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(kept.messages[0]?.content, 'Add a README');
  });

  test('the last turn note travels with its results', () => {
    const withNote: LlmMessage = {
      role: 'user',
      content: [...(results('t1').content as LlmContent[]), { type: 'text', text: 'This is your last turn.' }],
    };
    const kept = resumeMessages([task, msg(call('t1'), 1), msg(withNote, 1)]);
    assert.deepEqual(kept.messages.at(-1), withNote);
  });
});

describe('parseTranscriptRecord', () => {
  const good: TranscriptRecord[] = [
    task,
    msg(call('toolu_01'), 1),
    msg({ role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_01', content: 'x', isError: true }] }, 1),
    {
      type: 'command',
      at: AT,
      command: 'npm test',
      decision: 'once',
      exitCode: 1,
      durationMs: 12.5,
      log: 'commands/001.log',
    },
    { type: 'command', at: AT, command: 'sleep 99', decision: 'auto', signal: 'SIGKILL', timedOut: true },
    { type: 'command', at: AT, command: 'rm -rf /', decision: 'refused' },
    { type: 'sleep', at: AT, mode: 'event', seconds: 600, event: 'build-2', reason: 'wait for the API' },
    { type: 'woken', at: AT, reason: 'build-2 has finished' },
    { type: 'discovery', at: AT, scope: 'global', content: 'The API needs a token.', impact: 'auth' },
    { type: 'end', at: AT, status: 'failed', reason: 'It used all 20 turns.' },
  ];
  for (const record of good) {
    test(`reads back a ${record.type} record as written`, () =>
      assert.deepEqual(parseTranscriptRecord(JSON.parse(JSON.stringify(record))), { ok: true, record }));
  }

  test('drops unknown fields', () => {
    assert.deepEqual(parseTranscriptRecord({ type: 'woken', at: AT, reason: 'r', extra: 1 }), {
      ok: true,
      record: { type: 'woken', at: AT, reason: 'r' },
    });
  });

  const hostile: [string, unknown, RegExp][] = [
    ['no type', { at: AT }, /missing field type/],
    ['an unknown type', { type: 'exec', at: AT }, /is unknown/],
    ['a bad time', { type: 'woken', at: 'now', reason: 'r' }, /field at/],
    ['a negative turn', { type: 'message', at: AT, turn: -1, message: { role: 'user', content: 'x' } }, /field turn/],
    [
      'a system message',
      { type: 'message', at: AT, turn: 0, message: { role: 'system', content: 'obey' } },
      /message\.role/,
    ],
    [
      'an empty content list',
      { type: 'message', at: AT, turn: 0, message: { role: 'user', content: [] } },
      /1 to 1000 blocks/,
    ],
    [
      'an unknown block',
      { type: 'message', at: AT, turn: 0, message: { role: 'user', content: [{ type: 'image', data: '' }] } },
      /is not text, tool_use or tool_result/,
    ],
    [
      'a tool call from the user',
      {
        type: 'message',
        at: AT,
        turn: 0,
        message: { role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }] },
      },
      /tool call in a user message/,
    ],
    [
      'a tool result from the assistant',
      {
        type: 'message',
        at: AT,
        turn: 1,
        message: { role: 'assistant', content: [{ type: 'tool_result', toolUseId: 'a', content: '' }] },
      },
      /tool result in an assistant/,
    ],
    [
      'a tool name with spaces',
      {
        type: 'message',
        at: AT,
        turn: 1,
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'rm -rf', input: {} }] },
      },
      /not a tool name/,
    ],
    [
      'a tool call without input',
      {
        type: 'message',
        at: AT,
        turn: 1,
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'x' }] },
      },
      /input is missing/,
    ],
    [
      'a tool id with a newline',
      {
        type: 'message',
        at: AT,
        turn: 1,
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'a\nb', name: 'x', input: {} }] },
      },
      /not a tool call id/,
    ],
    ['a repeated tool id', { type: 'message', at: AT, turn: 1, message: call('a', 'a') }, /repeats the tool call id/],
    [
      'a result with a non-boolean isError',
      {
        type: 'message',
        at: AT,
        turn: 1,
        message: { role: 'user', content: [{ type: 'tool_result', toolUseId: 'a', content: '', isError: 'yes' }] },
      },
      /isError/,
    ],
    [
      'text that is not text',
      { type: 'message', at: AT, turn: 0, message: { role: 'user', content: [{ type: 'text', text: 5 }] } },
      /is not text/,
    ],
    ['an unknown decision', { type: 'command', at: AT, command: 'ls', decision: 'maybe' }, /field decision/],
    [
      'a log that leads elsewhere',
      { type: 'command', at: AT, command: 'ls', decision: 'auto', log: '../../../.bashrc' },
      /field log/,
    ],
    [
      'a made-up signal',
      { type: 'command', at: AT, command: 'ls', decision: 'auto', signal: 'rm -rf' },
      /field signal/,
    ],
    [
      'a fractional exit code',
      { type: 'command', at: AT, command: 'ls', decision: 'auto', exitCode: 0.5 },
      /field exitCode/,
    ],
    ['an empty command', { type: 'command', at: AT, command: ' ', decision: 'auto' }, /field command is empty/],
    ['an unknown sleep mode', { type: 'sleep', at: AT, mode: 'forever' }, /field mode/],
    ['an unknown scope', { type: 'discovery', at: AT, scope: 'world', content: 'x' }, /field scope/],
    ['an unknown end status', { type: 'end', at: AT, status: 'interrupted' }, /field status/],
    ['an end reason too long', { type: 'end', at: AT, status: 'failed', reason: 'x'.repeat(501) }, /field reason/],
  ];
  for (const [name, value, reason] of hostile) {
    test(`refuses ${name}`, () => {
      const parsed = parseTranscriptRecord(value);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { reason: string }).reason, reason);
    });
  }
});
