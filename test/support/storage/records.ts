// Records the multi-process tests write: each carries its writer, its sequence number and a
// checksum of its padding, so that a record glued to another or cut short cannot pass as valid.
import type { RecordParser } from '../../../src/core/storage/recordLog';

export interface TestRecord {
  id: string;
  writer: string;
  seq: number;
  pad: string;
  check: number;
}

/** FNV-1a, enough to notice damage. */
export function checksum(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function makeRecord(writer: string, seq: number, padLength: number): TestRecord {
  const pad = 'x'.repeat(padLength);
  const id = `${writer}-${seq}`;
  return { id, writer, seq, pad, check: checksum(id + pad) };
}

export const parseTestRecord: RecordParser<TestRecord> = (value) => {
  if (typeof value !== 'object' || value === null) return { ok: false, reason: 'not an object' };
  const r = value as Partial<TestRecord>;
  if (
    typeof r.id !== 'string' ||
    typeof r.writer !== 'string' ||
    typeof r.seq !== 'number' ||
    typeof r.pad !== 'string'
  ) {
    return { ok: false, reason: 'missing field' };
  }
  if (r.check !== checksum(r.id + r.pad)) return { ok: false, reason: 'bad checksum' };
  return { ok: true, record: r as TestRecord };
};
