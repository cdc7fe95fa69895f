// How a row of a feature's group is drawn (explorerGroups.ts): its label and figures, a codicon in a
// theme colour, its record as an untrusted (escaped) tooltip. The features draw their rows with it,
// the explorer its own nodes' tooltips.
import * as vscode from 'vscode';
import type { RowLook } from './rowLook';

/** A row: its label and figures, a status codicon in its theme colour, its record as an untrusted (escaped) tooltip. */
export function rowItem(row: RowLook, id: string, state: vscode.TreeItemCollapsibleState): vscode.TreeItem {
  const item = new vscode.TreeItem(row.label, state);
  item.id = id;
  item.description = row.description;
  item.iconPath = new vscode.ThemeIcon(row.icon, row.color ? new vscode.ThemeColor(row.color) : undefined);
  item.tooltip = paragraphs(row.tooltip);
  item.accessibilityInformation = { label: row.ariaLabel };
  if (row.contextValue) item.contextValue = row.contextValue;
  return item;
}

/**
 * Paragraphs of untrusted text as a tooltip: no command link runs (not trusted), markdown is escaped
 * by appendText, and `<` and `&` become entities, which VS Code would otherwise drop as HTML.
 */
export function paragraphs(texts: readonly string[]): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  texts.forEach((paragraph, i) => {
    if (i > 0) tooltip.appendMarkdown('\n\n');
    tooltip.appendText(paragraph.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  });
  return tooltip;
}
