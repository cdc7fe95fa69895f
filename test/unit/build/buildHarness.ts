// A build over the in-memory workspace: the real BuildRunner, AgentRunner, tools, run and build
// stores, the bundled workflow and role files, with the scripted model answering per phase (by the
// system prompt's first line `Groundwork build phase: <name>`), a fake command runner for the agents'
// commands and Groundwork's own BUILD:/VERIFY: re-runs, and a fake clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuildRunner } from '../../../src/core/build/buildRunner';
import type { BuildDeps, BuildEvent, BuildRequest } from '../../../src/core/build/buildRunner';
import { BuildStore } from '../../../src/core/build/buildStore';
import type { BuildRecord, WorkflowPhase } from '../../../src/core/build/buildTypes';
import { parseWorkflow } from '../../../src/core/build/workflow';
import type { CommandRequest, CommandResult } from '../../../src/core/commands/commandRunner';
import type { LlmRequest, LlmUsage } from '../../../src/core/llm/llmClient';
import type { PriceTable } from '../../../src/core/llm/usage';
import { parseRoleFile } from '../../../src/core/roles/roleFile';
import type { Role } from '../../../src/core/roles/roleSchema';
import { AgentRunner } from '../../../src/core/run/agentRun';
import type { ApprovalAnswer } from '../../../src/core/run/commandGate';
import { FakeCommands, agentDeps } from '../agent/agentHarness';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { BRIEF_MD, VERIFY, happyPath, phaseOf } from '../../support/buildScript';
import { systemText, type Reply } from '../../support/modelScript';
import { ScriptedModel, replyOf, type Turn } from '../../support/scriptedModel';
import { ROOT } from './buildFixtures';

/** One model call: a reply of the build script, or a Turn (text and tool calls, a model error, a hang). */
export type PhaseTurn = Turn | Reply;
export type PhaseTurns = Record<string, PhaseTurn[]>;

export const MODEL = 'claude-test';
/** Each model call costs $0.01: 100 input tokens at $100 per million. */
export const TURN_COST = 0.01;
export const PRICES: PriceTable = { [MODEL]: { input: 100, output: 0, cacheWrite: 0, cacheRead: 0 } };
const TURN_USAGE: LlmUsage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheCreationTokens: 0 };

export {
  ANALYST,
  ARCHITECTURE,
  BRIEF_MD as BRIEF,
  DELIVERY,
  FIXED as SUM,
  PROJECT,
  QA_FAIL,
  QA_PASS,
  TEST_FILE,
  USAGE,
  VERIFY,
  phaseOf,
  say,
  write,
} from '../../support/buildScript';

/** Every phase of the bundled workflow doing its job in as few turns as it can (test/support/buildScript.ts). */
export const happyTurns = (): PhaseTurns => happyPath();

/**
 * The scripted model (test/support/scriptedModel.ts) answering each call with the next turn of its
 * phase, from `turns` (which a test may change as the build goes).
 */
export class PhaseScript extends ScriptedModel {
  constructor(readonly turns: PhaseTurns) {
    super(
      [
        {
          name: 'by phase',
          times: Infinity,
          reply: (body, call) => {
            const phase = phaseOf(systemText(body));
            const turn = turns[phase]?.shift();
            if (turn === undefined) throw new Error(`no turn left for phase ${phase}`);
            const r = replyOf(turn);
            return typeof r === 'function' ? r(body, call) : r;
          },
        },
      ],
      { model: MODEL, usage: TURN_USAGE },
    );
  }

  /** The model calls made for `phase`. */
  callsOf(phase: string): LlmRequest[] {
    return this.requests.filter((r) => phaseOf(r.system) === phase);
  }

  /** The task text (the first user message) of each call of `phase` that began a run. */
  tasksOf(phase: string): string[] {
    return this.callsOf(phase)
      .filter((r) => r.messages.length === 1)
      .map((r) => {
        const first = r.messages[0]?.content;
        return typeof first === 'string' ? first : JSON.stringify(first);
      });
  }
}

const roleCache = new Map<string, Role>();
/** A role file of the install's roles/ folder, parsed as the CLI does. */
export function bundledRole(name: string): Role {
  const cached = roleCache.get(name);
  if (cached !== undefined) return cached;
  const file = `roles/${name}.md`;
  const parsed = parseRoleFile(file, readFileSync(join(ROOT, file), 'utf8'));
  if (parsed.role === undefined) throw new Error(`${file}: ${parsed.errors.map((e) => e.message).join('; ')}`);
  roleCache.set(name, parsed.role);
  return parsed.role;
}

/** The bundled workflow's phases. */
export function bundledPhases(): WorkflowPhase[] {
  const parsed = parseWorkflow(
    readFileSync(join(ROOT, 'roles', 'build.workflow.yaml'), 'utf8'),
    'roles/build.workflow.yaml',
  );
  if (!parsed.ok) throw new Error('the bundled workflow does not parse');
  return parsed.workflow.phases;
}

export interface HarnessOptions {
  /** Files in the workspace, relative to it. */
  files?: Record<string, string>;
  /** What a command ends with (default exit 0, output "ok"). */
  commandResult?: (request: CommandRequest) => Partial<CommandResult>;
  /** The person's answers to approval questions, in order; absent: nobody is asked (unattended). */
  answers?: ApprovalAnswer[];
  /** Called when the person is asked (before the answer). */
  onAsk?: (command: string) => void;
}

export function buildHarness(turns: PhaseTurns = happyTurns(), options: HarnessOptions = {}) {
  const ws = new MemoryWorkspace();
  ws.fs.mkdir(ws.root);
  ws.fs.writeRaw(`${ws.root}/brief.md`, BRIEF_MD);
  for (const [path, text] of Object.entries(options.files ?? {})) ws.fs.writeRaw(`${ws.root}/${path}`, text);
  const clock = new FakeClock(Date.parse('2026-11-24T10:00:00Z'));
  const script = new PhaseScript(turns);
  const commands = new FakeCommands(options.commandResult);
  const trust = { trusted: true };
  /** Who each question was asked for (a role, or Groundwork's own check). */
  const askedFor: string[] = [];
  const {
    deps: agentRunDeps,
    gate,
    asked,
  } = agentDeps(ws.store, script, clock, {
    commands,
    ...(options.answers ? { answers: options.answers } : {}),
    onAsk: (request) => (askedFor.push(request.role), options.onAsk?.(request.command)),
    isTrusted: () => trust.trusted,
  });
  const { runs, random, hash } = agentRunDeps;
  const agents = new AgentRunner({ ...agentRunDeps, prices: PRICES });
  const builds = new BuildStore(ws.store);
  const deps: BuildDeps = {
    store: ws.store,
    builds,
    agents,
    gate,
    clock,
    random,
    hash,
    loadRole: async (name) => bundledRole(name),
    origin: 'cli',
  };
  const runner = new BuildRunner(deps);
  const events: BuildEvent[] = [];
  const emit = (event: BuildEvent) => events.push(event);
  const request = (overrides: Partial<BuildRequest> = {}): BuildRequest => ({
    source: { kind: 'brief', path: 'brief.md' },
    input: BRIEF_MD,
    phases: bundledPhases(),
    approve: [VERIFY],
    name: 'brief',
    ...overrides,
  });
  return {
    ws,
    deps,
    clock,
    script,
    commands,
    trust,
    asked,
    askedFor,
    runs,
    builds,
    runner,
    events,
    emit,
    request,
    start: (overrides: Partial<BuildRequest> = {}, signal = new AbortController().signal) =>
      runner.start(request(overrides), signal, emit),
    /** build.yaml as saved. */
    saved: async (id: string): Promise<BuildRecord> => {
      const read = await builds.read(id);
      if (!read.ok) throw new Error(read.problem);
      return read.build;
    },
    /** A file of the workspace, relative to it. */
    file: (rel: string) => ws.fs.text(`${ws.root}/${rel}`),
    /** Every path under the workspace folder, relative to it. */
    paths: () =>
      ws.fs
        .paths()
        .filter((p) => p.startsWith(`${ws.root}/`))
        .map((p) => p.slice(ws.root.length + 1)),
    /** The ids of the builds under .groundwork/builds. */
    buildIds: async () => (await builds.list()).builds.map((b) => b.id),
  };
}

export type BuildHarness = ReturnType<typeof buildHarness>;

/** The causes of the attempts of `phase`, in order. */
export function causesOf(build: BuildRecord, phase: string): string[] {
  return build.phases.find((p) => p.name === phase)?.attempts.map((a) => a.cause ?? '?') ?? [];
}

/** Each phase's status, by name. */
export function statuses(build: BuildRecord): Record<string, string> {
  return Object.fromEntries(build.phases.map((p) => [p.name, p.status]));
}
