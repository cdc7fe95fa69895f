// An agent run over the in-memory workspace: the real runtime, tools, logs and run store, with a
// scripted model, a fake command runner and a fake clock whose waits pass at once.
import { createHash } from 'node:crypto';
import type { Clock } from '../../../src/core/clock';
import type { CommandRequest, CommandResult, CommandRunner } from '../../../src/core/commands/commandRunner';
import { Journal } from '../../../src/core/journal/journal';
import { parseJournalEntry } from '../../../src/core/journal/journalEntry';
import type { LlmClient } from '../../../src/core/llm/llmClient';
import { JOURNAL_FILE, SLEEP_FILE } from '../../../src/core/plan/layout';
import type { Role } from '../../../src/core/roles/roleSchema';
import { AgentRunner } from '../../../src/core/run/agentRun';
import type { AgentRunDeps } from '../../../src/core/run/agentRun';
import type { ApprovalAnswer, CommandApprover, GateDeps } from '../../../src/core/run/commandGate';
import { RunPrinter } from '../../../src/core/run/runLines';
import { RunStore } from '../../../src/core/run/runStore';
import type { RunEvent } from '../../../src/core/run/runTypes';
import { SleepLog } from '../../../src/core/sleep/sleepLog';
import type { WorkspaceStore } from '../../../src/core/storage/workspaceStore';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import type { ScriptedModel } from '../../support/scriptedModel';
import { toolScript, type Turn } from '../session/toolScript';

export const DEVELOPER: Role = {
  name: 'build-developer',
  description: 'writes code',
  tools: ['read_file', 'write_file', 'edit_file', 'list_files', 'search', 'run_command', 'report_discovery', 'sleep'],
  model: { tier: 'fast' },
  permissionMode: 'workspaceWrite',
  maxTurns: 30,
  prompt: 'You are the developer.',
};

export class FakeCommands implements CommandRunner {
  readonly requests: CommandRequest[] = [];
  constructor(private readonly reply: (request: CommandRequest) => Partial<CommandResult> = () => ({})) {}
  async run(request: CommandRequest): Promise<CommandResult> {
    this.requests.push(request);
    const r = {
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      output: 'ok\n',
      durationMs: 1200,
      ...this.reply(request),
    };
    request.onOutput?.(r.output);
    return r;
  }
}

export interface AgentDepsOptions {
  commands: CommandRunner;
  /** The person's answers to approval questions, in order; absent: nobody is asked (unattended). */
  answers?: ApprovalAnswer[];
  /** Told of each question before it is answered. */
  onAsk?: (request: { command: string; role: string }) => void;
  /** Whether the workspace is trusted now (default: always). */
  isTrusted?: () => boolean;
  /** Byte i of the random bytes is `i * step % 256` (default step 1). */
  randomStep?: number;
  sleepMaxSeconds?: number;
  /** How a wait passes (default: at once, by advancing `clock` when it is a FakeClock). */
  wait?: (ms: number) => Promise<void>;
}

/**
 * What an AgentRunner needs, over `store` with `llm` and `clock`, as the agent, build and hostile
 * tests give it: SHA-256, counted "random" bytes, the journal and sleep log of the store, nothing
 * pre-approved; `asked` lists the commands the person was asked about, in order.
 */
export function agentDeps(
  store: WorkspaceStore,
  llm: LlmClient,
  clock: Clock,
  options: AgentDepsOptions,
): { deps: AgentRunDeps; gate: GateDeps; asked: string[] } {
  const { answers } = options;
  const asked: string[] = [];
  const approver: CommandApprover | undefined =
    answers === undefined
      ? undefined
      : {
          async ask(request) {
            asked.push(request.command);
            options.onAsk?.(request);
            return answers.shift() ?? 'deny';
          },
        };
  const gate: GateDeps = {
    commands: options.commands,
    ...(approver ? { approver } : {}),
    isTrusted: options.isTrusted ?? (() => true),
    autoApprove: () => [],
  };
  let n = 0;
  const step = options.randomStep ?? 1;
  const deps: AgentRunDeps = {
    store,
    runs: new RunStore(store),
    llm,
    clock,
    hash: (bytes) => createHash('sha256').update(bytes).digest('hex'),
    random: (count) => Uint8Array.from({ length: count }, () => (n++ * step) % 256),
    ...gate,
    sleepMaxSeconds: () => options.sleepMaxSeconds ?? 3600,
    sleepLog: new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), clock),
    journal: new Journal(store.log(JOURNAL_FILE, parseJournalEntry), clock),
    wait: options.wait ?? (async (ms) => void (clock instanceof FakeClock && clock.advance(ms))),
    eventDone: async () => false,
    origin: 'cli',
  };
  return { deps, gate, asked };
}

export interface Harness {
  ws: MemoryWorkspace;
  clock: FakeClock;
  script: ScriptedModel;
  commands: FakeCommands;
  runs: RunStore;
  runner: AgentRunner;
  events: RunEvent[];
  asked: string[];
  /** What the terminal would show, as plain text. */
  printed(): string;
  onEvent: (event: RunEvent) => void;
}

export function agentHarness(
  turns: Turn[],
  options: Partial<AgentRunDeps> & { answers?: ApprovalAnswer[]; files?: Record<string, string> } = {},
): Harness {
  const ws = new MemoryWorkspace();
  ws.fs.mkdir(ws.root);
  for (const [path, text] of Object.entries(options.files ?? {})) ws.fs.writeRaw(`${ws.root}/${path}`, text);
  const clock = new FakeClock(Date.parse('2026-11-24T10:00:00Z'));
  const script = toolScript(turns);
  const commands = new FakeCommands();
  const { answers, files: _files, ...rest } = options;
  const made = agentDeps(ws.store, script, clock, { commands, ...(answers ? { answers } : {}) });
  const deps: AgentRunDeps = { ...made.deps, ...rest };
  const runs = deps.runs;
  const events: RunEvent[] = [];
  const asked = made.asked;
  const printer = new RunPrinter();
  const lines: string[] = [];
  const onEvent = (event: RunEvent) => {
    events.push(event);
    for (const piece of printer.print(event)) lines.push(piece.kind === 'stream' ? piece.text : `\n${piece.text}\n`);
  };
  return {
    ws,
    clock,
    script,
    commands,
    runs,
    runner: new AgentRunner(deps),
    events,
    asked,
    printed: () => lines.join(''),
    onEvent,
  };
}

/** The tool_result blocks the model was sent in its last request, in order. */
export function lastResults(script: ScriptedModel): { content: string; isError?: boolean }[] {
  const last = script.requests[script.requests.length - 1];
  const message = last?.messages[last.messages.length - 1];
  if (!message || typeof message.content === 'string') return [];
  return message.content.filter((c) => c.type === 'tool_result') as { content: string; isError?: boolean }[];
}
