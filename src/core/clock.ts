/** Time reaches the core through this port so that tests can set it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The furthest from the epoch a Date can be, in milliseconds (ECMAScript's time value range). */
export const MAX_DATE_MS = 8.64e15;

/**
 * A time or a duration read from a file another program may have written: a whole number of
 * milliseconds from 0 to MAX_DATE_MS. Anything else would make `new Date(t).toISOString()` throw
 * (or a countdown meaningless) when it is shown, far from the line that held it.
 */
export function isStorableMs(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DATE_MS;
}

/** The last millisecond of the year 9999: later times have no four-digit ISO-8601 year. */
export const MAX_ISO_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A point in time read from a file that Groundwork will write back as ISO-8601 (a document, the
 * context file): as isStorableMs, up to the year 9999.
 */
export function isIsoStorableMs(value: unknown): value is number {
  return isStorableMs(value) && value <= MAX_ISO_MS;
}
