// What every feature's slice of the panel protocol is built from: the checks of an inbound message
// (everything the webview sends is untrusted: the host acts on a message only once its feature's
// parser has validated it), the one request/response helper both sides use, and stream ids.

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

/** The panel's features, each with its own state slice and message set. */
export const FEATURES = ['panel', 'discovery', 'brainstorm', 'journal', 'sleep', 'model', 'build'] as const;
export type FeatureId = (typeof FEATURES)[number];

export const MAX_ID_CHARS = 128;
/** A pasted message may be long; the core caps what reaches the model and keeps the rest. */
export const MAX_MESSAGE_CHARS = 1_000_000;
/** Answers to one round of questions. */
export const MAX_ANSWERS = 20;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field of `obj`, or what is wrong with it. */
export function textField(
  obj: Record<string, unknown>,
  key: string,
  max: number,
  required: boolean,
): string | { error: string } {
  const v = obj[key];
  if (typeof v !== 'string') return { error: `field "${key}" must be a string` };
  if (required && v.trim() === '') return { error: `field "${key}" must not be empty` };
  if (v.length > max) return { error: `field "${key}" is ${v.length} characters; the limit is ${max}` };
  return v;
}

export function isProblem(value: unknown): value is { error: string } {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/** A feature's inbound messages: their types, and the parser that validates one of them. */
export interface InboundSet<M extends { type: string }> {
  readonly feature: FeatureId;
  readonly types: readonly M['type'][];
  /** Called only with a record whose `type` is one of `types`. Anything unexpected is rejected with a reason. */
  parse(value: Record<string, unknown>): Parsed<M>;
}

/** A message type that takes no fields: accepted as `{ type }` (anything else in it is dropped). */
export function bare<M extends { type: string }>(type: M['type']): Parsed<M> {
  return { ok: true, message: { type } as M };
}

/** `error` said for the message's type. */
export function rejected<M>(type: unknown, error: string): Parsed<M> {
  return { ok: false, error: `${String(type)}: ${error}` };
}

/** Validates an untrusted message against the feature sets it may belong to. */
export function parseInbound<M extends { type: string }>(
  sets: readonly InboundSet<M>[],
  value: unknown,
): Parsed<M> & { feature?: FeatureId } {
  if (!isRecord(value) || typeof value.type !== 'string')
    return { ok: false, error: 'message is not an object with a string "type"' };
  const type = value.type;
  const set = sets.find((s) => (s.types as readonly string[]).includes(type));
  if (!set) return { ok: false, error: `unknown message type ${JSON.stringify(type).slice(0, 64)}` };
  return { ...set.parse(value), feature: set.feature };
}

// ---- requests and their answers ----

/** The answer to a request: `error` says what went wrong and what to do; `result` is its value. */
export interface Settled {
  error?: string;
  result?: string;
}

/** Carried by a message that expects an answer, and by its answer. */
export interface ResponseMessage extends Settled {
  type: 'response';
  requestId: string;
}

/**
 * The requests one side has sent and waits on, by correlation id. The host (pinging the panel) and
 * the panel (adding to the journal) use the same helper: `open` before sending, `settle` on the
 * answer; an answer nobody waits for (stale, or forged) is ignored.
 */
export class PendingRequests {
  private count = 0;
  private readonly waiting = new Map<string, (outcome: Settled) => void>();

  constructor(private readonly prefix: string) {}

  open(): { requestId: string; settled: Promise<Settled> } {
    const requestId = `${this.prefix}-${Date.now().toString(36)}-${++this.count}`;
    const settled = new Promise<Settled>((resolve) => this.waiting.set(requestId, resolve));
    return { requestId, settled };
  }

  /** False when no request of this side has that id. */
  settle(requestId: string, outcome: Settled): boolean {
    const resolve = this.waiting.get(requestId);
    if (!resolve) return false;
    this.waiting.delete(requestId);
    resolve({
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      ...(outcome.result !== undefined ? { result: outcome.result } : {}),
    });
    return true;
  }

  has(requestId: string): boolean {
    return this.waiting.has(requestId);
  }

  get size(): number {
    return this.waiting.size;
  }
}

export const MAX_RESPONSE_CHARS = 8192;

/** A response to one of ours, validated (it crosses the boundary like any other message). */
export function parseResponse(value: Record<string, unknown>): Parsed<ResponseMessage> {
  const requestId = textField(value, 'requestId', MAX_ID_CHARS, true);
  if (isProblem(requestId)) return rejected(value.type, requestId.error);
  const out: ResponseMessage = { type: 'response', requestId };
  for (const key of ['error', 'result'] as const) {
    if (value[key] === undefined) continue;
    const v = textField(value, key, MAX_RESPONSE_CHARS, false);
    if (isProblem(v)) return rejected(value.type, v.error);
    out[key] = v;
  }
  return { ok: true, message: out };
}

// ---- streams ----

/**
 * Which stream a chunk of model output (or a tool call) belongs to: `discovery:<session>`,
 * `brainstorm:<slug>:<agent>` or `build:<id>:<phase>:<try>`. The panel routes each to the part of
 * the page that shows it.
 */
export type StreamId = string;

/** The feature a stream belongs to, or undefined for one the panel does not know. */
export function streamFeature(stream: StreamId): 'discovery' | 'brainstorm' | 'build' | undefined {
  const head = stream.slice(0, stream.indexOf(':'));
  return head === 'discovery' || head === 'brainstorm' || head === 'build' ? head : undefined;
}
