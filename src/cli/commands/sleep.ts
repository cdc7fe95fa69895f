import { SleepLog } from '../../core/sleep/sleepLog';
import type { Sleeper } from '../../core/sleep/sleepLog';
import { remainingMs } from '../../core/sleep/sleepState';
import { EXIT_OK, UsageError } from '../cliTypes';
import type { CliCommand } from '../cliTypes';
import { displayPath } from '../../core/storage/workspaceStore';
import { visibleJson, visibleText } from '../../core/visibleText';
import { reportProblems } from '../readProblems';
import { SLEEP_FILE } from '../../core/plan/layout';

const FILE_SHOWN = displayPath(SLEEP_FILE);

export const sleepList: CliCommand = {
  path: ['sleep', 'list'],
  summary: 'Show the agents that are asleep',
  usage: 'sleep list [--json]',
  details: [
    `Replays ${FILE_SHOWN}: an agent is asleep from its last start until a wake is recorded.`,
    'A sleeper past its maximum with no wake recorded is shown as overdue.',
    '--json prints one JSON array: agent, mode, startedAt (ISO-8601 UTC), maxDurationMs,',
    'remainingMs, expired, status.',
  ],
  async run(ctx) {
    const { store } = await ctx.workspace();
    const now = ctx.deps.clock.now();
    const log = new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), ctx.deps.clock);
    const { sleepers, problems } = await log.read(now);
    if (ctx.json) {
      ctx.io.stdout(
        `${visibleJson(
          sleepers.map((s) => toJson(s, now)),
          2,
        )}\n`,
      );
    } else if (sleepers.length === 0) {
      ctx.io.stdout('No agent is asleep.\n');
    } else {
      const names = sleepers.map((s) => visibleText(s.agent));
      const width = Math.max(...names.map((n) => n.length));
      sleepers.forEach((s, i) => {
        const since = new Date(s.state.startedAt).toISOString();
        ctx.io.stdout(
          `${(names[i] ?? '').padEnd(width)}  ${visibleText(s.status)}  (since ${since.slice(0, 10)} ${since.slice(11, 19)} UTC)\n`,
        );
      });
    }
    reportProblems(ctx.io, FILE_SHOWN, problems);
    return EXIT_OK;
  },
};

function toJson(s: Sleeper, now: number) {
  return {
    agent: s.agent,
    mode: s.state.mode,
    startedAt: new Date(s.state.startedAt).toISOString(),
    maxDurationMs: s.state.maxDurationMs,
    remainingMs: remainingMs(s.state, now),
    expired: s.expired,
    status: s.status,
  };
}

export const sleepWake: CliCommand = {
  path: ['sleep', 'wake'],
  summary: 'Wake a sleeping agent',
  usage: 'sleep wake AGENT [--reason TEXT]',
  details: [
    `Records a wake in ${FILE_SHOWN}; a sleeping agent run notices it within a second and goes on.`,
    "AGENT is the name 'sleep list' shows (an agent run's id).",
  ],
  options: { reason: { type: 'string' } },
  args: { min: 1, max: 1, name: 'the agent to wake (see groundwork sleep list)' },
  async run(ctx) {
    const { store } = await ctx.workspace();
    const agent = ctx.args[0] ?? '';
    const log = new SleepLog(store.log(SLEEP_FILE, SleepLog.parseRecord), ctx.deps.clock);
    const { sleepers } = await log.read();
    if (!sleepers.some((s) => s.agent === agent))
      throw new UsageError(`'${visibleText(agent)}' is not asleep; 'groundwork sleep list' shows who is`, 'sleep wake');
    const reason =
      typeof ctx.values['reason'] === 'string' && ctx.values['reason'].trim() !== ''
        ? ctx.values['reason']
        : 'Woken from the command line.';
    await log.recordWake(agent, reason);
    ctx.io.stderr(`groundwork: woke ${visibleText(agent)}\n`);
    return EXIT_OK;
  },
};
