// run_command, sleep and report_discovery: thin, because the agent run carries them out (approval
// and the command runner, the sleep log, the journal). Here only the checked input becomes the
// port's call; whatever the run returns or refuses goes back to the model as it is.
import {
  ToolInputError,
  type ActingPorts,
  type DiscoveryImpact,
  type ToolContext,
  type ToolImplementation,
} from '../toolTypes';

/** The run's ports, or the refusal a tool gets outside an agent run (discovery, the brainstorm). */
export function requireActing(context: ToolContext, tool: string): ActingPorts {
  if (context.acting === undefined)
    throw new ToolInputError(`${tool} is only available in an agent run; here you can only read the workspace.`);
  return context.acting;
}

const text = (input: Record<string, unknown>, key: string): string | undefined =>
  typeof input[key] === 'string' ? input[key] : undefined;
const whole = (input: Record<string, unknown>, key: string): number | undefined =>
  typeof input[key] === 'number' ? input[key] : undefined;

export const runCommand: ToolImplementation = {
  target: (input) => text(input, 'command') ?? '?',
  async run(input, context) {
    const acting = requireActing(context, 'run_command');
    const timeoutSeconds = whole(input, 'timeout_seconds');
    return acting.runCommand(
      { command: text(input, 'command') ?? '', ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}) },
      context.signal,
    );
  },
};

export const sleep: ToolImplementation = {
  // "timer 5s", "event build-qa", "manual".
  target(input) {
    const mode = text(input, 'mode') ?? '?';
    const seconds = whole(input, 'seconds');
    const event = text(input, 'event');
    if (mode === 'timer' && seconds !== undefined) return `timer ${seconds}s`;
    if (mode === 'event' && event !== undefined) return `event ${event}`;
    return mode;
  },
  async run(input, context) {
    const acting = requireActing(context, 'sleep');
    const seconds = whole(input, 'seconds');
    const event = text(input, 'event');
    const reason = text(input, 'reason');
    const mode = text(input, 'mode') as 'timer' | 'event' | 'manual';
    return acting.sleep(
      {
        mode,
        ...(seconds !== undefined ? { seconds } : {}),
        ...(event !== undefined ? { event } : {}),
        ...(reason !== undefined ? { reason } : {}),
      },
      context.signal,
    );
  },
};

export const reportDiscovery: ToolImplementation = {
  target: (input) => text(input, 'scope') ?? '?',
  async run(input, context) {
    const acting = requireActing(context, 'report_discovery');
    const impact = text(input, 'impact') as DiscoveryImpact | undefined;
    const scope = text(input, 'scope') as 'local' | 'global';
    const task = text(input, 'task');
    return acting.reportDiscovery({
      scope,
      content: text(input, 'content') ?? '',
      ...(impact !== undefined ? { impact } : {}),
      ...(task !== undefined ? { task } : {}),
    });
  },
};
