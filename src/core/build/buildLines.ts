// What a person watching a build reads: a header when a phase's attempt begins, the attempt's run
// as runLines.ts prints any run, and Groundwork's verdict on it. The CLI prints every phase on
// stderr; VS Code gives each attempt a terminal of its own and prints the same pieces there.
import { RunPrinter, terminalText } from '../run/runLines';
import type { RunPiece } from '../run/runLines';
import type { BuildEvent } from './buildRunner';
import type { AttemptCause } from './buildTypes';

const CAUSES: Record<AttemptCause, string> = {
  first: '',
  retry: 'retry after a failed try',
  'qa-failed': 'sent back: QA failed',
  'review-changes': 'sent back: the reviewer asked for changes',
  rerun: 'rerun',
  resume: 'resumed',
};
const EVIDENCE_LINES = 30;

export function phaseTitle(phase: string, attempt: number, cause: AttemptCause): string {
  const why = CAUSES[cause];
  return `${phase} · try ${attempt}${why === '' ? '' : ` (${why})`}`;
}

export class BuildPrinter {
  private run = new RunPrinter();

  print(event: BuildEvent): RunPiece[] {
    switch (event.type) {
      case 'phase':
        this.run = new RunPrinter();
        return [
          {
            kind: 'line',
            text: `── Groundwork build phase: ${phaseTitle(event.phase.name, event.attempt, event.cause)} ──`,
            style: 'accent',
          },
        ];
      case 'run':
        return this.run.print(event.event);
      case 'checked': {
        const out: RunPiece[] = [
          {
            kind: 'line',
            text: `${event.passed ? '✓' : '✗'} Groundwork checked ${event.phase}: ${terminalText(event.reason ?? (event.passed ? 'passed' : 'failed'))}`,
            style: event.passed ? 'ok' : 'error',
          },
        ];
        if (!event.passed && event.evidence) {
          const lines = terminalText(event.evidence).split('\n');
          const shown =
            lines.length > EVIDENCE_LINES
              ? [
                  ...lines.slice(0, EVIDENCE_LINES),
                  `… ${lines.length - EVIDENCE_LINES} more lines in the build's report`,
                ]
              : lines;
          out.push({ kind: 'line', text: shown.join('\n'), style: 'dim' });
        }
        return out;
      }
      case 'build':
        return [];
    }
  }
}
