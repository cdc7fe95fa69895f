// Accept Test Change: a build failed because a phase changed what the test writer's phase froze
// (a test file, the scripts its TEST command runs, a test config). The person sees each change and
// may accept them as the new contract; the build then resumes with them, and the report lists them.
import * as vscode from 'vscode';
import { pendingTestChanges } from '../../core/build/contractPending';
import { stoppedPhase } from '../../core/build/buildText';
import type { BuildRecord } from '../../core/build/buildTypes';
import type { Sha256 } from '../../core/run/changesFile';
import type { WorkspaceFs } from '../../core/storage/workspaceFs';
import { visibleText } from '../../core/visibleText';

/** The files whose changes the person accepts (undefined: cancelled, or nothing to accept, said). */
export async function askAcceptTestChange(
  fs: WorkspaceFs,
  workspace: string,
  build: BuildRecord,
  hash: Sha256,
): Promise<string[] | undefined> {
  const pending = await pendingTestChanges(fs, workspace, build, hash);
  if (pending.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Nothing of the test contract of build {0} has changed: there is no change to accept.', build.id),
    );
    return undefined;
  }
  const accept = vscode.l10n.t('Accept and Resume');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Accept these changes to the tests of build {0}?', build.id),
    {
      modal: true,
      detail: `${pending.map((p) => `• ${visibleText(p.text)}`).join('\n')}\n\n${vscode.l10n.t(
        'The test writer froze these files so that no later phase could make the tests pass by changing them. Accept only a change you have read and agree with: the build resumes with it, and the report lists it.',
      )}`,
    },
    accept,
  );
  return choice === accept ? pending.map((p) => p.file) : undefined;
}

/** Whether the build failed with changes to its contract pending (what offers the action). */
export async function hasPendingTestChange(
  fs: WorkspaceFs,
  workspace: string,
  build: BuildRecord,
  hash: Sha256,
): Promise<boolean> {
  if (build.status !== 'failed') return false;
  return (await pendingTestChanges(fs, workspace, build, hash).catch(() => [])).length > 0;
}

/**
 * What the person does about a build that failed or was stopped, asked in a notification: Accept
 * Test Change (when its test contract changed), Resume, Rerun Phase (when a phase stopped it),
 * Open Folder.
 */
export async function askAfterFailure(
  build: BuildRecord,
  contractChanged: boolean,
): Promise<'accept' | 'resume' | 'rerun' | 'folder' | undefined> {
  const words = {
    accept: vscode.l10n.t('Accept Test Change'),
    resume: vscode.l10n.t('Resume'),
    rerun: vscode.l10n.t('Rerun Phase'),
    folder: vscode.l10n.t('Open Folder'),
  };
  const actions = [
    ...(contractChanged ? [words.accept] : []),
    words.resume,
    ...(stoppedPhase(build) ? [words.rerun] : []),
    ...(build.projectDir !== undefined ? [words.folder] : []),
  ];
  const reason = visibleText(build.reason ?? '');
  const text =
    build.status === 'stopped'
      ? vscode.l10n.t('Build {0} stopped. {1}', build.id, reason)
      : vscode.l10n.t('Build {0} failed. {1}', build.id, reason);
  const choice = await vscode.window.showWarningMessage(text, ...actions);
  const found = (Object.entries(words) as ['accept' | 'resume' | 'rerun' | 'folder', string][]).find(
    ([, word]) => word === choice,
  );
  return found?.[0];
}
