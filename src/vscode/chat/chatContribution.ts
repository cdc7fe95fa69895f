// The @groundwork chat participant (package.json's `chatParticipants`): /discover, /brainstorm,
// /build, /cases, /status in VS Code's chat view, over the same sessions as the agent panel. The
// handler is a bundle of its own (chatFeature.ts → dist/chat.js), loaded on the first request:
// activation only registers. Where VS Code has no chat API (an older host, a fork without it, chat
// turned off) nothing is registered and the rest of Groundwork is unaffected.
import * as vscode from 'vscode';
import type { ChatHandler } from './chatFeature';
import type { Contribution } from '../host';
import { DisposableStore } from '../base/lifecycle';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/chat.js). */
const load = (): typeof import('./chatFeature') => require('./chatFeature');

/** package.json's `contributes.chatParticipants[0].id`. */
export const CHAT_PARTICIPANT_ID = 'groundwork.chat';

/** VS Code's chat API, when this host has it. */
export function chatApi(
  vs: { chat?: Partial<typeof vscode.chat> } = vscode,
): Pick<typeof vscode.chat, 'createChatParticipant'> | undefined {
  const chat = vs.chat;
  return chat && typeof chat.createChatParticipant === 'function'
    ? (chat as Pick<typeof vscode.chat, 'createChatParticipant'>)
    : undefined;
}

export const chatContribution: Contribution = {
  id: 'chat',
  register(host) {
    const store = new DisposableStore();
    const chat = chatApi();
    if (!chat) {
      host.log.info('chat: this VS Code has no chat API; @groundwork is not registered');
      return store;
    }
    let handler: ChatHandler | undefined;
    const feature = () => (handler ??= load().createChat(host));
    try {
      const participant = chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, context, stream, token) =>
        feature().handle(request, context, stream, token),
      );
      store.add(participant);
      participant.iconPath = vscode.Uri.joinPath(host.context.extensionUri, 'media', 'groundwork-chat.svg');
      participant.followupProvider = { provideFollowups: (result) => feature().followups(result) };
    } catch (err) {
      // A host whose chat API refuses the participant (a missing contribution, a proposal it wants):
      // Groundwork goes on without it.
      host.log.warn('chat: @groundwork could not be registered', err);
    }
    return store;
  },
};
