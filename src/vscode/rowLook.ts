// How a row of the explorer's Builds, Runs or Discoveries group looks: what buildsTree.ts,
// runsTree.ts and casesTree.ts make (pure, unit-tested) and planExplorer.ts draws.

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
