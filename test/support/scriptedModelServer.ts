// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for unit, CLI and in-VS Code
// tests (point the SDK's baseURL at it). Replies come from rules matched against each request;
// every request is logged for assertions. Plain node:http and no test-framework imports, so it
// runs anywhere Node does. A request no rule matches gets a 400 naming it, so tests fail loudly.
// Besides replies and API errors, a rule can hold a request unanswered (`reply.blackHole()`), hang
// up, or fail a number of times before it answers (`failThenSucceed`).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PromptCache, estimateTokens } from './promptCache';
import {
  errorBody,
  errorType,
  messageJson,
  pause,
  writeStream,
  type ReplyBlock,
  type StreamFailure,
  type StreamTiming,
  type WireMessage,
  type WireUsage,
} from './sse';

/** The parts of a Messages API request body the matchers look at; the rest passes through. */
export interface MessagesBody {
  model: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | { type: string; text: string; cache_control?: unknown }[];
  messages: { role: string; content: string | Record<string, unknown>[] }[];
  tools?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** 1-based, in arrival order. */
  seq: number;
  method: string;
  path: string;
  /** Lower-case names; the key headers (x-api-key, authorization) are left out. */
  headers: Record<string, string>;
  /** Whether a key came, in which header, and which: its length and a short hash, never the key. */
  apiKey: { present: boolean; header: 'x-api-key' | 'authorization' | undefined; length: number; sha256: string };
  body: unknown;
  /** The rule that answered, by name (or index); undefined when none matched. */
  rule?: string;
  status?: number;
  /** Epoch milliseconds, fractional. */
  receivedAt: number;
  finishedAt?: number;
  /** The client went away before the reply was complete (a cancelled or abandoned request). */
  clientClosed: boolean;
  /** The script cut the connection (`fail: { mode: 'drop' }`, or `reply.hangUp()`). */
  dropped: boolean;
}

export interface StreamReply extends StreamTiming {
  blocks: ReplyBlock[];
  /** Default: `tool_use` when a block is a tool call, else `end_turn`. */
  stopReason?: string;
  /** Overrides the computed usage (input from the prompt cache stand-in, output estimated). */
  usage?: Partial<WireUsage>;
  /** Default: the request's model. */
  model?: string;
  headerDelayMs?: number;
  fail?: StreamFailure;
}

export interface ErrorReply {
  error: {
    status: number;
    /** Default: the API's type for the status (rate_limit_error, overloaded_error, …). */
    type?: string;
    message?: string;
    /** Seconds, the `retry-after` header the API sends. */
    retryAfter?: number;
    /** The SDK also honours `retry-after-ms`, which keeps retry tests fast. */
    retryAfterMs?: number;
    /** Any other headers, as sent (a malformed `retry-after`, `x-should-retry`). */
    headers?: Record<string, string>;
  };
  headerDelayMs?: number;
}

/**
 * A black hole: the request is read and never answered. `before-headers` sends nothing at all (a
 * proxy that lost its upstream); `after-headers` sends the 200 and its SSE headers, then nothing.
 * The connection stays open until the client gives up or the server closes.
 */
export interface StallReply {
  stall: 'before-headers' | 'after-headers';
  headerDelayMs?: number;
}

/** The connection is closed without a reply, as a crashing proxy does (the client sees a reset or a closed socket). */
export interface HangUpReply {
  hangUp: true;
  headerDelayMs?: number;
}

export type Reply = StreamReply | ErrorReply | StallReply | HangUpReply;

export interface ScriptRule {
  name?: string;
  /** Default: matches any request. */
  match?: (body: MessagesBody) => boolean;
  reply: Reply | ((body: MessagesBody) => Reply);
  /** How many requests the rule answers; default 1, `Infinity` for every matching request. */
  times?: number;
}

export interface ScriptedModelServer {
  /** For the SDK's `baseURL` (no trailing slash, no /v1). */
  baseURL: string;
  requests: RecordedRequest[];
  /** The requests no rule matched (each also got a 400). */
  unmatched: RecordedRequest[];
  cache: PromptCache;
  /** Appends rules; earlier rules win when several match. */
  add(...rules: ScriptRule[]): void;
  /** Names of once-or-more rules that still have answers left (not the repeatable ones). */
  pending(): string[];
  close(): Promise<void>;
}

export const reply = {
  text(chunks: string | string[], options: Omit<StreamReply, 'blocks'> = {}): StreamReply {
    return { ...options, blocks: [{ type: 'text', chunks: typeof chunks === 'string' ? [chunks] : chunks }] };
  },
  /** A tool call, optionally after some text, as the model writes "Let me check." first. */
  toolUse(
    name: string,
    input: Record<string, unknown>,
    options: Omit<StreamReply, 'blocks'> & { text?: string[]; id?: string; jsonChunks?: number } = {},
  ): StreamReply {
    const { text, id, jsonChunks, ...rest } = options;
    const tool: ReplyBlock = {
      type: 'tool_use',
      name,
      input,
      ...(id ? { id } : {}),
      ...(jsonChunks ? { jsonChunks } : {}),
    };
    return { ...rest, blocks: text ? [{ type: 'text', chunks: text }, tool] : [tool] };
  },
  error(status: number, options: Omit<ErrorReply['error'], 'status'> & { headerDelayMs?: number } = {}): ErrorReply {
    const { headerDelayMs, ...error } = options;
    return { error: { status, ...error }, ...(headerDelayMs !== undefined ? { headerDelayMs } : {}) };
  },
  /** Accepts the request and never answers (see StallReply). */
  blackHole(after: StallReply['stall'] = 'before-headers'): StallReply {
    return { stall: after };
  },
  hangUp(): HangUpReply {
    return { hangUp: true };
  },
};

/**
 * Rules for a flaky endpoint: the first `n` requests get `failure` (an error, a black hole, a
 * hang-up), the next one `success`. Named `<name> failure` and `<name>`, for `pending()`.
 */
export function failThenSucceed(n: number, failure: Reply, success: Reply, name = 'flaky'): ScriptRule[] {
  return [...(n > 0 ? [{ name: `${name} failure`, times: n, reply: failure }] : []), { name, reply: success }];
}

function textOf(content: MessagesBody['messages'][number]['content'] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b['type'] === 'text' && typeof b['text'] === 'string' ? b['text'] : '')).join('');
}

const matches = (pattern: string | RegExp, text: string) =>
  typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);

export function lastUserText(body: MessagesBody): string {
  return textOf([...body.messages].reverse().find((m) => m.role === 'user')?.content);
}

export function systemText(body: MessagesBody): string {
  return typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('');
}

/** Matchers for `ScriptRule.match`; strings match as substrings. */
export const match = {
  lastUserText: (pattern: string | RegExp) => (body: MessagesBody) => matches(pattern, lastUserText(body)),
  system: (pattern: string | RegExp) => (body: MessagesBody) => matches(pattern, systemText(body)),
  model: (id: string) => (body: MessagesBody) => body.model === id,
  hasTools: () => (body: MessagesBody) => (body.tools?.length ?? 0) > 0,
  /** The last message carries a tool_result (for `toolUseId` when given). */
  toolResult: (toolUseId?: string) => (body: MessagesBody) => {
    const last = body.messages.at(-1)?.content;
    return (
      Array.isArray(last) &&
      last.some((b) => b['type'] === 'tool_result' && (toolUseId === undefined || b['tool_use_id'] === toolUseId))
    );
  },
};

interface LiveRule {
  rule: ScriptRule;
  label: string;
  left: number;
}

const now = () => performance.timeOrigin + performance.now();
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function record(seq: number, req: IncomingMessage): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'x-api-key' || name === 'authorization' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // Older SDKs send the key as x-api-key, 1.x as a bearer token.
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const key = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : (bearer ?? '');
  const header = req.headers['x-api-key'] ? ('x-api-key' as const) : bearer ? ('authorization' as const) : undefined;
  const apiKey = {
    present: key !== '',
    header,
    length: key.length,
    sha256: key ? createHash('sha256').update(key).digest('hex').slice(0, 12) : '',
  };
  return {
    seq,
    method: req.method ?? '',
    path: req.url ?? '',
    headers,
    apiKey,
    body: undefined,
    receivedAt: now(),
    clientClosed: false,
    dropped: false,
  };
}

function outputTokens(blocks: ReplyBlock[]): number {
  const chars = blocks.reduce(
    (n, b) => n + (b.type === 'text' ? b.chunks.join('').length : JSON.stringify(b.input).length),
    0,
  );
  return Math.max(1, estimateTokens(chars));
}

function describeRequest(entry: RecordedRequest): string {
  const body = entry.body as Partial<MessagesBody> | undefined;
  const what = body?.messages
    ? `model ${String(body.model)}, last user text "${clip(lastUserText(body as MessagesBody))}"`
    : 'no Messages API body';
  return `request #${entry.seq} (${entry.method} ${entry.path}, ${what})`;
}

export async function startScriptedModelServer(rules: ScriptRule[] = []): Promise<ScriptedModelServer> {
  const live: LiveRule[] = [];
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const cache = new PromptCache();
  let seq = 0;

  const add = (...more: ScriptRule[]) => {
    for (const rule of more) live.push({ rule, label: rule.name ?? `rule ${live.length + 1}`, left: rule.times ?? 1 });
  };
  add(...rules);

  const sendError = (
    res: ServerResponse,
    entry: RecordedRequest,
    status: number,
    type: string,
    message: string,
    extra: Record<string, string> = {},
  ) => {
    entry.status = status;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_scripted_${entry.seq}`, ...extra });
    res.end(JSON.stringify(errorBody(type, message, `req_scripted_${entry.seq}`)));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, entry: RecordedRequest) => {
    const raw = await readBody(req);
    try {
      entry.body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return sendError(
        res,
        entry,
        400,
        'invalid_request_error',
        `scripted model server: ${describeRequest(entry)} has a body that is not JSON`,
      );
    }
    const path = entry.path.split('?')[0];
    if (entry.method !== 'POST' || path !== '/v1/messages') {
      return sendError(
        res,
        entry,
        404,
        'not_found_error',
        `scripted model server: no route for ${entry.method} ${entry.path} (only POST /v1/messages)`,
      );
    }
    const body = entry.body as MessagesBody;
    const found = Array.isArray(body?.messages)
      ? live.find((l) => l.left > 0 && (l.rule.match?.(body) ?? true))
      : undefined;
    if (!found) {
      unmatched.push(entry);
      const left = live.filter((l) => l.left > 0).map((l) => l.label);
      const message = `scripted model server: no rule matches ${describeRequest(entry)}; rules with answers left: ${left.length ? left.join(', ') : 'none'}`;
      return sendError(res, entry, 400, 'invalid_request_error', message, { 'x-should-retry': 'false' });
    }
    found.left--;
    entry.rule = found.label;
    const r = typeof found.rule.reply === 'function' ? found.rule.reply(body) : found.rule.reply;
    await pause(r.headerDelayMs ?? 0, res);
    if (res.destroyed) return;

    if ('stall' in r) {
      if (r.stall === 'after-headers') {
        entry.status = 200;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          'request-id': `req_scripted_${entry.seq}`,
        });
        res.flushHeaders();
      }
      // Nothing more: the response stays open until the client aborts or close() destroys it.
      return;
    }
    if ('hangUp' in r) {
      entry.dropped = true;
      return void res.socket?.destroy();
    }
    if ('error' in r) {
      const {
        status,
        type = errorType(status),
        message = `scripted ${status} ${type}`,
        retryAfter,
        retryAfterMs,
        headers: extra = {},
      } = r.error;
      const headers: Record<string, string> = { ...extra };
      if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
      if (retryAfterMs !== undefined) headers['retry-after-ms'] = String(retryAfterMs);
      return sendError(res, entry, status, type, message, headers);
    }

    const hasTool = r.blocks.some((b) => b.type === 'tool_use');
    const usage: WireUsage = { ...cache.usageFor(body), output_tokens: outputTokens(r.blocks), ...r.usage };
    const message: WireMessage = {
      id: `msg_scripted_${entry.seq}`,
      model: r.model ?? body.model,
      stopReason: r.stopReason ?? (hasTool ? 'tool_use' : 'end_turn'),
      usage,
      blocks: r.blocks,
    };
    entry.status = 200;
    if (body.stream !== true) {
      if (r.fail) {
        entry.dropped = true;
        return void res.socket?.destroy();
      }
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_scripted_${entry.seq}` });
      return void res.end(JSON.stringify(messageJson(message)));
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': `req_scripted_${entry.seq}`,
    });
    res.flushHeaders();
    await writeStream(res, message, r, r.fail, () => (entry.dropped = true));
  };

  const server = createServer({ noDelay: true }, (req, res) => {
    const entry = record(++seq, req);
    requests.push(entry);
    res.on('close', () => {
      entry.finishedAt = now();
      if (!res.writableFinished && !entry.dropped) entry.clientClosed = true;
    });
    answer(req, res, entry).catch((err: unknown) => {
      if (res.headersSent) return void res.socket?.destroy();
      // A broken script (a reply function that threw) is the test's bug: fail once, no retries.
      sendError(
        res,
        entry,
        500,
        'api_error',
        `scripted model server failed on ${describeRequest(entry)}: ${String(err)}`,
        { 'x-should-retry': 'false' },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    unmatched,
    cache,
    add,
    pending: () => live.filter((l) => l.left > 0 && Number.isFinite(l.left)).map((l) => l.label),
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive sockets from the SDK would hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
