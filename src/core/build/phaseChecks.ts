// Groundwork's own check of a build phase's outcome (the `check` of its workflow phase), from the
// disk and from exit codes, never from the model's word. The reply is untrusted text, and so is
// every file of the project folder (the phase's agent wrote them): a file is read only when, with
// every symbolic link resolved, it is still inside the project folder; a command is never run
// here but handed to `runCommand`, where the approval rules apply. Every reason, evidence and
// output returned is capped and made safe to show (visibleText); a rejection of `runCommand` (a
// stop) is passed on.
import type { WorkspaceFs } from '../storage/workspaceFs';
import { visibleText } from '../visibleText';
import type { AnalystBrief, DeliverySummary, PhaseCheck, ProjectCommands, VerifiedCommand } from './buildTypes';
import { parseAnalystBrief, parseDelivery, parseProjectCommands, parseQaVerdict, parseReview } from './markers';
import { lookUp, readProjectFile } from './phaseCheckFiles';
import { cap, capText, outputText, shownCommand, shownLine, shownPath } from './phaseCheckText';
import { looksLikeTestFile } from './testFiles';
import { readTestResults } from './testResults/testResults';
import { frozenFilesWithoutTests } from './contractGuards';

export interface VerifyOutcome {
  ran: boolean;
  exitCode: number | null;
  output: string;
  /** why it did not run (denied, refused unattended, untrusted) */
  refusal?: string;
}

export interface CheckInput {
  /** From the workflow phase. */
  check: PhaseCheck;
  /** The phase's name, for messages and VerifiedCommand.phase. */
  phase: string;
  /** The phase run's whole final reply (model output: untrusted). */
  reply: string;
  /** The absolute path of the project folder the phase ran in. */
  projectRoot: string;
  /** Reads are confined to projectRoot: a path whose real location is outside it is refused. */
  fs: WorkspaceFs;
  /** Paths relative to projectRoot ('/'-separated) that the phase's run created (its changes.json). */
  created: readonly string[];
  /** The project's TEST:/BUILD: commands, once the architect's check passed. */
  commands?: ProjectCommands;
  /** How many tests the frozen test files declare (the test contract): a verification that ran fewer is not verified. */
  declared?: number;
  /** The frozen test files (project-relative): one the runner reports as running no test is not verified. */
  frozenTests?: readonly string[];
  /**
   * Groundwork runs a command itself (approval rules apply inside). `frozenContractHolds`: the
   * command is a frozen TEST:/BUILD: and the test contract was found unchanged just before, so the
   * manifest rule (core/commands/manifests.ts) does not ask again for it.
   */
  runCommand: (command: string, options?: { frozenContractHolds?: boolean }) => Promise<VerifyOutcome>;
  /**
   * Whether a frozen command may skip the manifest rule: the test contract was found unchanged just
   * before this check and covers what the command can reach (testContract.ts's contractCovers).
   */
  exempt?: (command: string) => boolean;
}

export interface CheckOutcome {
  passed: boolean;
  /** One or two sentences a person reads: what was checked and what failed. */
  reason?: string;
  /** What proves it: the command and its output (cut, head and tail), the missing file, the refused lines. */
  evidence?: string;
  /** Worth retrying the same phase (no marker, a malformed reply, a missing file); false for a verified failure. */
  transient?: boolean;
  /** QA FAIL, a VERIFY command that failed, REVIEW: CHANGES: the developer should run again with `feedback`. */
  sendBack?: { to: 'developer'; feedback: string };
  /** Every command Groundwork ran (or tried to) in this check, in order. */
  verified: VerifiedCommand[];
  brief?: AnalystBrief;
  commands?: ProjectCommands;
  summary?: DeliverySummary;
}

export const ARCHITECTURE_FILE = 'specs/architecture.md';
export const USAGE_FILE = 'docs/USAGE.md';
/** Evidence and feedback, in characters (the build record keeps up to 8000). */
export const EVIDENCE_MAX_CHARS = 8000;
/** A verified command's output, in characters. */
export const VERIFIED_OUTPUT_MAX_CHARS = 2000;
/** Created paths looked at for a test file, and named in a failure. */
const CREATED_LOOKED_AT = 200;
const CREATED_NAMED = 10;

/** Checks the outcome of one phase's run as its workflow's `check` says (see buildTypes.ts). */
export async function checkPhase(input: CheckInput): Promise<CheckOutcome> {
  switch (input.check) {
    case 'brief':
      return checkBrief(input.reply);
    case 'architecture':
      return checkArchitecture(input);
    case 'tests-created':
      return checkTestsCreated(input);
    case 'build-command':
      return checkBuildCommand(input);
    case 'verification':
      return checkVerification(input);
    case 'review':
      return checkReview(input.reply);
    case 'delivery':
      return checkDelivery(input);
    case 'none':
      return { passed: true, verified: [] };
    default:
      return failed(`Unknown phase check ${shownLine(String(input.check as unknown))}; nothing was checked.`, false);
  }
}

function checkBrief(reply: string): CheckOutcome {
  const parsed = parseAnalystBrief(reply);
  if (!parsed.ok) return failed(`The analyst's reply is not a brief: ${parsed.reason}.`, true, replyEvidence(reply));
  return {
    passed: true,
    reason: `The brief names the project ${parsed.brief.projectName}.`,
    verified: [],
    brief: parsed.brief,
  };
}

async function checkArchitecture(input: CheckInput): Promise<CheckOutcome> {
  const file = await readProjectFile(input, ARCHITECTURE_FILE);
  if (!file.ok) return failed(file.reason, true);
  if (file.text.trim() === '') return failed(`${ARCHITECTURE_FILE} is empty.`, true);
  const { ignored, ...commands } = parseProjectCommands(file.text);
  const refused =
    ignored.length === 0
      ? undefined
      : `Lines of ${ARCHITECTURE_FILE} not used:\n${ignored.map((l) => `- ${visibleText(l)}`).join('\n')}`;
  if (commands.test.length === 0)
    return failed(`${ARCHITECTURE_FILE} names no test command: it needs a line \`TEST: <command>\`.`, true, refused);
  const tests = commands.test.map(shownCommand).join(', ');
  const build = commands.build === undefined ? 'no build command' : `the build command ${shownCommand(commands.build)}`;
  return {
    passed: true,
    reason: cap(
      `${ARCHITECTURE_FILE} names the test command${commands.test.length === 1 ? '' : 's'} ${tests} and ${build}.`,
    ),
    ...(refused === undefined ? {} : { evidence: refused }),
    verified: [],
    commands,
  };
}

async function checkTestsCreated(input: CheckInput): Promise<CheckOutcome> {
  const candidates = input.created.filter(looksLikeTestFile).slice(0, CREATED_LOOKED_AT);
  const named = (paths: readonly string[]) =>
    paths.slice(0, CREATED_NAMED).map(shownPath).join(', ') + (paths.length > CREATED_NAMED ? ', …' : '');
  if (candidates.length === 0) {
    const what =
      input.created.length === 0
        ? 'created no file at all'
        : `created ${input.created.length} file${input.created.length === 1 ? '' : 's'} (${named(input.created)}), none of them a test file`;
    return failed(cap(`The ${shownLine(input.phase)} run ${what}.`), true);
  }
  const gone: string[] = [];
  for (const path of candidates) {
    const found = await lookUp(input, path);
    if (found.ok && found.kind === 'file' && found.size > 0)
      return { passed: true, reason: cap(`The run created the test file ${shownPath(path)}.`), verified: [] };
    gone.push(
      `${shownPath(path)} ${!found.ok ? found.why : found.kind === 'file' ? 'is empty' : `is a ${found.kind === 'directory' ? 'folder' : 'special file'}, not a file`}`,
    );
  }
  return failed(
    cap(`None of the test files the run created is still there as a file with content (${named(candidates)}).`),
    true,
    capText(gone.join('\n'), EVIDENCE_MAX_CHARS),
  );
}

async function checkBuildCommand(input: CheckInput): Promise<CheckOutcome> {
  const build = input.commands?.build;
  if (build === undefined) return { passed: true, reason: 'no build step', verified: [] };
  const run = await runVerified(input, build);
  if (run.ok)
    return { passed: true, reason: `The build command ${shownCommand(build)} exited 0.`, verified: [run.verified] };
  return failed(`The build command ${shownCommand(build)} ${run.ended}.`, false, run.evidence, [run.verified]);
}

async function checkVerification(input: CheckInput): Promise<CheckOutcome> {
  const qa = parseQaVerdict(input.reply);
  const refusedLines =
    qa.ignored.length === 0
      ? ''
      : `\nVERIFY lines not used:\n${qa.ignored.map((l) => `- ${visibleText(l)}`).join('\n')}`;
  if (qa.verdict === 'none') {
    return failed(
      'The QA reply has no VERIFICATION line (`VERIFICATION: PASS` or `VERIFICATION: FAIL` on its own line).',
      true,
      replyEvidence(input.reply),
    );
  }
  if (qa.verdict === 'fail') {
    const why = qa.reason === undefined ? '' : `: ${shownLine(qa.reason.split('\n')[0] ?? '')}`;
    const feedback = capText(input.reply, EVIDENCE_MAX_CHARS);
    return {
      ...failed(cap(`QA reported VERIFICATION: FAIL${why}`), false, feedback),
      sendBack: { to: 'developer', feedback },
    };
  }
  if (qa.verify.length === 0) {
    return failed(
      'Claimed but not verified: the QA reply lists no VERIFY: commands, so Groundwork had nothing to re-run.',
      true,
      refusedLines.trim() || undefined,
    );
  }
  // QA's commands in order, then the architecture's TEST commands QA did not list: a PASS must hold
  // for the project's own tests, not only for the commands QA chose.
  const commands = [...qa.verify, ...(input.commands?.test ?? []).filter((c) => !qa.verify.includes(c))];
  const verified: VerifiedCommand[] = [];
  const testOutputs: string[] = [];
  for (const command of commands) {
    const run = await runVerified(input, command);
    verified.push(run.verified);
    if (run.ok) {
      if (input.commands?.test.includes(command)) testOutputs.push(run.full);
      continue;
    }
    const reason = cap(
      `Claimed but not verified: QA reported VERIFICATION: PASS, but ${shownCommand(command)} ${run.ended}.`,
    );
    const evidence = capText(`${run.evidence}${refusedLines}`, EVIDENCE_MAX_CHARS);
    // A refusal is the person's (or the unattended rules') answer: another developer run cannot change it.
    if (run.refused) return failed(reason, false, evidence, verified);
    const feedback = capText(
      `QA reported VERIFICATION: PASS, but Groundwork re-ran ${shownCommand(command)} and it ${run.ended}:\n${run.output}`,
      EVIDENCE_MAX_CHARS,
    );
    return { ...failed(reason, false, evidence, verified), sendBack: { to: 'developer', feedback } };
  }
  const counted = countedProblem(testOutputs, input.declared ?? 0, input.frozenTests ?? []);
  if (counted !== undefined) {
    const reason = cap(`Claimed but not verified: QA reported VERIFICATION: PASS, but ${counted}.`);
    const evidence = capText(testOutputs.map((o) => outputText(o, 3000)).join('\n'), EVIDENCE_MAX_CHARS);
    const feedback = capText(
      `QA reported VERIFICATION: PASS, but Groundwork re-ran the TEST commands and ${counted}:\n${evidence}`,
      EVIDENCE_MAX_CHARS,
    );
    return { ...failed(reason, false, evidence, verified), sendBack: { to: 'developer', feedback } };
  }
  const n = verified.length;
  return {
    passed: true,
    reason: `VERIFICATION: PASS verified: Groundwork re-ran ${n === 1 ? 'the command' : `all ${n} commands`} and ${n === 1 ? 'it' : 'each'} exited 0.`,
    ...(refusedLines === '' ? {} : { evidence: refusedLines.trim() }),
    verified,
  };
}

function checkReview(reply: string): CheckOutcome {
  const review = parseReview(reply);
  if (review.verdict === 'approved') return { passed: true, reason: 'REVIEW: APPROVED', verified: [] };
  if (review.verdict === 'none')
    return failed(
      'The review reply has no `REVIEW: APPROVED` or `REVIEW: CHANGES_REQUESTED` line.',
      true,
      replyEvidence(reply),
    );
  const feedback = review.reasons ?? capText(reply, EVIDENCE_MAX_CHARS);
  // What a person reads first: the first blocking finding, else the first line that says something.
  const lines = (review.reasons ?? '').split('\n').map((l) => l.trim());
  const first = lines.find((l) => l.includes('[blocking]')) ?? lines.find((l) => l !== '' && !l.endsWith(':'));
  const why = first === undefined ? 'no reasons given' : shownLine(first.replace(/^[-*+]\s+/, ''));
  return {
    ...failed(cap(`The reviewer requested changes: ${why}`), false, feedback),
    sendBack: { to: 'developer', feedback },
  };
}

async function checkDelivery(input: CheckInput): Promise<CheckOutcome> {
  const parsed = parseDelivery(input.reply);
  const usage = await readProjectFile(input, USAGE_FILE, true);
  const problems: string[] = [];
  if (!parsed.ok) problems.push(parsed.reason);
  if (!usage.ok) problems.push(usage.reason.replace(/\.$/, ''));
  else if (usage.text.trim() === '') problems.push(`${USAGE_FILE} is empty`);
  if (!parsed.ok || problems.length > 0) {
    return failed(
      cap(`Delivery is not complete: ${problems.join('; ')}.`),
      true,
      parsed.ok ? undefined : replyEvidence(input.reply),
    );
  }
  return {
    passed: true,
    reason: `BUILD_COMPLETE with its summary, and ${USAGE_FILE} written.`,
    verified: [],
    summary: parsed.summary,
  };
}

// ---- commands ----

type Run =
  /** `full`: the whole output (as the runner captured it), for counting the tests. */
  | { ok: true; verified: VerifiedCommand; full: string }
  /** `ended`: 'exited 1', 'was not run (why)'; `output`: the command's (or the refusal), cut and made visible. */
  | { ok: false; refused: boolean; ended: string; evidence: string; output: string; verified: VerifiedCommand };

/** Runs `command` through input.runCommand: what it proves, recorded. A rejection (a stop) is passed on. */
async function runVerified(input: CheckInput, command: string): Promise<Run> {
  const frozen =
    (input.commands?.test.includes(command) === true || input.commands?.build === command) &&
    input.exempt?.(command) === true;
  const outcome = await input.runCommand(command, frozen ? { frozenContractHolds: true } : {});
  if (!outcome.ran) {
    const why = shownLine(outcome.refusal ?? 'no reason given');
    const verified = { phase: input.phase, command, exitCode: null, output: why };
    return {
      ok: false,
      refused: true,
      ended: `was not run (${why})`,
      evidence: capText(`$ ${command}\nnot run: ${why}`, EVIDENCE_MAX_CHARS),
      output: why,
      verified,
    };
  }
  const verified: VerifiedCommand = { phase: input.phase, command, exitCode: outcome.exitCode };
  const short = outputText(outcome.output, VERIFIED_OUTPUT_MAX_CHARS);
  if (short !== '') verified.output = short;
  if (outcome.exitCode === 0) return { ok: true, verified, full: outcome.output };
  const ended = outcome.exitCode === null ? 'was stopped before it exited' : `exited ${outcome.exitCode}`;
  const output = outputText(outcome.output, EVIDENCE_MAX_CHARS);
  const evidence = capText(`$ ${command}\n${output}\n(${ended})`, EVIDENCE_MAX_CHARS);
  return { ok: false, refused: false, ended, evidence, output, verified };
}

/** What the TEST commands' outputs say is wrong with the tests that ran (none ran, fewer than declared, some failed); undefined when nothing, or when no runner's output is recognised. */
function countedProblem(outputs: readonly string[], declared: number, frozen: readonly string[]): string | undefined {
  if (outputs.length === 0) return undefined;
  const tally = readTestResults(outputs);
  if (tally === undefined) return undefined;
  if (tally.ran === 0) return 'no test ran (the TEST commands exited 0 with 0 tests)';
  const silent = frozenFilesWithoutTests(tally.filesWithoutTests, frozen);
  if (silent.length > 0)
    return `the frozen test file${silent.length === 1 ? '' : 's'} ${silent.map(shownPath).join(', ')} ran no test (it declares none, or the code it loads ended the run before its tests)`;
  if (tally.failed > 0)
    return `${tally.failed} test${tally.failed === 1 ? '' : 's'} failed though the command exited 0`;
  if (tally.passed < declared)
    return `${tally.passed} test${tally.passed === 1 ? '' : 's'} passed, fewer than the ${declared} the frozen test files declare (skipped or not run)`;
  return undefined;
}

// ---- text ----

function failed(reason: string, transient: boolean, evidence?: string, verified: VerifiedCommand[] = []): CheckOutcome {
  const outcome: CheckOutcome = { passed: false, reason: cap(reason), transient, verified };
  if (evidence !== undefined && evidence !== '') outcome.evidence = evidence;
  return outcome;
}

/** The head of a malformed reply, as evidence. */
function replyEvidence(reply: string): string {
  return reply.trim() === '' ? 'The reply was empty.' : `The reply:\n${capText(reply, VERIFIED_OUTPUT_MAX_CHARS)}`;
}
