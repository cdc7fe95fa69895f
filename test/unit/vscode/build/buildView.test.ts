// The build's slice of the agent panel: nothing without a build; while it runs in this window, its
// phases, the tail of the current try's output on that try's stream, Show Terminal and Stop; once
// it ended, Resume (unless it completed), Open Report (unless interrupted: no report was written),
// Open Folder once there is a folder, Close. Text from the build folder is one visible line.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUILD_TAIL_CHARS, appendTail, buildView } from '../../../../src/vscode/build/buildView';
import { sampleBuild } from '../../build/buildFixtures';

describe('buildView', () => {
  test('no build: nothing to show', () => {
    assert.deepEqual(buildView(undefined, 'running', false), { status: 'none' });
  });

  test('running here: the phases, the current try on its stream, Show Terminal and Stop', () => {
    const build = sampleBuild({ status: 'running' });
    const view = buildView(build, 'running', true, {
      phase: 'qa',
      attempt: 2,
      text: 'VERIFY: node --test\n',
      from: 40,
    });
    assert.ok(view.status === 'running');
    assert.deepEqual(view.actions, ['show-terminal', 'stop']);
    assert.deepEqual(view.current, {
      phase: 'qa',
      attempt: 2,
      stream: `build:${build.id}:qa:2`,
      streamed: 'VERIFY: node --test\n',
      from: 40,
    });
    assert.equal(view.source, '.groundwork/plans/price-tracker/idea-brief.md');
    assert.equal(view.project, 'price-tracker/');
    assert.deepEqual(
      view.phases.map((p) => [p.name, p.status, p.attempts, p.figures]),
      [
        ['analyst', 'passed', 1, '30 s · 2.3k tokens · $0.0123'],
        ['qa', 'failed', 2, '2 min 1 s · 2.3k tokens · $0.0040'],
        ['delivery', 'pending', 0, ''],
      ],
    );
    assert.equal(view.phases[1]!.reason, 'rate limited', 'a phase that has not passed says why its last try did not');
    assert.equal(view.phases[0]!.reason, undefined);
  });

  test('a phase whose try has just begun shows no figures yet (not "0 tokens · cost unknown")', () => {
    const build = sampleBuild({ status: 'running' });
    build.phases[2] = {
      ...build.phases[2]!,
      status: 'running',
      attempts: [{ status: 'running', startedAt: '2025-01-02T03:14:00.000Z' }],
    };
    const view = buildView(build, 'running', true);
    assert.ok(view.status === 'running');
    assert.deepEqual([view.phases[2]!.status, view.phases[2]!.attempts, view.phases[2]!.figures], ['running', 1, '']);
  });

  test('running in another window (or the CLI): no Stop, no output here', () => {
    const view = buildView(sampleBuild({ status: 'running' }), 'running', false, {
      phase: 'qa',
      attempt: 1,
      text: 'x',
      from: 0,
    });
    assert.ok(view.status === 'running' && view.actions.length === 0 && view.current === undefined);
  });

  test('ended: Resume unless it completed, the report unless it was interrupted, the folder once it has one, Close', () => {
    const actions = (status: 'completed' | 'failed' | 'stopped' | 'interrupted', projectDir?: string) => {
      const { projectDir: _p, ...rest } = sampleBuild();
      const view = buildView(
        { ...rest, ...(projectDir ? { projectDir } : {}), status: status === 'interrupted' ? 'running' : status },
        status,
        false,
      );
      return view.status === 'none' ? [] : view.actions;
    };
    assert.deepEqual(actions('completed', 'x'), ['open-report', 'open-folder', 'close']);
    assert.deepEqual(actions('failed', 'x'), ['resume', 'open-report', 'open-folder', 'close']);
    assert.deepEqual(actions('stopped'), ['resume', 'open-report', 'close']);
    assert.deepEqual(actions('interrupted', 'x'), ['resume', 'open-folder', 'close']);
  });

  test("a brainstorm's build names its result document; the reason and names are visible text", () => {
    const build = sampleBuild({
      source: { kind: 'brainstorm', slug: 'invoices' },
      reason: 'Phase qa failed:\n\u001b[31mred\u0007',
    });
    const view = buildView(build, 'failed', false);
    assert.ok(view.status === 'failed');
    assert.equal(view.source, '.groundwork/plans/invoices/00-brainstorming.md');
    assert.doesNotMatch(view.reason ?? '', /[\u0000-\u001f]/);
    assert.match(view.reason ?? '', /^Phase qa failed: /);
  });
});

describe('appendTail', () => {
  test(`keeps the last ${BUILD_TAIL_CHARS} characters and counts what it dropped`, () => {
    let live = { phase: 'qa', attempt: 1, text: '', from: 0 };
    live = appendTail(live, 'a'.repeat(BUILD_TAIL_CHARS - 2));
    assert.equal(live.from, 0);
    live = appendTail(live, 'bcdef');
    assert.equal(live.text.length, BUILD_TAIL_CHARS);
    assert.equal(live.from, 3);
    assert.ok(live.text.endsWith('bcdef'));
  });
});
