// The words of the Discoveries group's rows in the person's language (caseRows.ts composes the rows
// from them), and the impact and scope names the commands' pickers show.
import * as vscode from 'vscode';
import type { CaseImpact, CaseScope } from '../../core/cases/caseRecord';
import type { CaseWords } from './caseRows';

export function impactWords(): Readonly<Record<CaseImpact, string>> {
  return {
    low: vscode.l10n.t('low'),
    medium: vscode.l10n.t('medium'),
    high: vscode.l10n.t('high'),
    critical: vscode.l10n.t('critical'),
  };
}

export function scopeWords(): Readonly<Record<CaseScope, string>> {
  return { global: vscode.l10n.t('Global'), local: vscode.l10n.t('Local') };
}

export function caseWords(): CaseWords {
  return {
    status: {
      active: vscode.l10n.t('Active'),
      outdated: vscode.l10n.t('Outdated'),
      archived: vscode.l10n.t('Archived'),
      deleted: vscode.l10n.t('Deleted'),
    },
    scope: scopeWords(),
    impact: impactWords(),
    outdatedReason: {
      'affected files modified': vscode.l10n.t('a file it names was changed by a commit'),
      'superseded by newer discovery': vscode.l10n.t('a newer discovery says otherwise'),
      'marked by user': vscode.l10n.t('marked by a person'),
    },
    archiveReason: {
      parent_task_completed: vscode.l10n.t('its task completed'),
      outdated_unreviewed: vscode.l10n.t('outdated and not reviewed in time'),
      user: vscode.l10n.t('archived by a person'),
    },
    validated: vscode.l10n.t('validated'),
    facts: (impact, category, scope) => vscode.l10n.t('Impact: {0} · Category: {1} · {2}', impact, category, scope),
    task: (task) => vscode.l10n.t('Task: {0}', task),
    agent: (agent) => vscode.l10n.t('Agent: {0}', agent),
    byPerson: vscode.l10n.t('Added by a person'),
    created: (when) => vscode.l10n.t('created {0}', when),
    updated: (when) => vscode.l10n.t('updated {0}', when),
    validatedOn: (when) => vscode.l10n.t('validated {0}', when),
    outdated: (when, reason) => vscode.l10n.t('Outdated {0}: {1}', when, reason),
    commit: (hash) => vscode.l10n.t('commit {0}', hash),
    supersededBy: (id) => vscode.l10n.t('Superseded by {0}', id),
    archived: (when, reason) => vscode.l10n.t('Archived {0}: {1}', when, reason),
    resurrected: (when) => vscode.l10n.t('Resurrected {0}', when),
    deleted: (when) => vscode.l10n.t('Deleted {0}', when),
    appliedTo: (n) => (n === 1 ? vscode.l10n.t('Applied to 1 task') : vscode.l10n.t('Applied to {0} tasks', n)),
    more: (n) => vscode.l10n.t('{0} more — use groundwork cases list', n),
    unreadable: (n) =>
      n === 1
        ? vscode.l10n.t('1 line of cases.jsonl cannot be read')
        : vscode.l10n.t('{0} lines of cases.jsonl cannot be read', n),
    line: (n, reason) => vscode.l10n.t('Line {0}: {1}', n, reason),
    moreProblems: (n) => vscode.l10n.t('… and {0} more', n),
    openToFix: vscode.l10n.t(
      'Click to open the file at the first of them. The other cases are shown; these lines are kept as they are.',
    ),
    metrics: {
      total: (n, byStatus) =>
        n === 1
          ? vscode.l10n.t('1 discovery case: {0}', byStatus)
          : vscode.l10n.t('{0} discovery cases: {1}', n, byStatus),
      byScope: (global, local, duplicates) =>
        vscode.l10n.t('{0} global, {1} local · {2} duplicates prevented', global, local, duplicates),
      byImpact: (critical, high, medium, low) =>
        vscode.l10n.t('Impact: {0} critical, {1} high, {2} medium, {3} low', critical, high, medium, low),
      rates: (validated, outdated) => vscode.l10n.t('Validated: {0} · Outdated: {1}', validated, outdated),
      injected: (global, local) =>
        vscode.l10n.t('Each prompt carries {0} global and on average {1} local', global, local),
      sources: (list) => vscode.l10n.t('Learned most in: {0}', list),
    },
  };
}
