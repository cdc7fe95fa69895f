// `00-brainstorming.context.md`, the brainstorm's machine-readable result: YAML
// frontmatter with `schema_version: 1` and every question, answer and summary item, then the
// digest a later build reads. The frontmatter's strings are the person's and the models'
// words and the file may come from a cloned repository, so it is read defensively: a size cap,
// few aliases, unique keys, every field checked; a newer schema is refused with a message that
// says to update rather than misread (there is no migration). A summary kept as prose is
// `summary_format: text` with the prose in `summary.text`; without the field (every file before
// it, and every summary of lists) the summary is its three lists.
import { isMap, LineCounter, parseDocument, stringify } from 'yaml';
import { utf8Length } from '../prompt/cap';
import { isSlug } from '../storage/safeNames';
import { visibleText } from '../visibleText';
import { bulletList, inlineText, proseSummaryBlock, questionsByRound, verbatimBlock } from './brainstormDocs';
import type { AskedQuestion } from './brainstormDocs';
import {
  ANGLES,
  BrainstormError,
  CONTEXT_SCHEMA_VERSION,
  INQUISITOR_STATUSES,
  MAX_PRIORITY,
  MIN_PRIORITY,
  ROUNDS_LIMIT,
  isAngle,
} from './brainstormTypes';
import type { Angle, BrainstormContext, BrainstormSession, ContextQuestion, InquisitorStatus } from './brainstormTypes';
import { PLAN_FILES } from '../plan/layout';

/** Far above what 20 rounds of capped questions and long answers make; refuses anything else. */
export const CONTEXT_FILE_MAX_BYTES = 8 * 1024 * 1024;
/** The file needs no aliases; a few are tolerated, far too few to blow up. */
export const CONTEXT_MAX_ALIASES = 10;

const FRONTMATTER_FENCE = /^---[ \t]*$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** The context of a brainstorm whose rounds are all answered (the summary may be missing). */
export function toContext(session: BrainstormSession): BrainstormContext {
  const created = new Date(session.createdAt);
  if (Number.isNaN(created.getTime())) {
    throw new BrainstormError('corrupt', `brainstorm ${session.slug}: createdAt (${session.createdAt}) is not a time`);
  }
  const questions = session.rounds.flatMap((r): ContextQuestion[] => {
    const answers = r.answers;
    if (answers === undefined) {
      throw new BrainstormError(
        'wrong-phase',
        `brainstorm ${session.slug}: round ${r.round} is not answered yet; the context file is written once every round is`,
      );
    }
    if (answers.length !== r.questions.length) {
      throw new BrainstormError(
        'corrupt',
        `brainstorm ${session.slug}: round ${r.round} has ${r.questions.length} questions but ${answers.length} answers`,
      );
    }
    return r.questions.map((q, i) => {
      const a = answers[i]!;
      const base = { round: r.round, angle: q.angle, priority: q.priority, text: q.text };
      return a.kind === 'answered' ? { ...base, answer: a.text, skipped: false } : { ...base, skipped: true };
    });
  });
  const inquisitorStatus = Object.fromEntries(
    ANGLES.map((angle) => [angle, session.inquisitors?.[angle]?.status ?? 'empty']),
  ) as Record<Angle, InquisitorStatus>;
  return {
    schemaVersion: CONTEXT_SCHEMA_VERSION,
    slug: session.slug,
    topic: session.topic,
    created: created.toISOString(),
    rounds: session.rounds.length,
    inquisitorStatus,
    ...(session.seed === undefined ? {} : { seededFrom: session.seed.slug }),
    questions,
    summary: {
      keyInsights: [...(session.summary?.keyInsights ?? [])],
      decisions: [...(session.summary?.decisions ?? [])],
      openQuestions: [...(session.summary?.openQuestions ?? [])],
      ...(session.summary?.format === 'text' ? { format: 'text' as const, text: session.summary.text ?? '' } : {}),
    },
  };
}

/** The file's text: the frontmatter, then the digest. */
export function renderContextFile(ctx: BrainstormContext): string {
  const data = {
    schema_version: ctx.schemaVersion,
    slug: ctx.slug,
    topic: ctx.topic,
    created: ctx.created,
    rounds: ctx.rounds,
    inquisitor_status: Object.fromEntries(ANGLES.map((angle) => [angle, ctx.inquisitorStatus[angle]])),
    ...(ctx.seededFrom === undefined ? {} : { seeded_from: ctx.seededFrom }),
    questions: ctx.questions.map((q) => ({
      round: q.round,
      angle: q.angle,
      priority: q.priority,
      text: q.text,
      ...(q.answer === undefined ? {} : { answer: q.answer }),
      skipped: q.skipped,
    })),
    ...(ctx.summary.format === 'text' ? { summary_format: 'text' } : {}),
    summary: {
      key_insights: ctx.summary.keyInsights,
      decisions: ctx.summary.decisions,
      open_questions: ctx.summary.openQuestions,
      ...(ctx.summary.format === 'text' ? { text: ctx.summary.text ?? '' } : {}),
    },
  };
  // lineWidth 0: no folding, so each line of a text stays one line of the file (greppable, diffable).
  const yaml = stringify(data, { lineWidth: 0, aliasDuplicateObjects: false });
  return `---\n${yaml}---\n\n${brainstormDigest(ctx)}`;
}

/** Reads a context file; `where` names it in errors (e.g. `.groundwork/plans/crm/00-brainstorming.context.md`). */
export function parseContextFile(text: string, where: string): BrainstormContext {
  const shown = visibleText(where);
  const corrupt = (problem: string) =>
    new BrainstormError(
      'corrupt',
      `${shown} cannot be read: ${problem}. Fix it by hand, or brainstorm the topic again to write a new one.`,
    );

  if (text.length > CONTEXT_FILE_MAX_BYTES || utf8Length(text) > CONTEXT_FILE_MAX_BYTES) {
    throw corrupt(`it is ${utf8Length(text)} bytes, over the ${CONTEXT_FILE_MAX_BYTES} bytes a context file may be`);
  }
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (!FRONTMATTER_FENCE.test(lines[0] ?? '')) throw corrupt("it does not start with a '---' line (no frontmatter)");
  const close = lines.findIndex((l, i) => i > 0 && FRONTMATTER_FENCE.test(l));
  if (close < 0) throw corrupt("its frontmatter has no closing '---' line");

  const lineCounter = new LineCounter();
  // The line break before the closing '---' is the YAML's own: a text kept with its trailing line breaks (`|+`) ends there.
  const doc = parseDocument(`${lines.slice(1, close).join('\n')}\n`, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    strict: true,
  });
  const yamlProblem = doc.errors[0] ?? doc.warnings[0];
  if (yamlProblem !== undefined) {
    // +1: the YAML starts on the file's line 2, after the opening '---'.
    const line = lineCounter.linePos(yamlProblem.pos[0]).line + 1;
    throw corrupt(`its frontmatter is not valid YAML at line ${line} (${yamlProblem.message.split('\n', 1)[0]})`);
  }
  if (!isMap(doc.contents)) throw corrupt('its frontmatter is not a set of fields such as `slug: crm`');
  let data: Record<string, unknown>;
  try {
    data = doc.toJS({ maxAliasCount: CONTEXT_MAX_ALIASES }) as Record<string, unknown>;
  } catch (err) {
    const message =
      err instanceof ReferenceError
        ? `its YAML aliases expand too much (more than ${CONTEXT_MAX_ALIASES} uses)`
        : `its frontmatter is not valid YAML (${String(err)})`;
    throw corrupt(message);
  }

  const version = data['schema_version'];
  if (version === undefined) throw corrupt('the field schema_version is missing');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw corrupt('the field schema_version must be a whole number, 1 or more');
  if (version > CONTEXT_SCHEMA_VERSION) {
    throw new BrainstormError(
      'schema',
      `${shown} was written by a newer Groundwork (schema_version ${version}; this version reads ${CONTEXT_SCHEMA_VERSION}). Update Groundwork to read it.`,
    );
  }

  const field = <T>(name: string, value: unknown, ok: (v: unknown) => v is T, what: string): T => {
    if (value === undefined) throw corrupt(`the field ${name} is missing`);
    if (!ok(value)) throw corrupt(`the field ${name} must be ${what}`);
    return value;
  };
  const slug = field('slug', data['slug'], isSlugValue, "a plan name (a–z, 0–9 and '-')");
  const topic = field('topic', data['topic'], isString, 'text');
  const created = field('created', data['created'], isIsoTime, 'a UTC time such as 2025-01-01T09:30:00.000Z');
  const rounds = field(
    'rounds',
    data['rounds'],
    (v): v is number => isWhole(v, 1, ROUNDS_LIMIT),
    `a whole number from 1 to ${ROUNDS_LIMIT}`,
  );
  const statusMap = field('inquisitor_status', data['inquisitor_status'], isRecord, `fields ${ANGLES.join(', ')}`);
  const inquisitorStatus = Object.fromEntries(
    ANGLES.map((angle) => [
      angle,
      field(`inquisitor_status.${angle}`, statusMap[angle], isStatus, `one of ${INQUISITOR_STATUSES.join(', ')}`),
    ]),
  ) as Record<Angle, InquisitorStatus>;
  const seeded = data['seeded_from'];
  const seededFrom =
    seeded === undefined ? undefined : field('seeded_from', seeded, isSlugValue, "a plan name (a–z, 0–9 and '-')");

  const list = field('questions', data['questions'], Array.isArray, 'a list');
  const questions = list.map((item, i): ContextQuestion => {
    const at = `questions[${i}]`;
    const q = field(at, item, isRecord, 'fields round, angle, priority, text, skipped');
    const round = field(
      `${at}.round`,
      q['round'],
      (v): v is number => isWhole(v, 1, rounds),
      `a whole number from 1 to rounds (${rounds})`,
    );
    const angle = field(`${at}.angle`, q['angle'], isAngle, `one of ${ANGLES.join(', ')}`);
    const priority = field(
      `${at}.priority`,
      q['priority'],
      (v): v is number => isWhole(v, MIN_PRIORITY, MAX_PRIORITY),
      `a whole number from ${MIN_PRIORITY} to ${MAX_PRIORITY}`,
    );
    const text = field(`${at}.text`, q['text'], isString, 'text');
    const skipped = field(`${at}.skipped`, q['skipped'], isBoolean, 'true or false');
    const answer = q['answer'];
    if (skipped && answer !== undefined) throw corrupt(`${at} is skipped and has an answer; remove one of them`);
    if (!skipped) {
      return {
        round,
        angle,
        priority,
        text,
        answer: field(`${at}.answer`, answer, isString, 'text (or set skipped: true)'),
        skipped,
      };
    }
    return { round, angle, priority, text, skipped };
  });

  const summary = field('summary', data['summary'], isRecord, 'fields key_insights, decisions, open_questions');
  const texts = (name: string) => field(`summary.${name}`, summary[name], isStringList, 'a list of texts');
  const format = data['summary_format'];
  if (format !== undefined && format !== 'text')
    throw corrupt('the field summary_format must be text (or left out for a summary of lists)');
  if (format === undefined && summary['text'] !== undefined)
    throw corrupt('the field summary.text needs summary_format: text');
  const prose =
    format === 'text'
      ? { format: 'text' as const, text: field('summary.text', summary['text'], isString, 'text') }
      : {};
  return {
    schemaVersion: CONTEXT_SCHEMA_VERSION,
    slug,
    topic,
    created,
    rounds,
    inquisitorStatus,
    ...(seededFrom === undefined ? {} : { seededFrom }),
    questions,
    summary: {
      keyInsights: texts('key_insights'),
      decisions: texts('decisions'),
      openQuestions: texts('open_questions'),
      ...prose,
    },
  };
}

/**
 * What a build reads of a brainstorm, as markdown: the vision (topic and key insights),
 * the constraints (decisions), what is still open (open questions and every skipped question),
 * then the questions and answers themselves.
 */
export function brainstormDigest(ctx: BrainstormContext): string {
  const open: string[] = [];
  const seen = new Set<string>();
  const add = (text: string, label: string) => {
    const key = text.replace(/\s+/g, ' ').trim().toLowerCase();
    if (key === '' || seen.has(key)) return;
    seen.add(key);
    open.push(label);
  };
  for (const q of ctx.summary.openQuestions) add(q, inlineText(q));
  for (const q of ctx.questions) if (q.skipped) add(q.text, `${inlineText(q.text)} _(skipped in round ${q.round})_`);

  const numbers = new Map<number, number>();
  const asked = ctx.questions.map((q): AskedQuestion => {
    const number = (numbers.get(q.round) ?? 0) + 1;
    numbers.set(q.round, number);
    const answer =
      q.skipped || q.answer === undefined
        ? ({ kind: 'skipped' } as const)
        : ({ kind: 'answered', text: q.answer } as const);
    return { round: q.round, number, angle: q.angle, priority: q.priority, text: q.text, answer };
  });

  const topic = ctx.topic.includes('\n') ? verbatimBlock(ctx.topic) : inlineText(ctx.topic);
  const summary = ctx.summary;
  // A prose summary (the coordinator did not write the lists) stands where the lists would; lists
  // a person added to such a file by hand are kept too.
  const findings =
    summary.format === 'text'
      ? [
          `## Vision\n\n${topic}${summary.keyInsights.length === 0 ? '' : `\n\n${bulletList(summary.keyInsights)}`}`,
          `## Summary\n\n${proseSummaryBlock(summary)}`,
          ...(summary.decisions.length === 0 ? [] : [`## Constraints\n\n${bulletList(summary.decisions)}`]),
        ]
      : [
          `## Vision\n\n${topic}\n\n${bulletList(summary.keyInsights)}`,
          `## Constraints\n\n${bulletList(summary.decisions)}`,
        ];
  const parts = [
    `# Brainstorm digest: ${inlineText(ctx.topic)}`,
    `Synthesised from \`.groundwork/plans/${ctx.slug}/${PLAN_FILES.context}\` (${ctx.rounds} ${ctx.rounds === 1 ? 'round' : 'rounds'}, ${ctx.created}). ` +
      "The topic, questions and answers are the person's words and the models', quoted as data.",
    ...findings,
    `## Open questions\n\n${open.length === 0 ? 'None.' : open.map((o) => `- ${o}`).join('\n')}`,
    `## Questions and answers\n\n${questionsByRound(asked)}`,
  ];
  return `${parts.join('\n\n')}\n`;
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function isBoolean(v: unknown): v is boolean {
  return typeof v === 'boolean';
}

function isSlugValue(v: unknown): v is string {
  return typeof v === 'string' && isSlug(v);
}

function isIsoTime(v: unknown): v is string {
  return typeof v === 'string' && ISO_UTC.test(v) && !Number.isNaN(Date.parse(v));
}

function isWhole(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStatus(v: unknown): v is InquisitorStatus {
  return typeof v === 'string' && (INQUISITOR_STATUSES as readonly string[]).includes(v);
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every(isString);
}
