// The Builds group of the plan explorer as a person sees it: one row per build with the status icon
// and colour that say how it went and the actions its context value offers (Stop for a build of
// this window, Resume for one that can go on, Open Report once it ended, the folder once it has
// one), its phases with their figures and Rerun Phase only where the core allows it, each phase's
// tries as run rows showing the try's own verdict, and text from a cloned repository's build
// folders shown as one visible line or escaped. The rows are pure (buildRows.ts); the last tests
// go through the explorer itself (planExplorer.ts, with a fake `vscode`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BuildRecord } from '../../../../src/core/build/buildTypes';
import {
  attemptNote,
  attemptRunRow,
  buildContext,
  buildRow,
  buildsListing,
  BUILDS_SHOWN,
  planOf,
} from '../../../../src/vscode/build/buildRows';
import type { AttemptNode, BuildShownStatus, BuildWords, BuildsListing } from '../../../../src/vscode/build/buildRows';
import { Emitter } from '../../../../src/vscode/base/lifecycle';
import { runRow, type FileRow, type RunWords } from '../../../../src/vscode/agentRun/runRows';
import type { RunsGroupSource } from '../../../../src/vscode/agentRun/runsGroup';
import type { BuildsGroupSource } from '../../../../src/vscode/build/buildsGroup';
import { sampleBuild } from '../../build/buildFixtures';
import { sampleRun } from '../../run/runFixtures';
import {
  explorerWith,
  fakeRoots,
  installFakeTree,
  type MarkdownString,
  type ThemeIcon,
  type TreeItem,
} from '../fakeTree';

const WORDS: BuildWords = {
  status: {
    running: 'running',
    completed: 'completed',
    failed: 'failed',
    stopped: 'stopped',
    interrupted: 'interrupted',
  },
  phase: { pending: 'pending', running: 'running', passed: 'passed', failed: 'failed', stopped: 'stopped' },
  cause: {
    first: '',
    retry: 'retry',
    'qa-failed': 'sent back: QA failed',
    'review-changes': 'sent back: review',
    rerun: 'rerun',
    resume: 'resumed',
  },
  inThisWindow: 'in this window',
  from: (s) => `From ${s}`,
  project: (f) => `Project folder: ${f}`,
  started: (w) => `started ${w}`,
  ended: (w) => `ended ${w}`,
  tries: (n) => `${n} tries`,
  attempt: (n) => `try ${n}`,
  noRun: 'It failed before its agent run began.',
};
const RUN_WORDS: RunWords = {
  status: {
    running: 'running',
    completed: 'completed',
    failed: 'failed',
    stopped: 'stopped',
    interrupted: 'interrupted',
  },
  inThisWindow: 'in this window',
  started: (w) => `started ${w}`,
  ended: (w) => `ended ${w}`,
  figures: (turns, tokens, cost) => `${turns} turns · ${tokens} · ${cost}`,
  reverted: (w) => `reverted ${w}`,
  created: 'created by the run',
  changed: 'changed by the run',
};
const NOW = Date.parse('2025-01-02T12:00:00.000Z');

function row(status: BuildShownStatus, here = false, build: Partial<BuildRecord> = {}) {
  return buildRow(
    sampleBuild({ status: status === 'interrupted' ? 'running' : status, ...build }),
    status,
    here,
    WORDS,
    NOW,
    'en-GB',
  );
}

describe('build rows', () => {
  test('each status has its icon, colour and context value; Stop only here, the folder once there is one', () => {
    const shown = (['running', 'completed', 'failed', 'stopped', 'interrupted'] as const).map((s) => {
      const r = row(s);
      return [s, r.icon, r.color, r.contextValue];
    });
    assert.deepEqual(shown, [
      ['running', 'sync~spin', undefined, 'build-running-folder'],
      ['completed', 'pass', 'testing.iconPassed', 'build-completed-folder'],
      ['failed', 'error', 'testing.iconFailed', 'build-failed-folder'],
      ['stopped', 'debug-stop', undefined, 'build-stopped-folder'],
      ['interrupted', 'warning', 'list.warningForeground', 'build-interrupted-folder'],
    ]);
    assert.equal(row('running', true).contextValue, 'build-running-here-folder');
    assert.equal(buildContext('failed', false, false), 'build-failed');
    assert.equal(row('running', true).here, true);
  });

  test('named by its project folder (two builds of one brief differ), before that by its plan', () => {
    assert.equal(row('completed', false, { projectDir: 'sum-tool-2', projectName: 'sum-tool' }).label, 'sum-tool-2');
    const { projectDir: _d, projectName: _n, ...unnamed } = sampleBuild();
    assert.equal(buildRow(unnamed as BuildRecord, 'running', true, WORDS, NOW).label, 'price-tracker');
    assert.equal(
      buildRow(
        { ...(unnamed as BuildRecord), source: { kind: 'brainstorm', slug: 'invoices' } },
        'running',
        true,
        WORDS,
        NOW,
      ).label,
      'invoices',
    );
  });

  test('belongs to the plan it was made from: a brief saved in the plan folder, or a brainstorm', () => {
    assert.equal(row('completed').plan, 'price-tracker');
    const from = (source: BuildRecord['source']) =>
      buildRow(sampleBuild({ source }), 'completed', false, WORDS, NOW).plan;
    assert.equal(from({ kind: 'brief', path: '.groundwork/plans/adder/idea-brief.md' }), 'adder');
    assert.equal(from({ kind: 'brief', path: '.groundwork/plans/adder/rounds/round-1.md' }), 'adder');
    assert.equal(from({ kind: 'brainstorm', slug: 'invoices' }), 'invoices');
    assert.equal(from({ kind: 'brief', path: 'docs/brief.md' }), undefined, 'a brief outside the plans has no plan');
    assert.equal('plan' in row('completed', false, { source: { kind: 'brief', path: 'brief.md' } }), false);
  });

  test('a path or a slug from a cloned repository names a plan only when it is a plain plan folder', () => {
    const hostile = [
      '.groundwork/plans/../plans/adder/idea-brief.md',
      '.groundwork/plans/adder/../../../etc/passwd',
      '.groundwork/plans/adder/./idea-brief.md',
      '.groundwork/plans/adder//idea-brief.md',
      '.groundwork/plans/./idea-brief.md',
      '.groundwork/plans/..',
      '.groundwork/plans/adder',
      '.groundwork/plans/adder/',
      './.groundwork/plans/adder/idea-brief.md',
      '/.groundwork/plans/adder/idea-brief.md',
      'x/.groundwork/plans/adder/idea-brief.md',
      'projects/plans/adder/idea-brief.md',
      '.groundwork/builds/adder/idea-brief.md',
      '.groundwork\\plans\\adder\\idea-brief.md',
      '.groundwork/plans/adder\\..\\x/idea-brief.md',
      '.groundwork/plans/Adder/idea-brief.md',
      '.groundwork/plans/-adder/idea-brief.md',
      '.groundwork/plans/add er/idea-brief.md',
      '.groundwork/plans/add\u202eer/idea-brief.md',
      '.groundwork/plans/adder\n/idea-brief.md',
      `.groundwork/plans/${'a'.repeat(65)}/idea-brief.md`,
    ];
    for (const path of hostile) assert.equal(planOf({ kind: 'brief', path }), undefined, JSON.stringify(path));
    for (const slug of ['', '..', 'a/b', 'Adder', '-x', 'x y', 'x\u0007', 'a'.repeat(65)])
      assert.equal(planOf({ kind: 'brainstorm', slug }), undefined, JSON.stringify(slug));
    assert.equal(planOf({ kind: 'brief', path: `.groundwork/plans/${'a'.repeat(64)}/idea-brief.md` }), 'a'.repeat(64));
  });

  test('the description has status, time and cost; the tooltip the source, the folder, the totals and the reason', () => {
    const r = row('failed');
    assert.match(r.description, /^failed · [^·]*\d\d:\d\d · \$0\.0163$/);
    assert.deepEqual(r.tooltip.slice(0, 3), [
      'price-tracker — failed',
      'From .groundwork/plans/price-tracker/idea-brief.md',
      'Project folder: price-tracker',
    ]);
    assert.ok(r.tooltip.includes('Phase qa failed twice: node --test exited 1.'));
    assert.equal(r.tooltip.at(-1), r.id);
  });

  test('phases: status icons and figures; Rerun Phase only on a build not under way whose earlier phases passed', () => {
    const r = row('failed');
    assert.deepEqual(
      r.phases.map((p) => [p.name, p.icon, p.color, p.contextValue, p.tried]),
      [
        ['analyst', 'pass', 'testing.iconPassed', 'build-phase', true],
        ['qa', 'error', 'testing.iconFailed', 'build-phase', true],
        ['delivery', 'circle-large-outline', 'disabledForeground', 'build-phase-locked', false],
      ],
    );
    assert.match(r.phases[0]!.description, /^passed · 30 s · 2\.3k tokens · \$0\.0123$/);
    assert.match(r.phases[1]!.description, /^failed · 2 tries · /);
    assert.ok(
      row('running', true).phases.every((p) => p.contextValue === 'build-phase-locked'),
      'nothing is rerun while it runs',
    );
  });

  test("a phase's tooltip carries its last try's reason and evidence, each line visible, cut to a few lines", () => {
    const build = sampleBuild();
    build.phases[1]!.attempts[1]!.evidence = `${'line\n'.repeat(30)}\u001b[31mred\u0007`;
    const qa = buildRow(build, 'failed', false, WORDS, NOW).phases[1]!;
    assert.ok(qa.tooltip.includes('rate limited'));
    assert.equal(qa.tooltip.at(-1), '…');
    assert.ok(qa.tooltip.length < 20);
    for (const line of qa.tooltip) assert.doesNotMatch(line, /[\u0000-\u001f]/, JSON.stringify(line));
  });

  test(`at most ${BUILDS_SHOWN} rows, with how many more; problems in one visible line`, () => {
    const builds = Array.from({ length: BUILDS_SHOWN + 3 }, (_, i) => ({
      build: sampleBuild({ id: `20250102-0304${String(i).padStart(2, '0')}-x-0a1f` }),
      status: 'completed' as const,
      here: false,
    }));
    const listing = buildsListing(builds, [{ id: 'bad', problem: 'build.yaml is damaged:\nline 3\u0007' }], WORDS, NOW);
    assert.equal(listing.rows.length, BUILDS_SHOWN);
    assert.equal(listing.more, 3);
    assert.equal(listing.problems[0]!.id, 'bad');
    assert.match(listing.problems[0]!.problem, /^build\.yaml is damaged: line 3/);
    assert.doesNotMatch(listing.problems[0]!.problem, /[\n\u0007]/);
  });
});

describe('tries', () => {
  test("a try is its run's row, with the try's own verdict: a run that completed can have failed the check", () => {
    const attempt = sampleBuild().phases[1]!.attempts[0]!;
    const base = runRow(
      sampleRun({ status: 'completed', task: 'Carry out the qa phase…' }),
      'completed',
      false,
      RUN_WORDS,
      NOW,
    );
    const r = attemptRunRow(base, attempt, 2, WORDS);
    assert.equal(r.label, 'try 2 (sent back: QA failed)');
    assert.deepEqual([r.icon, r.color, r.contextValue, r.id], ['error', 'testing.iconFailed', 'build-run', base.id]);
    assert.match(r.description, /^failed · 2\.3k tokens · \$0\.0040$/);
    assert.equal(r.tooltip[1], 'claimed but not verified: `node --test` exited 1');
    assert.ok(!r.tooltip.includes('Carry out the qa phase…'), "the phase's long task is left out");
  });

  test('a try that failed before its run began is a note saying why', () => {
    const attempt = sampleBuild().phases[1]!.attempts[1]!;
    assert.deepEqual(attemptNote(attempt, 2, WORDS), {
      kind: 'note',
      text: 'try 2: rate limited',
      tooltip: 'rate limited',
    });
    const { reason: _r, ...bare } = attempt;
    assert.deepEqual(attemptNote(bare, 3, WORDS), {
      kind: 'note',
      text: 'try 3: It failed before its agent run began.',
      tooltip: 'It failed before its agent run began.',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The explorer: what it draws from the rows

installFakeTree();

function explorer(
  listing: BuildsListing | undefined,
  attempts: (id: string, phase: string) => Promise<AttemptNode[]> = async () => [],
  options: {
    plans?: string[];
    files?: string[];
    builds?: Emitter<void>;
    list?: () => BuildsListing | undefined;
    runs?: RunsGroupSource;
  } = {},
) {
  const plans = (options.plans ?? []).map((slug) => ({
    slug,
    mainFile: `plans/${slug}/idea-brief.md`,
    complete: true,
    unfinishedBrainstorm: false,
  }));
  const model = {
    hasWorkspace: true,
    onDidChange: new Emitter<void>().event,
    read: async () => ({ plans, journal: { records: [], problems: [] }, sleepers: [] }),
    fileUri: (rel: string) => ({ path: `/ws/.groundwork/${rel}` }),
  };
  const source: BuildsGroupSource = {
    onDidChange: (options.builds ?? new Emitter<void>()).event,
    list: async () => (options.list ? options.list() : listing),
    attempts,
    // A try's files are its agent run's: the same as the Runs group lists.
    files: async (id): Promise<FileRow[]> => (options.runs ? options.runs.files(id) : []),
    refresh: () => undefined,
  };
  return explorerWith(model, fakeRoots(options.plans, [], options.files), { builds: source, runs: options.runs });
}

describe('the Builds group in the explorer', () => {
  test('is left out while there are no builds', async () => {
    assert.deepEqual(await explorer(undefined).getChildren(), []);
  });

  test('lists each build, a note past the ones shown, and a damaged build.yaml as an error row, never a broken tree', async () => {
    const r = row('failed', false, { reason: 'Use *bold* [link](x)' });
    const e = explorer({
      rows: [r],
      more: 2,
      problems: [
        { id: '20250102-030405-x-0a1f', problem: 'build.yaml is damaged: phases[0].status is not a phase status' },
      ],
    });
    const [group] = await e.getChildren();
    const groupItem = e.getTreeItem(group!) as TreeItem;
    assert.deepEqual(
      [groupItem.label, groupItem.description, (groupItem.iconPath as ThemeIcon).id],
      ['Builds', '3', 'tools'],
    );
    const items = (await e.getChildren(group)).map((c) => e.getTreeItem(c) as TreeItem);
    assert.equal(items.length, 3);
    assert.deepEqual(
      [items[0]!.label, items[0]!.contextValue, items[0]!.id, items[0]!.collapsibleState],
      ['price-tracker', 'build-failed-folder', `build:${r.id}`, 1],
    );
    assert.deepEqual(
      [(items[0]!.iconPath as ThemeIcon).id, (items[0]!.iconPath as ThemeIcon).color?.id],
      ['error', 'testing.iconFailed'],
    );
    assert.match(
      (items[0]!.tooltip as MarkdownString).value,
      /Use \\\*bold\\\* \\\[link\\\]\\\(x\\\)/,
      'markdown in a reason is shown as text',
    );
    assert.equal(items[1]!.label, '2 more in .groundwork/builds/');
    assert.equal(
      items[2]!.label,
      'Build 20250102-030405-x-0a1f cannot be read: build.yaml is damaged: phases[0].status is not a phase status',
    );
    assert.equal((items[2]!.iconPath as ThemeIcon).id, 'error');
  });

  test("a build's phases, and a phase's tries as run rows (their files expand beneath) or notes", async () => {
    const r = row('failed');
    const run = attemptRunRow(
      runRow(sampleRun(), 'completed', false, RUN_WORDS, NOW),
      sampleBuild().phases[1]!.attempts[0]!,
      1,
      WORDS,
    );
    const asked: string[] = [];
    const e = explorer({ rows: [r], more: 0, problems: [] }, async (id, phase) => {
      asked.push(`${id} ${phase}`);
      return [{ kind: 'run', row: run }, attemptNote(sampleBuild().phases[1]!.attempts[1]!, 2, WORDS)];
    });
    const [group] = await e.getChildren();
    const [build] = await e.getChildren(group);
    const phases = await e.getChildren(build);
    const phaseItems = phases.map((p) => e.getTreeItem(p) as TreeItem);
    assert.deepEqual(
      phaseItems.map((i) => [i.label, i.contextValue, i.collapsibleState]),
      [
        ['analyst', 'build-phase', 1],
        ['qa', 'build-phase', 1],
        ['delivery', 'build-phase-locked', 0],
      ],
    );
    assert.equal(phaseItems[1]!.id, `build:${r.id}:qa`);
    const tries = (await e.getChildren(phases[1])).map((t) => e.getTreeItem(t) as TreeItem);
    assert.deepEqual(asked, [`${r.id} qa`]);
    assert.deepEqual(
      tries.map((t) => [t.label, t.contextValue]),
      [
        ['try 1 (sent back: QA failed)', 'build-run'],
        ['try 2: rate limited', undefined],
      ],
    );
    assert.equal(tries[0]!.id, `build-run:${run.id}`, 'its own id: the same run is also a row of the Runs group');
  });

  test('a phase whose tries cannot be read says why in one visible line', async () => {
    const e = explorer({ rows: [row('failed')], more: 0, problems: [] }, async () => {
      throw new Error('build.yaml is missing:\nthe folder holds no build.');
    });
    const [group] = await e.getChildren();
    const [build] = await e.getChildren(group);
    const [, qa] = await e.getChildren(build);
    const [error] = (await e.getChildren(qa)).map((t) => e.getTreeItem(t) as TreeItem);
    assert.equal(error!.label, 'build.yaml is missing: the folder holds no build.');
  });
});

describe('a plan in the explorer', () => {
  const adder = (id: string, status: BuildShownStatus = 'completed') =>
    row(status, false, {
      id,
      projectDir: `sum-${id.slice(-4)}`,
      source: { kind: 'brief', path: '.groundwork/plans/adder/idea-brief.md' },
    });

  test('lists its Idea Brief, then its builds as the Builds group does, with ids of their own; a click opens its file', async () => {
    const [first, second, other] = [
      adder('20250102-030405-adder-0a1f'),
      adder('20250102-030406-adder-0b2e', 'stopped'),
      row('completed'),
    ];
    const e = explorer({ rows: [first, second, other], more: 0, problems: [] }, async () => [], {
      plans: ['adder', 'notes'],
    });
    const [plansGroup, buildsGroup] = await e.getChildren();
    const plans = await e.getChildren(plansGroup);
    const [withBuilds, without] = plans.map((p) => e.getTreeItem(p) as TreeItem);
    assert.deepEqual(
      [withBuilds!.label, withBuilds!.collapsibleState, withBuilds!.id, withBuilds!.contextValue],
      ['adder', 1, 'plan:adder', 'plan'],
    );
    assert.deepEqual([without!.label, without!.collapsibleState], ['notes', 1]);
    for (const plan of [withBuilds!, without!])
      assert.deepEqual(plan.command, {
        command: 'groundwork.explorer.open',
        title: 'Open',
        arguments: [{ path: `/ws/.groundwork/plans/${plan.label}/idea-brief.md` }],
      });
    const notes = (await e.getChildren(plans[1])).map((n) => e.getTreeItem(n) as TreeItem);
    assert.deepEqual(
      notes.map((i) => [i.label, i.contextValue, i.id]),
      [['Idea Brief', 'document', 'plan:notes/doc:plans/notes/idea-brief.md']],
    );

    const [brief, ...underPlan] = (await e.getChildren(plans[0])).map((b) => e.getTreeItem(b) as TreeItem);
    assert.equal(brief!.label, 'Idea Brief', 'the documents come first');
    const inGroup = (await e.getChildren(buildsGroup)).map((b) => e.getTreeItem(b) as TreeItem);
    assert.deepEqual(
      underPlan.map((i) => [i.label, i.contextValue, i.description, i.collapsibleState]),
      inGroup.slice(0, 2).map((i) => [i.label, i.contextValue, i.description, i.collapsibleState]),
      'the same rows and context actions (Resume, Open Report…) as in the Builds group',
    );
    assert.deepEqual(
      underPlan.map((i) => i.contextValue),
      ['build-completed-folder', 'build-stopped-folder'],
    );
    assert.deepEqual(
      underPlan.map((i) => i.id),
      [`plan:adder/build:${first.id}`, `plan:adder/build:${second.id}`],
    );
    assert.deepEqual(
      inGroup.map((i) => i.id),
      [`build:${first.id}`, `build:${second.id}`, `build:${other.id}`],
    );
  });

  test("its builds expand to phases, tries and the tries' files, every id distinct from the Builds and Runs groups'", async () => {
    const build = adder('20250102-030405-adder-0a1f', 'failed');
    const run = attemptRunRow(
      runRow(sampleRun(), 'completed', false, RUN_WORDS, NOW),
      sampleBuild().phases[1]!.attempts[0]!,
      1,
      WORDS,
    );
    const file = {
      runId: run.id,
      path: 'src/sum.js',
      created: true,
      label: 'sum.js',
      description: 'src',
      tooltip: 'src/sum.js',
      ariaLabel: 'src/sum.js, created',
    };
    const runs: RunsGroupSource = {
      onDidChange: new Emitter<void>().event,
      list: async () => ({ rows: [runRow(sampleRun(), 'completed', false, RUN_WORDS, NOW)], more: 0, problems: [] }),
      files: async () => [file],
      refresh: () => undefined,
    };
    const e = explorer(
      { rows: [build], more: 0, problems: [] },
      async (_id, phase) => (phase === 'qa' ? [{ kind: 'run', row: run }] : []),
      { plans: ['adder'], runs },
    );
    const ids: string[] = [];
    const walk = async (
      node: Awaited<ReturnType<typeof e.getChildren>>[number] | undefined,
      depth: number,
    ): Promise<void> => {
      for (const child of await e.getChildren(node)) {
        const item = e.getTreeItem(child) as TreeItem;
        if (item.id) ids.push(item.id);
        if (depth < 6 && item.collapsibleState !== 0) await walk(child, depth + 1);
      }
    };
    await walk(undefined, 0);
    assert.equal(new Set(ids).size, ids.length, ids.join('\n'));
    for (const id of [
      `plan:adder/build:${build.id}`,
      `plan:adder/build:${build.id}:qa`,
      `plan:adder/build-run:${run.id}`,
      `plan:adder/build-run:${run.id}:src/sum.js`,
      `build:${build.id}:qa`,
      `build-run:${run.id}:src/sum.js`,
      `run:${run.id}:src/sum.js`,
    ])
      assert.ok(ids.includes(id), `${id} in\n${ids.join('\n')}`);
    const [plans] = await e.getChildren();
    const [plan] = await e.getChildren(plans);
    const [shown] = (await e.getChildren(plan)).filter((n) => n.kind === 'row' && n.row.type === 'build');
    const [, qa] = await e.getChildren(shown);
    assert.deepEqual(
      [qa!.kind === 'row' && qa!.row.type, e.getTreeItem(qa!).contextValue],
      ['phase', 'build-phase'],
      'Rerun Phase is offered under the plan too',
    );
  });

  test('is redrawn when the builds change, so a plan that gets its first build becomes expandable', async () => {
    let listing: BuildsListing = { rows: [row('completed')], more: 0, problems: [] };
    const builds = new Emitter<void>();
    const e = explorer(undefined, async () => [], { plans: ['adder'], files: [], builds, list: () => listing });
    const [plansGroup] = await e.getChildren();
    const [plan] = await e.getChildren(plansGroup);
    assert.equal((e.getTreeItem(plan!) as TreeItem).collapsibleState, 0);
    const fired: unknown[] = [];
    e.onDidChangeTreeData((node) => fired.push(node));
    listing = { rows: [row('completed'), adder('20250102-030405-adder-0a1f')], more: 0, problems: [] };
    builds.fire();
    await new Promise((r) => setTimeout(r, 10));
    assert.ok(fired.includes(plansGroup), 'the Plans group is redrawn');
    const [again] = await e.getChildren(plansGroup);
    assert.equal((e.getTreeItem(again!) as TreeItem).collapsibleState, 1);
  });
});
