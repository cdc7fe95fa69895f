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
export function installFakeTree(): {
  TreeItem: typeof TreeItem;
  ThemeIcon: typeof ThemeIcon;
  MarkdownString: typeof MarkdownString;
} {
  installFakeVscode();
  const fakeVscode = require('vscode') as Record<string, unknown>;
  Object.assign(fakeVscode, {
    TreeItem,
    ThemeIcon,
    ThemeColor,
    MarkdownString,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    Uri: {
      ...(fakeVscode['Uri'] as object),
      from: (parts: Record<string, string>) => ({
        ...parts,
        toString: () => `${parts['scheme']}:${parts['path']}?${parts['query']}`,
      }),
    },
  });
  return { TreeItem, ThemeIcon, MarkdownString };
}

/**
 * The explorer's folders for these tests: one folder, the one Groundwork works in, holding these
 * plans (each with these files: an Idea Brief unless told) and these sessions.
 */
export function fakeRoots(
  slugs: readonly string[] = [],
  sessions: readonly SessionFacts[] = [],
  files: readonly string[] = ['idea-brief.md'],
) {
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

/** What the features' groups read from, in the tests (each is what its contribution registers). */
export interface GroupSources {
  runs?: import('../../../src/vscode/agentRun/runsGroup').RunsGroupSource;
  builds?: import('../../../src/vscode/build/buildsGroup').BuildsGroupSource;
  cases?: import('../../../src/vscode/cases/casesGroup').CasesGroupSource;
}

/**
 * A plan explorer under the fake `vscode` (installFakeTree first) with the groups made from these
 * sources registered, as the features register them. `after`: registered once the explorer exists,
 * as when a feature's contribution comes later in the list.
 */
export function explorerWith(model: unknown, roots: unknown, sources: GroupSources, after: GroupSources = {}) {
  const { PlanExplorer } =
    require('../../../src/vscode/explorer/planExplorer') as typeof import('../../../src/vscode/explorer/planExplorer');
  const { ExplorerGroups } =
    require('../../../src/vscode/explorer/explorerGroups') as typeof import('../../../src/vscode/explorer/explorerGroups');
  const groups = new ExplorerGroups();
  const register = (s: GroupSources) => {
    const fileUri = (rel: string) => ({ path: `/ws/.groundwork/${rel}` }) as never;
    if (s.runs) groups.register(require('../../../src/vscode/agentRun/runsGroup').runsGroup(s.runs));
    if (s.builds) groups.register(require('../../../src/vscode/build/buildsGroup').buildsGroup(s.builds, fileUri));
    if (s.cases) groups.register(require('../../../src/vscode/cases/casesGroup').casesGroup(s.cases));
  };
  register(sources);
  const explorer = new PlanExplorer(model as never, roots as never, groups);
  register(after);
  return Object.assign(explorer, { registry: groups });
}
