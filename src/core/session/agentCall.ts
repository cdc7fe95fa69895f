// One agent call: the model streams a reply; when it asks for tools, they run and their results go
// back to it, turn after turn, until it answers, it is stopped, or its role's turn limit is
// reached. Discovery, the brainstorm's agents (and later the build's phases) all call models
// through here, so tool use, the turn limit, usage and cancelling behave the same everywhere.
import type { LlmClient, LlmContent, LlmMessage, LlmRetry, LlmUsage, ModelChoice } from '../llm/llmClient';
import { addUsage } from '../llm/usage';
import type { ToolActivity } from '../tools/toolActivity';
import type { ToolContext, ToolDefinition, ToolResult, ToolRunCache } from '../tools/toolTypes';

/** The tools an agent call may use: definitions to offer, and a way to run a call. */
export interface ToolBox {
  definitionsFor(names: readonly string[]): ToolDefinition[];
  target(name: string, input: unknown): string;
  /** Never throws: bad input and failures are error results. */
  run(name: string, input: unknown, context: ToolContext, cache: ToolRunCache): Promise<ToolResult>;
}

/** What the call needs of a role (see core/roles). */
export interface AgentRole {
  name: string;
  prompt: string;
  model: ModelChoice;
  tools: readonly string[];
  maxTurns: number;
}

export interface AgentRequest {
  role: AgentRole;
  messages: LlmMessage[];
  maxTokens: number;
  stablePrefix?: number;
  /** How the role's tools reach the workspace; without it the model is offered no tools. */
  tools?: { box: ToolBox; context: Omit<ToolContext, 'signal'>; cache: ToolRunCache };
  /** What the tools may send back in all (default MAX_RESULT_BYTES); an agent run that acts allows more. */
  maxResultBytes?: number;
}

/** Where a call stands after a message was added to its conversation. */
export interface AgentProgress {
  /** Model calls made so far. */
  turns: number;
  usage?: LlmUsage;
  model?: string;
}

export interface AgentObserver {
  onText?: (text: string) => void;
  onRetry?: (retry: LlmRetry) => void;
  onTool?: (activity: ToolActivity) => void;
  /**
   * Each message as it joins the conversation, awaited before the call goes on: the assistant's
   * turn as soon as it has streamed (before its tools run), the turn's tool results once they have
   * all run, and the final answer. Replayed in order, they are the conversation (an agent run's
   * transcript, from which Resume continues).
   */
  onMessage?: (message: LlmMessage, progress: AgentProgress) => Promise<void> | void;
}

/**
 * - `answered`: the model ended its reply;
 * - `stopped`: the signal aborted it;
 * - `refused`: the model declined (stop reason 'refusal');
 * - `max-turns`: it still asked for tools when its role's turns were used up.
 */
export type AgentOutcome = 'answered' | 'stopped' | 'refused' | 'max-turns';

export interface AgentReply {
  outcome: AgentOutcome;
  /** The text of the last turn: the answer (earlier turns' text, "let me look", is only streamed). */
  text: string;
  /** Summed over the turns. */
  usage?: LlmUsage;
  /** The concrete model of the last turn. */
  model?: string;
  /** Model calls made. */
  turns: number;
}

/** Said with the last turn's tool results, so the model answers instead of reading on. */
/** Calls past this many in one turn get an error result instead of running. */
export const MAX_CALLS_PER_TURN = 8;
/**
 * What one agent call may read through its tools in all (each turn sends the whole history again):
 * past it, calls get an error result and the next turn is the last.
 */
export const MAX_RESULT_BYTES = 256 * 1024;

export const LAST_TURN_NOTE = 'This is your last turn: no more tool calls. Answer now with what you have.';

export async function callAgent(
  llm: LlmClient,
  request: AgentRequest,
  signal: AbortSignal,
  observer: AgentObserver = {},
): Promise<AgentReply> {
  const { role } = request;
  let maxTurns = Math.max(1, Math.floor(role.maxTurns));
  const maxResultBytes = request.maxResultBytes ?? MAX_RESULT_BYTES;
  /** What the tools have sent back so far, in UTF-16 units (a close enough measure of bytes). */
  let resultBytes = 0;
  const tools = request.tools;
  const definitions = tools ? tools.box.definitionsFor(role.tools) : [];
  const offered = new Set(definitions.map((d) => d.name));
  const messages = [...request.messages];
  const reply: AgentReply = { outcome: 'answered', text: '', turns: 0 };
  /** The last chunk streamed, of any turn. */
  let streamed = '';

  for (;;) {
    // Stopped between turns (the results of the last are in): no model call is made.
    if (signal.aborted) return { ...reply, outcome: 'stopped' };
    reply.turns++;
    const calls: { id: string; name: string; input: unknown }[] = [];
    let text = '';
    let stop: string | undefined;
    const stream = llm.stream(
      {
        system: role.prompt,
        messages,
        model: role.model,
        maxTokens: request.maxTokens,
        ...(definitions.length > 0
          ? { tools: definitions.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }
          : {}),
        ...(request.stablePrefix !== undefined ? { stablePrefix: request.stablePrefix } : {}),
      },
      signal,
    );
    for await (const ev of stream) {
      if (ev.type === 'text') {
        // A new turn starts on a new line of the stream, so markers at a line's start stay there.
        if (text === '' && streamed !== '' && !streamed.endsWith('\n')) observer.onText?.('\n');
        text += ev.text;
        streamed = ev.text;
        observer.onText?.(ev.text);
      } else if (ev.type === 'tool_use') calls.push({ id: ev.id, name: ev.name, input: ev.input });
      else if (ev.type === 'usage') {
        reply.usage = reply.usage === undefined ? ev.usage : addUsage(reply.usage, ev.usage);
        reply.model = ev.model;
      } else if (ev.type === 'retry') observer.onRetry?.(ev);
      else if (ev.type === 'stop') stop = ev.reason;
    }
    reply.text = text;
    if (stop === 'cancelled' || signal.aborted) return { ...reply, outcome: 'stopped' };
    if (stop === 'refusal') return { ...reply, outcome: 'refused' };
    // A text block of only white space is refused by the API: such a preamble is left out.
    const said: LlmContent[] = text.trim() === '' ? [] : [{ type: 'text', text }];
    const assistant: LlmMessage = {
      role: 'assistant',
      content: [...said, ...calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input }))],
    };
    const progress = (): AgentProgress => ({
      turns: reply.turns,
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(reply.model ? { model: reply.model } : {}),
    });
    if (observer.onMessage && (calls.length > 0 || said.length > 0)) await observer.onMessage(assistant, progress());
    if (calls.length === 0) return reply;
    if (reply.turns >= maxTurns || tools === undefined)
      return { ...reply, outcome: tools === undefined ? 'answered' : 'max-turns' };

    const results: LlmContent[] = [];
    for (const [i, call] of calls.entries()) {
      if (signal.aborted) return { ...reply, outcome: 'stopped' };
      const target = safeTarget(tools.box, call.name, call.input);
      const activity: ToolActivity = { id: call.id, tool: call.name, target, status: 'running' };
      observer.onTool?.(activity);
      const result: ToolResult = !offered.has(call.name)
        ? { isError: true, content: notOffered(call.name, [...offered]) }
        : i >= MAX_CALLS_PER_TURN
          ? {
              isError: true,
              content: `Not run: at most ${MAX_CALLS_PER_TURN} tool calls are run per turn. Ask for fewer at a time.`,
            }
          : resultBytes >= maxResultBytes
            ? {
                isError: true,
                content: 'Not run: this call has read as much as it may. Answer now with what you have.',
              }
            : await runTool(tools, call, signal);
      resultBytes += result.content.length;
      observer.onTool?.({
        ...activity,
        status: result.isError ? 'error' : 'done',
        ...(result.isError ? { error: result.content } : {}),
      });
      results.push({
        type: 'tool_result',
        toolUseId: call.id,
        content: result.content,
        ...(result.isError ? { isError: true } : {}),
      });
    }
    // The next turn is the last when the turns or the reading budget are used up.
    if (resultBytes >= maxResultBytes) maxTurns = Math.min(maxTurns, reply.turns + 1);
    if (reply.turns + 1 >= maxTurns) results.push({ type: 'text', text: LAST_TURN_NOTE });
    const answer: LlmMessage = { role: 'user', content: results };
    messages.push(assistant, answer);
    if (observer.onMessage) await observer.onMessage(answer, progress());
  }
}

/** A tool that throws (it should not) is an error result like any other: the agent goes on. */
async function runTool(
  tools: NonNullable<AgentRequest['tools']>,
  call: { name: string; input: unknown },
  signal: AbortSignal,
): Promise<ToolResult> {
  try {
    return await tools.box.run(call.name, call.input, { ...tools.context, signal }, tools.cache);
  } catch (err) {
    return {
      isError: true,
      content: `The tool ${call.name} failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

function safeTarget(box: ToolBox, name: string, input: unknown): string {
  try {
    return box.target(name, input);
  } catch {
    return '?';
  }
}

function notOffered(name: string, offered: string[]): string {
  const shown = name.slice(0, 64).replace(/[^\w.-]/g, '?');
  return offered.length === 0
    ? `There is no tool '${shown}': this role may use no tools. Answer from what you have.`
    : `There is no tool '${shown}' for this role. Its tools are: ${offered.join(', ')}.`;
}
