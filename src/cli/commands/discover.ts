// `groundwork discover`: the discovery conversation, one turn per call or interactively on stdin,
// over the core's DiscoveryService. Between turns the round file is the only state, so the CLI,
// a script and the agent panel can all continue the same session.
import type {
  DiscoveryApi,
  DiscoveryLanguage,
  DiscoveryView,
  TurnOptions,
  TurnResult,
} from '../../core/discovery/discoveryTypes';
import { DEFAULT_TTL_MINUTES, DISCOVERY_LANGUAGES, DiscoveryError } from '../../core/discovery/discoveryTypes';
import { discoveryMessages, isDiscoveryLanguage, toDiscoveryLanguage } from '../../core/discovery/discoveryMessages';
import { discoveryView } from '../../core/discovery/discoveryView';
import { isCancelWord } from '../../core/discovery/keywords';
import { normalizeText, roundFileRel, sessionNameProblem } from '../../core/discovery/roundFile';
import { LlmError } from '../../core/llm/llmClient';
import type { Role } from '../../core/roles/roleSchema';
import { visibleJson, visibleText } from '../../core/visibleText';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';
import { DISCOVER_HELP } from '../help';
import { MessageReader } from '../messageReader';
import { minutesFromEnv, redactSecrets, retryLine } from '../modelDeps';
import type { CliTerminal } from '../terminal';
import { blockText, shellWord } from '../terminalText';
import { toolLine } from '../toolLine';

export const DEFAULT_SESSION = 'cli';
export const TTL_VAR = 'GROUNDWORK_DISCOVERY_TTL_MINUTES';
const ROLE = 'build-discovery';
const TOPIC = 'discover';

export const discover: CliCommand = {
  path: ['discover'],
  summary: 'Turn an idea into an Idea Brief through a short conversation',
  usage: 'discover [--session ID] [--lang L] [--json] ["<message>" | --retry | --cancel]',
  details: DISCOVER_HELP,
  options: {
    session: { type: 'string' },
    lang: { type: 'string' },
    cancel: { type: 'boolean' },
    retry: { type: 'boolean' },
  },
  args: { min: 0, max: Infinity, name: 'a message' },
  run: (ctx) => runDiscover(ctx),
};

/** One invocation: what it was asked and what it works with. */
interface Run {
  ctx: CommandContext;
  terminal: CliTerminal;
  service: DiscoveryApi;
  session: string;
  lang: DiscoveryLanguage;
  secrets: string[];
  /** The session id as printed. */
  sessionShown: string;
}

/** What showing a turn's result leads to: the exit code, or on with the conversation. */
type Next = { done: true; code: number } | { done: false };

async function runDiscover(ctx: CommandContext): Promise<number> {
  const { io, values, deps } = ctx;
  const session = typeof values['session'] === 'string' ? values['session'] : DEFAULT_SESSION;
  const badSession = sessionNameProblem(session);
  if (badSession !== undefined)
    throw new UsageError(`--session: ${badSession}; give a short id of visible characters`, TOPIC);
  const lang = languageOf(values['lang'], io.env);
  const cancel = values['cancel'] === true;
  const retry = values['retry'] === true;
  const message = ctx.args.join(' ');
  if (cancel && (retry || ctx.args.length > 0)) throw new UsageError('--cancel takes no message and no --retry', TOPIC);
  if (retry && ctx.args.length > 0)
    throw new UsageError('--retry takes no message: it sends the saved answer again', TOPIC);
  const ttlMinutes = minutesFromEnv(io.env, TTL_VAR, DEFAULT_TTL_MINUTES);
  const debug = io.env['GROUNDWORK_DEBUG']
    ? (line: string) => io.stderr(`groundwork: ${visibleText(line)}\n`)
    : undefined;
  // --cancel needs no model, so no key either.
  const model = cancel ? undefined : deps.model(io.env, debug, TOPIC);
  const secrets = model?.secrets ?? [];

  const { store } = await ctx.workspace();
  const warn = (line: string) => io.stderr(`groundwork: ${line}\n`);
  let role: Promise<Role> | undefined;
  const loadRole = () => (role ??= deps.loadRole(ROLE, store, warn));
  const service = await deps.discovery({
    store,
    llm: model?.llm ?? (async () => Promise.reject(new Error('discover --cancel calls no model (a bug)'))),
    clock: deps.clock,
    role: loadRole,
    ttlMinutes,
  });
  const run: Run = {
    ctx,
    terminal: deps.terminal,
    service,
    session,
    lang,
    secrets,
    sessionShown: visibleText(session),
  };

  await reportExpired(run);
  if (cancel) return cancelSession(run);
  // A broken install fails here, before the session is touched; role warnings are said once.
  await loadRole();
  if (retry) return finish(run, await turn(run, 'retry'));
  if (ctx.args.length > 0) return finish(run, await oneMessage(run, message));
  return interactive(run);
}

function languageOf(option: string | boolean | undefined, env: CommandContext['io']['env']): DiscoveryLanguage {
  if (typeof option === 'string') {
    const code = option.trim().toLowerCase();
    if (!isDiscoveryLanguage(code))
      throw new UsageError(
        `--lang must be one of ${DISCOVERY_LANGUAGES.join(', ')}, not '${visibleText(option)}'`,
        TOPIC,
      );
    return code;
  }
  // POSIX order: the first of these that is set decides; C, POSIX and the rest mean English.
  const locale = [env['LC_ALL'], env['LC_MESSAGES'], env['LANG']].find((v) => v !== undefined && v.trim() !== '');
  return toDiscoveryLanguage(locale);
}

/** Round files past the TTL go on first use; this session's going is said on stderr. */
async function reportExpired(run: Run): Promise<void> {
  let removed: string[];
  try {
    removed = await run.service.cleanupExpired();
  } catch (err) {
    run.ctx.io.stderr(
      `groundwork: warning: expired discovery sessions could not be cleaned up: ${visibleText(errorText(err))}\n`,
    );
    return;
  }
  const mine = roundFileRel(run.session).replace(/^.*\//, '').replace(/\.md$/, '');
  if (removed.includes(mine)) run.ctx.io.stderr(`${blockText(discoveryMessages(run.lang).expired(), '')}\n`);
}

async function cancelSession(run: Run): Promise<number> {
  const { io } = run.ctx;
  let result: { message: string } | undefined;
  try {
    result = await run.service.cancel(run.session, run.lang);
  } catch (err) {
    return failed(run, err);
  }
  const message = result?.message ?? `no discovery session ${run.sessionShown}`;
  if (run.ctx.json) io.stdout(`${visibleJson({ session: run.session, cancelled: result !== undefined, message })}\n`);
  else io.stdout(`${blockText(message, '')}\n`);
  return EXIT_OK;
}

/** A message given on the command line: an answer, a fresh request, or the same command run again after a failure. */
async function oneMessage(run: Run, message: string): Promise<TurnResult | number> {
  let view: DiscoveryView | undefined;
  try {
    view = await run.service.view(run.session);
  } catch (err) {
    return failed(run, err);
  }
  if (view === undefined && isCancelWord(message)) return noSession(run);
  if (waitsForModel(view) && normalizeText(message) === '') return turn(run, 'retry');
  if (alreadySaved(view, message)) {
    run.ctx.io.stderr('groundwork: this answer is saved already and waits for the model: asking it again\n');
    return turn(run, 'retry');
  }
  return turn(run, 'handle', message);
}

/** The session's answer is saved and has no reply yet (the call failed or was stopped): what it can do is retry. */
function waitsForModel(view: DiscoveryView | undefined): boolean {
  return view !== undefined && discoveryView({ kind: 'session', view }).actions.includes('retry');
}

function noSession(run: Run): number {
  const message = `no discovery session ${run.sessionShown}`;
  if (run.ctx.json) run.ctx.io.stdout(`${visibleJson({ session: run.session, cancelled: false, message })}\n`);
  else run.ctx.io.stdout(`${message}\n`);
  return EXIT_OK;
}

/**
 * Whether `message` is what the model failed on: the session's last answer (saved before the call)
 * is it, or ends with it when it was added to an earlier one. Sending it again would save it twice.
 */
function alreadySaved(view: DiscoveryView | undefined, message: string): boolean {
  if (view === undefined || !waitsForModel(view)) return false;
  const answer = view.rounds[view.rounds.length - 1]?.answer ?? '';
  const text = normalizeText(message);
  return text !== '' && (answer === text || answer.endsWith(`\n\n${text}`));
}

async function interactive(run: Run): Promise<number> {
  const { io } = run.ctx;
  const tty = run.terminal.stdinIsTTY();
  const prompt = (text: string) => tty && io.stderr(text);
  let view: DiscoveryView | undefined;
  try {
    view = await run.service.view(run.session);
  } catch (err) {
    return failed(run, err);
  }
  let didSomething = false;
  const shown = view === undefined ? undefined : discoveryView({ kind: 'session', view });
  if (shown?.status === 'failed') {
    io.stderr('groundwork: the last answer of this session is waiting for the model: asking it again\n');
    const next = await show(run, await turn(run, 'retry'));
    if (next.done) return next.code;
    if (!run.ctx.json) io.stdout('\n');
    didSomething = true;
  } else if (view !== undefined && shown?.status === 'questions') {
    const last = view.rounds[view.rounds.length - 1];
    prompt(
      `Continuing discovery session ${run.sessionShown}, round ${shown.round}/${shown.maxRounds}:\n\n${blockText(last?.questionsText ?? '', '')}\n\n`,
    );
  }

  const reader = new MessageReader(run.terminal.stdin());
  try {
    let inSession = view !== undefined;
    for (;;) {
      prompt(
        inSession
          ? "Your answers (an empty line sends them; 'cancel' ends discovery; Ctrl-D stops):\n> "
          : 'Describe what you want to build (an empty line sends it; Ctrl-D stops):\n> ',
      );
      const message = await reader.next();
      if (message === undefined) {
        if (!didSomething && !tty) {
          io.stderr(
            `groundwork: no message: give one ('groundwork discover "<message>"') or pipe answers on stdin. Run 'groundwork help discover' for usage.\n`,
          );
          return EXIT_USAGE;
        }
        if (inSession)
          io.stderr(
            `groundwork: the discovery session ${run.sessionShown} is kept; run 'groundwork discover' with the same --session to continue it\n`,
          );
        return EXIT_OK;
      }
      didSomething = true;
      if (!inSession && isCancelWord(message)) return noSession(run);
      const result = await turn(run, 'handle', message);
      const next = await show(run, result);
      if (next.done) return next.code;
      inSession = typeof result !== 'number' && result.outcome.kind === 'questions';
      // Replies one after another on stdout, each its own paragraph.
      if (!run.ctx.json) io.stdout('\n');
    }
  } finally {
    reader.close();
  }
}

/**
 * One model turn: the reply streamed to stderr on a terminal, Ctrl-C stopping it. Returns the
 * result, or the exit code of a failure already reported.
 */
async function turn(run: Run, kind: 'handle' | 'retry', message = ''): Promise<TurnResult | number> {
  const { io } = run.ctx;
  const abort = new AbortController();
  const stopListening = run.terminal.onInterrupt(() => abort.abort());
  const streaming = !run.ctx.json && run.terminal.stderrIsTTY();
  const dim = streaming && !io.env['NO_COLOR'];
  let streamed = false;
  let midLine = false;
  /** A line of progress on stderr, on a line of its own after streamed text. */
  const progress = (line: string) => {
    io.stderr(`${midLine ? '\n' : ''}groundwork: ${redactSecrets(line, run.secrets)}\n`);
    midLine = false;
  };
  const options: TurnOptions = {
    lang: run.lang,
    signal: abort.signal,
    force: true,
    // Said whether or not the reply streams to a terminal: a long wait is never silent.
    onRetry: (retry) => progress(retryLine(retry)),
    // A line per finished call ("groundwork: read README.md"); the model's target made visible by toolLine.
    onTool: (activity) => {
      if (activity.status !== 'running') progress(toolLine(activity));
    },
  };
  if (streaming) {
    options.onText = (chunk) => {
      // Model text, so shown with its control characters made visible, line breaks kept.
      const shown = blockText(chunk.replace(/\r/g, ''), '');
      if (shown === '') return;
      io.stderr(dim ? `\x1b[2m${shown}\x1b[22m` : shown);
      streamed = true;
      midLine = !shown.endsWith('\n');
    };
  }
  try {
    return kind === 'retry'
      ? await run.service.retry(run.session, options)
      : await run.service.handle(run.session, message, options);
  } catch (err) {
    return failed(run, err);
  } finally {
    stopListening();
    // The streamed draft ends as a paragraph of its own before the reply.
    if (streamed) io.stderr(midLine ? '\n\n' : '\n');
  }
}

/** Reports a failure the person can act on and returns its exit code; anything else propagates. */
async function failed(run: Run, err: unknown): Promise<number> {
  const { io } = run.ctx;
  const say = (text: string) => io.stderr(`groundwork: ${visibleText(redactSecrets(text, run.secrets).trim())}\n`);
  if (err instanceof DiscoveryError) {
    say(err.message);
    // Busy is a step elsewhere, not a mistake in this command: a script may try again later.
    return err.kind === 'busy' ? EXIT_FAILURE : EXIT_USAGE;
  }
  if (err instanceof LlmError) {
    say(err.message);
    const kept = await run.service.view(run.session).catch(() => undefined);
    say(
      kept !== undefined
        ? `the session is kept (${kept.file}, with your answer): run the same command again, or 'groundwork discover --retry' with the same --session, to retry`
        : 'nothing was saved: run the same command again to retry',
    );
    return EXIT_FAILURE;
  }
  throw err;
}

/** The end of a one-turn call: after questions, how to answer them. */
async function finish(run: Run, result: TurnResult | number): Promise<number> {
  const next = await show(run, result);
  if (next.done) return next.code;
  if (!run.ctx.json && typeof result !== 'number' && result.outcome.kind === 'questions') {
    const session = run.session === DEFAULT_SESSION ? '' : ` --session ${shellWord(run.session)}`;
    run.ctx.io.stderr(`groundwork: answer with: groundwork discover${session} "<your answers>" (or "cancel")\n`);
  }
  return EXIT_OK;
}

/** Prints a turn's result; saves the brief when it is complete. */
async function show(run: Run, result: TurnResult | number): Promise<Next> {
  if (typeof result === 'number') return { done: true, code: result };
  const { io } = run.ctx;
  const print = (text: string) => io.stdout(`${blockText(text, '')}\n`);
  const note = (text: string) => io.stderr(`${blockText(text, '')}\n`);
  if (result.expiredMessage !== undefined) note(result.expiredMessage);
  if (result.capped !== undefined) note(result.capped.message);

  const outcome = result.outcome;
  let saved: { slug: string; path: string } | undefined;
  if (outcome.kind === 'complete') {
    saved = await run.service.saveBrief({
      brief: outcome.brief,
      originalRequest: outcome.originalRequest,
      transcript: outcome.transcript,
    });
  }
  if (run.ctx.json) io.stdout(`${visibleJson({ session: run.session, ...result, ...(saved ? { saved } : {}) })}\n`);

  switch (outcome.kind) {
    case 'questions':
      if (!run.ctx.json) print(outcome.message);
      return { done: false };
    case 'complete':
      if (!run.ctx.json) {
        print(outcome.brief.text === '' ? '(The model wrote an empty brief.)' : outcome.brief.text);
        io.stdout(`\nIdea Brief saved to ${visibleText(saved!.path)}\n`);
      }
      return { done: true, code: EXIT_OK };
    case 'cancelled':
      if (!run.ctx.json) print(outcome.message);
      return { done: true, code: EXIT_OK };
    case 'not-a-build':
      if (!run.ctx.json) print(outcome.message);
      return { done: false };
    case 'stopped':
      // The core's message says the answer is kept, which a first message stopped is not.
      note(
        outcome.view !== undefined
          ? outcome.message
          : 'groundwork: stopped before the model replied; nothing was saved',
      );
      return { done: true, code: EXIT_INTERRUPTED };
    case 'expired':
      note(outcome.message);
      return { done: true, code: EXIT_USAGE };
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
