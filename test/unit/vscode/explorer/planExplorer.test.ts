// The plan explorer as a person sees it, drawn under Node with a fake `vscode`: the sessions waiting
// (round n/N, time left) and the view's badge, a plan's documents and the cases its builds
// reported, an unreadable file as an error node that opens it, and one root per folder.
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ExplorerTree, type SessionFacts } from '../../../../src/core/explorer/explorerTree';
import type { CasesListing, CasesRow } from '../../../../src/vscode/cases/caseRows';
import type { ExplorerNode } from '../../../../src/vscode/explorer/explorerNodes';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import { explorerWith, installFakeTree, type MarkdownString, type ThemeIcon, type TreeItem } from '../fakeTree';

installFakeTree();

const MIN = 60_000;
const model = {
  hasWorkspace: true,
  onDidChange: new Emitter<void>().event,
  read: async () => ({ journal: { records: [], problems: [] }, sleepers: [] }),
};

function root(
  name: string,
  active: boolean,
  read: { tree: ExplorerTree; problems?: { file: string; problem: string }[]; specs?: unknown[] },
  changes = new Emitter<unknown>(),
) {
  return {
    key: `file:///${name}`,
    active,
    folder: { name, uri: { path: `/${name}`, fsPath: `/${name}`, toString: () => `file:///${name}` } },
    onDidChange: changes.event,
    fileUri: (rel: string) => ({ path: `/${name}/.groundwork/${rel}` }),
    read: async () => ({ problems: [], specs: [], ...read }),
  };
}

function explorer(roots: ReturnType<typeof root>[], cases?: CasesListing) {
  const source = cases && { onDidChange: new Emitter<void>().event, list: async () => cases, refresh: () => undefined };
  return explorerWith(model, { onDidChange: new Emitter<void>().event, list: async () => roots }, { cases: source });
}

/** The Discoveries listing of one case, disc-001, reported by build b1. */
function oneCase(): CasesListing {
  const row = {
    kind: 'case',
    id: 'disc-001',
    status: 'active',
    scope: 'local',
    treeId: 'case:disc-001',
    label: 'Safari needs SameSite=None',
    description: '',
    icon: 'lightbulb',
    tooltip: [],
    ariaLabel: 'x',
    contextValue: 'groundwork.case.active.local',
  } as CasesRow;
  return {
    rows: [],
    total: 1,
    tooltip: [],
    related: [{ id: 'disc-001', task: 'b1', parent: null }],
    rowsOf: (ids) => (ids.includes('disc-001') ? [row] : []),
  };
}

const item = (e: ReturnType<typeof explorer>, node: ExplorerNode | undefined) => e.getTreeItem(node!) as TreeItem;
const discovery = (createdMs: number): SessionFacts => ({
  kind: 'discovery',
  session: 'panel',
  file: 'discovery/panel.md',
  request: 'build me a CRM\nwith <b>',
  round: 2,
  maxRounds: 3,
  createdMs,
  ttlMs: 30 * MIN,
});

describe('the plan explorer', () => {
  test('shows a waiting discovery first, with round n/N and its time left, Resume opening the panel; the badge counts it', async () => {
    const tree = new ExplorerTree({ plans: [], sessions: [discovery(Date.now() - 6 * MIN)] });
    const e = explorer([root('ws', true, { tree })]);
    const view = { visible: false, badge: undefined as unknown, onDidChangeVisibility: () => ({ dispose() {} }) };
    e.attach(view as never);
    const [group] = await e.getChildren();
    assert.deepEqual(
      [item(e, group).label, item(e, group).description, item(e, group).id],
      ['Active sessions', '1', 'group:sessions'],
    );
    const [session] = await e.getChildren(group);
    const shown = item(e, session);
    assert.equal(shown.label, 'build me a CRM with <b>', 'one line');
    assert.match(shown.description ?? '', /^round 2\/3 · 2[45] min left$/);
    assert.equal(shown.contextValue, 'session-discovery-here');
    assert.deepEqual(shown.command, { command: 'groundwork.openPanel', title: 'Resume' });
    assert.match((shown.tooltip as MarkdownString).value, /&lt;b\\>/, 'the request is text in the tooltip');
    await e.updateBadge();
    assert.deepEqual(view.badge, { value: 1, tooltip: '1 session waits for your answers' });
  });

  test('an expired session says so, is not counted, and offers no Resume', async () => {
    const tree = new ExplorerTree({ plans: [], sessions: [discovery(Date.now() - 40 * MIN)] });
    const e = explorer([root('ws', true, { tree })]);
    const view = { visible: false, badge: 'old' as unknown, onDidChangeVisibility: () => ({ dispose() {} }) };
    e.attach(view as never);
    const [group] = await e.getChildren();
    const shown = item(e, (await e.getChildren(group))[0]);
    assert.equal(shown.description, 'round 2/3 · expired');
    assert.equal(shown.contextValue, 'session-discovery-here-expired');
    assert.equal((shown.iconPath as ThemeIcon).id, 'warning');
    await e.updateBadge();
    assert.equal(view.badge, undefined);
  });

  test('a plan expands to its documents in reading order; no case reaches it while no build of it is listed', async () => {
    const tree = new ExplorerTree({
      plans: [{ slug: 'crm', files: ['idea-brief.md', 'rounds'], rounds: ['round-1.md'] }],
    });
    const cases = oneCase();
    const e = explorer([root('ws', true, { tree })], cases);
    // No build lists the plan: the cases a build reported reach it only through its builds.
    tree.setBuildsAndCases([{ id: 'b1', plan: 'crm' }], cases.related);
    const plansGroup = (await e.getChildren()).find((n) => n.kind === 'group' && n.group === 'plans');
    const [plan] = await e.getChildren(plansGroup);
    const children = await e.getChildren(plan);
    assert.deepEqual(
      children.map((c) => [item(e, c).label, item(e, c).contextValue]),
      [
        ['Idea Brief', 'document'],
        ['Round 1', 'document'],
      ],
      'the builds source is absent here, so the listing of builds cleared the relation',
    );
  });

  test('lists the cases under the plan when its build lists it', async () => {
    const tree = new ExplorerTree({ plans: [{ slug: 'crm', files: ['idea-brief.md'], rounds: [] }] });
    const cases = oneCase();
    const builds = {
      onDidChange: new Emitter<void>().event,
      list: async () => ({
        rows: [
          {
            id: 'b1',
            plan: 'crm',
            phases: [],
            label: 'crm',
            description: '',
            icon: 'pass',
            tooltip: [],
            ariaLabel: 'b1',
          },
        ],
        more: 0,
        problems: [],
      }),
      attempts: async () => [],
      refresh: () => undefined,
    };
    const source = { onDidChange: new Emitter<void>().event, list: async () => cases, refresh: () => undefined };
    const e = explorerWith(
      model,
      { onDidChange: new Emitter<void>().event, list: async () => [root('ws', true, { tree })] },
      { builds: builds as never, cases: source },
    );
    const plansGroup = (await e.getChildren()).find((n) => n.kind === 'group' && n.group === 'plans');
    const [plan] = await e.getChildren(plansGroup);
    assert.equal(item(e, plan).tooltip && (item(e, plan).tooltip as MarkdownString).value.includes('1 builds'), true);
    const children = await e.getChildren(plan);
    assert.deepEqual(
      children.map((c) => item(e, c).label),
      ['Idea Brief', 'crm', 'Discoveries'],
    );
    const [found] = await e.getChildren(children[2]);
    assert.deepEqual(
      [item(e, found).label, item(e, found).id, item(e, found).contextValue],
      ['Safari needs SameSite=None', 'plan:crm/case:disc-001', 'groundwork.case.active.local'],
    );
  });

  test('an unreadable session file is an error node under Active sessions that opens the file', async () => {
    const tree = new ExplorerTree({ plans: [] });
    const e = explorer([
      root('ws', true, {
        tree,
        problems: [{ file: '.groundwork/discovery/x.md', problem: "it does not start with '# Discovery Session'" }],
      }),
    ]);
    const [group] = await e.getChildren();
    const [error] = await e.getChildren(group);
    const shown = item(e, error);
    assert.equal(shown.label, ".groundwork/discovery/x.md: it does not start with '# Discovery Session'");
    assert.equal((shown.iconPath as ThemeIcon).id, 'error');
    const command = shown.command as { command: string; arguments: { path: string }[] };
    assert.deepEqual(
      [command.command, command.arguments[0]!.path],
      ['groundwork.explorer.open', '/ws/.groundwork/discovery/x.md'],
    );
  });

  test('shows one root per folder, the one Groundwork works in saying so, each with its own plans and ids', async () => {
    const plan = { slug: 'crm', files: ['idea-brief.md'], rounds: [] };
    const e = explorer([
      root('app', true, { tree: new ExplorerTree({ plans: [plan] }) }),
      root('docs', false, {
        tree: new ExplorerTree({ plans: [plan] }),
        specs: [{ kind: 'kiro', feature: 'todo', path: '.kiro/specs/todo' }],
      }),
    ]);
    const folders = await e.getChildren();
    assert.deepEqual(
      folders.map((f) => [item(e, f).label, item(e, f).description, item(e, f).contextValue]),
      [
        ['app', 'Groundwork works here', 'folder-active'],
        ['docs', undefined, 'folder'],
      ],
    );
    const docsGroups = await e.getChildren(folders[1]);
    assert.deepEqual(
      docsGroups.map((g) => [item(e, g).label, item(e, g).id]),
      [
        ['Plans', 'file:///docs|group:plans'],
        ['Other specs', 'file:///docs|group:specs'],
      ],
    );
    const [docsPlan] = await e.getChildren(docsGroups[0]);
    const [appPlan] = await e.getChildren((await e.getChildren(folders[0]))[0]);
    assert.deepEqual([item(e, appPlan).id, item(e, docsPlan).id], ['plan:crm', 'file:///docs|plan:crm']);
    assert.equal(item(e, docsPlan).contextValue, 'plan-other', 'Build This needs the folder Groundwork works in');
    const [spec] = await e.getChildren(docsGroups[1]);
    assert.deepEqual(
      [item(e, spec).label, item(e, spec).description, item(e, spec).contextValue],
      ['todo', 'Kiro spec', 'spec-other'],
    );
  });

  test('a change in one plan folder redraws that plan alone; a plan that comes redraws the Plans group; the first session the folder', async () => {
    const changes = new Emitter<unknown>();
    const tree = new ExplorerTree({
      plans: [
        { slug: 'crm', files: ['idea-brief.md'], rounds: [] },
        { slug: 'shop', files: ['idea-brief.md'], rounds: [] },
      ],
    });
    const e = explorer([root('ws', true, { tree }, changes)]);
    const fired: (ExplorerNode | undefined)[] = [];
    e.onDidChangeTreeData((node) => fired.push(node));
    const [plansGroup] = await e.getChildren();
    const [crm] = await e.getChildren(plansGroup);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

    tree.updatePlan('crm', { slug: 'crm', files: ['idea-brief.md', 'rounds'], rounds: ['round-1.md'] });
    changes.fire({ kind: 'plans', slugs: ['crm'], list: false, sessions: false });
    await settle();
    assert.deepEqual(fired, [crm], 'the plan node itself, not the tree');
    assert.equal((await e.getChildren(crm)).length, 2, 'its round shows');

    fired.length = 0;
    tree.updatePlan('new', { slug: 'new', files: ['idea-brief.md'], rounds: [] });
    changes.fire({ kind: 'plans', slugs: ['new'], list: true, sessions: false });
    await settle();
    assert.deepEqual(fired, [plansGroup]);

    fired.length = 0;
    tree.setSessions([discovery(Date.now())]);
    changes.fire({ kind: 'plans', slugs: [], list: false, sessions: true });
    await settle();
    assert.deepEqual(fired, [undefined], 'Active sessions appears: the folder is redrawn');
  });

  test('a group registered after the explorer (a contribution later in the list) is drawn, and one that goes is gone', async () => {
    const cases = oneCase();
    const source = { onDidChange: new Emitter<void>().event, list: async () => cases, refresh: () => undefined };
    const tree = new ExplorerTree({ plans: [{ slug: 'crm', files: ['idea-brief.md'], rounds: [] }] });
    const e = explorerWith(
      model,
      { onDidChange: new Emitter<void>().event, list: async () => [root('ws', true, { tree })] },
      {},
    );
    const fired: (ExplorerNode | undefined)[] = [];
    e.onDidChangeTreeData((node) => fired.push(node));
    const labels = async () => (await e.getChildren()).map((n) => item(e, n).label);
    assert.deepEqual(await labels(), ['Plans']);
    const registration = e.registry.register(
      (
        require('../../../../src/vscode/cases/casesGroup') as typeof import('../../../../src/vscode/cases/casesGroup')
      ).casesGroup(source),
    );
    assert.deepEqual(fired, [undefined], 'the root is redrawn');
    assert.deepEqual(await labels(), ['Plans', 'Discoveries']);
    registration.dispose();
    assert.deepEqual(await labels(), ['Plans']);
  });
});
