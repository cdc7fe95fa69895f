// The parts of build.yaml that hold what a build's verification rests on: the project's commands
// (frozen when the architect passed), the test contract (frozen when the test writer passed:
// testContract.ts) and the final verification (finalCheck.ts). Read like every other field: a
// cloned or hand-edited build.yaml is refused with the field named, never half-trusted.
import { isPlainObject } from '../inputChecks';
import type { Checked } from '../inputChecks';
import { relativePathProblem } from '../run/runRecord';
import { bad, isIsoDate, list, optionalText, wrong } from './buildRecordParts';
import type { FinalVerification, ProjectCommands, RequirementResult, TestTallyShort } from './buildTypes';
import { commandProblem } from './markers';
import type { AcceptedChange, CoverageLine, FrozenEntry, FrozenTest, TestContract } from './testContract';

export const CONTRACT_TESTS_MAX = 1000;
export const CONTRACT_ENTRIES_MAX = 500;
export const COVERAGE_MAX = 2000;
export const ACCEPTED_MAX = 200;
export const REQUIREMENTS_MAX = 1000;
export const TESTS_PER_REQUIREMENT_MAX = 20;
/** A test's name as kept (a runner's, cut). */
export const TEST_NAME_MAX_CHARS = 300;
const TEST_COMMANDS_MAX = 20;
const HASH = /^[0-9a-f]{64}$/;
const KEY = /^(|sections|(scripts|config)\.[^\u0000-\u001f]{1,214})$/;
const REQUIREMENT = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const path = (v: unknown, at: string): Checked<string> => {
  if (typeof v !== 'string') return bad(`field ${at} is not text`);
  const problem = relativePathProblem(v);
  return problem === undefined ? { ok: true, value: v } : bad(`field ${at} ${problem}`);
};
const hashOrNull = (v: unknown, at: string, unreadable = false): Checked<string | null> =>
  v === null || (typeof v === 'string' && (HASH.test(v) || (unreadable && v === 'unreadable')))
    ? { ok: true, value: v }
    : wrong(at, v, 'a SHA-256 in hex or null');
const count = (v: unknown, at: string): Checked<number> =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? { ok: true, value: v as number } : wrong(at, v, 'a count');
const text = (v: unknown, at: string, max: number): Checked<string> =>
  typeof v === 'string' && v.length <= max && v.trim() !== ''
    ? { ok: true, value: v }
    : wrong(at, v, `text of at most ${max} characters`);
const command = (v: unknown, at: string): Checked<string> => {
  if (typeof v !== 'string') return bad(`field ${at} is not text`);
  const problem = commandProblem(v);
  return problem === undefined ? { ok: true, value: v } : bad(`field ${at} ${problem}`);
};

export function parseCommands(value: unknown, at = 'commands'): Checked<ProjectCommands> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const test = list(value['test'], `${at}.test`, TEST_COMMANDS_MAX, command);
  if (!test.ok) return test;
  const out: ProjectCommands = { test: test.value };
  if (value['build'] !== undefined) {
    const b = command(value['build'], `${at}.build`);
    if (!b.ok) return b;
    out.build = b.value;
  }
  return { ok: true, value: out };
}

function parseTest(value: unknown, at: string): Checked<FrozenTest> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const p = path(value['path'], `${at}.path`);
  if (!p.ok) return p;
  const h = hashOrNull(value['sha256'], `${at}.sha256`);
  if (!h.ok || h.value === null) return wrong(`${at}.sha256`, value['sha256'], 'a SHA-256 in hex');
  const n = count(value['declared'], `${at}.declared`);
  if (!n.ok) return n;
  return { ok: true, value: { path: p.value, sha256: h.value, declared: n.value } };
}

function parseEntry(value: unknown, at: string): Checked<FrozenEntry> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const f = path(value['file'], `${at}.file`);
  if (!f.ok) return f;
  const key = value['key'];
  if (typeof key !== 'string' || !KEY.test(key))
    return wrong(`${at}.key`, key, "'', 'sections', scripts.NAME or config.NAME");
  const h = hashOrNull(value['sha256'], `${at}.sha256`, true);
  if (!h.ok) return h;
  return { ok: true, value: { file: f.value, key, sha256: h.value } };
}

function parseCoverageLine(value: unknown, at: string): Checked<CoverageLine> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const req = value['requirement'];
  if (typeof req !== 'string' || !REQUIREMENT.test(req)) return wrong(`${at}.requirement`, req, 'a requirement id');
  const t = text(value['test'], `${at}.test`, TEST_NAME_MAX_CHARS);
  if (!t.ok) return t;
  const out: CoverageLine = { requirement: req, test: t.value };
  if (value['file'] !== undefined) {
    const f = path(value['file'], `${at}.file`);
    if (!f.ok) return f;
    out.file = f.value;
  }
  return { ok: true, value: out };
}

function parseAccepted(value: unknown, at: string): Checked<AcceptedChange> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const p = text(value['path'], `${at}.path`, 4096);
  if (!p.ok) return p;
  const phase = text(value['phase'], `${at}.phase`, 64);
  if (!phase.ok) return phase;
  if (!isIsoDate(value['at'])) return bad(`field ${at}.at is not an ISO-8601 UTC time`);
  const before = hashOrNull(value['before'], `${at}.before`, true);
  if (!before.ok) return before;
  const after = hashOrNull(value['after'], `${at}.after`, true);
  if (!after.ok) return after;
  return {
    ok: true,
    value: { path: p.value, phase: phase.value, at: value['at'] as string, before: before.value, after: after.value },
  };
}

export function parseContract(value: unknown): Checked<TestContract> {
  if (!isPlainObject(value)) return bad('field contract is not a mapping of fields');
  const phase = text(value['phase'], 'contract.phase', 64);
  if (!phase.ok) return phase;
  if (!isIsoDate(value['frozenAt'])) return bad('field contract.frozenAt is not an ISO-8601 UTC time');
  const tests = list(value['tests'], 'contract.tests', CONTRACT_TESTS_MAX, parseTest);
  if (!tests.ok) return tests;
  const entries = list(value['entries'], 'contract.entries', CONTRACT_ENTRIES_MAX, parseEntry);
  if (!entries.ok) return entries;
  const coverage = list(value['coverage'] ?? [], 'contract.coverage', COVERAGE_MAX, parseCoverageLine);
  if (!coverage.ok) return coverage;
  const accepted = list(value['accepted'] ?? [], 'contract.accepted', ACCEPTED_MAX, parseAccepted);
  if (!accepted.ok) return accepted;
  const requirements =
    value['requirements'] === undefined
      ? undefined
      : list(value['requirements'], 'contract.requirements', REQUIREMENTS_MAX, (v, at) =>
          typeof v === 'string' && REQUIREMENT.test(v)
            ? { ok: true as const, value: v }
            : wrong(at, v, 'a requirement id'),
        );
  if (requirements !== undefined && !requirements.ok) return requirements;
  return {
    ok: true,
    value: {
      phase: phase.value,
      frozenAt: value['frozenAt'] as string,
      tests: tests.value,
      entries: entries.value,
      coverage: coverage.value,
      accepted: accepted.value,
      ...(requirements !== undefined ? { requirements: requirements.value } : {}),
    },
  };
}

function parseRequirement(value: unknown, at: string): Checked<RequirementResult> {
  if (!isPlainObject(value)) return bad(`field ${at} is not a mapping of fields`);
  const id = value['id'];
  if (typeof id !== 'string' || !REQUIREMENT.test(id)) return wrong(`${at}.id`, id, 'a requirement id');
  const result = value['result'];
  if (result !== 'passed' && result !== 'failed' && result !== 'untested')
    return wrong(`${at}.result`, result, 'passed, failed or untested');
  const tests = list(value['tests'] ?? [], `${at}.tests`, TESTS_PER_REQUIREMENT_MAX, (v, a) =>
    text(v, a, TEST_NAME_MAX_CHARS),
  );
  if (!tests.ok) return tests;
  return { ok: true, value: { id, result, tests: tests.value } };
}

function parseTally(value: unknown): Checked<TestTallyShort> {
  if (!isPlainObject(value)) return bad('field final.tests is not a mapping of fields');
  const runner = text(value['runner'], 'final.tests.runner', 32);
  if (!runner.ok) return runner;
  const out: Partial<TestTallyShort> = { runner: runner.value };
  for (const field of ['ran', 'passed', 'failed', 'skipped'] as const) {
    const n = count(value[field], `final.tests.${field}`);
    if (!n.ok) return n;
    out[field] = n.value;
  }
  for (const field of ['complete', 'named'] as const) {
    if (typeof value[field] !== 'boolean') return wrong(`final.tests.${field}`, value[field], 'true or false');
    out[field] = value[field] as boolean;
  }
  return { ok: true, value: out as TestTallyShort };
}

export function parseFinal(value: unknown): Checked<FinalVerification> {
  if (!isPlainObject(value)) return bad('field final is not a mapping of fields');
  if (!isIsoDate(value['at'])) return bad('field final.at is not an ISO-8601 UTC time');
  if (typeof value['passed'] !== 'boolean') return wrong('final.passed', value['passed'], 'true or false');
  const out: FinalVerification = { at: value['at'] as string, passed: value['passed'], requirements: [] };
  const reqs = list(value['requirements'] ?? [], 'final.requirements', REQUIREMENTS_MAX, parseRequirement);
  if (!reqs.ok) return reqs;
  out.requirements = reqs.value;
  if (value['tests'] !== undefined) {
    const t = parseTally(value['tests']);
    if (!t.ok) return t;
    out.tests = t.value;
  }
  const note = optionalText(value, 'note', 'final.', 2000);
  if (!note.ok) return note;
  if (note.value !== undefined) out.note = note.value;
  return { ok: true, value: out };
}

/** The most weaker-check lines kept, and the longest. */
export const WEAKER_MAX = 50;
const WEAKER_LINE_MAX_CHARS = 1000;

export function parseWeaker(value: unknown): Checked<string[]> {
  return list(value, 'weaker', WEAKER_MAX, (v, at) => text(v, at, WEAKER_LINE_MAX_CHARS));
}
