// report.md, opened in the markdown preview at the end of a build, and the CLI's closing lines.
// Every field that came from a model is shown as text: never HTML, never an image to fetch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildReport, buildSummaryLines, REPORT_LIST_MAX } from '../../../src/core/build/buildReport';
import type { BuildRecord } from '../../../src/core/build/buildTypes';
import { sampleBuild } from './buildFixtures';

const HOSTILE = 'Nice <img src=x onerror=alert(1)> and ![](http://tracker.example/p.png) <script>alert(2)</script>';

/** The report with its fenced blocks and code spans taken out: what a preview renders as markdown. */
function rendered(md: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (fence !== undefined && marker !== undefined && marker.length >= fence.length && line.trim() === marker)
      fence = undefined;
    else if (fence === undefined) lines.push(line.replace(/(`+)(?:(?!\1).)*?\1/g, ''));
  }
  return lines.join('\n');
}

function assertInert(md: string): void {
  const text = rendered(md);
  assert.doesNotMatch(text, /<[A-Za-z!/?]/, 'no raw HTML outside code');
  assert.doesNotMatch(text, /(^|[^\\])!\[/m, 'no image');
}

/** The cells of a table row, split at the pipes that are not escaped. */
function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

const completed = (overrides: Partial<BuildRecord> = {}): BuildRecord => {
  const build = sampleBuild({ status: 'completed', ...overrides });
  delete build.reason;
  for (const phase of build.phases) phase.status = 'passed';
  return build;
};

describe('buildReport', () => {
  it('a completed build: what was built, how to run it, what Groundwork verified, each phase, the files created', () => {
    const md = buildReport(completed(), {
      created: ['src/tracker.js', 'test/tracker.test.js'],
      discoveries: ['node --test needs Node 18'],
    });
    assert.match(md, /^# Build report: price-tracker\n/);
    assert.match(md, /- \*\*Status:\*\* completed: every phase and the final verification passed Groundwork’s check/);
    assert.match(md, /- \*\*Location:\*\* `price-tracker\/`/);
    assert.match(
      md,
      /## What was built\n\nTracks prices\.\nAlerts once per crossing\.\n/,
      'the summary keeps its lines',
    );
    assert.match(md, /## How to run it\n\nnode bin\/tracker\.js run\n\nMore in `price-tracker\/docs\/USAGE\.md`\./);
    assert.match(md, /\| qa \| `node --test` \| 1 \|\n\| qa \| `npm run lint` \| not run \|/);
    assert.match(md, /\| analyst \| passed \| 1 \| 30 s \| 2,340 \| \$0\.0123 \|/);
    assert.match(md, /## Discoveries\n\n- node --test needs Node 18\n/);
    assert.match(md, /## Files created\n\n- `src\/tracker\.js`\n- `test\/tracker\.test\.js`\n/);
    assert.doesNotMatch(md, /What stopped it|Resume continues/);
  });

  it('a failed build: what stopped it, with the evidence of the try that ended it, line by line', () => {
    const build = sampleBuild();
    build.phases[1]?.attempts.pop();
    const md = buildReport(build, { created: [] });
    assert.match(md, /- \*\*Status:\*\* failed/);
    assert.match(md, /## What stopped it\n\nPhase qa failed twice: node --test exited 1\.\n/);
    assert.match(
      md,
      /Evidence:\n\n```text\n\$ node --test\nnot ok 1 - REQ-003: one alert per crossing\n {2}expected 1, got 2\n/,
    );
    assert.match(md, /Output of `node --test` \(qa, exit 1\):\n\n```text\nnot ok 1 - REQ-003\n# fail 1\n/);
    assert.match(md, /Resume continues from that phase/);
    assert.match(md, /Tries that failed:\n\n- qa: claimed but not verified: `node --test` exited 1\n/);
    assert.match(md, /## Discoveries\n\nNone reported\./);
    assert.match(md, /## Files created\n\nNone\./);
  });

  it('a build that never named its project says there is no folder yet', () => {
    const build = sampleBuild({ phases: [], verified: [] });
    delete build.projectDir;
    delete build.projectName;
    delete build.summary;
    const md = buildReport(build, { created: [] });
    assert.match(md, /^# Build report: 20250102-030405-price-tracker-0a1f/);
    assert.match(md, /- \*\*Location:\*\* no project folder yet/);
    assert.match(md, /No command was re-run\./);
  });

  it('model text in the title, summary, usage, reason, discoveries and tries cannot inject HTML or images', () => {
    const build = sampleBuild({
      reason: `Phase qa failed: ${HOSTILE}`,
      summary: {
        project: `<b>p</b> ![](http://x)`,
        location: 'l',
        language: `<i>JS</i>`,
        summary: `${HOSTILE}\n<div onclick=x>\n![a][ref]`,
        usage: `<iframe src=http://x>\n${HOSTILE}`,
      },
    });
    (build.phases[1]?.attempts[1] as { reason: string }).reason = HOSTILE;
    const md = buildReport(build, { created: [], discoveries: [HOSTILE] });
    assertInert(md);
    assert.match(
      md,
      /Nice &lt;img src=x onerror=alert\(1\)> and !\\\[\]\(http:\/\/tracker\.example\/p\.png\)/,
      'shown as the text it is',
    );
  });

  it('model text in fenced blocks cannot close the fence: evidence and outputs stay code', () => {
    const build = sampleBuild({
      verified: [{ phase: 'qa', command: 'node --test', exitCode: 1, output: `fail\n\`\`\`\n${HOSTILE}\n\`\`\`\`\`` }],
    });
    (build.phases[1]?.attempts[1] as { evidence: string }).evidence = `$ x\n\`\`\`\`\n${HOSTILE}`;
    const md = buildReport(build, { created: [] });
    assertInert(md);
    assert.match(md, /``````text\nfail\n```\nNice <img/, 'a fence longer than any run of backticks inside');
  });

  it('control characters in model text are shown, not sent to the terminal or the preview', () => {
    const build = sampleBuild({
      verified: [
        { phase: 'qa', command: 'node --test', exitCode: 1, output: 'red \u001b[31mALERT\u001b[0m\nnext\u202eline' },
      ],
    });
    const md = buildReport(build, { created: ['a\u0007.js'] });
    assert.match(md, /red \\x1b\[31mALERT\\x1b\[0m\nnext\\u202eline/);
    assert.match(md, /- `a\\x07\.js`/);
    assert.doesNotMatch(md, /[\u0000-\u0008\u000b-\u001f\u202e]/);
  });

  it('a command with backticks is shown as code; pipes cannot split a table cell', () => {
    const build = sampleBuild({
      verified: [
        { phase: 'qa', command: 'echo `date` | tee out.txt', exitCode: 0 },
        { phase: 'qa', command: 'a || b', exitCode: 3 },
      ],
    });
    const md = buildReport(build, { created: [] });
    const rows = md.split('\n').filter((l) => l.startsWith('| qa | `'));
    assert.deepEqual(rows.map(cells), [
      ['qa', '`` echo `date` \\| tee out.txt ``', '0'],
      ['qa', '`a \\|\\| b`', '3'],
    ]);
    const tries = sampleBuild();
    (tries.phases[1]?.attempts[1] as { reason: string }).reason = 'a | b';
    assert.match(buildReport(tries, { created: [] }), /- qa: a \\\| b/);
  });

  it('lists at most REPORT_LIST_MAX files, and says how many more', () => {
    const created = Array.from({ length: REPORT_LIST_MAX + 5 }, (_, i) => `f${i}.js`);
    const md = buildReport(completed(), { created });
    assert.equal(md.split('\n').filter((l) => /^- `f\d+\.js`$/.test(l)).length, REPORT_LIST_MAX);
    assert.match(md, /- … and 5 more/);
  });
});

describe('buildSummaryLines', () => {
  it('the CLI closing lines: status, folder, each phase, what was verified, the reason, the total', () => {
    const lines = buildSummaryLines(sampleBuild());
    assert.equal(lines[0], 'Build 20250102-030405-price-tracker-0a1f: failed');
    assert.equal(lines[1], '  project: price-tracker/');
    assert.ok(lines.some((l) => /^ {2}qa +failed +2 min 1 s +\$0\.0040$/.test(l)));
    assert.ok(lines.includes('  verified: node --test → exit 1'));
    assert.ok(lines.includes('  verified: npm run lint → not run'));
    assert.ok(lines.includes('  usage: node bin/tracker.js run'));
    assert.ok(lines.includes('  Phase qa failed twice: node --test exited 1.'));
    assert.equal(lines[lines.length - 1], '  total: $0.0163');
  });

  it('shows control characters from the model as escapes', () => {
    const build = sampleBuild({
      reason: 'bad \u001b[2J',
      verified: [{ phase: 'qa', command: 'x\u001b]0;t\u0007', exitCode: 0 }],
    });
    const text = buildSummaryLines(build).join('\n');
    assert.doesNotMatch(text, /\u001b|\u0007/);
    assert.match(text, /bad \\x1b\[2J/);
  });
});
