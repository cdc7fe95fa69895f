// An agent run over the in-memory workspace: the real runtime, tools, logs and run store, with a
// scripted model, a fake command runner and a fake clock whose waits pass at once.
import { createHash } from 'node:crypto';
import type { CommandRequest, CommandResult, CommandRunner } from '../../../src/core/commands/commandRunner';
import { Journal } from '../../../src/core/journal/journal';
import { parseJournalEntry } from '../../../src/core/journal/journalEntry';
import { JOURNAL_FILE, SLEEP_FILE } from '../../../src/core/plan/layout';
import type { Role } from '../../../src/core/roles/roleSchema';
import { AgentRunner } from '../../../src/core/run/agentRun';
import type { AgentRunDeps } from '../../../src/core/run/agentRun';
import type { ApprovalAnswer, CommandApprover } from '../../../src/core/run/commandGate';
import { RunPrinter } from '../../../src/core/run/runLines';
import { RunStore } from '../../../src/core/run/runStore';
import type { RunEvent } from '../../../src/core/run/runTypes';
import { SleepLog } from '../../../src/core/sleep/sleepLog';
import { FakeClock } from '../fakes/fakeClock';
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
  const runs = new RunStore(ws.store);
  const events: RunEvent[] = [];
  const asked: string[] = [];
  const answers = options.answers;
  const approver: CommandApprover | undefined =
    answers === undefined
      ? undefined
      : {
          async ask(request) {
            asked.push(request.command);
            return answers.shift() ?? 'deny';
          },
        };
  let n = 0;
  const deps: AgentRunDeps = {
    store: ws.store,
    runs,
    llm: script,
    clock,
    hash: (bytes) => createHash('sha256').update(bytes).digest('hex'),
    random: (count) => Uint8Array.from({ length: count }, () => n++ % 256),
    commands,
    ...(approver ? { approver } : {}),
    isTrusted: () => true,
    autoApprove: () => [],
    sleepMaxSeconds: () => 3600,
    sleepLog: new SleepLog(ws.store.log(SLEEP_FILE, SleepLog.parseRecord), clock),
    journal: new Journal(ws.store.log(JOURNAL_FILE, parseJournalEntry), clock),
    wait: async (ms) => clock.advance(ms),
    eventDone: async () => false,
    origin: 'cli',
    ...options,
  };
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
