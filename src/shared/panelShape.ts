// The panel's side of the boundary: it does not trust the shape of what the host sends either (a
// host of another version, a bug, a file that slipped through). Each feature's slice is checked
// before it is drawn, and a slice whose data is wrong is drawn as an error in its section while the
// rest of the panel works. Cheap structural checks only: types and lists, not contents.
import { PANEL_STRINGS, type PanelStringKey, type PanelStrings } from './panelStrings';
import type { FeatureId } from './protocol/common';
import { BRIEF_FIELDS } from './protocol/discovery';

/** Undefined when `value` fits; else what does not, e.g. `discovery.rounds[0].questions is not a list`. */
type Check = (value: unknown, at: string) => string | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str: Check = (v, at) => (typeof v === 'string' ? undefined : `${at} is not text`);
const num: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? undefined : `${at} is not a number`);
const bool: Check = (v, at) => (typeof v === 'boolean' ? undefined : `${at} is not true or false`);
const opt =
  (check: Check): Check =>
  (v, at) =>
    v === undefined ? undefined : check(v, at);
const nullable =
  (check: Check): Check =>
  (v, at) =>
    v === null ? undefined : check(v, at);
const oneOf =
  (...values: string[]): Check =>
  (v, at) =>
    typeof v === 'string' && values.includes(v) ? undefined : `${at} is not one of ${values.join(', ')}`;

function list(item: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return `${at} is not a list`;
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], `${at}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

function obj(fields: Record<string, Check>): Check {
  return (v, at) => {
    if (!isRecord(v)) return `${at} is not an object`;
    for (const [key, check] of Object.entries(fields)) {
      const problem = check(v[key], `${at}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** An object told apart by its `status`; each status with its own fields. */
function byStatus(cases: Record<string, Record<string, Check>>): Check {
  const checks = Object.fromEntries(Object.entries(cases).map(([status, fields]) => [status, obj(fields)]));
  return (v, at) => {
    if (!isRecord(v)) return `${at} is not an object`;
    const status = v['status'];
    const check =
      typeof status === 'string' && Object.prototype.hasOwnProperty.call(checks, status) ? checks[status] : undefined;
    return check === undefined ? `${at}.status is not one of ${Object.keys(cases).join(', ')}` : check(v, at);
  };
}

const toolLine = obj({
  id: str,
  kind: oneOf('read', 'list', 'search', 'other'),
  tool: str,
  target: str,
  status: oneOf('running', 'done', 'error'),
  error: opt(str),
});
const actions = list(str);

const discoveryRound = obj({ round: num, questions: list(str), answer: opt(str) });
const conversation = { request: str, round: num, maxRounds: num, rounds: list(discoveryRound), actions };

const discovery = byStatus({
  idle: { hint: opt(bool), actions },
  running: { ...conversation, streamed: str, tools: list(toolLine), retry: opt(obj({ attempt: num, of: num })) },
  questions: { ...conversation, questions: list(str), message: str, notice: opt(str) },
  failed: { ...conversation, failure: obj({ reason: oneOf('error', 'interrupted'), error: opt(str) }) },
  brief: {
    request: str,
    brief: obj(Object.fromEntries(BRIEF_FIELDS.map((f) => [f, str]))),
    raw: opt(str),
    transcript: list(discoveryRound),
    message: str,
    savedAt: opt(str),
    actions,
  },
  damaged: { file: str, reason: str, actions },
});

const angle = oneOf('ux', 'technical', 'edge-cases');
const question = obj({ text: str, angle, priority: num });
const header = {
  slug: str,
  topic: str,
  round: num,
  minRounds: num,
  maxRounds: num,
  rounds: list(obj({ round: num, questions: list(question), answers: list(nullable(str)) })),
  inquisitors: opt(
    list(
      obj({
        angle,
        state: oneOf('running', 'success', 'parse_error', 'timeout', 'empty'),
        detail: opt(str),
        tools: list(toolLine),
      }),
    ),
  ),
  actions,
};

const brainstorm = byStatus({
  none: { actions },
  running: {
    ...header,
    step: oneOf('inquisitors', 'follow-up', 'summary'),
    streamed: str,
    tools: list(toolLine),
    retry: opt(obj({ who: oneOf('ux', 'technical', 'edge-cases', 'coordinator'), attempt: num, of: num })),
  },
  questions: { ...header, questions: list(question), notice: opt(str) },
  failed: {
    ...header,
    problem: obj({ kind: oneOf('error', 'unexpected', 'stopped', 'interrupted', 'unfinished'), text: opt(str) }),
  },
  complete: {
    slug: str,
    topic: str,
    rounds: num,
    keyInsights: list(str),
    decisions: list(str),
    openQuestions: list(str),
    summaryText: opt(str),
    documentPath: str,
    contextPath: str,
    actions,
  },
});

const modelCheck = opt(obj({ ok: bool, text: str }));
const model = byStatus({
  ready: { provider: oneOf('anthropic', 'vscode-lm'), complex: str, fast: str, usage: opt(str), check: modelCheck },
  onboarding: { need: oneOf('key', 'language-model', 'either'), check: modelCheck },
});

const journal = obj({
  entries: list(obj({ timestamp: str, title: str, description: str, scope: opt(str), agent: opt(str) })),
  total: num,
  skipped: num,
  partial: opt(str),
  error: opt(str),
});

const sleep = obj({
  sleepers: list(
    obj({
      agent: str,
      mode: oneOf('timer', 'event', 'manual'),
      waitingFor: opt(str),
      startedAt: num,
      maxDurationMs: num,
    }),
  ),
  error: opt(str),
});

const buildPhase = obj({
  name: str,
  role: str,
  status: oneOf('pending', 'running', 'passed', 'failed', 'stopped'),
  attempts: num,
  figures: str,
  reason: opt(str),
});
const buildFields = {
  id: str,
  source: str,
  project: opt(str),
  phases: list(buildPhase),
  totals: str,
  reason: opt(str),
  current: opt(obj({ phase: str, attempt: num, stream: str, streamed: str, from: num })),
  actions,
};
const build = byStatus({
  none: {},
  running: buildFields,
  completed: buildFields,
  failed: buildFields,
  stopped: buildFields,
  interrupted: buildFields,
});

const panel = obj({
  trusted: bool,
  hasWorkspace: bool,
  notice: opt(obj({ kind: oneOf('info', 'error'), text: str })),
  notices: list(obj({ id: str, text: str })),
});

const SLICES = { panel, discovery, brainstorm, model, journal, sleep, build } satisfies Record<FeatureId, Check>;

/** What is wrong with one feature's slice, or undefined when it can be drawn. */
export function sliceProblem(feature: FeatureId, value: unknown): string | undefined {
  return SLICES[feature](value, feature);
}

/** A tool call's line as the host sends it in a `tool` message, checked the same way. */
export function toolLineProblem(value: unknown): string | undefined {
  return toolLine(value, 'line');
}

/** The string table the host sent, any missing or wrong one replaced by its English text. */
export function panelStringsOf(value: unknown): PanelStrings {
  const given = isRecord(value) ? value : {};
  const out = {} as PanelStrings;
  for (const key of Object.keys(PANEL_STRINGS) as PanelStringKey[]) {
    const v = Object.prototype.hasOwnProperty.call(given, key) ? given[key] : undefined;
    out[key] = typeof v === 'string' ? v : PANEL_STRINGS[key];
  }
  return out;
}
