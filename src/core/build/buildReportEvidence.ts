// The parts of report.md and of the CLI's summary that say what a build's "verified" rests on: the
// test contract (the files frozen, the changes the person accepted) and the final verification
// (the tests counted, each requirement with the tests that name it). Everything shown came from
// a runner's output or an agent's files: made visible and escaped, never markdown of its own.
import { fenced, neutralizeInline } from '../markdownText';
import { visibleText } from '../visibleText';
import type { BuildRecord, RequirementResult } from './buildTypes';

const RESULT_WORDS: Record<RequirementResult['result'], string> = {
  passed: 'verified (green)',
  failed: 'failed (red)',
  untested: 'implemented, no passing test names it (blue)',
};

function cell(text: string): string {
  return neutralizeInline(visibleText(text).replace(/[\r\n]+/g, ' ')).replace(/\|/g, '\\|');
}

function lines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => visibleText(l))
    .join('\n');
}

/** `## Final verification` and `## Test contract`, or nothing for a build that has neither. */
export function evidenceSections(build: BuildRecord): string[] {
  const out: string[] = [];
  const f = build.final;
  if (f !== undefined) {
    out.push('## Final verification', '');
    out.push(
      f.passed
        ? 'After the last phase Groundwork re-ran the frozen TEST commands and checked the test contract: passed.'
        : 'After the last phase Groundwork re-ran the frozen TEST commands and checked the test contract: **failed**.',
      '',
    );
    const t = f.tests;
    if (t !== undefined)
      out.push(
        `Tests (${cell(t.runner)}): ${t.ran} ran, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${t.complete ? '' : ' (the output was cut short: these are what was seen)'}.`,
        '',
      );
    if (f.note !== undefined) out.push(fenced(lines(f.note)), '');
    if (f.requirements.length > 0) {
      out.push('| Requirement | Result | Tests that name it |', '| --- | --- | --- |');
      for (const r of f.requirements)
        out.push(
          `| ${cell(r.id)} | ${RESULT_WORDS[r.result]} | ${r.tests.length === 0 ? '–' : r.tests.map(cell).join('<br>')} |`,
        );
      out.push('');
    }
  }
  const c = build.contract;
  if (c !== undefined) {
    out.push('## Test contract', '');
    out.push(
      `Frozen when phase ${cell(c.phase)} passed: ${c.tests.length} test file${c.tests.length === 1 ? '' : 's'}, the TEST/BUILD commands and what they run. A later change fails the phase that made it unless accepted.`,
      '',
    );
    for (const t of c.tests.slice(0, 200))
      out.push(`- ${cell(t.path)} (${t.declared} test${t.declared === 1 ? '' : 's'} declared)`);
    if (c.tests.length > 0) out.push('');
    if (c.accepted.length > 0) {
      out.push('Changes the person accepted:', '');
      for (const a of c.accepted)
        out.push(`- ${cell(a.path)}, when phase ${cell(a.phase)} failed on it (${cell(a.at)})`);
      out.push('');
    }
  }
  return out;
}

/** The CLI's lines for the same: the tests counted and each requirement. */
export function evidenceSummaryLines(build: BuildRecord): string[] {
  const f = build.final;
  if (f === undefined) return [];
  const out: string[] = [];
  const t = f.tests;
  out.push(
    `  final verification: ${f.passed ? 'passed' : 'failed'}${t === undefined ? '' : ` (${t.runner}: ${t.ran} ran, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped)`}`,
  );
  for (const r of f.requirements.slice(0, 100))
    out.push(
      `  ${visibleText(r.id)}: ${RESULT_WORDS[r.result]}${r.tests.length > 0 ? ` — ${visibleText(r.tests.join('; ')).slice(0, 300)}` : ''}`,
    );
  if (f.note !== undefined && f.passed) out.push(`  ${visibleText(f.note.split('\n')[0] ?? '')}`);
  for (const a of build.contract?.accepted ?? [])
    out.push(`  accepted test change: ${visibleText(a.path)} (phase ${visibleText(a.phase)})`);
  return out;
}
