// The TreeItem side of the `vscode` module (fakeVscode.ts has the rest), for the tests that draw
// the plan explorer's rows under Node: what an item holds is plain data the test reads back.
import { ExplorerTree, type SessionFacts } from '../../../src/core/explorer/explorerTree';
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

/**
 * The explorer's folders for these tests: one folder, the one Groundwork works in, holding these
 * plans (each with these files: an Idea Brief unless told) and these sessions.
 */
export function fakeRoots(slugs: readonly string[] = [], sessions: readonly SessionFacts[] = [], files: readonly string[] = ['idea-brief.md']) {
  const tree = new ExplorerTree({ plans: slugs.map((slug) => ({ slug, files, rounds: [] })), sessions });
  const root = {
    key: 'file:///ws',
    active: true,
    folder: { name: 'ws', uri: { path: '/ws', fsPath: '/ws', toString: () => 'file:///ws' } },
    onDidChange: () => ({ dispose() {} }),
    fileUri: (rel: string) => ({ path: `/ws/.groundwork/${rel}` }),
    read: async () => ({ tree, problems: [], specs: [] }),
  };
  return { onDidChange: () => ({ dispose() {} }), list: async () => [root] } as never;
}
