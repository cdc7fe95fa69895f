// `Groundwork: Brainstorm…` and `Groundwork: Resume Brainstorm…`: the topic and the minimum number
// of rounds from the palette, then the questions in the agent panel. Part of the brainstorm's own
// bundle: brainstormContribution.ts registers the commands and calls these on first use.
import * as vscode from 'vscode';
import { DEFAULT_MAX_ROUNDS, DEFAULT_MIN_ROUNDS, ROUNDS_LIMIT } from '../../core/brainstorm/brainstormTypes';
import type { BrainstormController } from './brainstormController';
import { requireTrust } from '../base/trust';
import type { WorkspaceModel } from '../base/workspaceModel';

/** `groundwork.brainstorm.minRounds` / `maxRounds`, kept within 1…20 and min ≤ max. */
export function roundSettings(): { minRounds: number; maxRounds: number } {
  const config = vscode.workspace.getConfiguration('groundwork.brainstorm');
  const clamp = (n: unknown, fallback: number) =>
    Number.isSafeInteger(n) ? Math.min(ROUNDS_LIMIT, Math.max(1, n as number)) : fallback;
  const maxRounds = clamp(config.get('maxRounds'), DEFAULT_MAX_ROUNDS);
  return { minRounds: Math.min(clamp(config.get('minRounds'), DEFAULT_MIN_ROUNDS), maxRounds), maxRounds };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function needFolder(workspace: WorkspaceModel): boolean {
  if (workspace.hasWorkspace) return false;
  void vscode.window.showWarningMessage(
    vscode.l10n.t('Open a folder first: Groundwork keeps the brainstorm in the workspace, under .groundwork/plans/.'),
  );
  return true;
}

/** "Groundwork: Brainstorm…": the topic and the minimum rounds, then round 1 in the panel. */
export async function newBrainstorm(workspace: WorkspaceModel, brainstorm: BrainstormController): Promise<void> {
  if (needFolder(workspace) || !requireTrust(vscode.l10n.t('start a brainstorm'))) return;
  const topic = await vscode.window.showInputBox({
    title: vscode.l10n.t('Brainstorm (1/2)'),
    prompt: vscode.l10n.t(
      'What should be thought through? Three inquisitors question it from the user-experience, technical and edge-case angles.',
    ),
    placeHolder: vscode.l10n.t('e.g. Let customers export their invoices'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Name the topic in a few words.')),
  });
  if (!topic?.trim()) return;
  const { minRounds, maxRounds } = roundSettings();
  const items = Array.from({ length: maxRounds }, (_, i) => i + 1).map((n) => ({
    label: n === 1 ? vscode.l10n.t('At least 1 round') : vscode.l10n.t('At least {0} rounds', n),
    description: n === minRounds ? vscode.l10n.t('default (groundwork.brainstorm.minRounds)') : undefined,
    rounds: n,
  }));
  items.unshift(...items.splice(minRounds - 1, 1));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Brainstorm (2/2): minimum rounds'),
    placeHolder: vscode.l10n.t('After that you choose: more questions, or the summary (at most {0} rounds)', maxRounds),
    ignoreFocusOut: true,
  });
  if (!picked) return;
  await brainstorm.start(topic.trim(), { minRounds: picked.rounds, maxRounds: Math.max(maxRounds, picked.rounds) });
}

/** "Brainstorm Deeper" on the Idea Brief card: a brainstorm of the saved plan, seeded from it. */
export async function brainstormPlan(
  brainstorm: BrainstormController,
  plan: { slug: string; topic: string },
): Promise<void> {
  await brainstorm.start(plan.topic, { ...roundSettings(), seedFrom: plan.slug });
}

/** "Groundwork: Resume Brainstorm…": from the plan explorer (`arg` names the plan) or the palette. */
export async function resumeBrainstorm(
  workspace: WorkspaceModel,
  brainstorm: BrainstormController,
  arg?: unknown,
): Promise<void> {
  if (needFolder(workspace) || !requireTrust(vscode.l10n.t('resume a brainstorm'))) return;
  const given =
    typeof arg === 'object' && arg !== null && 'plan' in arg
      ? (arg as { plan: { slug: string } }).plan.slug
      : typeof arg === 'string'
        ? arg
        : undefined;
  let slug = given;
  try {
    if (slug === undefined) {
      const unfinished = await (await brainstorm.service()).unfinished();
      if (unfinished.length === 0) {
        return void vscode.window.showInformationMessage(
          vscode.l10n.t('There is no unfinished brainstorm. Start one with "Groundwork: Brainstorm…".'),
        );
      }
      const pick = await vscode.window.showQuickPick(
        unfinished.map((u) => ({
          label: u.slug,
          description: vscode.l10n.t('round {0}', u.round),
          detail: u.topic.replace(/\s+/g, ' ').slice(0, 200),
          slug: u.slug,
        })),
        {
          title: vscode.l10n.t('Resume Brainstorm'),
          placeHolder: vscode.l10n.t('Unfinished brainstorms, newest first'),
          matchOnDetail: true,
        },
      );
      if (!pick) return;
      slug = pick.slug;
    }
    const how = await vscode.window.showQuickPick(
      [
        {
          label: `$(debug-continue) ${vscode.l10n.t('Resume')}`,
          detail: vscode.l10n.t('Continue where it stopped; your answers are kept.'),
          how: 'resume' as const,
        },
        {
          label: `$(discard) ${vscode.l10n.t('Discard and Restart')}`,
          detail: vscode.l10n.t('Forget its rounds and start again from round 1 on the same topic.'),
          how: 'restart' as const,
        },
      ],
      { title: vscode.l10n.t('Brainstorm {0} is not finished', slug) },
    );
    if (!how) return;
    await brainstorm.open(slug, how.how);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not resume the brainstorm: {0}', message(err)));
  }
}
