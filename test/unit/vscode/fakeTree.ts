// The TreeItem side of the `vscode` module (fakeVscode.ts has the rest), for the tests that draw
// the plan explorer's rows under Node: what an item holds is plain data the test reads back.
import { installFakeVscode } from './fakeVscode';

export class TreeItem {
  iconPath?: unknown;
  description?: string;
  tooltip?: unknown;
  contextValue?: string;
  command?: unknown;
  resourceUri?: unknown;
  accessibilityInformation?: { label: string };
  id?: string;
  constructor(
    readonly label: string,
    readonly collapsibleState: number,
  ) {}
}
export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: { id: string },
  ) {}
}
export class ThemeColor {
  constructor(readonly id: string) {}
}
export class MarkdownString {
  value = '';
  appendText(text: string) {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!<>]/g, '\\$&');
    return this;
  }
  appendMarkdown(text: string) {
    this.value += text;
    return this;
  }
}

/** Installs the fake `vscode` with these classes; require the module under test after it. */
export function installFakeTree(): { TreeItem: typeof TreeItem; ThemeIcon: typeof ThemeIcon; MarkdownString: typeof MarkdownString } {
  installFakeVscode();
  const fakeVscode = require('vscode') as Record<string, unknown>;
  Object.assign(fakeVscode, {
    TreeItem,
    ThemeIcon,
    ThemeColor,
    MarkdownString,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    Uri: { ...(fakeVscode['Uri'] as object), from: (parts: Record<string, string>) => ({ ...parts, toString: () => `${parts['scheme']}:${parts['path']}?${parts['query']}` }) },
  });
  return { TreeItem, ThemeIcon, MarkdownString };
}
