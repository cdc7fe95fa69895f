// The build's part of the panel: nothing while there is no build; a running build's phases, each
// with its status and figures, the tail of the current try's output (streamed onto it, the panel
// asking for a snapshot when a piece is missing or belongs to another try), Stop and Show
// Terminal; an ended build's reason, Resume, Open Report and Open Folder; Restricted Mode shows the
// build but offers nothing that writes; a malformed slice is an error in its part alone.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { BuildPanelView } from '../../../src/shared/protocol/build';
import { BUILD_STREAM_CHARS } from '../../../webview/parts/build/buildPart';
import { removeFakeDocument } from './fakeDom';
import { Harness, S, slices } from './harness';

const STREAM = 'build:20250102-030405-adder-0a1f:qa:2';
type Shown = Exclude<BuildPanelView, { status: 'none' }>;
const running = (over: Partial<Shown> = {}): Shown => ({
  status: 'running',
  id: '20250102-030405-adder-0a1f',
  source: '.groundwork/plans/adder/idea-brief.md',
  project: 'sum-tool/',
  phases: [
    { name: 'analyst', role: 'build-analyst', status: 'passed', attempts: 1, figures: '2.7 s · 2.6k tokens · $0.0105' },
    { name: 'qa', role: 'build-qa', status: 'running', attempts: 2, figures: '' },
    { name: 'delivery', role: 'build-delivery', status: 'pending', attempts: 0, figures: '' },
  ],
  totals: '2.6k tokens · $0.0105',
  current: { phase: 'qa', attempt: 2, stream: STREAM, streamed: '── qa ──\n', from: 0 },
  actions: ['show-terminal', 'stop'],
  ...over,
});
/** An ended build: no current try. */
const ended = (over: Partial<Shown>): BuildPanelView => {
  const { current: _c, ...rest } = running(over);
  return rest;
};

let h: Harness;
beforeEach(() => {
  h = new Harness();
});
afterEach(removeFakeDocument);

describe('the build part', () => {
  test('no build: the part is empty', () => {
    const root = h.open(slices());
    assert.equal(root.find('#build'), undefined);
    assert.equal(root.findAll('.section-error').length, 0);
  });

  test('a running build: its status, phases, output and Stop / Show Terminal, which post their commands', () => {
    const root = h.open(slices({ build: running() }));
    assert.equal(root.find('#build-status')?.textContent, 'Building: qa, try 2');
    assert.equal(
      root.find('#build-source')?.textContent,
      'From .groundwork/plans/adder/idea-brief.mdProject folder: sum-tool/',
    );
    const phases = root.find('#build-phases')!.findAll('li');
    assert.deepEqual(
      phases.map((p) => [p.getAttribute('class'), p.find('.build-phase-meta')?.textContent]),
      [
        ['build-phase passed', 'passed · 2.7 s · 2.6k tokens · $0.0105'],
        ['build-phase running', 'running · 2 tries'],
        ['build-phase pending', 'pending'],
      ],
    );
    assert.equal(root.find('#build-stream')?.textContent, '── qa ──\n');
    root.find('#build-stop')!.click();
    root.find('#build-show-terminal')!.click();
    assert.deepEqual(h.posted, [
      { type: 'build.command', command: 'stop' },
      { type: 'build.command', command: 'show-terminal' },
    ]);
    assert.equal(root.find('#build-resume'), undefined);
  });

  test("the current try's output streams on; text of another try, or a gap, asks for a snapshot", () => {
    const root = h.open(slices({ build: running() }));
    h.append(STREAM, 9, 'VERIFICATION: PASS\n');
    h.append(STREAM, 9, 'VERIFICATION: PASS\n'); // the same again: shown once
    assert.equal(root.find('#build-stream')?.textContent, '── qa ──\nVERIFICATION: PASS\n');
    assert.deepEqual(h.posted, []);
    h.append('build:20250102-030405-adder-0a1f:qa:1', 0, 'old try');
    assert.deepEqual(h.posted, [{ type: 'resync' }]);
  });

  test(`keeps the last ${BUILD_STREAM_CHARS} characters of the output on screen`, () => {
    const root = h.open(slices({ build: running() }));
    h.append(STREAM, 9, 'x'.repeat(BUILD_STREAM_CHARS));
    h.append(STREAM, 9 + BUILD_STREAM_CHARS, 'END');
    const shown = root.find('#build-stream')?.textContent ?? '';
    assert.equal(shown.length, BUILD_STREAM_CHARS);
    assert.ok(shown.endsWith('xEND'));
    assert.deepEqual(h.posted, []);
  });

  test('a failed build: its reason as text, Resume, Open Report, Open Folder and Close', () => {
    const root = h.open(
      slices({
        build: ended({
          status: 'failed',
          reason: 'Phase qa failed: <b>not</b> verified',
          actions: ['resume', 'open-report', 'open-folder', 'close'],
        }),
      }),
    );
    assert.equal(root.find('#build-status')?.textContent, `${S.buildFailed}2.6k tokens · $0.0105`);
    assert.equal(root.find('#build-reason')?.textContent, 'Phase qa failed: <b>not</b> verified');
    assert.equal(root.find('#build-stream'), undefined);
    for (const id of ['resume', 'open-report', 'open-folder', 'close']) root.find(`#build-${id}`)!.click();
    assert.deepEqual(
      h.posted.map((m) => (m as { command: string }).command),
      ['resume', 'open-report', 'open-folder', 'close'],
    );
  });

  test('Restricted Mode: the build is shown, Resume is disabled with why; the report still opens', () => {
    const root = h.open(
      slices({
        panel: { trusted: false, hasWorkspace: true, notices: [] },
        build: ended({ status: 'stopped', actions: ['resume', 'open-report', 'close'] }),
      }),
    );
    const resume = root.find('#build-resume')!;
    assert.equal(resume.parent?.getAttribute('title'), S.restrictedBuild);
    resume.click();
    root.find('#build-open-report')!.click();
    assert.deepEqual(h.posted, [{ type: 'build.command', command: 'open-report' }]);
    assert.ok(root.find('#build-restricted'));
  });

  test('a malformed slice is an error in the build part; the rest of the panel works', () => {
    const root = h.open(slices({ build: { status: 'running', id: 'x' } as never }));
    assert.match(root.find('#build-error')?.textContent ?? '', /build\.source is not text/);
    assert.ok(root.find('#model-ready'));
  });
});
