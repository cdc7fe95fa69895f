// `groundwork brainstorm`: three inquisitors question a topic, the person answers on stdin one line
// per question, the coordinator follows up and summarizes; over the core's BrainstormService. The
// session lives in `.groundwork/plans/<slug>/` between steps, so a stopped, failed or cut-off run
// continues with `--resume <slug>`. It never waits for answers nobody can give:
// `--unattended` and an empty non-terminal stdin are refused with exit 2.
import {
  ANGLES,
  BrainstormError,
  COORDINATOR_ROLE,
  INQUISITOR_ROLES,
  ROUNDS_LIMIT,
} from '../../core/brainstorm/brainstormTypes';
import { brainstormView, stepOfPhase } from '../../core/brainstorm/brainstormView';
import type { Answer, BrainstormSession, RoundAction } from '../../core/brainstorm/brainstormTypes';
import type { Role } from '../../core/roles/roleSchema';
import { visibleJson, visibleText } from '../../core/visibleText';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from '../cliTypes';
import type { CliCommand, CommandContext } from '../cliTypes';
import { BRAINSTORM_HELP } from '../help';
import { INTERRUPTED, LineReader } from '../lineReader';
import { displayOrder, showComplete, showQuestions, type QuestionsView } from './brainstormOutput';
import { failed, keptNote, roundOf, say, step } from './brainstormStep';
import type { Run } from './brainstormStep';
import { planDisplayPath } from '../../core/plan/layout';

export const TIMEOUT_VAR = 'GROUNDWORK_BRAINSTORM_TIMEOUT_SECONDS';
export const CONCURRENCY_VAR = 'GROUNDWORK_BRAINSTORM_CONCURRENCY';
const TOPIC = 'brainstorm';
const ROLES = [...ANGLES.map((a) => INQUISITOR_ROLES[a]), COORDINATOR_ROLE];
/** How long a non-terminal stdin may take to show data or its end before round 1 starts anyway. */
const EOF_GRACE_MS = 100;
export const UNATTENDED_MESSAGE =
  'a brainstorm needs someone to answer its questions, so it does not run --unattended. Run it without --unattended in a terminal (or pipe the answers on stdin, one line per question), or use \'groundwork discover "<message>"\', which a script can hold one turn per call';

export const NO_STDIN_MESSAGE =
  'no answers on stdin: it is not a terminal and it is empty, and a brainstorm needs someone to answer its questions. Run it in a terminal, or pipe the answers on stdin, one line per question';

export const brainstorm: CliCommand = {
  path: ['brainstorm'],
  summary: 'Think a topic through: three inquisitors ask, you answer, a summary is written',
  usage:
    'brainstorm ["<topic>"] [--rounds N] [--max-rounds N] [--slug S] [--resume SLUG [--restart]] [--discard [SLUG]] [--list] [--unattended] [--json]',
  details: BRAINSTORM_HELP,
  options: {
    rounds: { type: 'string' },
    'max-rounds': { type: 'string' },
    slug: { type: 'string' },
    resume: { type: 'string' },
    restart: { type: 'boolean' },
    discard: { type: 'boolean' },
    list: { type: 'boolean' },
    unattended: { type: 'boolean' },
  },
  args: { min: 0, max: Infinity, name: 'a topic' },
  run: (ctx) => runBrainstorm(ctx),
};

async function runBrainstorm(ctx: CommandContext): Promise<number> {
  const { io, values, args, deps } = ctx;
  const { terminal } = deps;
  const has = (name: string) => values[name] !== undefined && values[name] !== false;
  const list = has('list');
  const discard = has('discard');
  // First, before any model, file or even the key is looked at: nobody is there to answer.
  if (has('unattended') && !list && !discard) throw new UsageError(UNATTENDED_MESSAGE, TOPIC);
  const resume = typeof values['resume'] === 'string' ? values['resume'] : undefined;
  const topic = args.join(' ');
  const newOnly = ['rounds', 'max-rounds', 'slug'].filter(has);
  if (list && (resume !== undefined || discard || has('restart') || args.length > 0 || newOnly.length > 0))
    throw new UsageError('--list takes no topic and no other option', TOPIC);
  if (has('restart') && resume === undefined) throw new UsageError('--restart goes with --resume SLUG', TOPIC);
  if (discard && has('restart')) throw new UsageError('--discard and --restart exclude each other', TOPIC);
  if ((resume !== undefined || discard) && newOnly.length > 0)
    throw new UsageError(`--${newOnly[0]} is for a new brainstorm; a resumed one keeps its own`, TOPIC);
  if (resume !== undefined && args.length > 0)
    throw new UsageError('--resume takes no topic: the brainstorm has its own', TOPIC);
  const discardSlug = discard ? (resume ?? (args.length === 1 ? args[0] : undefined)) : undefined;
  if (discard && discardSlug === undefined)
    throw new UsageError('--discard needs the slug of one brainstorm: --discard SLUG', TOPIC);
  if (!list && !discard && resume === undefined && topic.trim() === '')
    throw new UsageError('brainstorm needs a topic: groundwork brainstorm "<topic>"', TOPIC);
  const minRounds = roundsOption(values['rounds'], 'rounds');
  const maxRounds = roundsOption(values['max-rounds'], 'max-rounds');
  const timeoutSeconds = numberFromEnv(io.env, TIMEOUT_VAR, false);
  const concurrency = numberFromEnv(io.env, CONCURRENCY_VAR, true);
  const debug = io.env['GROUNDWORK_DEBUG']
    ? (line: string) => io.stderr(`groundwork: ${visibleText(line)}\n`)
    : undefined;
  const model = list || discard ? undefined : deps.model(io.env, debug, TOPIC);

  const { store } = await ctx.workspace();
  const warned = new Set<string>();
  const warn = (line: string) => {
    if (warned.has(line)) return;
    warned.add(line);
    io.stderr(`groundwork: ${line}\n`);
  };
  const roles = new Map<string, Promise<Role>>();
  const role = (name: string) => roles.get(name) ?? roles.set(name, deps.loadRole(name, store, warn)).get(name)!;
  // Made only here: the service brings yaml with it, which --unattended and usage errors never need.
  const service = await deps.brainstorm({
    store,
    llm: model?.llm ?? (async () => Promise.reject(new Error('brainstorm --list and --discard call no model (a bug)'))),
    clock: deps.clock,
    role,
    ...(timeoutSeconds !== undefined ? { inquisitorTimeoutMs: timeoutSeconds * 1000 } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
  });
  const abort = new AbortController();
  const run: Run = { ctx, terminal, service, secrets: model?.secrets ?? [], signal: abort.signal, answered: 0 };
  if (list) return listUnfinished(run);
  if (discardSlug !== undefined) return discardOne(run, discardSlug);

  const stopListening = terminal.onInterrupt(() => abort.abort());
  try {
    let known: BrainstormSession | undefined;
    try {
      // A damaged brainstorm cannot be loaded, but --restart sets it aside and starts again.
      if (resume !== undefined)
        known = await service
          .load(resume)
          .catch((err: unknown) =>
            has('restart') && err instanceof BrainstormError && err.kind === 'corrupt'
              ? undefined
              : Promise.reject(err),
          );
      // A broken install fails here, before the plan folder is made; role warnings are said once.
      for (const name of ROLES) await role(name);
    } catch (err) {
      return await failed(run, err, resume);
    }
    run.reader = new LineReader(terminal.stdin());
    if (!terminal.stdinIsTTY() && needsAnswers(known, has('restart'))) {
      await run.reader.settle(EOF_GRACE_MS);
      if (run.reader.exhausted) {
        io.stderr(`groundwork: ${NO_STDIN_MESSAGE}\n`);
        return EXIT_USAGE;
      }
    }
    const startOptions = {
      ...(minRounds ? { minRounds } : {}),
      ...(maxRounds ? { maxRounds } : {}),
      ...(typeof values['slug'] === 'string' ? { slug: values['slug'] } : {}),
    };
    const first =
      resume === undefined
        ? await step(run, undefined, (s) => service.start(topic, startOptions, s))
        : await step(run, resume, (s) => (has('restart') ? service.restart(resume, s) : service.resume(resume, s)));
    return await converse(run, first);
  } finally {
    stopListening();
    run.reader?.close();
  }
}

/** Whether what is due next asks the person: anything but a summary (or a complete brainstorm). */
function needsAnswers(session: BrainstormSession | undefined, restart: boolean): boolean {
  const phase = session?.phase;
  if (restart || phase === undefined) return true;
  return !(phase.kind === 'complete' || stepOfPhase(phase) === 'summary');
}

function roundsOption(value: string | boolean | undefined, name: string): number | undefined {
  if (typeof value !== 'string') return undefined;
  // Digits only: Number() would also take '1e1', '0x5' and ' 3.0 ' as rounds.
  const n = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > ROUNDS_LIMIT)
    throw new UsageError(
      `--${name} must be a whole number from 1 to ${ROUNDS_LIMIT}, not '${visibleText(value)}'`,
      TOPIC,
    );
  return n;
}

function numberFromEnv(env: CommandContext['io']['env'], name: string, whole: boolean): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isSafeInteger(n))) {
    throw new UsageError(
      `${name} must be a positive ${whole ? 'whole number' : 'number of seconds'}, not '${visibleText(raw)}'`,
      TOPIC,
    );
  }
  return n;
}

/** The session's rounds, one after another, until it is complete or cannot go on. */
async function converse(run: Run, first: BrainstormSession | number): Promise<number> {
  const { io } = run.ctx;
  for (let session = first; ;) {
    if (typeof session === 'number') return session;
    const view = brainstormView(session);
    switch (view.status) {
      case 'complete':
        showComplete(run.ctx, session, view);
        return EXIT_OK;
      case 'failed':
        // The service drives every step to a phase that waits; anything else is a bug to report.
        if (view.problem.kind !== 'error') break;
        say(run, view.problem.text);
        keptNote(run, session, 'to retry');
        return EXIT_FAILURE;
      case 'questions': {
        showQuestions(run.ctx, view);
        const input = await readRound(run, view);
        if (input === 'eof') {
          keptNote(run, session, 'to answer it');
          if (run.answered > 0) return EXIT_OK;
          io.stderr('groundwork: no answers on stdin: end of input before the first answer\n');
          return EXIT_USAGE;
        }
        if (input === 'interrupted') {
          say(run, `Stopped. The brainstorm ${session.slug} is kept at round ${roundOf(session)}.`);
          keptNote(run, session, 'to go on');
          return EXIT_INTERRUPTED;
        }
        run.answered++;
        const slug = session.slug;
        session = await step(run, slug, (s) => run.service.answer(slug, input.answers, input.action, s));
        continue;
      }
    }
    throw new Error(
      `the brainstorm ${session.slug} stopped in phase ${session.phase.kind}; run 'groundwork brainstorm --resume ${session.slug}'`,
    );
  }
}

type RoundInput = { answers: Answer[]; action: RoundAction } | 'eof' | 'interrupted';

/** One line per question in the order shown: an answer, `skip` or an empty line, `/summarize` or `/more`. */
async function readRound(run: Run, view: QuestionsView): Promise<RoundInput> {
  const { io } = run.ctx;
  const reader = run.reader!;
  const tty = run.terminal.stdinIsTTY();
  const order = displayOrder(view.questions);
  const answers: Answer[] = view.questions.map(() => ({ kind: 'skipped' }));
  if (tty)
    io.stderr(
      'Answer each question on its own line: an empty line or "skip" skips it; /summarize or /more ends the round.\n',
    );
  for (let k = 0; k < order.length; k++) {
    if (tty) io.stderr(`Answer ${k + 1}/${order.length} (skip, /summarize, /more): `);
    const line = await reader.next(run.signal);
    if (line === undefined || line === INTERRUPTED) return line === undefined ? 'eof' : 'interrupted';
    const word = line.trim().toLowerCase();
    if (word === '/summarize' || word === '/more') return { answers, action: word === '/more' ? 'more' : 'summarize' };
    if (word !== '' && word !== 'skip') answers[order[k]!] = { kind: 'answered', text: line.trim() };
  }
  // What the round limits allow next; without a terminal no further line is read: the summary if allowed.
  const canSummarize = view.actions.includes('summarize');
  if (!tty || !canSummarize || !view.actions.includes('more'))
    return { answers, action: canSummarize ? 'summarize' : 'more' };
  for (;;) {
    io.stderr('Next: /more for follow-up questions, /summarize to finish [/summarize]: ');
    const line = await reader.next(run.signal);
    if (line === INTERRUPTED) return 'interrupted';
    const word = (line ?? '').trim().toLowerCase().replace(/^\//, '');
    if (word === '' || word === 'summarize') return { answers, action: 'summarize' };
    if (word === 'more') return { answers, action: 'more' };
  }
}

async function listUnfinished(run: Run): Promise<number> {
  const { io } = run.ctx;
  let open;
  try {
    open = await run.service.unfinished();
  } catch (err) {
    return failed(run, err, undefined);
  }
  if (run.ctx.json) {
    io.stdout(
      `${visibleJson({ event: 'unfinished', brainstorms: open.map((u) => ({ ...u, createdAt: new Date(u.createdAt).toISOString() })) })}\n`,
    );
    return EXIT_OK;
  }
  if (open.length === 0) {
    io.stdout('no unfinished brainstorms\n');
    return EXIT_OK;
  }
  const width = Math.max(...open.map((u) => u.slug.length));
  const short = (text: string, max: number) => {
    const line = visibleText(text.replace(/\s+/g, ' ').trim());
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  };
  for (const u of open) {
    if (u.damaged !== undefined) {
      io.stdout(`${u.slug.padEnd(width)}  damaged: ${short(u.damaged, 160)}\n`);
      continue;
    }
    io.stdout(`${u.slug.padEnd(width)}  round ${u.round}  ${u.phase.padEnd(14)}  ${short(u.topic, 70)}\n`);
  }
  if (open.some((u) => u.damaged !== undefined)) {
    io.stderr(
      'groundwork: a damaged brainstorm can be discarded (--discard SLUG) or restarted (--resume SLUG --restart); its files are kept in a .damaged-<time> folder of its plan\n',
    );
  }
  return EXIT_OK;
}

async function discardOne(run: Run, slug: string): Promise<number> {
  let result: { keptIn?: string; damaged?: true };
  try {
    result = await run.service.discard(slug);
  } catch (err) {
    return failed(run, err, undefined);
  }
  const { keptIn, damaged } = result;
  if (run.ctx.json)
    run.ctx.io.stdout(
      `${visibleJson({ event: 'discarded', slug, ...(keptIn !== undefined ? { keptIn } : {}), ...(damaged ? { damaged } : {}) })}\n`,
    );
  else if (damaged)
    run.ctx.io.stdout(
      `Discarded the damaged brainstorm ${slug}; its files are kept in ${keptIn} (delete that folder when you no longer need them)\n`,
    );
  else if (keptIn !== undefined)
    run.ctx.io.stdout(`Discarded the brainstorm ${slug}; what an earlier discard set aside stays in ${keptIn}\n`);
  else run.ctx.io.stdout(`Discarded the brainstorm ${slug} (${planDisplayPath(slug)})\n`);
  return EXIT_OK;
}
