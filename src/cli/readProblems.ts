import type { ReadProblem } from '../core/storage/recordLog';
import { visibleText } from '../core/visibleText';
import type { CliIo } from './cliTypes';

/**
 * Skipped lines go to stderr, one per line as `file:line:` (editors and terminals link that), so
 * that `--json` output on stdout stays clean and a person sees exactly which lines to look at.
 * A log too large to read whole is said first, once: its oldest lines were not read at all.
 */
export function reportProblems(io: CliIo, file: string, problems: readonly ReadProblem[]): void {
  const skipped = problems.filter((p) => p.unreadLines === undefined);
  for (const p of problems) {
    if (p.unreadLines !== undefined) io.stderr(`groundwork: warning: ${file}: ${visibleText(p.reason)}\n`);
  }
  for (const p of skipped) {
    io.stderr(
      `groundwork: warning: ${file}:${p.line}: skipped, ${visibleText(p.reason)}; the line starts: ${visibleText(p.excerpt)}\n`,
    );
  }
  if (skipped.length > 0) {
    const n = skipped.length === 1 ? '1 line' : `${skipped.length} lines`;
    io.stderr(`groundwork: warning: ${n} of ${file} could not be read; every valid record was still used\n`);
  }
}
