// The Messages API's wire format as api.anthropic.com writes it: the server-sent events of a
// streamed reply, the JSON of a whole reply, and the error body. Kept apart from the server so
// the format can be checked on its own and reused by anything that fakes the API.
import type { ServerResponse } from 'node:http';
import { estimateTokens } from './promptCache';

/** The `usage` object of a message, as the API spells it. */
export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** One content block of a scripted reply: text streamed in the given chunks, or a tool call. */
export type ReplyBlock =
  | { type: 'text'; chunks: string[] }
  /** `jsonChunks`: how many `input_json_delta` pieces the input is split into (default 3). */
  | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string; jsonChunks?: number };

export interface WireMessage {
  id: string;
  model: string;
  stopReason: string;
  usage: WireUsage;
  blocks: ReplyBlock[];
}

/** How a stream goes wrong after some deltas: an `event: error`, or the connection cut. */
export interface StreamFailure {
  afterDeltas: number;
  mode: 'error-event' | 'drop';
  /** For `error-event`; default overloaded_error. */
  error?: { type: string; message: string };
}

export interface StreamTiming {
  /** Before the first content delta (message_start and the first block start go out at once). */
  firstChunkDelayMs?: number;
  /** Between content deltas. */
  chunkDelayMs?: number;
  /** After this many content deltas, the stream waits for `until` (to make two streams overlap). */
  hold?: { afterDeltas: number; until: Promise<unknown> };
  /**
   * After its last content delta the reply sends nothing more (no block stop, no message stop) and
   * stays open until the client gives up: a model that hangs mid-reply.
   */
  openEnded?: boolean;
}

interface WireEvent {
  event: string;
  data: unknown;
  /** Content deltas are what the timing and the failure point count. */
  delta: boolean;
}

export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Splits `text` into `n` nearly equal pieces (fewer if it is shorter), never dropping a char. */
export function splitInto(text: string, n: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.ceil(text.length / Math.max(1, n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function blockStart(block: ReplyBlock, messageId: string, index: number): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', text: '' };
  return { type: 'tool_use', id: block.id ?? toolUseId(messageId, index), name: block.name, input: {} };
}

export function toolUseId(messageId: string, index: number): string {
  return `toolu_${messageId.replace(/^msg_/, '')}_${index}`;
}

/** Every event of the streamed reply, in the order the API sends them. */
export function streamEvents(message: WireMessage): WireEvent[] {
  const events: WireEvent[] = [];
  const push = (event: string, data: unknown, delta = false) => events.push({ event, data, delta });
  push('message_start', {
    type: 'message_start',
    message: {
      id: message.id,
      type: 'message',
      role: 'assistant',
      model: message.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // The API reports one output token at the start and the real count in message_delta.
      usage: { ...message.usage, output_tokens: Math.min(1, message.usage.output_tokens) },
    },
  });
  message.blocks.forEach((block, index) => {
    push('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: blockStart(block, message.id, index),
    });
    if (index === 0) push('ping', { type: 'ping' });
    if (block.type === 'text') {
      for (const text of block.chunks)
        push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, true);
    } else {
      // The API opens a tool's input with an empty partial, then sends the JSON in pieces.
      push('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: '' },
      });
      for (const partial_json of splitInto(JSON.stringify(block.input), block.jsonChunks ?? 3)) {
        push(
          'content_block_delta',
          { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } },
          true,
        );
      }
    }
    push('content_block_stop', { type: 'content_block_stop', index });
  });
  push('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message.stopReason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  push('message_stop', { type: 'message_stop' });
  return events;
}

/** The output tokens of a reply, estimated from its text and tool inputs (at least 1). */
export function outputTokens(blocks: ReplyBlock[]): number {
  const chars = blocks.reduce(
    (n, b) => n + (b.type === 'text' ? b.chunks.join('').length : JSON.stringify(b.input).length),
    0,
  );
  return Math.max(1, estimateTokens(chars));
}

/** The whole reply as a non-streaming request gets it. */
export function messageJson(message: WireMessage): Record<string, unknown> {
  return {
    id: message.id,
    type: 'message',
    role: 'assistant',
    model: message.model,
    content: message.blocks.map((block, index) =>
      block.type === 'text'
        ? { type: 'text', text: block.chunks.join('') }
        : { type: 'tool_use', id: block.id ?? toolUseId(message.id, index), name: block.name, input: block.input },
    ),
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage: message.usage,
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function errorBody(type: string, message: string, requestId: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

/**
 * Waits `ms`, or less if the client goes away: a scripted delay must not keep the process alive
 * after the test that wanted it has cancelled and moved on.
 */
export function pause(ms: number, res: ServerResponse): Promise<void> {
  if (ms <= 0 || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

const gone = (res: ServerResponse) => res.destroyed || res.writableEnded;

/**
 * Writes the reply's events with the scripted delays; stops quietly when the client goes away
 * (a cancelled request), and fails the stream as scripted.
 */
export async function writeStream(
  res: ServerResponse,
  message: WireMessage,
  timing: StreamTiming,
  failure?: StreamFailure,
  onDrop?: () => void,
): Promise<void> {
  let deltas = 0;
  const events = streamEvents(message);
  const lastDelta = events.reduce((last, e, i) => (e.delta ? i : last), -1);
  for (const [i, { event, data, delta }] of events.entries()) {
    if (timing.openEnded && i > lastDelta) {
      // Hangs here: nothing more until the client goes away.
      await new Promise<void>((resolve) => (gone(res) ? resolve() : res.once('close', () => resolve())));
      return;
    }
    // The failure takes the place of the event after the Nth delta (of the first delta for 0).
    const failNow = failure !== undefined && deltas === failure.afterDeltas && (delta || deltas > 0);
    if (delta || failNow) await pause(deltas === 0 ? (timing.firstChunkDelayMs ?? 0) : (timing.chunkDelayMs ?? 0), res);
    if (delta && timing.hold && deltas === timing.hold.afterDeltas) await timing.hold.until;
    if (gone(res)) return;
    if (failNow) {
      if (failure.mode === 'drop') {
        onDrop?.();
        // destroySoon: what was written still goes out, then the connection closes mid-message.
        res.socket?.destroySoon();
        return;
      }
      res.end(
        sseFrame('error', {
          type: 'error',
          error: failure.error ?? { type: 'overloaded_error', message: 'Overloaded' },
        }),
      );
      return;
    }
    if (delta) deltas++;
    res.write(sseFrame(event, data));
  }
  res.end();
}
