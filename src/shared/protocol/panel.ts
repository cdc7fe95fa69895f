// The panel as a whole: its own slice (trust, the workspace, notices), its own messages (the
// handshake, resync, answers to the host's requests), and the two directions' unions of every
// feature's messages. The host posts nothing before `ready`; then the string table once, a complete
// snapshot, and afterwards one feature's slice each time that feature changes.
import type { PanelStrings } from '../panelStrings';
import type { ToolLine } from '../../core/tools/toolLines';
import type { BrainstormMessage, BrainstormPanelView } from './brainstorm';
import type { BuildMessage, BuildPanelView } from './build';
import {
  MAX_ID_CHARS,
  bare,
  isProblem,
  parseResponse,
  rejected,
  textField,
  type FeatureId,
  type InboundSet,
  type Parsed,
  type ResponseMessage,
  type StreamId,
} from './common';
import type { DiscoveryMessage, DiscoveryPanelView } from './discovery';
import type { JournalMessage, JournalSlice } from './journal';
import type { ModelMessage, ModelView } from './model';
import type { SleepMessage, SleepSlice } from './sleep';

export interface Notice {
  kind: 'info' | 'error';
  text: string;
}

/** Something worth saying once per window until the person dismisses it (a role override in use). */
export interface DismissibleNotice {
  id: string;
  text: string;
}

export interface PanelSlice {
  /** False in Restricted Mode: the panel shows the workspace but offers no model work. */
  trusted: boolean;
  /** False when no folder is open: there is no workspace to keep state in. */
  hasWorkspace: boolean;
  /** The last action's failure; it stays until the person does something else. */
  notice?: Notice;
  /** Oldest first; each goes when the person dismisses it (`notice.dismiss`). */
  notices: DismissibleNotice[];
}

/** Everything the panel shows, by feature. The host owns it; the panel keeps only drafts. */
export interface PanelSlices {
  panel: PanelSlice;
  discovery: DiscoveryPanelView;
  brainstorm: BrainstormPanelView;
  journal: JournalSlice;
  sleep: SleepSlice;
  model: ModelView;
  build: BuildPanelView;
}

export type StateMessage = {
  [K in FeatureId]: { type: 'state'; seq: number; now: number; feature: K; state: PanelSlices[K] };
}[FeatureId];

/** The host's request to the panel (answered with a `response`): an echo, for the in-VS Code tests. */
export type HostRequest = { kind: 'ping'; text: string };

export type HostMessage =
  /** The words of the panel in the person's language: after `ready`, and again if they change. */
  | { type: 'strings'; strings: PanelStrings }
  /** Every slice: after `ready` and after a `resync`. `now` is the host's clock (for countdowns). */
  | { type: 'snapshot'; seq: number; now: number; slices: PanelSlices }
  /** One feature's slice, when it changed. */
  | StateMessage
  /**
   * Model text as it streams. `at` is how much of the stream's text came before it: the panel
   * appends only what it lacks, and asks for a snapshot when something is missing.
   */
  | { type: 'append'; seq: number; stream: StreamId; at: number; text: string }
  /** An agent's tool call, as it starts and as it ends (the same `line.id`): shown in its stream. */
  | { type: 'tool'; seq: number; stream: StreamId; line: ToolLine }
  | { type: 'request'; requestId: string; request: HostRequest }
  /** The answer to a request the panel made. */
  | ResponseMessage;

export type PanelCommand = 'manageTrust' | 'openFolder';
const PANEL_COMMANDS: readonly PanelCommand[] = ['manageTrust', 'openFolder'];

export type PanelMessage =
  | { type: 'ready' }
  /** The panel missed something (a gap in the numbered messages): the host answers with a snapshot. */
  | { type: 'resync' }
  /** The answer to the host's request. */
  | ResponseMessage
  /** The person closed a dismissible notice. */
  | { type: 'notice.dismiss'; id: string }
  | { type: 'panel.command'; command: PanelCommand };

const TYPES = [
  'ready',
  'resync',
  'response',
  'notice.dismiss',
  'panel.command',
] as const satisfies readonly PanelMessage['type'][];

function parse(value: Record<string, unknown>): Parsed<PanelMessage> {
  const type = value.type as PanelMessage['type'];
  switch (type) {
    case 'ready':
    case 'resync':
      return bare(type);
    case 'response':
      return parseResponse(value);
    case 'notice.dismiss': {
      const id = textField(value, 'id', MAX_ID_CHARS, true);
      return isProblem(id) ? rejected(type, id.error) : { ok: true, message: { type, id } };
    }
    case 'panel.command': {
      const command = value.command;
      if (typeof command !== 'string' || !(PANEL_COMMANDS as readonly string[]).includes(command)) {
        return rejected(type, `unknown command ${JSON.stringify(String(command)).slice(0, 64)}`);
      }
      return { ok: true, message: { type, command: command as PanelCommand } };
    }
    default: {
      const unknown: never = type;
      return rejected(unknown, 'not a panel message');
    }
  }
}

export const PANEL_INBOUND: InboundSet<PanelMessage> = { feature: 'panel', types: TYPES, parse };

/** Every message the panel can send, of every feature. */
export type WebviewMessage =
  PanelMessage | DiscoveryMessage | BrainstormMessage | JournalMessage | SleepMessage | ModelMessage | BuildMessage;
