// The model's slice of the panel protocol: which model the agents use (or how to connect one), and
// the commands the panel's buttons run, validated here.
import { rejected, type InboundSet, type Parsed } from './common';

/** The model Groundwork's agents use, or what to do to connect one. */
export type ModelView =
  | {
      status: 'ready';
      provider: 'anthropic' | 'vscode-lm';
      /** The model of each tier, as named by its provider. */
      complex: string;
      fast: string;
      /** Tokens and cost of this window's calls, e.g. "1.2k tokens · $0.0042", once there are any. */
      usage?: string;
      /** The outcome of the last "Check Model Connection". */
      check?: { ok: boolean; text: string };
    }
  | { status: 'onboarding'; need: 'key' | 'language-model' | 'either'; check?: { ok: boolean; text: string } };

export const MODEL_COMMANDS = ['setApiKey', 'selectModel', 'checkModel', 'findChatModels'] as const;
export type ModelCommand = (typeof MODEL_COMMANDS)[number];

export type ModelMessage = { type: 'model.command'; command: ModelCommand };

function parse(value: Record<string, unknown>): Parsed<ModelMessage> {
  const command = value.command;
  if (typeof command !== 'string' || !(MODEL_COMMANDS as readonly string[]).includes(command)) {
    return rejected(value.type, `unknown command ${JSON.stringify(String(command)).slice(0, 64)}`);
  }
  return { ok: true, message: { type: 'model.command', command: command as ModelCommand } };
}

export const MODEL_INBOUND: InboundSet<ModelMessage> = { feature: 'model', types: ['model.command'], parse };
