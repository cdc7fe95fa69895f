// One pasted answer or one runaway model reply must not crowd everything else out of a prompt (or
// inflate its cost), so each string re-fed to a model is capped. The cut is never silent: a marker
// says where the whole text is kept, and the caller keeps it there.

/** The cap per string re-fed into a prompt, in bytes of UTF-8. */
export const CAP_BYTES = 8 * 1024;

export interface CappedText {
  /** The text itself when it fits; else its head followed by the marker, at most the cap in all. */
  text: string;
  truncated: boolean;
  /** The size of the whole text in bytes of UTF-8, for the log and the marker's reader. */
  fullBytes: number;
}

/** The marker that ends a cut text; `where` is what the caller passed to `capText`. */
export function truncationMarker(where: string): string {
  return `…[truncated, see ${where}]`;
}

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8, the marker included, so that the cap is a hard
 * bound on what reaches the prompt. The cut falls between code points, never inside one (an emoji
 * is kept whole or left out whole). `where` names the place that keeps the whole text (e.g.
 * `.groundwork/plans/x/.workers/inquisitor-ux.ndjson`); writing it there is the caller's job.
 * Throws RangeError when the marker alone does not fit, which is a caller's mistake.
 */
export function capText(text: string, where: string, maxBytes: number = CAP_BYTES): CappedText {
  const fullBytes = utf8Length(text);
  if (fullBytes <= maxBytes) return { text, truncated: false, fullBytes };
  return { text: cutWith(text, truncationMarker(where), maxBytes), truncated: true, fullBytes };
}

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8, ending in '…' when cut: for a line that is
 * shown or kept (an error, a status) but whose whole text is kept nowhere else.
 */
export function cutText(text: string, maxBytes: number): string {
  return utf8Length(text) <= maxBytes ? text : cutWith(text, '…', maxBytes);
}

function cutWith(text: string, marker: string, maxBytes: number): string {
  const budget = maxBytes - utf8Length(marker);
  if (budget < 0) throw new RangeError(`The marker "${marker}" is longer than the cap of ${maxBytes} bytes.`);
  let used = 0;
  let end = 0;
  for (const c of text) {
    const size = codePointBytes(c.codePointAt(0) ?? 0);
    if (used + size > budget) break;
    used += size;
    end += c.length;
  }
  return text.slice(0, end) + marker;
}

/**
 * The length of `text` in bytes of UTF-8, counted without encoding it (a huge paste is measured
 * without copying it). A lone surrogate counts as the 3 bytes of U+FFFD, which is what
 * TextEncoder writes in its place.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function codePointBytes(cp: number): number {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}
