// How a row of a feature's group of the explorer looks (the Builds, Runs and Discoveries groups):
// what buildRows.ts, runRows.ts and caseRows.ts make (pure, unit-tested) and rowItem.ts draws.

export interface RowLook {
  label: string;
  description: string;
  /** A codicon id, and the theme colour it is drawn in. */
  icon: string;
  color?: string;
  /** Paragraphs of plain text (the tree escapes them). */
  tooltip: string[];
  /** What a screen reader says. */
  ariaLabel: string;
  /** What the `viewItem` when clauses match. */
  contextValue?: string;
}

/**
 * `when` as people read it in a list: the time alone today, the day and time this year, the full
 * date before. `locale` undefined: the runtime's.
 */
export function runTime(iso: string, now: number, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const today = new Date(now);
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
  if (date.toDateString() === today.toDateString()) return date.toLocaleTimeString(locale, time);
  const day: Intl.DateTimeFormatOptions =
    date.getFullYear() === today.getFullYear()
      ? { month: 'short', day: 'numeric' }
      : { year: 'numeric', month: 'short', day: 'numeric' };
  return date.toLocaleString(locale, { ...day, ...time });
}
