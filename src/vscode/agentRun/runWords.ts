// The words of the Runs group's rows in the person's language (runRows.ts composes the rows from
// them): the agent-run feature's rows and a build's tries, which are agent runs too.
import * as vscode from 'vscode';
import type { RunWords } from './runRows';

export function runWords(): RunWords {
  return {
    status: {
      running: vscode.l10n.t('running'),
      completed: vscode.l10n.t('completed'),
      failed: vscode.l10n.t('failed'),
      stopped: vscode.l10n.t('stopped'),
      interrupted: vscode.l10n.t('interrupted'),
    },
    inThisWindow: vscode.l10n.t('in this window'),
    started: (when) => vscode.l10n.t('started {0}', when),
    ended: (when) => vscode.l10n.t('ended {0}', when),
    figures: (turns, tokens, cost) => vscode.l10n.t('{0} turns · {1} · {2}', turns, tokens, cost),
    reverted: (when) => vscode.l10n.t('reverted {0}', when),
    created: vscode.l10n.t('created by the run'),
    changed: vscode.l10n.t('changed by the run'),
  };
}
