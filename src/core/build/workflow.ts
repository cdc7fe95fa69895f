// A build's workflow file: the phases in order, each with its role and the check Groundwork makes
// after it. The bundled one is `roles/build.workflow.yaml`; a workspace may replace it with
// `.groundwork/workflows/build.yaml`, which may come from a cloned repository, so the file is read
// like a role file (roleFile.ts): a size cap before parsing, no aliases, one document, and every
// problem named by file, line and field. The file is read from the YAML tree, never expanded.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Node as YamlNode, Pair } from 'yaml';
import { utf8Length } from '../prompt/cap';
import { ROLE_NAME_MAX_CHARS, ROLE_NAME_PATTERN, shown } from '../roles/roleSchema';
import { visibleText } from '../visibleText';
import { PHASE_CHECKS, WORKFLOW_PHASES_MAX } from './buildTypes';
import type { PhaseCheck, Workflow, WorkflowPhase, WorkflowProblem } from './buildTypes';

/** The bundled workflow, in the `roles/` folder of the install. */
export const BUNDLED_WORKFLOW_FILE = 'build.workflow.yaml';
/** A workflow is a few hundred bytes; the cap refuses a file that is something else. */
export const WORKFLOW_FILE_MAX_BYTES = 64 * 1024;
/** A phase name: kebab-case, like a role name. */
export const PHASE_NAME_PATTERN = ROLE_NAME_PATTERN;
export const PHASE_NAME_MAX_CHARS = 64;
export const PHASE_FIELDS = ['name', 'role', 'check'] as const;

export type ParsedWorkflow = { ok: true; workflow: Workflow } | { ok: false; problems: WorkflowProblem[] };

const SHAPE = 'a workflow is `phases:` followed by a list of phases, each with name, role and check';

/** `file:line: field: message`, ready for a terminal or a notification. */
export function workflowProblemText(problem: WorkflowProblem): string {
  const where = problem.line === undefined ? visibleText(problem.file) : `${visibleText(problem.file)}:${problem.line}`;
  return problem.field === undefined
    ? `${where}: ${problem.message}`
    : `${where}: ${problem.field}: ${problem.message}`;
}

/**
 * The workflow in `text`, read from `file` (as shown to people: `roles/build.workflow.yaml`,
 * `.groundwork/workflows/build.yaml`), or every problem found. Structural checks only: whether
 * each role exists is the loader's to say, since roles come from two folders.
 */
export function parseWorkflow(text: string, file: string): ParsedWorkflow {
  const problems: WorkflowProblem[] = [];
  const report = (message: string, line?: number, field?: string): void => {
    const problem: WorkflowProblem = { file, message };
    if (line !== undefined) problem.line = line;
    if (field !== undefined) problem.field = field;
    problems.push(problem);
  };
  const fail = (): ParsedWorkflow => ({ ok: false, problems });

  const bytes = utf8Length(text);
  if (bytes > WORKFLOW_FILE_MAX_BYTES) {
    report(
      `the file is ${bytes} bytes, over the cap of ${WORKFLOW_FILE_MAX_BYTES} bytes for a workflow; a workflow needs a few hundred`,
      1,
    );
    return fail();
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.replace(/^\ufeff/, ''), {
    lineCounter,
    prettyErrors: false,
    strict: true,
    uniqueKeys: true,
  });
  const lineOf = (node: unknown, fallback = 1): number => {
    const offset = (node as YamlNode | null | undefined)?.range?.[0];
    return offset === undefined ? fallback : lineCounter.linePos(offset).line;
  };
  for (const e of [...doc.errors, ...doc.warnings]) {
    const message =
      e.code === 'DUPLICATE_KEY'
        ? 'a field is set twice; keep one of them'
        : `YAML: ${e.message.split('\n', 1)[0] ?? e.message}`;
    report(message, lineCounter.linePos(e.pos[0]).line);
  }
  visit(doc, {
    Alias(_key, node) {
      report('YAML aliases (*name) are not allowed in a workflow; write each value out', lineOf(node));
      return visit.BREAK;
    },
  });
  if (problems.length > 0) return fail();

  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    report(`the file is empty: ${SHAPE}`, 1);
    return fail();
  }
  if (!isMap(contents)) {
    report(`the file must be fields, not a list or a single value: ${SHAPE}`, lineOf(contents));
    return fail();
  }
  let list: unknown;
  let listLine = 1;
  for (const pair of contents.items as Pair[]) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (key === 'phases') {
      list = pair.value;
      listLine = lineOf(pair.key);
    } else
      report(
        `unknown field; a workflow has only phases`,
        lineOf(pair.key),
        typeof key === 'string' ? visibleText(key) : undefined,
      );
  }
  if (list === undefined) {
    report(`missing: ${SHAPE}`, 1, 'phases');
    return fail();
  }
  if (!isSeq(list)) {
    report(
      `must be a list of phases (each line starting with '- '), got ${isMap(list) ? 'fields' : shown(isScalar(list) ? list.value : list)}`,
      listLine,
      'phases',
    );
    return fail();
  }
  if (list.items.length === 0) report('has no phases; a workflow needs at least one', listLine, 'phases');
  if (list.items.length > WORKFLOW_PHASES_MAX)
    report(`has ${list.items.length} phases; the limit is ${WORKFLOW_PHASES_MAX}`, listLine, 'phases');

  const phases: WorkflowPhase[] = [];
  const seen = new Map<string, number>();
  list.items.slice(0, WORKFLOW_PHASES_MAX).forEach((item, index) => {
    const itemLine = lineOf(item, listLine);
    const phase = readPhase(item, index, itemLine, lineOf, report);
    if (phase === undefined) return;
    const earlier = seen.get(phase.name);
    if (earlier !== undefined)
      report(
        `"${phase.name}" is already the name of the phase on line ${earlier}; phase names are unique`,
        phase.nameLine,
        'name',
      );
    else seen.set(phase.name, phase.nameLine);
    if (phase.check === 'brief' && phases.some((p) => p.check === 'brief'))
      report('only one phase may have check brief', phase.checkLine, 'check');
    else if (phase.check === 'brief' && index > 0) {
      report(
        'the brief phase must be the first phase: it names the project folder every later phase works in',
        phase.checkLine,
        'check',
      );
    }
    phases.push({ name: phase.name, role: phase.role, check: phase.check });
  });
  if (problems.length > 0) return fail();
  return { ok: true, workflow: { phases, file } };
}

type Located = WorkflowPhase & { nameLine: number; checkLine: number };
type Report = (message: string, line?: number, field?: string) => void;

/** One phase of the list, or undefined when it has a problem (each reported). */
function readPhase(
  item: unknown,
  index: number,
  itemLine: number,
  lineOf: (node: unknown, fallback?: number) => number,
  report: Report,
): Located | undefined {
  const ordinal = `phase ${index + 1}`;
  if (!isMap(item)) {
    report(
      `${ordinal} must be fields name, role and check (e.g. "- name: qa"), got ${shown(isScalar(item) ? item.value : item)}`,
      itemLine,
    );
    return undefined;
  }
  const values = new Map<string, { value: unknown; line: number }>();
  let ok = true;
  for (const pair of item.items as Pair[]) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    const line = lineOf(pair.key, itemLine);
    if (typeof key !== 'string' || !(PHASE_FIELDS as readonly string[]).includes(key)) {
      report(
        `unknown field in ${ordinal} (known: ${PHASE_FIELDS.join(', ')})`,
        line,
        typeof key === 'string' ? visibleText(key) : undefined,
      );
      ok = false;
      continue;
    }
    values.set(key, {
      value: isScalar(pair.value) ? pair.value.value : pair.value === null ? null : 'a list or fields',
      line: lineOf(pair.value, line),
    });
  }
  const text = (
    field: (typeof PHASE_FIELDS)[number],
    valid: (v: string) => boolean,
    rule: string,
  ): string | undefined => {
    const found = values.get(field);
    if (found === undefined) {
      report(`missing in ${ordinal}; every phase has ${PHASE_FIELDS.join(', ')}`, itemLine, field);
      return undefined;
    }
    if (typeof found.value === 'string' && valid(found.value)) return found.value;
    report(`${shown(found.value)} ${rule}`, found.line, field);
    return undefined;
  };
  const nameRule = `is not a phase name: lower-case words of a-z and 0-9 joined by '-', at most ${PHASE_NAME_MAX_CHARS} characters, e.g. test-writer`;
  const name = text('name', (v) => v.length <= PHASE_NAME_MAX_CHARS && PHASE_NAME_PATTERN.test(v), nameRule);
  const roleRule = `is not a role name: lower-case words joined by '-', at most ${ROLE_NAME_MAX_CHARS} characters, e.g. build-qa`;
  const role = text('role', (v) => v.length <= ROLE_NAME_MAX_CHARS && ROLE_NAME_PATTERN.test(v), roleRule);
  const check = text(
    'check',
    (v) => (PHASE_CHECKS as readonly string[]).includes(v),
    `is not one of ${PHASE_CHECKS.join(', ')}`,
  );
  if (!ok || name === undefined || role === undefined || check === undefined) return undefined;
  return {
    name,
    role,
    check: check as PhaseCheck,
    nameLine: values.get('name')?.line ?? itemLine,
    checkLine: values.get('check')?.line ?? itemLine,
  };
}
