// What a person watching an agent run reads, line by line: the model's text as it streams, each
// tool call in one line, approvals, sleeps, and the end with turns, tokens and cost. The VS Code
// terminal (a Pseudoterminal) and the CLI's stderr print the same pieces; each front end only
// decides how a style looks (ANSI colours on a terminal, none when piped).
import { formatTokens, formatUsd, totalTokens } from '../llm/usage';
import { oneLine } from '../tools/toolLines';
import { describeToolActivity } from '../tools/toolActivity';
import { visibleText } from '../visibleText';
import { formatSeconds } from './runActing';
import type { RunEvent, RunRecord } from './runTypes';

export type LineStyle = 'plain' | 'dim' | 'ok' | 'error' | 'accent' | 'warning';

/** A piece of the terminal's text: streamed text goes on as it is; a line starts on a fresh line. */
export type RunPiece = { kind: 'stream'; text: string } | { kind: 'line'; text: string; style: LineStyle };

const COMMAND_MAX_CHARS = 200;
const TARGET_MAX_CHARS = 100;
/** Tools whose effect has a line of its own (wrote, ran, slept, reported): their 'done' says nothing more. */
const OWN_LINES = new Set(['write_file', 'edit_file', 'run_command', 'sleep', 'report_discovery']);

/** Text from a model or a command, safe for a terminal: every line break kept, every other control made visible. */
export function terminalText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => visibleText(line.replace(/\t/g, '    ')))
    .join('\n');
}

/** Each style as ANSI colour codes (on, off): the 16 colours a terminal draws in its theme's colours (VS Code's included). */
export const ANSI_STYLES: Readonly<Record<LineStyle, readonly [string, string]>> = {
  plain: ['', ''],
  dim: ['\u001b[2m', '\u001b[22m'],
  ok: ['\u001b[32m', '\u001b[39m'],
  error: ['\u001b[31m', '\u001b[39m'],
  accent: ['\u001b[36m', '\u001b[39m'],
  warning: ['\u001b[33m', '\u001b[39m'],
};

export class RunPrinter {
  /** Commands refused or denied: their tool error says the same again, so it is not printed. */
  private readonly notRun = new Set<string>();

  /** Whether what was printed last is a line of the run's own (a tool's): a turn's text then needs no line break of its own first. */
  private afterLine = true;

  print(event: RunEvent): RunPiece[] {
    const out: RunPiece[] = [];
    for (const piece of this.piecesOf(event)) {
      // callAgent starts a later turn's text with '\n'; after a tool's line that would be a blank line.
      const text =
        piece.kind === 'stream' && this.afterLine && event.type === 'text' && piece.text.startsWith('\n')
          ? piece.text.slice(1)
          : piece.text;
      if (piece.kind === 'line') out.push(piece);
      else if (text !== '') out.push({ kind: 'stream', text });
      if (piece.kind === 'line') this.afterLine = true;
      else if (text !== '') this.afterLine = false;
    }
    return out;
  }

  private piecesOf(event: RunEvent): RunPiece[] {
    switch (event.type) {
      case 'started':
        return [
          line(`${event.resumed ? '↻ Resuming' : '▸'} ${event.run.role}: ${oneLine(event.run.task, 160)}`, 'accent'),
          line(
            `  run ${event.run.id} in ${event.run.root === '.' ? 'the workspace folder' : oneLine(event.run.root, TARGET_MAX_CHARS)}`,
            'dim',
          ),
        ];
      case 'text':
        return [{ kind: 'stream', text: terminalText(event.text) }];
      case 'tool':
        return this.tool(event.activity);
      case 'wrote':
        return [
          line(
            `✎ ${event.edit ? 'edited' : 'wrote'} ${oneLine(event.path, TARGET_MAX_CHARS)} (${event.lines} line${event.lines === 1 ? '' : 's'}${event.created ? ', new' : ''})`,
            'plain',
          ),
        ];
      case 'asking':
        return [
          line(`? Waiting for your approval to run: ${oneLine(event.command, COMMAND_MAX_CHARS)}`, 'warning'),
          line(`  ${oneLine(event.why, 300)}`, 'dim'),
        ];
      case 'approval':
        return this.approval(event);
      case 'command':
        return [line(`▶ ${oneLine(event.command, COMMAND_MAX_CHARS)}`, 'accent')];
      case 'output':
        return [{ kind: 'stream', text: terminalText(event.chunk) }];
      case 'exit':
        return [exitLine(event)];
      case 'sleep':
        return [
          line(`☾ Sleeping (${sleepWhat(event)})${event.reason ? `: ${oneLine(event.reason, 200)}` : ''}`, 'dim'),
        ];
      case 'woken':
        return [line(`☀ Woke: ${oneLine(event.reason, 200)}`, 'dim')];
      case 'discovery':
        return [line(`◆ Learned (${event.scope}${caseOf(event)}): ${oneLine(event.content, 200)}`, 'accent')];
      case 'retry':
        return [
          line(
            `… waiting for the model (retry ${event.retry.attempt} of ${event.retry.of}: ${oneLine(event.retry.reason, 120)})`,
            'dim',
          ),
        ];
      case 'notice':
        return [line(`! ${oneLine(event.text, 400)}`, 'warning')];
      case 'ended':
        return endLines(event.run);
    }
  }

  private tool(activity: Extract<RunEvent, { type: 'tool' }>['activity']): RunPiece[] {
    if (activity.status === 'running') return [];
    if (activity.status === 'done')
      return OWN_LINES.has(activity.tool)
        ? []
        : [line(`• ${oneLine(describeToolActivity(activity), TARGET_MAX_CHARS + 20)}`, 'dim')];
    if (activity.tool === 'run_command' && this.notRun.delete(activity.target)) return [];
    return [
      line(
        `✗ ${oneLine(describeToolActivity(activity), TARGET_MAX_CHARS)}: ${oneLine(activity.error ?? 'failed', 300)}`,
        'error',
      ),
    ];
  }

  private approval(event: Extract<RunEvent, { type: 'approval' }>): RunPiece[] {
    switch (event.decision) {
      case 'auto':
        return [];
      case 'once':
        return [line('✓ Allowed once', 'ok')];
      case 'run':
        return [line('✓ Allowed for the rest of this run', 'ok')];
      case 'denied':
        this.notRun.add(event.command);
        return [line(`⊘ Denied: ${oneLine(event.command, COMMAND_MAX_CHARS)}`, 'error')];
      case 'refused':
        this.notRun.add(event.command);
        return [
          line(
            `⊘ Not run: ${oneLine(event.command, COMMAND_MAX_CHARS)}${event.why ? ` (${oneLine(event.why, 300)})` : ''}`,
            'error',
          ),
        ];
    }
  }
}

function line(text: string, style: LineStyle): RunPiece {
  return { kind: 'line', text, style };
}

function exitLine(event: Extract<RunEvent, { type: 'exit' }>): RunPiece {
  const took = formatSeconds(event.durationMs);
  if (event.cancelled) return line(`✗ stopped after ${took}`, 'error');
  if (event.timedOut) return line(`✗ timed out after ${took}${event.signal ? ` (${event.signal})` : ''}`, 'error');
  if (event.exitCode === 0) return line(`✓ exit 0 in ${took}`, 'ok');
  if (event.exitCode !== undefined) return line(`✗ exit ${event.exitCode} in ${took}`, 'error');
  return line(`✗ ended by ${event.signal ?? 'a signal'} after ${took}`, 'error');
}

function sleepWhat(event: Extract<RunEvent, { type: 'sleep' }>): string {
  if (event.mode === 'timer') return `timer, ${event.seconds ?? '?'} s`;
  if (event.mode === 'event') return `until ${oneLine(event.event ?? '?', 80)} ends, at most ${event.seconds ?? '?'} s`;
  return `until woken, at most ${event.seconds ?? '?'} s`;
}

/** The run's end: how it ended, its turns, tokens and cost, and its id. */
export function endLines(run: RunRecord): RunPiece[] {
  const tokens = run.usage ? formatTokens(totalTokens(run.usage)) : 'no tokens counted';
  const cost = run.costUsd !== undefined ? ` · ${formatUsd(run.costUsd)}` : '';
  const figures = `${run.turns} turn${run.turns === 1 ? '' : 's'} · ${tokens}${cost}`;
  const head =
    run.status === 'completed'
      ? line(`■ Completed: ${figures}`, 'ok')
      : run.status === 'stopped'
        ? line(`■ Stopped: ${figures}`, 'warning')
        : run.status === 'failed'
          ? line(`■ Failed: ${oneLine(run.reason ?? 'it did not finish', 300)} (${figures})`, 'error')
          : line(`■ ${run.status}: ${figures}`, 'plain');
  return [head, line(`  run ${run.id}`, 'dim')];
}

function caseOf(event: { caseId?: string; duplicate?: boolean }): string {
  if (event.caseId === undefined) return '';
  return event.duplicate === true ? `, already known as ${event.caseId}` : `, ${event.caseId}`;
}
