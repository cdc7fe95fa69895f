// Each requirement of a build's specs/requirements.md with the evidence of the final verification:
// passed (green) when at least one test that names it ran and passed and none that names it
// failed, failed (red) when one failed, untested (blue) otherwise — "implemented, no passing test
// names it". A test names a requirement when its name carries the requirement's id (task-001,
// not task-0010) or the test writer's COVERAGE: line maps it to that test. Where the output names
// no test, every requirement stays untested: never green on a command's exit code alone. Only a
// test the test writer wrote counts for green (its name is in a frozen test file): a vacuous test a
// later phase adds under a requirement's id does not.
import { parseAnnotations } from '../annotations/annotationParser';
import { requirementTasks } from '../annotations/specEdits';
import { evidenceText, setRegionEvidence } from '../annotations/regionEvidence';
import { markSpecs, specFiles, specShown } from '../annotations/specWriter';
import type { SpecPorts, SpecWriter } from '../annotations/specWriter';
import type { WorkspaceFs } from '../storage/workspaceFs';
import { REQUIREMENTS_MAX, TESTS_PER_REQUIREMENT_MAX, TEST_NAME_MAX_CHARS } from './buildRecordContract';
import type { RequirementResult } from './buildTypes';
import { readProjectFile } from './phaseCheckFiles';
import type { MarkNote } from './specMarks';
import { IMPLEMENTED_COLOR, PLANNED_COLOR, REQUIREMENTS_PATH } from './specMarks';
import type { CoverageLine } from './testContract';
import type { TestCase, TestTally } from './testResults/testResults';

export const FAILED_COLOR = 'red';

/** Whether the test name `name` carries the id `id` (case aside, not as the start of a longer id). */
export function namesRequirement(name: string, id: string): boolean {
  const hay = name.toLowerCase();
  const needle = id.toLowerCase();
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = hay[at - 1];
    const after = hay[at + needle.length];
    if ((before === undefined || !/[a-z0-9_-]/.test(before)) && (after === undefined || !/[a-z0-9_]/.test(after)))
      return true;
  }
  return false;
}

/** Whether a runner's test and a COVERAGE: line's test are the same test (the runner may prefix its suites). */
function sameTest(test: TestCase, coverage: CoverageLine): boolean {
  const a = test.name.trim().toLowerCase();
  const b = coverage.test.trim().toLowerCase();
  if (a === '' || b === '') return false;
  return a === b || a.endsWith(` ${b}`) || a.endsWith(`> ${b}`) || a.endsWith(`› ${b}`);
}

/** The requirement ids of the project's specs/requirements.md, in order; [] when it has none or cannot be read. */
export async function requirementIds(fs: WorkspaceFs, root: string): Promise<string[]> {
  const file = await readProjectFile({ fs, projectRoot: root }, REQUIREMENTS_PATH);
  if (!file.ok) return [];
  // The requirement lines the architect's pass wrapped in regions, and any it has not.
  const parse = parseAnnotations(file.text);
  const found = [
    ...parse.annotations.flatMap((a) => (a.kind === 'region' ? [{ task: a.task, at: a.offsets.start }] : [])),
    ...requirementTasks(file.text, parse).map((r) => ({ task: r.task, at: r.start })),
  ].sort((a, b) => a.at - b.at);
  const ids: string[] = [];
  for (const { task } of found) if (!ids.includes(task) && ids.length < REQUIREMENTS_MAX) ids.push(task);
  return ids;
}

/** Each requirement's result from the tests of `tally` (undefined: the output could not be read). */
export function judgeRequirements(
  ids: readonly string[],
  tally: TestTally | undefined,
  coverage: readonly CoverageLine[],
  /** Whether a passing test is one the test writer froze (its name is in a frozen test file): only those make a requirement green. */
  frozen: (name: string) => boolean = () => true,
): RequirementResult[] {
  return ids.map((id) => {
    if (tally === undefined || !tally.named) return { id, result: 'untested', tests: [] };
    const mapped = coverage.filter((c) => c.requirement.toLowerCase() === id.toLowerCase());
    const tests = tally.tests.filter((t) => namesRequirement(t.name, id) || mapped.some((c) => sameTest(t, c)));
    // A test a later phase added cannot make its requirement green: a failing one still counts.
    const ran = tests.filter((t) => t.status === 'failed' || (t.status === 'passed' && frozen(t.name)));
    const failed = ran.some((t) => t.status === 'failed');
    const passed = ran.some((t) => t.status === 'passed');
    return {
      id,
      result: failed ? 'failed' : passed ? 'passed' : 'untested',
      tests: ran
        .slice(0, TESTS_PER_REQUIREMENT_MAX)
        .map((t) => `${t.name.slice(0, TEST_NAME_MAX_CHARS - 10)} (${t.status})`),
    };
  });
}

/** Colours each requirement of the project's specs by its result; what it did, for the build's log. Never rejects. */
export async function markRequirementEvidence(
  ports: { fs: WorkspaceFs; writer: SpecWriter | undefined },
  folder: string,
  results: readonly RequirementResult[],
): Promise<MarkNote | undefined> {
  const { writer } = ports;
  if (writer === undefined || results.length === 0) return undefined;
  const refusals = new Map<string, string>();
  const spec: SpecPorts = { fs: ports.fs, writer, refused: (r) => refusals.set(r.path, r.reason) };
  const of = (result: RequirementResult['result']) => results.filter((r) => r.result === result).map((r) => r.id);
  const changed = new Set<string>();
  try {
    for (const [color, tasks] of [
      [IMPLEMENTED_COLOR, of('passed')],
      [FAILED_COLOR, of('failed')],
      [PLANNED_COLOR, of('untested')],
    ] as const) {
      if (tasks.length === 0) continue;
      for (const path of await markSpecs(spec, folder, { color, tasks })) changed.add(path);
    }
  } catch (err) {
    return { text: `the specs could not be marked: ${err instanceof Error ? err.message : String(err)}`, ok: false };
  }
  // Each requirement's tests (or that none names it) after its region, for the editor, the preview and the hover.
  const evidence = new Map(results.map((r) => [r.id, evidenceText(r.result, r.tests)]));
  for (const path of await specFiles(ports.fs, folder)) {
    try {
      if (
        await writer.edit(path, (text) => {
          const next = setRegionEvidence(text, evidence);
          return next === text ? undefined : { text: next };
        })
      )
        changed.add(path);
    } catch (err) {
      refusals.set(path, err instanceof Error ? err.message : String(err));
    }
  }
  const counts = `${of('passed').length} verified (${IMPLEMENTED_COLOR}), ${of('failed').length} failed (${FAILED_COLOR}), ${of('untested').length} with no passing test (${PLANNED_COLOR})`;
  const refused = [...refusals]
    .map(([path, reason]) => `${specShown(folder, path)} could not be marked: ${reason}`)
    .join('; ');
  const text = `requirements by their tests: ${counts}${changed.size > 0 ? ` in ${[...changed].map((p) => specShown(folder, p)).join(', ')}` : ''}`;
  return refused === '' ? { text, ok: true } : { text: `${text}; ${refused}`, ok: false };
}
