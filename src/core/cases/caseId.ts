// A discovery case's id (`disc-007`): its form, made from a number and read back. Apart from the
// line format (caseRecord.ts) because the spec annotations and the CLI check ids without a case.

/** Far above any real count; bounds what a hostile id or counter can make the next id. */
export const CASE_NUMBER_MAX = 999_999_999;

export function isCaseId(text: unknown): text is string {
  // What /^disc-(\d{3,9})$/ and formatCaseId(n) === text say, by character: every line is checked on load.
  if (typeof text !== 'string' || text.length < 8 || text.length > 14 || !text.startsWith('disc-')) return false;
  for (let i = 5; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  // Three digits, zero-padded (never disc-000), or more without a leading zero.
  return text.length === 8 ? text !== 'disc-000' : text.charCodeAt(5) !== 0x30;
}

/** `disc-007`, `disc-142`, `disc-1000`: zero-padded to three digits, growing past 999. */
export function formatCaseId(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1 || n > CASE_NUMBER_MAX)
    throw new RangeError(`No case id can be made from ${n}.`);
  return `disc-${String(n).padStart(3, '0')}`;
}

/** The number in a case id (`disc-030` → 30); NaN for text that is not one. */
export function caseNumber(id: string): number {
  return isCaseId(id) ? Number(id.slice(5)) : Number.NaN;
}
