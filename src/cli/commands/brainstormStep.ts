// One step of the BrainstormService as `groundwork brainstorm` shows it: its progress on stderr
// while it runs, and a failure said with where the brainstorm is kept and the command that goes
// on. Apart from brainstorm.ts, which reads the options and the answers and goes round to round.
import { BrainstormError } from '../../core/brainstorm/brainstormTypes';
import type {
  BrainstormApi,
  BrainstormProgress,
  BrainstormSession,
  StepOptions,
} from '../../core/brainstorm/brainstormTypes';
import { LlmError } from '../../core/llm/llmClient';
import { visibleJson } from '../../core/visibleText';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE } from '../cliTypes';
import type { CommandContext } from '../cliTypes';
import type { LineReader } from '../lineReader';
import { redactSecrets, retryLine } from '../modelDeps';
import type { CliTerminal } from '../terminal';
import { blockText, shellWord } from '../terminalText';
import { toolLine } from '../toolLine';
import { inquiryRecap } from './brainstormOutput';

/** One `groundwork brainstorm` as its steps see it: where it prints, the service, what it has read. */
export interface Run {
  ctx: CommandContext;
  terminal: CliTerminal;
  service: BrainstormApi;
  secrets: string[];
  /** Aborted by Ctrl-C: stops the model call or the wait for an answer. */
  signal: AbortSignal;
  /** Rounds answered in this run, for the exit code at the end of stdin. */
  answered: number;
  reader?: LineReader;
}

/** One step of the service with progress on stderr; the session, or the exit code of a failure already reported. */
export async function step(
  run: Run,
  slug: string | undefined,
  fn: (options: StepOptions) => Promise<BrainstormSession>,
): Promise<BrainstormSession | number> {
  const { io } = run.ctx;
  const streaming = !run.ctx.json && run.terminal.stderrIsTTY();
  const dim = streaming && !io.env['NO_COLOR'];
  let midLine = false;
  const line = (text: string) => {
    io.stderr(`${midLine ? '\n' : ''}${text}\n`);
    midLine = false;
  };
  const asked = new Set<string>();
  const onProgress = (p: BrainstormProgress) => {
    // A start that fails from here on has left a brainstorm to resume by this slug.
    if (p.kind === 'started') slug = p.slug;
    else if (p.kind === 'inquisitor') {
      if (p.state === 'running') asked.add(p.angle);
      line(`${p.angle}: ${p.state === 'running' ? 'asking…' : p.state}`);
    } else if (p.kind === 'coordinator')
      line(p.task === 'follow-up' ? 'reading your answers…' : 'writing the summary…');
    else if (p.kind === 'notice') line(blockText(p.text, ''));
    else if (p.kind === 'retry') line(`${p.who}: ${redactSecrets(retryLine(p), run.secrets)}`);
    else if (p.kind === 'tool') {
      if (p.activity.status !== 'running') line(`${p.who}: ${toolLine(p.activity)}`);
    } else if (streaming) {
      // Model text, so shown with its control characters made visible, line breaks kept.
      const shown = blockText(p.text.replace(/\r/g, ''), '');
      if (shown === '') return;
      io.stderr(dim ? `\x1b[2m${shown}\x1b[22m` : shown);
      midLine = !shown.endsWith('\n');
    }
  };
  try {
    const session = await fn({ signal: run.signal, onProgress });
    if (midLine) line('');
    // After a failed inquiry its error says what each inquisitor did.
    if (asked.size > 0 && session.phase.kind !== 'inquiry-failed')
      line(redactSecrets(inquiryRecap(session), run.secrets));
    return session;
  } catch (err) {
    if (midLine) line('');
    return failed(run, err, slug);
  }
}

/** Reports a failure the person can act on and returns its exit code; anything else propagates. */
export async function failed(run: Run, err: unknown, slug: string | undefined): Promise<number> {
  const kept = async (why: string) => {
    const session = slug === undefined ? undefined : await run.service.load(slug).catch(() => undefined);
    if (session !== undefined) keptNote(run, session, why);
  };
  if (err instanceof BrainstormError) {
    say(run, err.message);
    if (err.kind === 'stopped') {
      await kept('to go on');
      return EXIT_INTERRUPTED;
    }
    return err.kind === 'busy' ? EXIT_FAILURE : EXIT_USAGE;
  }
  if (err instanceof LlmError) {
    say(run, err.message);
    await kept('to retry');
    return EXIT_FAILURE;
  }
  throw err;
}

export function say(run: Run, text: string): void {
  run.ctx.io.stderr(`groundwork: ${blockText(redactSecrets(text, run.secrets).trim(), '')}\n`);
}

export function roundOf(session: BrainstormSession): number {
  return Math.max(1, session.rounds.at(-1)?.round ?? 1);
}

/** Where the brainstorm is and the command that continues it (with --workspace when one was given). */
export function keptNote(run: Run, session: BrainstormSession, why: string): void {
  const ws = run.ctx.values['workspace'];
  const where = typeof ws === 'string' ? `--workspace ${shellWord(ws)} ` : '';
  run.ctx.io.stderr(
    `groundwork: the brainstorm ${session.slug} is kept at round ${roundOf(session)}; run 'groundwork ${where}brainstorm --resume ${session.slug}' ${why}\n`,
  );
  if (run.ctx.json)
    run.ctx.io.stdout(
      `${visibleJson({ event: 'kept', slug: session.slug, round: roundOf(session), phase: session.phase.kind })}\n`,
    );
}
