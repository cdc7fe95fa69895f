// What keeps a build's "verified" out of its agents' hands (testContract.ts says what is frozen):
// the contract frozen when the test writer's phase passes, checked before the check of every phase
// after it, and the final verification after the last phase — the frozen TEST commands re-run by
// Groundwork, the tests counted (testResults/), and each requirement given the evidence of the
// tests that name it (requirementEvidence.ts). A build is completed only when that passed.
import { readChanges } from '../run/changesFile';
import { VERIFIED_MAX } from './buildRecord';
import type { RunEvent } from '../run/runTypes';
import type { Going, PhaseEnd } from './buildCarry';
import type { BuildDeps } from './buildRunner';
import type { BuildNotes } from './buildNotes';
import type { FinalVerification, PhaseState, BuildRecord, ProjectCommands } from './buildTypes';
import type { CheckOutcome } from './phaseChecks';
import { EVIDENCE_MAX_CHARS } from './phaseChecks';
import { CONTRACT_FILE_MAX_BYTES, contractReader } from './phaseCheckFiles';
import { capText, outputText, shownCommand, shownPath } from './phaseCheckText';
import { runCheckCommand } from './phaseAttempt';
import type { AttemptRequest } from './phaseAttempt';
import { judgeRequirements, markRequirementEvidence, requirementIds } from './requirementEvidence';
import { contractCovers, frozenFilesWithoutTests } from './contractGuards';
import { changeText, contractChanges, freezeContract } from './testContract';
import type { ContractChange, CoverageLine } from './testContract';
import { looksLikeTestFile } from './testFiles';
import { readTestResults } from './testResults/testResults';
import type { TestTally } from './testResults/testResults';

/** What the final verification needs of the build under way. */
export type FinalContext = Pick<AttemptRequest, 'signal' | 'gateState' | 'root' | 'emit'>;

/** What build.yaml keeps of why the final verification failed (buildRecordContract.ts reads at most this). */
export const FINAL_NOTE_MAX_CHARS = 2000;
/** The phase name the final verification's commands are recorded under in build.yaml's `verified`. */
export const FINAL_PHASE = 'final';

export type FinalEnd = { ok: true } | { ok: false; reason: string; evidence?: string };

export class ContractKeeper {
  constructor(
    private readonly deps: BuildDeps,
    private readonly notes: BuildNotes,
  ) {}

  /** Freezes the contract after `phase` (the test writer's) passed; what its run created is where its tests are. */
  async freeze(
    build: BuildRecord,
    phase: PhaseState,
    root: string,
    created: readonly string[],
    coverage: CoverageLine[],
  ): Promise<string | undefined> {
    if (build.commands === undefined) return undefined;
    const read = contractReader(this.deps.store.files, root);
    const contract = await freezeContract(
      {
        phase: phase.name,
        at: this.notes.stamp(),
        commands: build.commands,
        testFiles: created.filter(looksLikeTestFile).slice(0, 1000),
        coverage,
      },
      read,
      this.deps.hash,
    );
    // What cannot be read now (a link out of the folder, a file over the cap) could change unseen later.
    const unreadable = contract.entries.filter((e) => e.sha256 === 'unreadable').map((e) => e.file);
    if (unreadable.length > 0)
      return `The test contract cannot be frozen: ${[...new Set(unreadable)].map(shownPath).join(', ')} cannot be read (a link out of the project folder, or over ${CONTRACT_FILE_MAX_BYTES / 1024 / 1024} MB), so a later change to it could not be seen. Make it a plain file in the project folder.`;
    contract.requirements = await requirementIds(this.deps.store.files, root);
    build.contract = contract;
    const n = contract.tests.length;
    const declared = contract.tests.reduce((sum, t) => sum + t.declared, 0);
    await this.notes.note(
      build,
      `test contract frozen: ${n} test file${n === 1 ? '' : 's'} (${declared} test${declared === 1 ? '' : 's'} declared), ${contract.entries.filter((e) => e.sha256 !== null).length} manifest and config entries, ${contract.requirements?.length ?? 0} requirements`,
    );
    return undefined;
  }

  /** The check made before the check of `phase` when it comes after the contract's phase; undefined when none is due. */
  precheck(build: BuildRecord, phase: PhaseState, root: string): (() => Promise<CheckOutcome | undefined>) | undefined {
    const contract = build.contract;
    if (contract === undefined) return undefined;
    const frozenAt = build.phases.findIndex((p) => p.name === contract.phase);
    if (build.phases.indexOf(phase) <= frozenAt) return undefined;
    return async () => {
      const changes = await this.changes(build, root);
      if (changes.length === 0) return undefined;
      return { passed: false, transient: false, verified: [], ...(await this.changedText(build, changes)) };
    };
  }

  /** The re-check after the last phase: completes the build only when it passes. */
  private async final(build: BuildRecord, ctx: FinalContext): Promise<FinalEnd> {
    const commands: ProjectCommands | undefined = build.commands;
    const at = () => this.notes.stamp();
    if (commands === undefined || commands.test.length === 0) {
      build.final = {
        at: at(),
        passed: true,
        requirements: [],
        note: 'No TEST command was frozen: nothing was re-run.',
      };
      return { ok: true };
    }
    const fail = (reason: string, evidence?: string, final?: Partial<FinalVerification>): FinalEnd => {
      const note = capText(evidence === undefined ? reason : `${reason}\n${evidence}`, FINAL_NOTE_MAX_CHARS);
      build.final = { at: at(), passed: false, requirements: [], note, ...final };
      return { ok: false, reason, ...(evidence !== undefined ? { evidence } : {}) };
    };
    const changes = await this.changes(build, ctx.root);
    if (changes.length > 0) {
      const { reason, evidence } = await this.changedText(build, changes);
      return fail(reason, evidence);
    }
    // A test file written after QA checked the project (delivery's docs/check.test.js) would run
    // in this re-run, unchecked by anyone: refused before it runs.
    const late = await this.testsWrittenAfterQa(build);
    if (late.length > 0) {
      const one = late.length === 1;
      return fail(
        `${late.map((f) => shownPath(f.path)).join(', ')} ${one ? 'is a test file' : 'are test files'} written after QA checked the project (by ${[...new Set(late.map((f) => f.phase))].join(', ')}); the TEST commands would run ${one ? 'it' : 'them'} unchecked. Remove ${one ? 'it' : 'them'} and Resume.`,
      );
    }
    // Every TEST command runs, whatever the one before did: the requirements are marked from all of them.
    const outputs: string[] = [];
    let failure: { reason: string; evidence?: string } | undefined;
    for (const command of commands.test) {
      // The contract was found unchanged just above: the frozen command is exempt from the manifest rule.
      const run = await runCheckCommand(this.deps, ctx, command, {
        frozenContractHolds: build.contract !== undefined && contractCovers(build.contract, command),
      });
      build.verified.push({
        phase: FINAL_PHASE,
        command,
        exitCode: run.ran ? run.exitCode : null,
        ...(run.output !== '' ? { output: outputText(run.output, 2000) } : {}),
      });
      if (!run.ran) failure ??= { reason: `${shownCommand(command)} was not run (${run.refusal ?? 'refused'})` };
      else if (run.exitCode !== 0)
        failure ??= {
          reason: `${shownCommand(command)} ${run.exitCode === null ? 'was stopped before it exited' : `exited ${run.exitCode}`} after the last phase`,
          evidence: capText(`$ ${command}\n${outputText(run.output, EVIDENCE_MAX_CHARS)}`, EVIDENCE_MAX_CHARS),
        };
      if (run.ran) outputs.push(run.output);
    }
    // build.yaml keeps the newest VERIFIED_MAX, as for the phases' checks.
    if (build.verified.length > VERIFIED_MAX) build.verified.splice(0, build.verified.length - VERIFIED_MAX);
    const tally = outputs.length === 0 ? undefined : readTestResults(outputs);
    const declared = (build.contract?.tests ?? []).reduce((sum, t) => sum + t.declared, 0);
    const short = tally === undefined ? undefined : shortTally(tally);
    const evidence = capText(outputs.map((o) => outputText(o, 3000)).join('\n'), EVIDENCE_MAX_CHARS);
    const silent = frozenFilesWithoutTests(
      tally?.filesWithoutTests,
      (build.contract?.tests ?? []).map((t) => t.path),
    );
    if (failure === undefined && tally !== undefined) {
      if (tally.ran === 0) failure = { reason: 'the TEST commands exited 0, but no test ran', evidence };
      else if (silent.length > 0)
        failure = {
          reason: `the frozen test file${silent.length === 1 ? '' : 's'} ${silent.map(shownPath).join(', ')} ran no test (it declares none, or the code it loads ended the run before its tests)`,
          evidence,
        };
      else if (tally.failed > 0)
        failure = {
          reason: `${tally.failed} test${tally.failed === 1 ? '' : 's'} failed though the command exited 0`,
          evidence,
        };
      else if (tally.passed < declared)
        failure = {
          reason: `${tally.passed} test${tally.passed === 1 ? '' : 's'} passed, fewer than the ${declared} the frozen test files declare (skipped or not run)`,
          evidence,
        };
    }
    // The tests that ran say what they say, passed or failed: each requirement gets its evidence either way.
    // The requirements as they were when the contract froze: a later phase cannot drop or re-word one.
    const ids = build.contract?.requirements ?? (await requirementIds(this.deps.store.files, ctx.root));
    const requirements = judgeRequirements(
      ids,
      tally,
      build.contract?.coverage ?? [],
      await this.frozenNames(build, ctx.root),
    );
    const marked = await markRequirementEvidence(
      { fs: this.deps.store.files, writer: this.deps.specs },
      ctx.root,
      requirements,
    );
    if (marked !== undefined) await this.notes.note(build, marked.text, undefined, marked.ok ? 'ok' : 'error');
    const extra = { requirements, ...(short !== undefined ? { tests: short } : {}) };
    if (failure !== undefined) return fail(`Not verified: ${failure.reason}.`, failure.evidence, extra);
    const note =
      tally === undefined
        ? 'The TEST output is in no format Groundwork reads (node, Jest, Vitest, Mocha, pytest, go, cargo, JUnit XML): how many tests ran is not known, and no requirement is marked verified.'
        : !tally.named
          ? 'The TEST output does not name each test: no requirement is marked verified.'
          : undefined;
    build.final = { at: at(), passed: true, ...extra, ...(note !== undefined ? { note } : {}) };
    return { ok: true };
  }

  /** The final verification after the last phase: what decides whether the build is completed. */
  async verifyAtEnd(going: Going, root: string): Promise<PhaseEnd> {
    const { build } = going;
    const last = build.phases[build.phases.length - 1] as PhaseState;
    const name = 'final verification';
    const ctx = {
      root,
      gateState: going.gateState,
      signal: going.signal,
      emit: (event: RunEvent) => going.emit({ type: 'run', phase: last.name, event }),
    };
    let end: FinalEnd;
    try {
      end = await this.final(build, ctx);
    } catch (err) {
      if (going.signal.aborted) return { kind: 'stopped' };
      end = {
        ok: false,
        reason: `The final verification could not run: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    going.emit({
      type: 'checked',
      phase: name,
      passed: end.ok,
      ...(end.ok ? { reason: finalReason(build) } : { reason: end.reason }),
      ...(!end.ok && end.evidence !== undefined ? { evidence: end.evidence } : {}),
    });
    await this.notes.note(
      build,
      `${name} ${end.ok ? 'passed' : `failed: ${end.reason}`}`,
      'build.final',
      end.ok ? 'ok' : 'error',
    );
    return end.ok ? { kind: 'passed' } : { kind: 'failed', reason: `The final verification failed: ${end.reason}` };
  }

  /** Whether a test's name is written in one of the frozen test files (undefined: no contract, any test counts). */
  private async frozenNames(build: BuildRecord, root: string): Promise<((name: string) => boolean) | undefined> {
    if (build.contract === undefined) return undefined;
    const read = contractReader(this.deps.store.files, root);
    const texts: string[] = [];
    for (const t of build.contract.tests) {
      const got = await read(t.path);
      if (got.ok) texts.push(new TextDecoder().decode(got.bytes));
    }
    return (name) => name.trim() !== '' && texts.some((text) => text.includes(name.trim()));
  }

  private async changes(build: BuildRecord, root: string): Promise<ContractChange[]> {
    if (build.contract === undefined) return [];
    return contractChanges(build.contract, contractReader(this.deps.store.files, root), this.deps.hash);
  }

  /** The reason and the evidence of a changed contract: each change, and the phase whose run wrote it (or that a command did). */
  private async changedText(
    build: BuildRecord,
    changes: ContractChange[],
  ): Promise<{ reason: string; evidence: string }> {
    const by = await this.writers(build);
    const lines = changes.map((c) => {
      const phases = by.get(c.file);
      const who =
        phases === undefined
          ? 'not by a file tool of the build (a command, or by hand)'
          : `by phase ${[...phases].join(', ')}`;
      return `- ${changeText(c)}: ${who}`;
    });
    const first = changes[0] as ContractChange;
    const more = changes.length > 1 ? ` and ${changes.length - 1} more` : '';
    return {
      reason: `Test contract changed: ${shownPath(first.file)}${more}. Accept Test Change (or --accept-test-change ${first.file}) if the change is right.`,
      evidence: capText(`What the test writer's phase froze has changed:\n${lines.join('\n')}`, EVIDENCE_MAX_CHARS),
    };
  }

  /** The test files created by the runs of the phases after the last verification phase (QA), with who wrote each. */
  private async testsWrittenAfterQa(build: BuildRecord): Promise<{ path: string; phase: string }[]> {
    const qa = build.phases.map((p) => p.check).lastIndexOf('verification');
    if (qa < 0) return [];
    const out: { path: string; phase: string }[] = [];
    for (const phase of build.phases.slice(qa + 1)) {
      for (const attempt of phase.attempts) {
        if (attempt.runId === undefined) continue;
        const read = await readChanges(this.deps.store, attempt.runId, this.deps.hash);
        if (!read.ok) continue;
        for (const f of read.changes.files)
          if (f.before === null && looksLikeTestFile(f.path) && !out.some((o) => o.path === f.path))
            out.push({ path: f.path, phase: phase.name });
      }
    }
    return out;
  }

  /** Path → the phases after the contract's whose runs wrote it (changes.json). */
  private async writers(build: BuildRecord): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    const from = build.phases.findIndex((p) => p.name === build.contract?.phase);
    for (const phase of build.phases.slice(from + 1)) {
      for (const attempt of phase.attempts) {
        if (attempt.runId === undefined) continue;
        const read = await readChanges(this.deps.store, attempt.runId, this.deps.hash);
        if (!read.ok) continue;
        for (const f of read.changes.files) out.set(f.path, (out.get(f.path) ?? new Set()).add(phase.name));
      }
    }
    return out;
  }
}

function shortTally(t: TestTally): NonNullable<FinalVerification['tests']> {
  return {
    runner: t.runner,
    ran: t.ran,
    passed: t.passed,
    failed: t.failed,
    skipped: t.skipped,
    complete: t.complete,
    named: t.named,
  };
}

/** What the final verification found, in one line: the tests and the requirements. */
function finalReason(build: BuildRecord): string {
  const f = build.final;
  if (f === undefined) return 'passed';
  const t = f.tests;
  const tests = t === undefined ? 'the TEST commands exited 0' : `${t.passed} of ${t.ran} tests passed (${t.runner})`;
  const count = (r: string) => f.requirements.filter((q) => q.result === r).length;
  const reqs =
    f.requirements.length === 0
      ? ''
      : `; requirements: ${count('passed')} verified, ${count('failed')} failed, ${count('untested')} with no passing test`;
  return `${tests}${reqs}${f.note !== undefined ? `. ${f.note}` : ''}`;
}
