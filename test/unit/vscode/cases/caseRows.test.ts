// The Discoveries group of the plan explorer as a person sees it: the cases by status, then by
// scope and impact with their counts, then one row per case with the icon and colour of its
// status, the review actions its context value offers, and a tooltip that says everything about it
// as plain text — content from an agent or a cloned repository cannot make a link run, an image
// load or markup render. Unreadable lines are one error row that opens the file. The rows are pure
// (caseRows.ts); the last tests go through the explorer itself (planExplorer.ts, with a fake
// `vscode`) for what it draws from them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { discoveryMetrics } from '../../../../src/core/cases/caseMetrics';
import { parseCase } from '../../../../src/core/cases/caseRecord';
import type { DiscoveryCase } from '../../../../src/core/cases/caseRecord';
import type { ReadProblem } from '../../../../src/core/storage/recordLog';
import { CASES_SHOWN, caseRow, casesListing, metricsTooltip } from '../../../../src/vscode/cases/caseRows';
import type { CaseWords, CasesListing, CasesRow } from '../../../../src/vscode/cases/caseRows';
import type { CasesGroupSource } from '../../../../src/vscode/cases/casesGroup';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import { caseJson } from '../../cases/casesHarness';
import {
  explorerWith,
  fakeRoots,
  installFakeTree,
  type MarkdownString,
  type ThemeIcon,
  type TreeItem,
} from '../fakeTree';

const WORDS: CaseWords = {
  status: { active: 'Active', outdated: 'Outdated', archived: 'Archived', deleted: 'Deleted' },
  scope: { global: 'Global', local: 'Local' },
  impact: { low: 'low', medium: 'medium', high: 'high', critical: 'critical' },
  outdatedReason: {
    'affected files modified': 'a file changed',
    'superseded by newer discovery': 'a newer one says otherwise',
    'marked by user': 'marked by a person',
  },
  archiveReason: {
    parent_task_completed: 'its task completed',
    outdated_unreviewed: 'not reviewed',
    user: 'by a person',
  },
  validated: 'validated',
  facts: (impact, category, scope) => `Impact: ${impact} · Category: ${category} · ${scope}`,
  task: (task) => `Task: ${task}`,
  agent: (agent) => `Agent: ${agent}`,
  byPerson: 'Added by a person',
  created: (when) => `created ${when}`,
  updated: (when) => `updated ${when}`,
  validatedOn: (when) => `validated ${when}`,
  outdated: (when, reason) => `Outdated ${when}: ${reason}`,
  commit: (hash) => `commit ${hash}`,
  supersededBy: (id) => `Superseded by ${id}`,
  archived: (when, reason) => `Archived ${when}: ${reason}`,
  resurrected: (when) => `Resurrected ${when}`,
  deleted: (when) => `Deleted ${when}`,
  appliedTo: (n) => `Applied to ${n} tasks`,
  more: (n) => `${n} more — use groundwork cases list`,
  unreadable: (n) => `${n} lines of cases.jsonl cannot be read`,
  line: (n, reason) => `Line ${n}: ${reason}`,
  moreProblems: (n) => `… and ${n} more`,
  openToFix: 'Click to open the file.',
  metrics: {
    total: (n, byStatus) => `${n} discovery cases: ${byStatus}`,
    byScope: (g, l, d) => `${g} global, ${l} local · ${d} duplicates prevented`,
    byImpact: (c, h, m, l) => `Impact: ${c} critical, ${h} high, ${m} medium, ${l} low`,
    rates: (v, o) => `Validated: ${v} · Outdated: ${o}`,
    injected: (g, l) => `Each prompt carries ${g} global and on average ${l} local`,
    sources: (list) => `Learned most in: ${list}`,
  },
};
const NOW = Date.parse('2025-02-02T12:00:00.000Z');
const HOSTILE = 'Run [x](command:evil) then <img src=x onerror=alert(1)> and **bold** `code` # heading $(zap)';

/** A case as the store would read it from its line (`over` merged, metadata too). */
function aCase(n: number, over: Record<string, unknown> = {}): DiscoveryCase {
  const id = `disc-${String(n).padStart(3, '0')}`;
  const created = new Date(Date.parse('2025-01-31T09:15:00.000Z') + n * 60_000).toISOString();
  const parsed = parseCase(caseJson(id, { createdAt: created, updatedAt: created, ...over }));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

function listing(cases: DiscoveryCase[], problems: ReadProblem[] = []): CasesListing {
  const shown = casesListing(
    { cases, problems },
    discoveryMetrics(cases, { duplicatesPrevented: 2 }),
    WORDS,
    NOW,
    'en-GB',
  );
  assert.ok(shown);
  return shown;
}

const labels = (rows: readonly CasesRow[]) => rows.map((r) => `${r.label} (${r.description})`);
const childrenOf = (row: CasesRow | undefined): CasesRow[] => (row && 'children' in row ? row.children : []);

/** What a person can read: no control character, no line break, nothing that reorders the text. */
function assertOneVisibleLine(text: string): void {
  assert.doesNotMatch(
    text,
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u,
    `a raw control in ${JSON.stringify(text)}`,
  );
}

describe('the Discoveries rows', () => {
  test('nothing to show without a case or an unreadable line: the group is left out', () => {
    assert.equal(casesListing({ cases: [], problems: [] }, discoveryMetrics([]), WORDS, NOW), undefined);
  });

  test('groups by status (with counts), then by scope and impact, weightiest first, newest case first', () => {
    const cases = [
      aCase(1, { metadata: { impact: 'high' } }),
      aCase(2, { metadata: { impact: 'low', scope: 'local' } }),
      aCase(3, { metadata: { impact: 'high' } }),
      aCase(4, { metadata: { impact: 'critical' } }),
      aCase(5, {
        status: 'outdated',
        metadata: { outdatedAt: '2025-02-01T00:00:00.000Z', outdatedReason: 'marked by user' },
      }),
      aCase(6, { status: 'archived', metadata: { archivedAt: '2025-02-01T00:00:00.000Z', archivedReason: 'user' } }),
      aCase(7, { status: 'deleted', metadata: { deletedAt: '2025-02-01T00:00:00.000Z' } }),
    ];
    const shown = listing(cases);
    assert.equal(shown.total, 7);
    assert.deepEqual(labels(shown.rows), ['Active (4)', 'Outdated (1)', 'Archived (1)', 'Deleted (1)']);
    const active = shown.rows[0];
    assert.deepEqual(labels(childrenOf(active)), ['Global · critical (1)', 'Global · high (2)', 'Local · low (1)']);
    assert.deepEqual(
      childrenOf(childrenOf(active)[1]).map((r) => r.description),
      ['disc-003', 'disc-001'],
      'newest first',
    );
    assert.equal(active?.kind === 'status' && active.expanded, true, 'the active cases are open');
    assert.equal(shown.rows[2]?.kind === 'status' && shown.rows[2].expanded, false, 'the archived ones are not');
    const ids = new Set<string>();
    const walk = (rows: readonly CasesRow[]) =>
      rows.forEach((r) => {
        assert.ok(!ids.has(r.treeId), `the tree id ${r.treeId} repeats`);
        ids.add(r.treeId);
        walk(childrenOf(r));
      });
    walk(shown.rows);
  });

  test('each status has its icon and colour, and its context value names status and scope', () => {
    const rows = [
      aCase(1),
      aCase(2, { validatedAt: '2025-02-01T00:00:00.000Z', metadata: { validated: true, scope: 'local' } }),
      aCase(3, { status: 'outdated', metadata: { scope: 'local' } }),
      aCase(4, { status: 'archived' }),
      aCase(5, { status: 'deleted' }),
    ].map((c) => caseRow(c, WORDS, NOW));
    assert.deepEqual(
      rows.map((r) => [r.icon, r.color, r.contextValue]),
      [
        ['lightbulb', 'charts.yellow', 'groundwork.case.active.global'],
        ['verified-filled', 'charts.green', 'groundwork.case.active.local'],
        ['warning', 'list.warningForeground', 'groundwork.case.outdated.local'],
        ['archive', 'disabledForeground', 'groundwork.case.archived.global'],
        ['trash', 'disabledForeground', 'groundwork.case.deleted.global'],
      ],
    );
  });

  test('a row is the content on one visible line, its id beside it; the tooltip says everything about it', () => {
    const c = aCase(12, {
      status: 'outdated',
      content: 'Line one\nline two\u202e\x1b[31m',
      metadata: {
        impact: 'high',
        category: 'Testing',
        sourceTaskId: 'build-42',
        sourceAgentId: 'build-qa',
        outdatedAt: '2025-02-01T10:00:00.000Z',
        outdatedReason: 'affected files modified',
        outdatedCommit: '0123456789abcdef0123',
        supersededBy: 'disc-013',
        appliedTo: ['a', 'b'],
      },
      updatedAt: '2025-02-01T10:00:00.000Z',
    });
    const r = caseRow(c, WORDS, NOW, 'en-GB');
    assert.equal(r.label, 'Line one line two\\u202e\\x1b[31m');
    assertOneVisibleLine(r.label);
    assert.equal(r.description, 'disc-012');
    const tip = r.tooltip.join('\n');
    assert.match(
      r.tooltip[0] ?? '',
      /^Line one\nline two\\u202e\\x1b\[31m$/,
      'the content keeps its lines, every character visible',
    );
    for (const part of [
      'disc-012 · Outdated',
      'Impact: high · Category: Testing · Global',
      'Task: build-42 · Agent: build-qa',
      'created ',
      'Outdated ',
      ': a file changed · commit 0123456789ab',
      'Superseded by disc-013',
      'Applied to 2 tasks',
    ]) {
      assert.ok(tip.includes(part), `the tooltip says ${JSON.stringify(part)}:\n${tip}`);
    }
    const mine = caseRow(aCase(13, { metadata: { sourceAgentId: null, sourceTaskId: null } }), WORDS, NOW);
    assert.ok(mine.tooltip.includes('Added by a person'));
  });

  test(`a scope and impact lists at most ${CASES_SHOWN} cases, then a note of how many more`, () => {
    const cases = Array.from({ length: CASES_SHOWN + 5 }, (_, i) => aCase(i + 1));
    const bucket = childrenOf(listing(cases).rows[0])[0];
    const rows = childrenOf(bucket);
    assert.equal(bucket?.description, String(CASES_SHOWN + 5));
    assert.equal(rows.length, CASES_SHOWN + 1);
    assert.deepEqual([rows.at(-1)?.kind, rows.at(-1)?.label], ['note', '5 more — use groundwork cases list']);
  });

  test('unreadable lines are one error row naming each line, opening the file at the first', () => {
    const problems = [
      { line: 3, reason: 'not valid JSON (Unexpected token)', excerpt: '{' },
      { line: 9, reason: 'field status "gone" is not one of active, outdated, archived, deleted', excerpt: '' },
    ];
    const shown = listing([aCase(1)], problems);
    const last = shown.rows.at(-1);
    assert.equal(last?.kind, 'problem');
    assert.equal(last?.label, '2 lines of cases.jsonl cannot be read');
    assert.equal(last?.kind === 'problem' && last.line, 3);
    assert.deepEqual(
      [last?.icon, last?.color, last?.contextValue],
      ['error', 'errorForeground', 'groundwork.casesProblem'],
    );
    assert.match(last?.tooltip.join('\n') ?? '', /Line 3: not valid JSON[\s\S]*Line 9: field status/);
    const only = casesListing({ cases: [], problems }, discoveryMetrics([]), WORDS, NOW);
    assert.deepEqual(
      only?.rows.map((r) => r.kind),
      ['problem'],
      'a file of bad lines alone still shows the group',
    );
  });

  test("the group's tooltip gives the discovery metrics", () => {
    const cases = [
      aCase(1, { metadata: { validated: true, impact: 'critical' } }),
      aCase(2, { status: 'outdated', metadata: { scope: 'local', sourceTaskId: 'run-7' } }),
    ];
    const tip = metricsTooltip(discoveryMetrics(cases, { duplicatesPrevented: 4 }), WORDS);
    assert.deepEqual(tip, [
      '2 discovery cases: 1 active, 1 outdated',
      '1 global, 1 local · 4 duplicates prevented',
      'Impact: 1 critical, 0 high, 1 medium, 0 low',
      'Validated: 50% · Outdated: 50%',
      'Each prompt carries 1 global and on average 0 local',
      'Learned most in: run-7 (1), task-1 (1)',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The explorer: what it draws from the rows

installFakeTree();

function explorer(shown: CasesListing | undefined, cases = new Emitter<void>(), list?: () => CasesListing | undefined) {
  const model = {
    hasWorkspace: true,
    onDidChange: new Emitter<void>().event,
    read: async () => ({ plans: [], journal: { records: [], problems: [] }, sleepers: [] }),
  };
  const source: CasesGroupSource = {
    onDidChange: cases.event,
    list: async () => (list ? list() : shown),
    refresh: () => undefined,
  };
  return explorerWith(model, fakeRoots(), { cases: source });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Discoveries group in the explorer', () => {
  test('is left out while cases.jsonl holds nothing', async () => {
    assert.deepEqual(await explorer(undefined).getChildren(), []);
  });

  test('shows the total, the metrics as its tooltip, and opens to status, scope and impact, then the cases', async () => {
    const e = explorer(listing([aCase(1), aCase(2, { metadata: { impact: 'high' } })]));
    const [group] = await e.getChildren();
    const item = e.getTreeItem(group!) as TreeItem;
    assert.deepEqual(
      [item.label, item.description, item.contextValue, (item.iconPath as ThemeIcon).id],
      ['Discoveries', '2', 'discoveries', 'lightbulb-sparkle'],
    );
    assert.match((item.tooltip as MarkdownString).value, /2 discovery cases: 2 active/);
    const [active] = await e.getChildren(group);
    const activeItem = e.getTreeItem(active!) as TreeItem;
    assert.deepEqual(
      [activeItem.label, activeItem.description, activeItem.collapsibleState, activeItem.id],
      ['Active', '2', 2, 'cases:active'],
    );
    const buckets = await e.getChildren(active);
    assert.deepEqual(
      buckets.map((b) => (e.getTreeItem(b) as TreeItem).label),
      ['Global · high', 'Global · medium'],
    );
    const [caseNode] = await e.getChildren(buckets[0]);
    const caseItem = e.getTreeItem(caseNode!) as TreeItem;
    assert.deepEqual(
      [caseItem.label, caseItem.description, caseItem.contextValue, caseItem.collapsibleState, caseItem.id],
      ['learning disc-002', 'disc-002', 'groundwork.case.active.global', 0, 'case:disc-002'],
    );
    assert.deepEqual(
      [(caseItem.iconPath as ThemeIcon).id, (caseItem.iconPath as ThemeIcon).color?.id],
      ['lightbulb', 'charts.yellow'],
    );
    assert.deepEqual(await e.getChildren(caseNode), []);
  });

  test('a hostile case shows as text: no link, image, markup or icon in its tooltip, and the tooltip is not trusted', async () => {
    const e = explorer(listing([aCase(1, { content: HOSTILE })]));
    const [group] = await e.getChildren();
    const [active] = await e.getChildren(group);
    const [bucket] = await e.getChildren(active);
    const [node] = await e.getChildren(bucket);
    const item = e.getTreeItem(node!) as TreeItem;
    assertOneVisibleLine(item.label);
    const tip = item.tooltip as MarkdownString & {
      isTrusted?: unknown;
      supportHtml?: unknown;
      supportThemeIcons?: unknown;
    };
    assert.equal(tip.isTrusted, undefined, 'no command link can run');
    assert.equal(tip.supportHtml, undefined);
    assert.equal(tip.supportThemeIcons, undefined);
    assert.doesNotMatch(tip.value, /(?<!\\)\[x(?<!\\)\]/, 'no link text');
    assert.doesNotMatch(tip.value, /\]\(command:/, 'no link target');
    assert.doesNotMatch(tip.value, /<img/, 'no HTML tag');
    assert.ok(tip.value.includes('&lt;img src=x onerror=alert\\(1\\)\\>'), `the tag is shown as text: ${tip.value}`);
    assert.ok(
      tip.value.includes('\\*\\*bold\\*\\*') && tip.value.includes('\\`code\\`') && tip.value.includes('\\# heading'),
      tip.value,
    );
  });

  test('the error row opens cases.jsonl at its first unreadable line', async () => {
    const e = explorer(listing([], [{ line: 4, reason: 'not valid JSON', excerpt: '{' }]));
    const [group] = await e.getChildren();
    const [problem] = await e.getChildren(group);
    const item = e.getTreeItem(problem!) as TreeItem;
    assert.equal(item.label, '1 lines of cases.jsonl cannot be read');
    assert.deepEqual(item.command, { command: 'groundwork.cases.openFile', title: 'Open cases.jsonl', arguments: [4] });
    assert.deepEqual(
      [(item.iconPath as ThemeIcon).id, (item.iconPath as ThemeIcon).color?.id],
      ['error', 'errorForeground'],
    );
  });

  test('a change redraws the group alone, the group appearing or going the root; .groundwork/ changing redraws nothing the model does not show, nor anything before the tree is read', async () => {
    let shown: CasesListing | undefined = listing([aCase(1)]);
    const cases = new Emitter<void>();
    const changed = new Emitter<void>();
    let records: unknown[] = [];
    const model = {
      hasWorkspace: true,
      onDidChange: changed.event,
      read: async () => ({ plans: [], journal: { records, problems: [] }, sleepers: [] }),
    };
    const source: CasesGroupSource = { onDidChange: cases.event, list: async () => shown, refresh: () => undefined };
    const e = explorerWith(model, fakeRoots(), { cases: source });
    const fired: unknown[] = [];
    e.onDidChangeTreeData((node) => fired.push(node));
    cases.fire();
    changed.fire();
    await pause(10);
    assert.deepEqual(fired, [], 'nothing to redraw before VS Code has read the tree');
    const [group] = await e.getChildren();
    shown = listing([aCase(1), aCase(2)]);
    cases.fire();
    await pause(10);
    assert.deepEqual(fired, [group], 'only the group');
    assert.equal((e.getTreeItem(group!) as TreeItem).description, '2');
    changed.fire(); // the first change: what the model shows is not known yet
    changed.fire(); // a run's files changing: the model shows the same
    await pause(10);
    assert.deepEqual(fired, [group, undefined], 'the root once, not for a change the model does not show');
    records = [{ timestamp: '2025-02-02T00:00:00.000Z', title: 't', description: 'd' }];
    changed.fire();
    await pause(10);
    assert.deepEqual(fired, [group, undefined, undefined], 'a journal entry redraws the root');
    shown = undefined;
    cases.fire();
    await pause(10);
    assert.deepEqual(fired, [group, undefined, undefined, undefined], 'the group going redraws the root');
    assert.deepEqual(
      (await e.getChildren()).map((n) => n.kind === 'group' && n.group),
      ['journal'],
      'the group is gone',
    );
    e.redrawAll();
    assert.equal(fired.length, 5, 'Refresh redraws the root');
    e.dispose();
  });
});
