// The Runs group of the plan explorer as a person sees it: one row per run with the status icon and
// colour that say how it went, the actions its context value offers (Stop only for a run of this
// window, Resume for one that can go on), at most RUNS_SHOWN rows and a note saying how many more,
// text from a cloned repository's run folders cut to one visible line, and each file a run touched
// marked as created (A) or changed (M). The rows are pure (runRows.ts); the last tests go through
// the explorer itself (planExplorer.ts, with a fake `vscode`) for what it draws from them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunRecord } from '../../../../src/core/run/runTypes';
import { RUNS_SHOWN, fileRows, runContext, runRow, runsListing } from '../../../../src/vscode/agentRun/runRows';
import type { FileRow, RunShownStatus, RunWords, RunsListing } from '../../../../src/vscode/agentRun/runRows';
import type { RunsGroupSource } from '../../../../src/vscode/agentRun/runsGroup';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import { sampleRun } from '../../run/runFixtures';
import {
  explorerWith,
  fakeRoots,
  installFakeTree,
  type MarkdownString,
  type ThemeIcon,
  type TreeItem,
} from '../fakeTree';

const WORDS: RunWords = {
  status: {
    running: 'running',
    completed: 'completed',
    failed: 'failed',
    stopped: 'stopped',
    interrupted: 'interrupted',
  },
  inThisWindow: 'in this window',
  started: (when) => `started ${when}`,
  ended: (when) => `ended ${when}`,
  figures: (turns, tokens, cost) => `${turns} turns · ${tokens} · ${cost}`,
  reverted: (when) => `reverted ${when}`,
  created: 'created by the run',
  changed: 'changed by the run',
};
const NOW = Date.parse('2025-01-02T12:00:00.000Z');

function row(status: RunShownStatus, here = false, run: Partial<RunRecord> = {}) {
  return runRow(
    sampleRun({ status: status === 'interrupted' ? 'running' : status, ...run }),
    status,
    here,
    WORDS,
    NOW,
    'en-GB',
  );
}

/** What a person can read: no control character, no line break, nothing that reorders the text. */
function assertOneVisibleLine(text: string, what: string): void {
  assert.doesNotMatch(
    text,
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u,
    `${what} holds a raw control: ${JSON.stringify(text)}`,
  );
}

describe('run rows', () => {
  test('each status has its own icon, colour and context value', () => {
    const shown = (['running', 'completed', 'failed', 'stopped', 'interrupted'] as const).map((s) => {
      const r = row(s);
      return [s, r.icon, r.color, r.contextValue];
    });
    assert.deepEqual(shown, [
      ['running', 'sync~spin', undefined, 'run-running'],
      ['completed', 'pass', 'testing.iconPassed', 'run-completed'],
      ['failed', 'error', 'testing.iconFailed', 'run-failed'],
      ['stopped', 'debug-stop', undefined, 'run-stopped'],
      ['interrupted', 'warning', 'list.warningForeground', 'run-interrupted'],
    ]);
  });

  test('only a run under way in this window offers Stop (run-running-here), and says so in its tooltip', () => {
    const here = row('running', true);
    assert.equal(here.contextValue, 'run-running-here');
    assert.equal(here.here, true);
    assert.match(here.tooltip[0] ?? '', /running \(in this window\)/);
    const elsewhere = row('running', false);
    assert.equal(elsewhere.contextValue, 'run-running');
    assert.equal(elsewhere.here, false);
    assert.doesNotMatch(elsewhere.tooltip[0] ?? '', /in this window/);
    // A run of this window that has ended is just ended: nothing to stop.
    assert.equal(row('completed', true).contextValue, 'run-completed');
    assert.equal(row('completed', true).here, false);
    assert.equal(runContext('interrupted', true), 'run-interrupted');
  });

  test('package.json offers Stop, Resume and Revert on the rows whose context value fits', async () => {
    const { contributes } = JSON.parse(
      await import('node:fs').then((fs) => fs.readFileSync(`${__dirname}/../../../../package.json`, 'utf8')),
    ) as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    const offered = (command: string, context: string) =>
      contributes.menus['view/item/context']!.filter((m) => m.command === command).some((m) => {
        const when = m.when ?? '';
        const exact = /viewItem == ([\w-]+)/.exec(when)?.[1];
        const re = /viewItem =~ \/(.+?)\//.exec(when)?.[1];
        return exact ? exact === context : re ? new RegExp(re).test(context) : false;
      });
    const contexts = (['running', 'completed', 'failed', 'stopped', 'interrupted'] as const)
      .map((s) => row(s).contextValue)
      .concat(row('running', true).contextValue);
    const table = Object.fromEntries(
      ['groundwork.runs.stop', 'groundwork.runs.resume', 'groundwork.runs.revert', 'groundwork.runs.openChanges'].map(
        (c) => [c, contexts.filter((ctx) => offered(c, ctx))],
      ),
    );
    assert.deepEqual(table, {
      'groundwork.runs.stop': ['run-running-here'],
      'groundwork.runs.resume': ['run-failed', 'run-stopped', 'run-interrupted'],
      'groundwork.runs.revert': ['run-completed', 'run-failed', 'run-stopped', 'run-interrupted'],
      'groundwork.runs.openChanges': [
        'run-running',
        'run-completed',
        'run-failed',
        'run-stopped',
        'run-interrupted',
        'run-running-here',
      ],
    });
  });

  test('the label is the task, the description the role and when it started; the tooltip has the figures', () => {
    const r = row('completed', false, {
      task: 'Add a README',
      role: 'build-developer',
      turns: 3,
      costUsd: 0.0123,
      startedAt: '2025-01-02T09:30:00.000Z',
    });
    assert.equal(r.label, 'Add a README');
    assert.match(r.description, /^build-developer · 09:30$/);
    assert.ok(r.tooltip.includes('3 turns · 35 tokens · $0.0123'), r.tooltip.join('\n'));
    assert.equal(r.tooltip.at(-1), r.id, 'the id closes the tooltip, for the CLI');
    // the status is an icon: a screen reader says it in words
    assert.equal(r.ariaLabel, 'Add a README, completed, build-developer · 09:30');
    assert.equal(row('interrupted').ariaLabel.split(', ')[1], 'interrupted');
  });

  test('hostile text from a cloned run folder is one visible line, cut with an ellipsis', () => {
    const hostile = 'Fix it\n\u001b[31mrm -rf /\u001b[0m\u202eevil\u2028next\r\tline';
    const r = row('failed', false, {
      task: hostile + 'x'.repeat(200),
      role: 'dev\u001b]0;title\u0007\nrole',
      reason: `bad\n\u001b[2J${'y'.repeat(800)}`,
    });
    for (const [what, text] of [
      ['label', r.label],
      ['description', r.description],
      ...r.tooltip.map((t, i) => [`tooltip ${i}`, t]),
    ] as const) {
      assertOneVisibleLine(text, what);
    }
    assert.ok([...r.label].length <= 60, `label of ${[...r.label].length} characters`);
    assert.ok(r.label.endsWith('…'));
    assert.match(r.label, /^Fix it \\x1b\[31mrm -rf \/\\x1b\[0m\\u202eevil next linex+…$/);
    assert.match(r.description, /^dev\\x1b\]0;title\\x07 role · /);
    const reason = r.tooltip.find((t) => t.startsWith('bad'));
    assert.ok(reason && [...reason].length <= 500 && reason.endsWith('…'), 'the reason is cut too');
  });
});

describe('the listing', () => {
  test(`shows the newest ${RUNS_SHOWN} runs and counts the rest`, () => {
    const runs = Array.from({ length: RUNS_SHOWN + 7 }, (_, i) => ({
      run: sampleRun({ id: `20250102-0304${String(i).padStart(2, '0')}-builder-0a1f`.slice(0, 28), task: `task ${i}` }),
      status: 'completed' as const,
      here: false,
    }));
    const listing = runsListing(runs, [], WORDS, NOW);
    assert.equal(listing.rows.length, RUNS_SHOWN);
    assert.equal(listing.more, 7);
    assert.equal(listing.rows[0]?.label, 'task 0', 'in the order given: newest first');
    assert.equal(runsListing(runs.slice(0, 3), [], WORDS, NOW).more, 0);
  });
});

describe('file rows', () => {
  test('a created file is A, a changed one M; the name is the label, its folder the description', () => {
    const files = fileRows(
      'r1',
      [
        { path: 'src/sum.js', before: null },
        { path: 'README.md', before: { encoding: 'utf8', data: 'old' } },
      ],
      WORDS,
    );
    assert.deepEqual(
      files.map((f) => [f.label, f.description, f.created, f.tooltip]),
      [
        ['sum.js', 'src', true, 'src/sum.js — created by the run'],
        ['README.md', '', false, 'README.md — changed by the run'],
      ],
    );
    assert.deepEqual(
      files.map((f) => f.ariaLabel),
      ['src/sum.js — created by the run', 'README.md — changed by the run'],
      'a screen reader says what the A/M badge shows',
    );
    assert.equal(files[0]?.runId, 'r1');
    assert.equal(files[0]?.path, 'src/sum.js', 'the path is kept whole for the diff');
  });

  test('a hostile file name is shown as one visible line; the path itself is kept as it is', () => {
    const path = 'docs/a\nb\u001b[31m/\u202etxt.exe\u0007.md';
    const [f] = fileRows('r1', [{ path, before: null }], WORDS);
    assert.ok(f);
    for (const text of [f.label, f.description, f.tooltip]) assertOneVisibleLine(text, text);
    assert.equal(f.label, '\\u202etxt.exe\\x07.md');
    assert.equal(f.description, 'docs/a b\\x1b[31m');
    assert.equal(f.path, path);
  });
});

// ---------------------------------------------------------------------------------------------
// The explorer: what it draws from the rows

installFakeTree();

function explorer(listing: RunsListing | undefined, files: (id: string) => Promise<FileRow[]> = async () => []) {
  const changed = new Emitter<void>();
  const model = {
    hasWorkspace: true,
    onDidChange: new Emitter<void>().event,
    read: async () => ({ plans: [], journal: { records: [], problems: [] }, sleepers: [] }),
  };
  const source: RunsGroupSource = {
    onDidChange: changed.event,
    list: async () => listing,
    files,
    refresh: () => undefined,
  };
  return explorerWith(model, fakeRoots(), { runs: source });
}

const labelOf = (item: unknown) => (item as TreeItem).label;

describe('the Runs group in the explorer', () => {
  test('is left out while there are no runs, so the view shows its welcome text', async () => {
    assert.deepEqual(await explorer(undefined).getChildren(), []);
  });

  test(`counts every run and ends with a note of how many more there are past ${RUNS_SHOWN}`, async () => {
    const rows = Array.from({ length: RUNS_SHOWN }, (_, i) =>
      row('completed', false, { id: `20250102-0304${String(i).padStart(2, '0')}-builder-0a1f`, task: `task ${i}` }),
    );
    const e = explorer({ rows, more: 12, problems: [{ id: 'bad-run', problem: 'run.json is not JSON' }] });
    const [group] = await e.getChildren();
    assert.ok(group);
    const groupItem = e.getTreeItem(group) as TreeItem;
    assert.equal(groupItem.label, 'Runs');
    assert.equal(groupItem.description, String(RUNS_SHOWN + 12));
    const children = await e.getChildren(group);
    assert.equal(children.length, RUNS_SHOWN + 2);
    const items = children.map((c) => e.getTreeItem(c) as TreeItem);
    assert.equal(items[0]?.label, 'task 0');
    assert.equal(items[RUNS_SHOWN]?.label, '12 more — use groundwork runs list');
    assert.equal((items[RUNS_SHOWN]?.iconPath as ThemeIcon).id, 'info');
    assert.equal(items[RUNS_SHOWN + 1]?.label, 'Run bad-run cannot be read: run.json is not JSON');
    assert.equal((items[RUNS_SHOWN + 1]?.iconPath as ThemeIcon).id, 'error');
  });

  test('a run row shows its status icon in its colour, offers its actions and escapes its tooltip', async () => {
    const r = row('failed', false, { task: 'Use *bold* [link](x)' });
    const e = explorer({ rows: [r], more: 0, problems: [] });
    const [group] = await e.getChildren();
    const [node] = await e.getChildren(group);
    const item = e.getTreeItem(node!) as TreeItem;
    assert.equal(item.collapsibleState, 1, 'expanding a run lists its files');
    assert.deepEqual(
      [(item.iconPath as ThemeIcon).id, (item.iconPath as ThemeIcon).color?.id],
      ['error', 'testing.iconFailed'],
    );
    assert.equal(item.contextValue, 'run-failed');
    assert.equal(item.id, `run:${r.id}`);
    assert.deepEqual(item.accessibilityInformation, { label: r.ariaLabel });
    assert.match(
      (item.tooltip as MarkdownString).value,
      /Use \\\*bold\\\* \\\[link\\\]\\\(x\\\)/,
      'markdown in a task is shown as text',
    );
  });

  test("a run's files are rows with an A or M badge that open their diff; a run that changed none says so", async () => {
    const r = row('completed');
    const files = fileRows(
      r.id,
      [
        { path: 'src/sum.js', before: null },
        { path: 'README.md', before: { encoding: 'utf8', data: 'x' } },
      ],
      WORDS,
    );
    const e = explorer({ rows: [r], more: 0, problems: [] }, async () => files);
    const [group] = await e.getChildren();
    const [node] = await e.getChildren(group);
    const items = (await e.getChildren(node)).map((c) => e.getTreeItem(c) as TreeItem);
    assert.deepEqual(
      items.map((i) => [
        i.label,
        i.description,
        (i.resourceUri as { scheme: string; query: string }).scheme,
        (i.resourceUri as { query: string }).query,
      ]),
      [
        ['sum.js', 'src', 'groundwork-run-file', 'A'],
        ['README.md', '', 'groundwork-run-file', 'M'],
      ],
    );
    assert.deepEqual(items[0]?.command, {
      command: 'groundwork.runs.openFile',
      title: 'Open Changes',
      arguments: [files[0]],
    });
    const none = explorer({ rows: [r], more: 0, problems: [] });
    const [g2] = await none.getChildren();
    const [n2] = await none.getChildren(g2);
    assert.deepEqual(
      (await none.getChildren(n2)).map((c) => labelOf(none.getTreeItem(c))),
      ['It changed no file.'],
    );
  });

  test('a run whose changes cannot be read says why in one visible line', async () => {
    const r = row('completed');
    const e = explorer({ rows: [r], more: 0, problems: [] }, async () => {
      throw new Error('changes.json of run x is damaged:\n\u001b[31mline 2\u001b[0m');
    });
    const [group] = await e.getChildren();
    const [node] = await e.getChildren(group);
    const [item] = (await e.getChildren(node)).map((c) => e.getTreeItem(c) as TreeItem);
    assert.ok(item);
    assertOneVisibleLine(item.label, 'the error row');
    assert.match(item.label, /^changes\.json of run x is damaged: /);
    assert.equal((item.iconPath as ThemeIcon).id, 'error');
  });
});
