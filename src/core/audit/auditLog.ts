// The audit log `.groundwork/audit.jsonl`: one line per session event (a discovery started, a round,
// a completion, a cancellation, an expiry; later brainstorm rounds and build phases), with the
// outcome and the tokens it cost. Each entry's input text starts with a session tag such as
// `[DISCOVERY:<session>] …`; the same prefix convention holds here for every session kind.
import type { Clock } from '../clock';
import { isPlainObject } from '../inputChecks';
import type { LlmUsage } from '../llm/llmClient';
import { isUsage } from '../llm/usage';
import type { ReadResult, RecordLog, RecordParser } from '../storage/recordLog';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { visibleText } from '../visibleText';
import { AUDIT_FILE } from '../plan/layout';

/** The log is for reading at a glance, not a transcript: long texts are cut to these lengths. */
export const AUDIT_INPUT_MAX_CHARS = 300;
export const AUDIT_DETAIL_MAX_CHARS = 2000;

export type AuditStatus = 'ok' | 'error';

/** One line of the audit log. Optional fields are absent, never null. */
export interface AuditEntry {
  /** ISO-8601 UTC. */
  timestamp: string;
  /** What happened, `<session kind>.<event>`: 'discovery.start', 'discovery.round', 'build.phase'… */
  kind: string;
  /** `[<KIND>:<session>] <excerpt of the text the event was about>`, see `auditInput`. */
  input: string;
  status: AuditStatus;
  /** Why it failed, or what came of it ("questions", "brief after 2 rounds"…). */
  detail?: string;
  usage?: LlmUsage;
  /** The concrete model that answered. */
  model?: string;
  costUsd?: number;
}

export type AuditInput = Omit<AuditEntry, 'timestamp'>;

const KIND = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*$/;

/**
 * `[DISCOVERY:<session>] <text>`: the session's tag (docs/discovery.md, "Audit entries"), then the
 * start of the text on one line (newlines and invisible characters made visible, cut with '…').
 */
export function auditInput(tag: string, session: string, text = ''): string {
  const head = `[${tag}:${visibleText(session)}]`;
  const oneLine = visibleText(text.replace(/\s+/g, ' ').trim());
  return oneLine === '' ? head : `${head} ${cut(oneLine, AUDIT_INPUT_MAX_CHARS)}`;
}

function cut(text: string, maxChars: number): string {
  const chars = [...text];
  return chars.length <= maxChars ? text : `${chars.slice(0, maxChars - 1).join('')}…`;
}

export const parseAuditEntry: RecordParser<AuditEntry> = (value) => {
  if (!isPlainObject(value)) return { ok: false, reason: 'not an object' };
  const { timestamp, kind, input, status, detail, usage, model, costUsd } = value;
  if (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp)))
    return { ok: false, reason: 'missing or invalid field timestamp' };
  if (typeof kind !== 'string' || !KIND.test(kind)) return { ok: false, reason: 'missing or invalid field kind' };
  if (typeof input !== 'string') return { ok: false, reason: 'missing field input' };
  if (status !== 'ok' && status !== 'error') return { ok: false, reason: "field status must be 'ok' or 'error'" };
  if (detail !== undefined && typeof detail !== 'string') return { ok: false, reason: 'field detail must be a string' };
  if (usage !== undefined && !isUsage(usage)) return { ok: false, reason: 'field usage must hold four token counts' };
  if (model !== undefined && typeof model !== 'string') return { ok: false, reason: 'field model must be a string' };
  if (costUsd !== undefined && !(typeof costUsd === 'number' && Number.isFinite(costUsd) && costUsd >= 0)) {
    return { ok: false, reason: 'field costUsd must be a number of dollars' };
  }
  const record: AuditEntry = { timestamp, kind, input, status };
  if (detail !== undefined) record.detail = detail;
  if (usage !== undefined) record.usage = usage;
  if (model !== undefined) record.model = model;
  if (costUsd !== undefined) record.costUsd = costUsd;
  return { ok: true, record };
};

/** Appends stamped entries to the audit log; reads tolerate damaged lines (see JsonlLog). */
export class AuditLog {
  constructor(
    private readonly log: RecordLog<AuditEntry>,
    private readonly clock: Clock,
  ) {}

  /** The log `.groundwork/audit.jsonl` of a workspace. */
  static of(store: WorkspaceStore, clock: Clock): AuditLog {
    return new AuditLog(store.log(AUDIT_FILE, parseAuditEntry), clock);
  }

  /** Stamps and appends one entry (the input and detail cut to their caps); returns what was stored. */
  async append(input: AuditInput): Promise<AuditEntry> {
    if (!KIND.test(input.kind))
      throw new RangeError(
        `An audit kind is dotted lower-case words, e.g. discovery.start; got ${visibleText(input.kind)}.`,
      );
    const entry: AuditEntry = {
      timestamp: new Date(this.clock.now()).toISOString(),
      kind: input.kind,
      input: cut(input.input, AUDIT_INPUT_MAX_CHARS + 100),
      status: input.status,
    };
    if (input.detail !== undefined) entry.detail = cut(input.detail, AUDIT_DETAIL_MAX_CHARS);
    if (input.usage !== undefined) entry.usage = { ...input.usage };
    if (input.model !== undefined) entry.model = input.model;
    if (input.costUsd !== undefined && Number.isFinite(input.costUsd)) entry.costUsd = input.costUsd;
    await this.log.append(entry);
    return entry;
  }

  read(): Promise<ReadResult<AuditEntry>> {
    return this.log.readAll();
  }
}
