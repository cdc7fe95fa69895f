// The @groundwork chat participant's handler, a bundle of its own (dist/chat.js, loaded on the first
// chat request: esbuild.mjs). It drives the panel's sessions through Host.services (one session,
// two views: the same round file, the same conversation in the panel), and says what they show with
// chatMarkdown.ts. Model actions are refused in Restricted Mode; /status and /cases only read.
import * as vscode from 'vscode';
import {
  CHAT_COMMANDS,
  MAX_CHAT_TEXT,
  chatModelSource,
  clip,
  escapeMarkdown,
  needsTrust,
  parseChatRequest,
  routeChat,
  splitAnswers,
  type ChatRoute,
} from '../../core/chat/chatRequest';
import { roundFileRel } from '../../core/discovery/roundFile';
import {
  DISCOVERIES_VIEW_FILE,
  PANEL_SESSION,
  PLANS_DIR,
  PLAN_FILES,
  planDisplayPath,
  planFile,
} from '../../core/plan/layout';
import { isSlug } from '../../core/storage/safeNames';
import { displayPath } from '../../core/storage/workspaceStore';
import {
  brainstormReply,
  discoveryReply,
  listing,
  type ChatFollowupSpec,
  type ChatReply,
  type StatusRow,
} from './chatMarkdown';
import { chatStatusRows } from './chatStatus';
import { chatText, chatWords } from './chatWords';
import type { BrainstormSession, DiscoverySession, Host } from '../host';
import type { BuildRecord } from '../../core/build/buildTypes';
import { isTrusted } from '../base/trust';

/** What the handler leaves in the result, for the follow-ups (and the tests). */
export interface ChatMeta {
  command?: string;
  route?: ChatRoute['kind'];
  refused?: boolean;
  followups: ChatFollowupSpec[];
}

export interface ChatHandler {
  handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult>;
  followups(result: vscode.ChatResult): vscode.ChatFollowup[];
}

const MAX_CASES = 20;

export function createChat(host: Host): ChatHandler {
  const words = chatWords();
  const { services, workspace, log } = host;

  const fileUri = (rel: string): vscode.Uri | undefined => {
    const root = workspace.root;
    const parts = rel.split('/');
    return root && parts.every((p) => p && p !== '.' && p !== '..') ? vscode.Uri.joinPath(root, ...parts) : undefined;
  };

  const emit = (stream: vscode.ChatResponseStream, reply: ChatReply): void => {
    for (const md of reply.markdown) stream.markdown(`${md}\n\n`);
    for (const rel of reply.anchors ?? []) {
      const uri = fileUri(rel);
      if (uri) {
        stream.anchor(uri, rel.split('/').pop());
        stream.markdown('\n\n');
      }
    }
    for (const rel of reply.files) {
      const uri = fileUri(rel);
      if (uri) stream.reference(uri);
    }
  };

  /** The model the person picked in the chat view, when Groundwork's provider says so; else Groundwork's own. */
  const withModel = async (request: vscode.ChatRequest, fn: () => Promise<void>): Promise<void> => {
    const setting = vscode.workspace.getConfiguration('groundwork').get('provider');
    const source = chatModelSource(setting, await host.models.keys.has());
    return source === 'chat' && request.model ? host.models.withChatModel(request.model.id, fn) : fn();
  };

  /** A step of a session, its progress shown as the chat's progress lines. */
  const stepOf = async (
    session: Pick<DiscoverySession, 'onDidStream'>,
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
    run: () => Promise<void>,
  ): Promise<void> => {
    stream.progress(chatText.thinking());
    const seen = new Set<string>();
    const sub = session.onDidStream((chunk) => {
      if (chunk.kind !== 'tool' || seen.has(chunk.line.id)) return;
      seen.add(chunk.line.id);
      stream.progress(chatText.tool(chunk.line.tool, clip(chunk.line.target, 120)));
    });
    try {
      await withModel(request, run);
    } finally {
      sub.dispose();
    }
  };

  const refuse = (stream: vscode.ChatResponseStream, action: string): void => {
    stream.markdown(chatText.restricted(action));
    stream.button({ command: 'workbench.trust.manage', title: chatText.manageTrust() });
  };

  const plans = async (): Promise<{ label: string; source: BuildRecord['source']; slug: string }[]> => {
    const store = workspace.workspaceStore();
    const out: { label: string; source: BuildRecord['source']; slug: string }[] = [];
    for (const slug of (await store.list(PLANS_DIR).catch(() => [])).filter(isSlug).sort()) {
      const names = await store.list(planFile(slug)).catch(() => [] as string[]);
      if (names.includes(PLAN_FILES.sentinel)) out.push({ slug, label: slug, source: { kind: 'brainstorm', slug } });
      else if (names.includes(PLAN_FILES.ideaBrief) && !names.includes(PLAN_FILES.state)) {
        out.push({ slug, label: slug, source: { kind: 'brief', path: planDisplayPath(slug, PLAN_FILES.ideaBrief) } });
      }
    }
    return out;
  };

  const build = async (
    query: string,
    discovery: DiscoverySession,
    stream: vscode.ChatResponseStream,
  ): Promise<ChatFollowupSpec[]> => {
    const buildFrom = services.buildFrom;
    if (!buildFrom) return (void stream.markdown(chatText.unavailable('/build')), []);
    if (!query && discovery.state.status === 'brief' && discovery.state.actions.includes('build')) {
      // The card's Build This: saved as a plan first when it is not, then the gate.
      stream.markdown(chatText.buildFromCard());
      void discovery.handle({ type: 'brief.build' }).catch((err: unknown) => log.warn('chat: Build This failed', err));
      return [];
    }
    const all = await plans();
    const q = query.toLowerCase();
    const found = q
      ? all.filter((p) => p.slug === q || ('path' in p.source && p.source.path === query) || p.slug.includes(q))
      : all;
    const exact = found.filter((p) => p.slug === q);
    const chosen = exact.length === 1 ? exact : found;
    if (chosen.length === 1) {
      const plan = chosen[0]!;
      stream.markdown(chatText.buildGate(`\`${plan.source.kind === 'brief' ? plan.source.path : plan.slug}\``));
      const uri = fileUri(
        plan.source.kind === 'brief' ? plan.source.path : planDisplayPath(plan.slug, PLAN_FILES.document),
      );
      if (uri) stream.reference(uri);
      // The gate is a modal and the build runs long after it: the reply does not wait for either.
      void buildFrom(plan.source).catch((err: unknown) => log.warn('chat: the build could not start', err));
      return [];
    }
    if (chosen.length === 0) {
      stream.markdown(
        all.length === 0 ? chatText.noPlans() : chatText.noPlanMatches(escapeMarkdown(clip(query, 80), true)),
      );
      return [];
    }
    stream.markdown(`${chatText.whichPlan()}\n\n${chosen.map((p) => `- ${escapeMarkdown(p.label, true)}`).join('\n')}`);
    return chosen.slice(0, 5).map((p) => ({ prompt: p.slug, label: p.slug, command: 'build' as const }));
  };

  const cases = async (query: string, stream: vscode.ChatResponseStream): Promise<void> => {
    const service = services.discoveries?.();
    if (!service) return void stream.markdown(chatText.unavailable('/cases'));
    const { cases: all } = await service.list();
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matching = all
      .filter((c) =>
        terms.every((t) => `${c.id} ${c.status} ${c.metadata.category} ${c.content}`.toLowerCase().includes(t)),
      )
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const rows: StatusRow[] = matching
      .slice(0, MAX_CASES)
      .map((c) => ({ label: c.id, status: c.status, detail: c.content }));
    const title = query ? chatText.casesMatching(escapeMarkdown(clip(query, 80), true)) : chatText.casesTitle();
    stream.markdown(
      listing(
        title,
        rows,
        all.length ? chatText.noCasesMatch() : chatText.noCases(),
        matching.length - rows.length,
        chatText.more(),
      ),
    );
    const view = fileUri(displayPath(DISCOVERIES_VIEW_FILE));
    if (view && all.length) stream.reference(view);
  };

  const help = (stream: vscode.ChatResponseStream, command?: string): void => {
    if (command && !(CHAT_COMMANDS as readonly string[]).includes(command))
      stream.markdown(`${chatText.unknownCommand(escapeMarkdown(command, true))}\n\n`);
    else if (command) stream.markdown(`${chatText.needsText(command)}\n\n`);
    stream.markdown(chatText.help());
  };

  async function handle(request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Promise<ChatMeta> {
    const meta: ChatMeta = { followups: [], ...(request.command ? { command: request.command } : {}) };
    const intent = parseChatRequest(request.command, request.prompt);
    if (intent.kind === 'too-long') return (stream.markdown(chatText.tooLong(intent.chars, MAX_CHAT_TEXT)), meta);
    if (!workspace.hasWorkspace) return (stream.markdown(chatText.noFolder()), meta);
    if (intent.kind === 'help') return (help(stream, intent.command), meta);
    const discovery = await services.discoverySession?.();
    if (!discovery) return (stream.markdown(chatText.unavailable('/discover')), meta);
    const needsBrainstorm = intent.kind === 'brainstorm' || intent.kind === 'message' || intent.kind === 'status';
    const brainstorm: BrainstormSession | undefined = needsBrainstorm
      ? await services.brainstormSession?.()
      : undefined;
    const route = routeChat(intent, {
      discovery: discovery.state.status,
      ...(brainstorm ? { brainstorm: brainstorm.state.status } : {}),
    });
    meta.route = route.kind;
    // Everything that starts a model session or changes a file is refused where it starts.
    if (needsTrust(route.kind) && !isTrusted()) {
      const action: Partial<Record<ChatRoute['kind'], () => string>> = {
        'discover-start': chatText.actionDiscover,
        'brainstorm-start': chatText.actionBrainstorm,
        build: chatText.actionBuild,
      };
      refuse(stream, (action[route.kind] ?? chatText.actionAnswer)());
      return { ...meta, refused: true };
    }
    const roundFile = displayPath(roundFileRel(PANEL_SESSION));
    const showDiscovery = () => {
      const reply = discoveryReply(discovery.state, words, roundFile);
      emit(stream, reply);
      meta.followups = reply.followups;
    };
    const showBrainstorm = (b: BrainstormSession) => {
      const reply = brainstormReply(b.state, words);
      emit(stream, reply);
      meta.followups = reply.followups;
    };
    switch (route.kind) {
      case 'discover-start':
      case 'discover-answer': {
        const text = route.text;
        await stepOf(discovery, request, stream, () => discovery.send(text, true));
        // A first turn that failed saved nothing: the controller said why in a notification.
        if (route.kind === 'discover-start' && discovery.state.status === 'idle' && !discovery.state.hint)
          return (stream.markdown(chatText.discoveryNotStarted()), meta);
        showDiscovery();
        return meta;
      }
      case 'discover-busy':
        return (stream.markdown(chatText.discoveryBusy()), meta);
      case 'brainstorm-start':
        if (!brainstorm) return (stream.markdown(chatText.unavailable('/brainstorm')), meta);
        await stepOf(brainstorm, request, stream, () => brainstorm.start(route.topic));
        showBrainstorm(brainstorm);
        return meta;
      case 'brainstorm-answer': {
        if (!brainstorm || brainstorm.state.status !== 'questions') return meta;
        const summarize = route.text.trim() === words.summarizeNow;
        const answers = summarize
          ? brainstorm.state.questions.map(() => null)
          : splitAnswers(route.text, brainstorm.state.questions.length);
        await stepOf(brainstorm, request, stream, () => brainstorm.answer(answers, summarize ? 'summarize' : 'more'));
        showBrainstorm(brainstorm);
        return meta;
      }
      case 'brainstorm-busy':
        return (stream.markdown(chatText.brainstormBusy()), meta);
      case 'build':
        meta.followups = await build(route.brief, discovery, stream);
        return meta;
      case 'cases':
        await cases(route.query, stream);
        return meta;
      case 'status': {
        const status = await chatStatusRows(discovery.state, brainstorm?.state, services);
        stream.markdown(listing(chatText.sessionsTitle(), status.sessions, chatText.noSessions()));
        stream.markdown('\n\n');
        stream.markdown(
          listing(chatText.buildsTitle(), status.builds, chatText.noBuilds(), status.moreBuilds, chatText.more()),
        );
        stream.markdown('\n\n');
        stream.markdown(
          listing(chatText.runsTitle(), status.runs, chatText.noRuns(), status.moreRuns, chatText.more()),
        );
        return meta;
      }
      case 'help':
        help(stream, route.command);
        return meta;
      case 'too-long':
        return meta;
    }
  }

  return {
    async handle(request, _context, stream, token) {
      try {
        const metadata = await handle(request, stream);
        if (token.isCancellationRequested) return { metadata: { ...metadata, followups: [] } };
        return { metadata };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        log.warn(`chat: ${message}`);
        return { errorDetails: { message: chatText.failed(message) }, metadata: { followups: [] } };
      }
    },
    followups(result) {
      const meta = result.metadata as Partial<ChatMeta> | undefined;
      return (meta?.followups ?? []).map((f) => ({
        prompt: f.prompt,
        label: f.label,
        ...(f.command ? { command: f.command } : {}),
      }));
    },
  };
}
