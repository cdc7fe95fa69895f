// The brainstorm service's test bench: an in-memory workspace and the scripted model answering each
// call by the role in its system prompt, shared by the service's test files.
import { BrainstormService } from '../../../src/core/brainstorm/brainstormService';
import { INQUISITOR_ROLES } from '../../../src/core/brainstorm/brainstormTypes';
import type { Answer, BrainstormProgress } from '../../../src/core/brainstorm/brainstormTypes';
import type { LlmRequest } from '../../../src/core/llm/llmClient';
import type { Role } from '../../../src/core/roles/roleSchema';
import { FakeClock } from '../../support/fakeClock';
import { MemoryWorkspace } from '../fakes/memoryWorkspace';
import { reply, systemText } from '../../support/modelScript';
import { ScriptedModel } from '../../support/scriptedModel';

export type Script = (request: LlmRequest, signal: AbortSignal) => Promise<string> | string;

/**
 * The scripted model (test/support/scriptedModel.ts) answering each call with the script of the
 * role its system prompt names (`ROLE <name>`, as `role` writes it), looked up at each call.
 */
export function roleModel(scripts: Record<string, Script>): ScriptedModel {
  const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheCreationTokens: 0 };
  return new ScriptedModel(
    [
      {
        name: 'by role',
        times: Infinity,
        reply: async (body, { request, signal }) => {
          const name = systemText(body)
            .replace(/^ROLE /, '')
            .split('\n')[0]!;
          const script = scripts[name];
          if (!script) throw new Error(`no script for ${name}`);
          return reply.text(await script(request!, signal));
        },
      },
    ],
    { model: 'claude-haiku-4-5', usage },
  );
}

export const role = async (name: string): Promise<Role> => ({
  name,
  description: '',
  tools: [],
  model: { tier: 'fast' },
  permissionMode: 'readOnly',
  maxTurns: 1,
  prompt: `ROLE ${name}\n`,
});
export const later = (ms: number, text: string, signal?: AbortSignal) =>
  new Promise<string>((resolve) => {
    const t = setTimeout(() => resolve(text), ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve('')), { once: true });
  });
export const json = (angle: string, ...texts: string[]) =>
  JSON.stringify({ questions: texts.map((text, i) => ({ text, angle, priority: i + 1 })) });
export const SUMMARY = JSON.stringify({
  summary: {
    topic: 'Invoice export',
    key_insights: ['Accountants export at month end'],
    decisions: ['CSV first'],
    open_questions: ['Which time zone?'],
  },
});

export function inquisitors(delayMs = 20): Record<string, Script> {
  return {
    [INQUISITOR_ROLES.ux]: (_r, s) =>
      later(
        delayMs,
        json(
          'ux',
          'Who exports invoices, the owner or the accountant?',
          'Where would someone look for the export first?',
        ),
        s,
      ),
    [INQUISITOR_ROLES.technical]: (_r, s) =>
      later(
        delayMs,
        `Here you go:\n\`\`\`json\n${json('technical', 'Which file formats must the export produce?')}\n\`\`\``,
        s,
      ),
    [INQUISITOR_ROLES['edge-cases']]: (_r, s) =>
      later(delayMs, json('edge-cases', 'What happens when an export of 50,000 invoices fails halfway?'), s),
  };
}

/** A service over a fresh workspace, or over `options.ws` (a second window on the same one). */
export function setup(
  scripts: Record<string, Script>,
  options: { concurrency?: number; timeoutMs?: number; ws?: MemoryWorkspace } = {},
) {
  const ws = options.ws ?? new MemoryWorkspace();
  const llm = roleModel(scripts);
  const service = new BrainstormService({
    store: ws.store,
    llm,
    clock: new FakeClock(Date.UTC(2026, 10, 21, 9, 0)),
    role,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    inquisitorTimeoutMs: options.timeoutMs ?? 5_000,
  });
  return { ws, llm, service };
}
export const run = (progress: BrainstormProgress[] = [], signal = new AbortController().signal) => ({
  signal,
  onProgress: (p: BrainstormProgress) => progress.push(p),
});
export const answers = (...a: Array<string | null>): Answer[] =>
  a.map((t) => (t === null ? { kind: 'skipped' } : { kind: 'answered', text: t }));
