// The discoveries journal's slice of the panel protocol: the newest entries, and the messages the
// panel sends about it (adding one is a request the host answers), validated here.
import { MAX_ID_CHARS, bare, isProblem, rejected, textField, type InboundSet, type Parsed } from './common';

export const MAX_TITLE_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 8192;

export interface JournalEntryView {
  timestamp: string;
  title: string;
  description: string;
  scope?: string;
  agent?: string;
}

export interface JournalSlice {
  /** Newest first, at most a page of them. */
  entries: JournalEntryView[];
  total: number;
  /** Lines of discoveries.jsonl that could not be read. */
  skipped: number;
  /** Set when the file is over its read cap: what was left unread, said for a person. */
  partial?: string;
  /** Why the journal could not be read at all, if it could not. */
  error?: string;
}

export type JournalMessage =
  /** A request: the host answers with a `response` (its `error` says why it was not added). */
  { type: 'journal.add'; requestId: string; title: string; description: string } | { type: 'journal.open' };

const TYPES = ['journal.add', 'journal.open'] as const satisfies readonly JournalMessage['type'][];

function parse(value: Record<string, unknown>): Parsed<JournalMessage> {
  const type = value.type as JournalMessage['type'];
  switch (type) {
    case 'journal.add': {
      const requestId = textField(value, 'requestId', MAX_ID_CHARS, true);
      if (isProblem(requestId)) return rejected(type, requestId.error);
      const title = textField(value, 'title', MAX_TITLE_CHARS, true);
      if (isProblem(title)) return rejected(type, title.error);
      const description = textField(value, 'description', MAX_DESCRIPTION_CHARS, true);
      if (isProblem(description)) return rejected(type, description.error);
      return { ok: true, message: { type, requestId, title: title.trim(), description: description.trim() } };
    }
    case 'journal.open':
      return bare(type);
    default: {
      const unknown: never = type;
      return rejected(unknown, 'not a journal message');
    }
  }
}

export const JOURNAL_INBOUND: InboundSet<JournalMessage> = { feature: 'journal', types: TYPES, parse };
