// What a person watching a build reads in its terminals: a header for each attempt of a phase,
// the attempt's run, and Groundwork's verdict with its evidence (cut to 30 lines).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BuildPrinter, phaseTitle } from '../../../src/core/build/buildLines';
import type { BuildEvent } from '../../../src/core/build/buildRunner';
import type { RunPiece } from '../../../src/core/run/runLines';
import { buildHarness, happyTurns, QA_FAIL, QA_PASS, say, SUM, write } from './buildHarness';
import { sampleBuild } from './buildFixtures';

const text = (pieces: RunPiece[]) => pieces.map((p) => (p.kind === 'stream' ? p.text : `\n${p.text}\n`)).join('');
const checked = (passed: boolean, reason?: string, evidence?: string): BuildEvent => ({
  type: 'checked',
  phase: 'qa',
  passed,
  ...(reason !== undefined ? { reason } : {}),
  ...(evidence !== undefined ? { evidence } : {}),
});

describe('phaseTitle', () => {
  it('names the phase, the try and why it was made', () => {
    assert.equal(phaseTitle('architect', 1, 'first'), 'architect · try 1');
    assert.equal(phaseTitle('architect', 2, 'retry'), 'architect · try 2 (retry after a failed try)');
    assert.equal(phaseTitle('developer', 2, 'qa-failed'), 'developer · try 2 (sent back: QA failed)');
    assert.equal(
      phaseTitle('developer', 3, 'review-changes'),
      'developer · try 3 (sent back: the reviewer asked for changes)',
    );
    assert.equal(phaseTitle('qa', 4, 'rerun'), 'qa · try 4 (rerun)');
    assert.equal(phaseTitle('qa', 2, 'resume'), 'qa · try 2 (resumed)');
  });
});

describe('BuildPrinter', () => {
  it('a whole build as its terminal shows it: each phase headed, the verdicts, the developer sent back', async () => {
    const turns = happyTurns();
    turns.qa = [say(QA_FAIL), say(QA_PASS)];
    turns.developer = [...(turns.developer ?? []), write('src/sum.js', SUM), say('Fixed.')];
    const h = buildHarness(turns);
    await h.start();
    const printer = new BuildPrinter();
    const shown = text(h.events.flatMap((e) => printer.print(e)));

    const headers = [...shown.matchAll(/^── Groundwork build phase: (.*) ──$/gm)].map((m) => m[1]);
    assert.deepEqual(headers, [
      'analyst · try 1',
      'architect · try 1',
      'test-writer · try 1',
      'developer · try 1',
      'qa · try 1',
      'developer · try 2 (sent back: QA failed)',
      'qa · try 2',
      'reviewer · try 1',
      'delivery · try 1',
    ]);
    assert.match(shown, /^✓ Groundwork checked analyst: The brief names the project sum-tool\.$/m);
    assert.match(
      shown,
      /^✗ Groundwork checked qa: QA reported VERIFICATION: FAIL: sum subtracts instead of adding \(src\/sum\.js:1\)$/m,
    );
    assert.match(
      shown,
      /^✓ Groundwork checked qa: VERIFICATION: PASS verified: Groundwork re-ran the command and it exited 0\.$/m,
    );
    assert.match(shown, /▸ build-developer: /, "the attempt's run is printed under its header");
    assert.match(shown, /✎ wrote src\/sum\.js/);
  });

  it('styles a pass as ok and a failure as error, and shows evidence only for a failure', () => {
    const printer = new BuildPrinter();
    assert.deepEqual(printer.print(checked(true, 'REVIEW: APPROVED', 'ignored lines')), [
      { kind: 'line', text: '✓ Groundwork checked qa: REVIEW: APPROVED', style: 'ok' },
    ]);
    assert.deepEqual(printer.print(checked(false, 'Claimed but not verified.', '$ node --test\nnot ok 1')), [
      { kind: 'line', text: '✗ Groundwork checked qa: Claimed but not verified.', style: 'error' },
      { kind: 'line', text: '$ node --test\nnot ok 1', style: 'dim' },
    ]);
    assert.deepEqual(printer.print(checked(false)), [
      { kind: 'line', text: '✗ Groundwork checked qa: failed', style: 'error' },
    ]);
  });

  it('cuts evidence to 30 lines and says where the rest is', () => {
    const evidence = Array.from({ length: 45 }, (_, i) => `line ${i + 1}`).join('\n');
    const [, shown] = new BuildPrinter().print(checked(false, 'failed', evidence));
    const lines = shown?.text.split('\n') ?? [];
    assert.equal(lines.length, 31);
    assert.equal(lines[29], 'line 30');
    assert.equal(lines[30], "… 15 more lines in the build's report");
    const [, exact] = new BuildPrinter().print(checked(false, 'failed', evidence.split('\n').slice(0, 30).join('\n')));
    assert.equal(exact?.text.split('\n').length, 30, 'thirty lines are shown whole');
  });

  it('shows control characters of the reason and the evidence as escapes', () => {
    const pieces = new BuildPrinter().print(checked(false, 'bad \u001b[2J', 'out \u001b]0;title\u0007\nnext'));
    const all = pieces.map((p) => p.text).join('\n');
    assert.doesNotMatch(all, /\u001b|\u0007/);
    assert.match(all, /bad \\x1b\[2J/);
  });

  it('a phase header is a line of its own; the build event prints nothing', () => {
    const build = sampleBuild();
    const printer = new BuildPrinter();
    const phase = build.phases[1];
    assert.ok(phase);
    assert.deepEqual(printer.print({ type: 'phase', build, phase, attempt: 3, cause: 'retry' }), [
      { kind: 'line', text: '── Groundwork build phase: qa · try 3 (retry after a failed try) ──', style: 'accent' },
    ]);
    assert.deepEqual(printer.print({ type: 'build', build }), []);
  });
});
