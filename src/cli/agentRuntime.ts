// What `groundwork agent` and `groundwork runs resume` share: the agent runtime over the CLI's
// adapters, the run's lines on stderr (the same lines as VS Code's terminal, from runLines.ts),
// the y/N question for a command on a terminal, and Ctrl-C or SIGTERM stopping the run.
import { createInterface } from 'node:readline/promises';
import { RunRefusedError } from '../core/run/agentRun';
import type { AgentRunner } from '../core/run/agentRun';
import type { ApprovalAnswer, CommandApprover, GateDeps } from '../core/run/commandGate';
import { ANSI_STYLES, RunPrinter } from '../core/run/runLines';
import type { RunPiece } from '../core/run/runLines';
import type { RunEvent, RunRecord } from '../core/run/runTypes';
import { parseAutoApprove } from '../core/commands/commandPolicy';
import { JOURNAL_FILE, SLEEP_FILE } from '../core/plan/layout';
import { Journal } from '../core/journal/journal';
import { parseJournalEntry } from '../core/journal/journalEntry';
import { SleepLog } from '../core/sleep/sleepLog';
import { secureRandomBytes } from '../core/prompt/untrustedText';
import { RunStore } from '../core/run/runStore';
import type { WorkspaceStore } from '../core/storage/workspaceStore';
import type { CaseService } from '../core/cases/caseService';
import type { SpecWriter } from '../core/annotations/specWriter';
import { sleep } from '../core/llm/watchdog';
import { visibleJson, visibleText } from '../core/visibleText';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './cliTypes';
import type { CommandContext } from './cliTypes';
import { redactSecrets } from './modelDeps';

/** A JSON list like the VS Code setting `groundwork.commands.autoApprove`, for the CLI. */
export const AUTO_APPROVE_VAR = 'GROUNDWORK_AUTO_APPROVE';
export const SLEEP_MAX_VAR = 'GROUNDWORK_SLEEP_MAX_SECONDS';
const DEFAULT_SLEEP_MAX_SECONDS = 3600;

export interface CliRun {
  runner: AgentRunner;
  /** How commands are approved and run (a build re-runs its checks through the same gate). */
  gate: GateDeps;
  journal: Journal;
  /** The workspace's discovery cases: what the runs learn, and what their prompts carry. */
  cases: CaseService;
  runs: RunStore;
  store: WorkspaceStore;
  root: string;
  /** Writes the workspace's specs (a build's marks go through it too), when the deps make one. */
  specs?: SpecWriter;
  /** Prints one event on stderr. */
  onEvent: (event: RunEvent) => void;
  /** Prints pieces (runLines.ts) on stderr, as onEvent does. */
  show: (pieces: readonly RunPiece[]) => void;
  /** Aborted by Ctrl-C or SIGTERM; `dispose` stops listening. */
  signal: AbortSignal;
  /** What stopped the run, for the last line. */
  stoppedBy: () => string | undefined;
  /** Waits for the discoveries' views, then stops listening for Ctrl-C. */
  dispose: () => Promise<void>;
}

/** The runtime, wired for one invocation. `approve` are the `--approve` texts; `unattended` asks nobody. */
export async function cliRun(ctx: CommandContext, options: { unattended: boolean }): Promise<CliRun> {
  const { io, deps } = ctx;
  const { root, store } = await ctx.workspace();
  const model = deps.model(io.env, (line) => io.stderr(`groundwork: ${line}\n`), ctx.json ? undefined : 'agent');
  const auto = parseAutoApprove(parseJsonList(io.env[AUTO_APPROVE_VAR]));
  for (const problem of auto.problems) io.stderr(`groundwork: ${AUTO_APPROVE_VAR}: ${visibleText(problem)}\n`);
  const sleepMax = sleepMaxFromEnv(io.env[SLEEP_MAX_VAR]);
  const color = deps.terminal.stderrIsTTY() && !io.env['NO_COLOR'];
  const printer = new RunPrinter();
  let midLine = false;
  const write = (text: string) => {
    if (text === '') return;
    io.stderr(redactSecrets(text, model.secrets));
    midLine = !text.endsWith('\n');
  };
  const show = (pieces: readonly RunPiece[]) => {
    for (const piece of pieces) {
      if (piece.kind === 'stream') write(piece.text);
      else {
        const [on, off] = color ? ANSI_STYLES[piece.style] : ['', ''];
        write(`${midLine ? '\n' : ''}${on}${piece.text}${off}\n`);
      }
    }
  };
  const abort = new AbortController();
  let stoppedBy: string | undefined;
  const stop = (why: string) => {
    stoppedBy ??= why;
    abort.abort();
  };
  const offInterrupt = deps.terminal.onInterrupt(() => stop('Ctrl-C'));
  const offTerminate = deps.terminal.onTerminate(() => stop('SIGTERM'));
  const approver = !options.unattended && deps.terminal.stdinIsTTY() ? ttyApprover(ctx) : undefined;
  const runs = new RunStore(store);
  const gate: GateDeps = {
    commands: deps.commands,
    ...(approver ? { approver } : {}),
    // The person ran the command in this folder, as with any command-line tool; VS Code asks its workspace trust instead.
    isTrusted: () => true,
    autoApprove: () => auto.patterns,
  };
  const journal = new Journal(store.log(JOURNAL_FILE, parseJournalEntry), deps.clock);
  const cases = await deps.cases({ store, clock: deps.clock, hash: deps.hash, journal, git: await deps.git(root) });
  const specs = deps.specWriter?.(root);
  const runner = await deps.agentRunner({
    store,
    runs,
    llm: model.llm,
    clock: deps.clock,
    hash: deps.hash,
    random: secureRandomBytes,
    ...gate,
    sleepMaxSeconds: () => sleepMax,
    sleepLog: new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), deps.clock),
    journal,
    discoveries: cases,
    ...(specs ? { specs } : {}),
    wait: sleep,
    origin: 'cli',
  });
  const onEvent = (event: RunEvent) => show(printer.print(event));
  const dispose = async () => {
    offInterrupt();
    offTerminate();
    await cases
      .settled()
      .catch((err: unknown) =>
        io.stderr(
          `groundwork: the discoveries' views could not be written: ${visibleText(err instanceof Error ? err.message : String(err))}\n`,
        ),
      );
  };
  return {
    runner,
    gate,
    journal,
    cases,
    runs,
    store,
    root,
    ...(specs ? { specs } : {}),
    onEvent,
    show,
    signal: abort.signal,
    stoppedBy: () => stoppedBy,
    dispose,
  };
}

function ttyApprover(ctx: CommandContext): CommandApprover {
  const { io, deps } = ctx;
  return {
    async ask(request, signal): Promise<ApprovalAnswer> {
      const rl = createInterface({ input: deps.terminal.stdin(), terminal: false });
      try {
        io.stderr(
          `\nRun this command in ${visibleText(request.folder)}?\n  ${visibleText(request.command)}\n(${visibleText(request.why)})\n[y] once, [a] for the rest of this run, [N] no: `,
        );
        const answer = await rl.question('', { signal });
        const word = answer.trim().toLowerCase();
        return word === 'y' || word === 'yes' ? 'once' : word === 'a' || word === 'always' ? 'run' : 'deny';
      } catch {
        return 'deny';
      } finally {
        rl.close();
      }
    },
  };
}

function parseJsonList(raw: string | undefined): unknown {
  if (raw === undefined || raw.trim() === '') return [];
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`${AUTO_APPROVE_VAR} must be a JSON list of commands, such as '["npm test", "node *"]'`);
  }
}

function sleepMaxFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_SLEEP_MAX_SECONDS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 86_400)
    throw new UsageError(
      `${SLEEP_MAX_VAR} must be a whole number of seconds from 1 to 86400, got '${visibleText(raw.slice(0, 40))}'`,
    );
  return n;
}

/**
 * Carries a run started or resumed by `go` to its end, as `agent` and `runs resume` both do: the
 * record on stdout with --json, `groundwork: run <id> <status>` as stderr's last line, exit 0 when
 * it completed, 1 when it failed or was stopped, 2 when it was refused before it began.
 */
export async function finishRun(ctx: CommandContext, run: CliRun, go: () => Promise<RunRecord>): Promise<number> {
  try {
    const final = await go();
    if (ctx.json) ctx.io.stdout(`${visibleJson(final, 2)}\n`);
    const by = run.stoppedBy();
    ctx.io.stderr(`groundwork: run ${final.id} ${final.status}${by && final.status === 'stopped' ? ` (${by})` : ''}\n`);
    return final.status === 'completed' ? EXIT_OK : EXIT_FAILURE;
  } catch (err) {
    if (err instanceof RunRefusedError) {
      ctx.io.stderr(`groundwork: ${visibleText(err.message)}\n`);
      return EXIT_USAGE;
    }
    throw err;
  } finally {
    await run.dispose();
  }
}

/** The --approve texts (repeatable), each a non-blank command. */
export function approvals(raw: unknown, topic = 'agent'): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.map((value) => {
    if (typeof value !== 'string' || value.trim() === '')
      throw new UsageError('--approve needs the exact text of a command', topic);
    return value;
  });
}
