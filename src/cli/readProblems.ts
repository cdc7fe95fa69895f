import type { ReadProblem } from '../core/storage/recordLog';
import type { CliIo } from './cliTypes';
import { inlineText } from './terminalText';

/**
 * Skipped lines go to stderr, one per line as `file:line:` (editors and terminals link that), so
 * that `--json` output on stdout stays clean and a person sees exactly which lines to look at.
 */
export function reportProblems(io: CliIo, file: string, problems: readonly ReadProblem[]): void {
  for (const p of problems) {
    io.stderr(`groundwork: warning: ${file}:${p.line}: skipped, ${inlineText(p.reason)}; the line starts: ${inlineText(p.excerpt)}\n`);
  }
  if (problems.length > 0) {
    const n = problems.length === 1 ? '1 line' : `${problems.length} lines`;
    io.stderr(`groundwork: warning: ${n} of ${file} could not be read; every valid record was still used\n`);
  }
}
