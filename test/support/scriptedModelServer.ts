// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for unit, CLI and in-VS Code
// tests (point the SDK's baseURL at it). Replies come from rules matched against each request
// (modelScript.ts: the same rules scriptedModel.ts serves in-process); every request is logged for
// assertions. Plain node:http and no test-framework imports, so it runs anywhere Node does. A
// request no rule matches gets a 400 naming it, so tests fail loudly. Besides replies and API
// errors, a rule can hold a request unanswered (`reply.blackHole()`), hang up, or fail a number of
// times before it answers (`failThenSucceed`).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelScript, describeBody, type MessagesBody, type ScriptRule } from './modelScript';
import { PromptCache } from './promptCache';
import {
  errorBody,
  errorType,
  messageJson,
  outputTokens,
  pause,
  writeStream,
  type WireMessage,
  type WireUsage,
} from './sse';

export {
  failThenSucceed,
  inOrder,
  lastUserText,
  match,
  reply,
  systemText,
  type ErrorReply,
  type HangUpReply,
  type MessagesBody,
  type Reply,
  type ReplyCall,
  type ScriptRule,
  type StallReply,
  type StreamReply,
} from './modelScript';

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

const now = () => performance.timeOrigin + performance.now();

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

function describeRequest(entry: RecordedRequest): string {
  return `request #${entry.seq} (${entry.method} ${entry.path}, ${describeBody(entry.body as Partial<MessagesBody>)})`;
}

/** The 200 and the headers of a streamed reply, sent at once. */
function startStream(res: ServerResponse, entry: RecordedRequest): void {
  entry.status = 200;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': `req_scripted_${entry.seq}`,
  });
  res.flushHeaders();
}

export async function startScriptedModelServer(rules: ScriptRule[] = []): Promise<ScriptedModelServer> {
  const script = new ModelScript(rules);
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const cache = new PromptCache();
  let seq = 0;

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
    const found = Array.isArray(body?.messages) ? script.take(body) : undefined;
    if (!found) {
      unmatched.push(entry);
      const message = `scripted model server: ${script.noRuleFor(describeRequest(entry))}`;
      return sendError(res, entry, 400, 'invalid_request_error', message, { 'x-should-retry': 'false' });
    }
    entry.rule = found.label;
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const r = typeof found.reply === 'function' ? await found.reply(body, { signal: gone.signal }) : found.reply;
    await pause(r.headerDelayMs ?? 0, res);
    if (res.destroyed) return;

    if ('stall' in r) {
      if (r.stall === 'after-headers') startStream(res, entry);
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
    startStream(res, entry);
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
    add: (...more) => script.add(...more),
    pending: () => script.pending(),
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive sockets from the SDK would hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
