// What each phase of a build is asked to do: the task its agent run is given (the runtime wraps it
// as untrusted data under the role's own prompt). Phases share no conversation: the analyst gets
// the brief's text, every later phase the project folder and where the brief is in it, and a
// developer sent back gets the failure it is to fix. The text is the same for every attempt of a
// phase, so the stable part of the prompt (the role, then this task) is cached across retries.
import { cutText } from '../prompt/cap';
import type { AttemptCause, BuildRecord, PhaseState } from './buildTypes';

/** The most of the brief the analyst's task carries (the runtime caps a task at 20,000 characters). */
export const BRIEF_IN_TASK_MAX_CHARS = 14_000;
/** The most of a failure report a developer sent back is given. */
export const FEEDBACK_IN_TASK_MAX_CHARS = 4_000;

/** Where Groundwork saves the replies of the phases that write no file of their own. */
export const REPLY_FILES: Partial<Record<PhaseState['check'], string>> = {
  brief: 'specs/brief.md',
  verification: 'specs/verification.md',
  review: 'specs/review.md',
};

export function phaseTask(build: BuildRecord, phase: PhaseState, input: string, feedback?: { cause: AttemptCause; text: string }): string {
  if (phase.check === 'brief') return analystTask(build, input);
  const lines = [
    `Carry out the ${phase.name} phase of the Groundwork build of ${build.projectName ?? 'the project'}.`,
    build.mode === 'feature'
      ? 'This build adds a feature to existing code: this folder is the project. The build brief is specs/brief.md.'
      : 'This folder is the project. The build brief is specs/brief.md; what earlier phases wrote is here too.',
  ];
  if (feedback !== undefined) {
    const who = feedback.cause === 'review-changes' ? 'The reviewer requested these changes' : 'QA found the project failing';
    lines.push(`${who}; fix exactly this first, then run the tests again:\n\n${cutText(feedback.text, FEEDBACK_IN_TASK_MAX_CHARS)}`);
  }
  return lines.join('\n\n');
}

function analystTask(build: BuildRecord, input: string): string {
  const brief = cutText(input.trim(), BRIEF_IN_TASK_MAX_CHARS);
  const cut = brief.length < input.trim().length ? '\n\n(The brief was cut here; it is longer than a task may be.)' : '';
  const kind =
    build.mode === 'feature'
      ? 'This build is a feature on the existing code of this folder: read what the brief touches before you write.'
      : 'This build is a new project: a folder of its own in the workspace, named by your PROJECT_NAME (TARGET: existing if the brief plainly asks to change the code already in this workspace).';
  return `Write the build brief for this Idea Brief. ${kind}\n\n${brief}${cut}`;
}
