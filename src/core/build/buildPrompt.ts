// What each phase of a build is asked to do: the task its agent run is given (the runtime wraps it
// as untrusted data under the role's own prompt). Phases share no conversation: the analyst gets
// the brief's text, every later phase the project folder and where the brief is in it, and a
// developer sent back gets the failure it is to fix. The text is the same for every attempt of a
// phase, so the stable part of the prompt (the role, then this task) is cached across retries.
import { cutText, utf8Length } from '../prompt/cap';
import type { AttemptCause, BuildRecord, PhaseState } from './buildTypes';
import { specFormatName, specInputFiles } from './externalSpec';

/** The most of the brief the analyst's task carries (the runtime caps a task at 20,000 characters). */
export const BRIEF_IN_TASK_MAX_CHARS = 14_000;
/** The most of a failure report a developer sent back is given. */
export const FEEDBACK_IN_TASK_MAX_CHARS = 4_000;

/** The most of one file of a spec the analyst's request carries, in bytes (it may read the rest with its tools). */
export const SPEC_FILE_IN_TASK_MAX_BYTES = 24_000;

/** A text given with a task as a data block of its own, labelled with where it came from (AgentRunRequest.data). */
export interface TaskData {
  source: string;
  text: string;
}

/** Where Groundwork saves the replies of the phases that write no file of their own. */
export const REPLY_FILES: Partial<Record<PhaseState['check'], string>> = {
  brief: 'specs/brief.md',
  verification: 'specs/verification.md',
  review: 'specs/review.md',
};

export function phaseTask(
  build: BuildRecord,
  phase: PhaseState,
  input: string,
  feedback?: { cause: AttemptCause; text: string },
): string {
  if (phase.check === 'brief') return analystTask(build, input);
  const lines = [
    `Carry out the ${phase.name} phase of the Groundwork build of ${build.projectName ?? 'the project'}.`,
    build.mode === 'feature'
      ? 'This build adds a feature to existing code: this folder is the project. The build brief is specs/brief.md.'
      : 'This folder is the project. The build brief is specs/brief.md; what earlier phases wrote is here too.',
  ];
  if (feedback !== undefined) {
    const who =
      feedback.cause === 'review-changes' ? 'The reviewer requested these changes' : 'QA found the project failing';
    lines.push(
      `${who}; fix exactly this first, then run the tests again:\n\n${cutText(feedback.text, FEEDBACK_IN_TASK_MAX_CHARS)}`,
    );
  }
  return lines.join('\n\n');
}

/**
 * The data blocks that go with a phase's task: for the analyst of a build from a spec, each of the
 * spec's files (cut to SPEC_FILE_IN_TASK_MAX_BYTES), labelled with its path; else none.
 */
export function phaseData(build: BuildRecord, phase: PhaseState, input: string): TaskData[] | undefined {
  if (phase.check !== 'brief' || build.input === undefined) return undefined;
  const base = build.input.path === '.' ? '' : `${build.input.path}/`;
  // A hand-edited input.md that no longer splits is given whole, as the one block.
  const files = specInputFiles(input) ?? [{ name: 'input.md', text: input }];
  return files.map((f) => ({ source: `${base}${f.name}`, text: cutText(f.text, SPEC_FILE_IN_TASK_MAX_BYTES) }));
}

function specTask(build: BuildRecord, input: string, kind: string): string {
  const spec = build.input as NonNullable<BuildRecord['input']>;
  const files = specInputFiles(input) ?? [];
  const cut = files.filter((f) => utf8Length(f.text) > SPEC_FILE_IN_TASK_MAX_BYTES).map((f) => f.name);
  const lines = [
    `Write the build brief for the ${specFormatName(spec.format)} at ${spec.path} in this workspace. ${kind}`,
    `Its files (${files.map((f) => f.name).join(', ') || 'input.md'}) follow this task, each in a data block of its own: the requirements, design and tasks someone wrote with another tool. Take their requirements and decisions into your brief; list their tasks as requirements.`,
  ];
  if (cut.length > 0)
    lines.push(
      `${cut.join(', ')} ${cut.length === 1 ? 'was' : 'were'} cut; read the rest from ${spec.path} with your tools.`,
    );
  return lines.join('\n\n');
}

function analystTask(build: BuildRecord, input: string): string {
  const brief = cutText(input.trim(), BRIEF_IN_TASK_MAX_CHARS);
  const cut =
    brief.length < input.trim().length ? '\n\n(The brief was cut here; it is longer than a task may be.)' : '';
  const kind =
    build.mode === 'feature'
      ? 'This build is a feature on the existing code of this folder: read what the brief touches before you write.'
      : 'This build is a new project: a folder of its own in the workspace, named by your PROJECT_NAME (TARGET: existing if the brief plainly asks to change the code already in this workspace).';
  if (build.input !== undefined) return specTask(build, input, kind);
  return `Write the build brief for this Idea Brief. ${kind}\n\n${brief}${cut}`;
}
