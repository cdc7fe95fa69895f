// `transcript.jsonl` read back: each line checked against the record types of TranscriptRecord (a
// run folder may come from a cloned repository, and its messages go back to the model on Resume),
// and the conversation Resume continues from, cut at its last complete turn.
import { describeValue, isPlainObject } from '../inputChecks';
import type { LlmContent, LlmMessage } from '../llm/llmClient';
import type { RecordParser } from '../storage/recordLog';
import { isIsoDate } from './runRecord';
import { REASON_MAX_CHARS, RUN_STATUSES } from './runTypes';
import type { ApprovalDecision, RunStatus, TranscriptRecord } from './runTypes';

/** The most one text of a message may hold, in UTF-16 units: above any reply or tool result a run keeps (4 MiB of results in all). */
export const TRANSCRIPT_TEXT_MAX_CHARS = 8 * 1024 * 1024;
/** Content blocks in one message: a turn's text, its tool calls or their results. */
export const MESSAGE_BLOCKS_MAX = 1000;
/** A command line, a discovery: as a person would type or read them, with room to spare. */
const LONG_TEXT_MAX_CHARS = 64 * 1024;
/** Reasons, event names, impacts. */
const SHORT_TEXT_MAX_CHARS = 4000;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,128}$/;
const TOOL_ID_MAX_CHARS = 512;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SIGNAL = /^SIG[A-Z0-9]{1,16}$/;
const COMMAND_LOG = /^commands\/\d{3,9}\.log$/;
const DECISIONS: readonly ApprovalDecision[] = ['auto', 'once', 'run', 'denied', 'refused'];

type Parsed<T> = { ok: true; record: T } | { ok: false; reason: string };
const bad = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** One transcript line, or why it is not one. Unknown fields are ignored and not kept. */
export const parseTranscriptRecord: RecordParser<TranscriptRecord> = (value) => {
  if (!isPlainObject(value)) return bad('not a JSON object');
  const at = value['at'];
  if (!isIsoDate(at)) return bad('field at is not an ISO-8601 UTC time');
  switch (value['type']) {
    case 'message': {
      const turn = value['turn'];
      if (!Number.isSafeInteger(turn) || (turn as number) < 0) return bad('field turn is not a whole number ≥ 0');
      const message = parseMessage(value['message']);
      return message.ok
        ? { ok: true, record: { type: 'message', at, turn: turn as number, message: message.record } }
        : message;
    }
    case 'command':
      return parseCommand(value, at);
    case 'sleep': {
      const mode = value['mode'];
      if (mode !== 'timer' && mode !== 'event' && mode !== 'manual')
        return bad(`field mode ${describeValue(mode)} is not timer, event or manual`);
      const seconds = value['seconds'];
      if (seconds !== undefined && !isCount(seconds)) return bad('field seconds is not a whole number ≥ 0');
      const rest = optionalTexts(value, ['event', 'reason'], SHORT_TEXT_MAX_CHARS);
      return rest.ok
        ? {
            ok: true,
            record: {
              type: 'sleep',
              at,
              mode,
              ...(seconds !== undefined ? { seconds: seconds as number } : {}),
              ...rest.record,
            },
          }
        : rest;
    }
    case 'woken': {
      const reason = text(value['reason'], 'reason', SHORT_TEXT_MAX_CHARS);
      return reason.ok ? { ok: true, record: { type: 'woken', at, reason: reason.record } } : reason;
    }
    case 'discovery': {
      const scope = value['scope'];
      if (scope !== 'local' && scope !== 'global')
        return bad(`field scope ${describeValue(scope)} is not local or global`);
      const content = text(value['content'], 'content', LONG_TEXT_MAX_CHARS);
      if (!content.ok) return content;
      const impact = optionalTexts(value, ['impact', 'caseId'], SHORT_TEXT_MAX_CHARS);
      if (!impact.ok) return impact;
      const duplicate = value['duplicate'];
      if (duplicate !== undefined && typeof duplicate !== 'boolean')
        return bad(`field duplicate ${describeValue(duplicate)} is not true or false`);
      return {
        ok: true,
        record: {
          type: 'discovery',
          at,
          scope,
          content: content.record,
          ...impact.record,
          ...(duplicate !== undefined ? { duplicate } : {}),
        },
      };
    }
    case 'end': {
      const status = value['status'];
      if (!(RUN_STATUSES as readonly unknown[]).includes(status))
        return bad(`field status ${describeValue(status)} is not one of ${RUN_STATUSES.join(', ')}`);
      const reason = optionalTexts(value, ['reason'], REASON_MAX_CHARS);
      return reason.ok
        ? { ok: true, record: { type: 'end', at, status: status as RunStatus, ...reason.record } }
        : reason;
    }
    case undefined:
      return bad('missing field type');
    default:
      return bad(`field type ${describeValue(value['type'])} is unknown`);
  }
};

function parseCommand(value: Record<string, unknown>, at: string): Parsed<TranscriptRecord> {
  const command = text(value['command'], 'command', LONG_TEXT_MAX_CHARS);
  if (!command.ok) return command;
  const decision = value['decision'];
  if (!DECISIONS.includes(decision as ApprovalDecision))
    return bad(`field decision ${describeValue(decision)} is not one of ${DECISIONS.join(', ')}`);
  const { exitCode, signal, timedOut, durationMs, log } = value;
  if (exitCode !== undefined && !Number.isSafeInteger(exitCode)) return bad('field exitCode is not a whole number');
  if (signal !== undefined && (typeof signal !== 'string' || !SIGNAL.test(signal)))
    return bad(`field signal ${describeValue(signal)} is not a signal name`);
  if (timedOut !== undefined && typeof timedOut !== 'boolean') return bad('field timedOut is not true or false');
  if (durationMs !== undefined && (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0))
    return bad('field durationMs is not a number ≥ 0');
  // The log is opened from the run folder: only the name Groundwork gives it, nothing that leads elsewhere.
  if (log !== undefined && (typeof log !== 'string' || !COMMAND_LOG.test(log)))
    return bad(`field log ${describeValue(log)} is not commands/<n>.log`);
  return {
    ok: true,
    record: {
      type: 'command',
      at,
      command: command.record,
      decision: decision as ApprovalDecision,
      ...(exitCode !== undefined ? { exitCode: exitCode as number } : {}),
      ...(signal !== undefined ? { signal: signal as string } : {}),
      ...(timedOut !== undefined ? { timedOut: timedOut as boolean } : {}),
      ...(durationMs !== undefined ? { durationMs: durationMs as number } : {}),
      ...(log !== undefined ? { log: log as string } : {}),
    },
  };
}

/** A message as the model port takes it; tool calls only from the assistant, their results only from the user. */
export function parseMessage(value: unknown): Parsed<LlmMessage> {
  if (!isPlainObject(value)) return bad('field message is not an object');
  const role = value['role'];
  if (role !== 'user' && role !== 'assistant')
    return bad(`message.role ${describeValue(role)} is not user or assistant`);
  const content = value['content'];
  if (typeof content === 'string') {
    const checked = text(content, 'message.content', TRANSCRIPT_TEXT_MAX_CHARS, true);
    return checked.ok ? { ok: true, record: { role, content: checked.record } } : checked;
  }
  if (!Array.isArray(content) || content.length === 0 || content.length > MESSAGE_BLOCKS_MAX) {
    return bad(`message.content is not text or a list of 1 to ${MESSAGE_BLOCKS_MAX} blocks`);
  }
  const blocks: LlmContent[] = [];
  const toolIds = new Set<string>();
  for (const [i, raw] of content.entries()) {
    const block = parseBlock(raw, `message.content[${i}]`);
    if (!block.ok) return block;
    const b = block.record;
    if (b.type === 'tool_use' && role !== 'assistant')
      return bad(`message.content[${i}] is a tool call in a user message`);
    if (b.type === 'tool_result' && role !== 'user')
      return bad(`message.content[${i}] is a tool result in an assistant message`);
    const id = b.type === 'tool_use' ? b.id : b.type === 'tool_result' ? b.toolUseId : undefined;
    if (id !== undefined) {
      if (toolIds.has(id)) return bad(`message.content[${i}] repeats the tool call id ${describeValue(id)}`);
      toolIds.add(id);
    }
    blocks.push(b);
  }
  return { ok: true, record: { role, content: blocks } };
}

function parseBlock(value: unknown, at: string): Parsed<LlmContent> {
  if (!isPlainObject(value)) return bad(`${at} is not an object`);
  switch (value['type']) {
    case 'text': {
      const t = text(value['text'], `${at}.text`, TRANSCRIPT_TEXT_MAX_CHARS, true);
      return t.ok ? { ok: true, record: { type: 'text', text: t.record } } : t;
    }
    case 'tool_use': {
      const { id, name } = value;
      if (!isToolId(id)) return bad(`${at}.id is not a tool call id`);
      if (typeof name !== 'string' || !TOOL_NAME.test(name))
        return bad(`${at}.name ${describeValue(name)} is not a tool name`);
      // The input is the model's own JSON, sent back as it was; the line's size already bounds it.
      if (!('input' in value)) return bad(`${at}.input is missing`);
      return { ok: true, record: { type: 'tool_use', id, name, input: value['input'] } };
    }
    case 'tool_result': {
      const { toolUseId, isError } = value;
      if (!isToolId(toolUseId)) return bad(`${at}.toolUseId is not a tool call id`);
      const content = text(value['content'], `${at}.content`, TRANSCRIPT_TEXT_MAX_CHARS, true);
      if (!content.ok) return content;
      if (isError !== undefined && typeof isError !== 'boolean') return bad(`${at}.isError is not true or false`);
      return {
        ok: true,
        record: {
          type: 'tool_result',
          toolUseId,
          content: content.record,
          ...(isError !== undefined ? { isError } : {}),
        },
      };
    }
    default:
      return bad(`${at}.type ${describeValue(value['type'])} is not text, tool_use or tool_result`);
  }
}

function isToolId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= TOOL_ID_MAX_CHARS && !CONTROL.test(value);
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** Text of at most `max` UTF-16 units (a bound, not a count people see), not empty unless `empty`. */
function text(value: unknown, field: string, max: number, empty = false): Parsed<string> {
  if (typeof value !== 'string') return bad(`field ${field} is not text`);
  if (value.length > max) return bad(`field ${field} is longer than ${max} characters`);
  if (!empty && value.trim() === '') return bad(`field ${field} is empty`);
  return { ok: true, record: value };
}

function optionalTexts<K extends string>(
  obj: Record<string, unknown>,
  fields: readonly K[],
  max: number,
): Parsed<Partial<Record<K, string>>> {
  const out: Partial<Record<K, string>> = {};
  for (const field of fields) {
    if (obj[field] === undefined) continue;
    const t = text(obj[field], field, max, true);
    if (!t.ok) return t;
    out[field] = t.record;
  }
  return { ok: true, record: out };
}

/**
 * The conversation Resume continues from: the transcript's messages in order, kept up to the last
 * complete turn. An assistant turn whose tool calls did not all get a result in the next user
 * message is dropped with that message, and the turn is run again; a resumed run appends its
 * re-run after the dropped one, so a turn is dropped wherever the next message does not answer it,
 * not only at the end. `complete`: the run had answered (the last message is an assistant's without
 * tool calls), so there is nothing to resume. `turns`: the assistant messages kept.
 */
export function resumeMessages(records: readonly TranscriptRecord[]): {
  messages: LlmMessage[];
  turns: number;
  complete: boolean;
} {
  const kept: LlmMessage[] = [];
  for (const record of records) {
    if (record.type !== 'message') continue;
    const message = record.message;
    const last = kept.at(-1);
    if (message.role === 'assistant') {
      // Only after a user message: one after an assistant's replaces it (that turn was re-run).
      if (last === undefined) continue;
      if (last.role === 'assistant') kept.pop();
      kept.push(message);
      continue;
    }
    const results = resultIds(message);
    if (last === undefined) {
      // The task: the conversation cannot begin with results of calls nobody made.
      if (results.size === 0) kept.push(message);
      continue;
    }
    if (last.role === 'user') continue;
    const calls = toolUseIds(last);
    // After an answer, only a new request (results of no call are left out, the answer stays).
    if (calls.size === 0) {
      if (results.size === 0) kept.push(message);
      continue;
    }
    if (calls.size === results.size && [...calls].every((id) => results.has(id))) kept.push(message);
    // Results that do not answer every call (or answer calls not made): the turn is run again.
    else kept.pop();
  }
  const tail = kept.at(-1);
  if (tail?.role === 'assistant' && toolUseIds(tail).size > 0) kept.pop();
  const end = kept.at(-1);
  return {
    messages: kept,
    turns: kept.filter((m) => m.role === 'assistant').length,
    complete: end?.role === 'assistant' && toolUseIds(end).size === 0,
  };
}

function toolUseIds(message: LlmMessage): Set<string> {
  return new Set(
    typeof message.content === 'string' ? [] : message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])),
  );
}

function resultIds(message: LlmMessage): Set<string> {
  return new Set(
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])),
  );
}
