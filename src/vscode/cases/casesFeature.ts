// Discovery cases in VS Code, the feature's own bundle (dist/cases.js, loaded on first use: the
// explorer finding `.groundwork/cases.jsonl`, a command, or an agent run or build that reports or
// injects discoveries). It holds the window's one CaseService (core/cases' module every front end
// uses: the journal and the views follow each change) over the window's store, the journal of the
// extension's bundle and the folder's git, lists the cases for the explorer's Discoveries group
// (caseRows.ts), carries out the review actions and Add Discovery, and schedules the staleness
// checks (casesSchedule.ts).
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { systemClock } from '../../core/clock';
import { CaseTransitionError } from '../../core/cases/caseActions';
import type { CaseAction } from '../../core/cases/caseActions';
import { discoveryMetrics } from '../../core/cases/caseMetrics';
import { CASE_CONTENT_MAX_CHARS, contentProblem } from '../../core/cases/caseRecord';
import type { CaseImpact, CaseScope } from '../../core/cases/caseRecord';
import { CaseService } from '../../core/cases/caseService';
import type { CaseServiceDeps, StalenessReport } from '../../core/cases/caseService';
import { CaseInputError, CaseNotFoundError } from '../../core/cases/caseStore';
import type { CurateResult, DiscoveryReport } from '../../core/cases/curator';
import { ARCHIVE_OUTDATED_AFTER_DAYS } from '../../core/cases/archival';
import { countChars } from '../../core/inputChecks';
import { GitLogRunner } from '../../core/node/gitLogRunner';
import { CASES_FILE } from '../../core/plan/layout';
import { visibleText } from '../../core/visibleText';
import type { RunLogs } from '../agentRuntime/agentRuntime';
import type { Host } from '../host';
import { casesListing } from './caseRows';
import type { CasesListing } from './caseRows';
import { CasesScheduler } from './casesSchedule';
import { caseWords, impactWords, scopeWords } from './casesWords';
import { Disposable } from '../base/lifecycle';

/** The review actions of a case row's context menu. */
export type CaseCommand = 'edit' | 'delete' | 'promote' | 'validate' | 'outdated' | 'archive' | 'resurrect';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export function createCases(host: Host, changed: () => void, logs: RunLogs): Cases {
  return new Cases(host, changed, logs);
}

/** The window's CaseService; a case it creates (a person's, or an agent run's of this window) asks for a staleness check. */
class WindowCaseService extends CaseService {
  constructor(
    deps: CaseServiceDeps,
    private readonly afterCreate: () => void,
  ) {
    super(deps);
  }

  override async report(report: DiscoveryReport): Promise<CurateResult> {
    const result = await super.report(report);
    if (result.kind === 'created') this.afterCreate();
    return result;
  }
}

export class Cases extends Disposable {
  readonly service: CaseService;
  private readonly scheduler: CasesScheduler;

  constructor(
    private readonly host: Host,
    /** The cases changed: the explorer's Discoveries group is read again. */
    private readonly changed: () => void,
    logs: RunLogs,
  ) {
    super();
    const store = host.workspace.workspaceStore();
    // A case created here (a person's, or a run's of this window): checked soon; the tree follows cases.jsonl's watcher.
    this.service = new WindowCaseService(
      { store, clock: systemClock, hash: sha256, journal: logs.journal(store), git: new GitLogRunner(store.folder) },
      () => this.scheduler.soon(),
    );
    this.scheduler = this._register(
      new CasesScheduler({
        check: () => this.runCheck(),
        mayRun: async () =>
          vscode.workspace.isTrusted && (await store.info(CASES_FILE).catch(() => undefined))?.kind === 'file',
        root: host.workspace.root,
        log: host.log,
      }),
    );
  }

  /** The Discoveries group; undefined while cases.jsonl holds no case and no unreadable line. */
  async listing(): Promise<CasesListing | undefined> {
    const list = await this.service.list();
    if (list.cases.length === 0 && list.problems.length === 0) return undefined;
    const metrics = await this.service.metrics().catch(() => discoveryMetrics(list.cases));
    return casesListing(list, metrics, caseWords(), Date.now(), vscode.env.language);
  }

  /** A review action on case `id`, from its row's context menu. */
  async act(command: CaseCommand, id: string): Promise<void> {
    const action =
      command === 'edit'
        ? await this.editAction(id)
        : command === 'delete'
          ? await this.confirmDelete(id)
          : SIMPLE_ACTIONS[command];
    if (action === undefined) return;
    try {
      const next = await this.service.apply(id, action);
      this.changed();
      vscode.window.setStatusBarMessage(done(command, next.id), 5000);
      await this.viewsFollowed();
    } catch (err) {
      this.refused(err, vscode.l10n.t('{0} could not be changed: {1}', id, message(err)));
    }
  }

  /** `Add Discovery…`: the scope, the content (checked as it is typed), the impact (or Groundwork's judgement). */
  async add(): Promise<string | undefined> {
    const scopes = scopeWords();
    const scope = await vscode.window.showQuickPick(
      [
        {
          label: scopes.global,
          scope: 'global' as CaseScope,
          detail: vscode.l10n.t("Every agent's prompt carries it while it is active."),
        },
        {
          label: scopes.local,
          scope: 'local' as CaseScope,
          detail: vscode.l10n.t('A note kept for review: no prompt carries it until it is promoted to global.'),
        },
      ],
      {
        title: vscode.l10n.t('Add Discovery (1/3)'),
        placeHolder: vscode.l10n.t('Who should know it?'),
        ignoreFocusOut: true,
      },
    );
    if (!scope) return undefined;
    const content = await vscode.window.showInputBox({
      title: vscode.l10n.t('Add Discovery (2/3)'),
      prompt: vscode.l10n.t('What was learned? Say what to do, and name the files, functions or values it concerns.'),
      placeHolder: vscode.l10n.t('e.g. Tests use node --test, not jest: run them with npm test'),
      ignoreFocusOut: true,
      validateInput: contentMessage,
    });
    if (content === undefined || contentMessage(content) !== undefined) return undefined;
    const impacts = impactWords();
    const impact = await vscode.window.showQuickPick(
      [
        {
          label: vscode.l10n.t('Judge from the wording'),
          detail: vscode.l10n.t('Groundwork rates it from the words it uses.'),
        },
        {
          label: impacts.critical,
          impact: 'critical' as CaseImpact,
          detail: vscode.l10n.t('Blocks progress if ignored'),
        },
        { label: impacts.high, impact: 'high' as CaseImpact, detail: vscode.l10n.t('Affects the architecture') },
        { label: impacts.medium, impact: 'medium' as CaseImpact, detail: vscode.l10n.t('Affects the implementation') },
        { label: impacts.low, impact: 'low' as CaseImpact, detail: vscode.l10n.t('Nice to know') },
      ],
      {
        title: vscode.l10n.t('Add Discovery (3/3)'),
        placeHolder: vscode.l10n.t('How much does it matter?'),
        ignoreFocusOut: true,
      },
    );
    if (!impact) return undefined;
    try {
      const result = await this.service.report({
        scope: scope.scope,
        content,
        ...('impact' in impact ? { impact: impact.impact } : {}),
      });
      this.changed();
      if (result.kind === 'duplicate') {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Already known as {0}: nothing new was added.', result.id),
        );
        return result.id;
      }
      const c = result.case;
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Added {0} ({1}, {2}).', c.id, scopes[c.metadata.scope], impacts[c.metadata.impact]),
      );
      if (result.hookError !== undefined) void vscode.window.showWarningMessage(visibleText(result.hookError));
      await this.viewsFollowed();
      return c.id;
    } catch (err) {
      this.refused(err, vscode.l10n.t('The discovery was not added: {0}', message(err)));
      return undefined;
    }
  }

  /** `Check Discoveries for Staleness`: after any check under way, with a notification; Cancel stops waiting, not the check. */
  async checkNow(): Promise<void> {
    const report = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking discoveries for staleness…'),
        cancellable: true,
      },
      (_progress, token) =>
        new Promise<StalenessReport | undefined>((resolve, reject) => {
          token.onCancellationRequested(() => resolve(undefined));
          this.scheduler.check().then(resolve, reject);
        }),
    );
    if (report === undefined) return;
    const { findings, superseded, archived, skipped } = report;
    const text =
      findings.length + superseded.length + archived.length === 0
        ? vscode.l10n.t('Discoveries checked: every active one still holds.')
        : vscode.l10n.t(
            'Discoveries checked: {0} outdated by commits, {1} superseded by newer ones, {2} archived after {3} days outdated.',
            findings.length,
            superseded.length,
            archived.length,
            archiveDays(),
          );
    const note =
      skipped === undefined ? '' : ` ${vscode.l10n.t('Not checked against commits: {0}', visibleText(skipped))}`;
    void vscode.window.showInformationMessage(`${text}${note}`);
  }

  /** The check; the tree is read again only when it changed a case. */
  private async runCheck(): Promise<StalenessReport> {
    const report = await this.service.checkStaleness(archiveDays());
    if (report.findings.length + report.superseded.length + report.archived.length > 0) this.changed();
    return report;
  }

  private async editAction(id: string): Promise<CaseAction | undefined> {
    const c = await this.service.cases.get(id);
    if (c === undefined)
      return void vscode.window.showErrorMessage(vscode.l10n.t('{0} is no longer in .groundwork/cases.jsonl.', id));
    const content = await vscode.window.showInputBox({
      title: vscode.l10n.t('Edit {0}', id),
      prompt:
        c.status === 'outdated'
          ? vscode.l10n.t('Saying what holds now makes it active again.')
          : vscode.l10n.t('What was learned?'),
      value: c.content,
      ignoreFocusOut: true,
      validateInput: contentMessage,
    });
    if (content === undefined || contentMessage(content) !== undefined) return undefined;
    // The box holds one line: a content with line breaks comes back without them when left as it was.
    const unchanged = content === c.content || content === c.content.replace(/[\r\n]/g, '');
    if (unchanged && c.status === 'active') return undefined;
    return { kind: 'edit', content: unchanged ? c.content : content };
  }

  private async confirmDelete(id: string): Promise<CaseAction | undefined> {
    const remove = vscode.l10n.t('Delete');
    const detail = vscode.l10n.t(
      'It stays in .groundwork/cases.jsonl as deleted (no prompt carries it) until it is archived.',
    );
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete {0}?', id),
      { modal: true, detail },
      remove,
    );
    return choice === remove ? { kind: 'delete' } : undefined;
  }

  /** The views are rewritten after each change; when that failed, the person hears it. */
  private async viewsFollowed(): Promise<void> {
    await this.service.settled().catch((err: unknown) => {
      this.host.log.warn('cases: the views could not be rewritten', err);
      void vscode.window.showWarningMessage(
        vscode.l10n.t('.groundwork/discoveries.md could not be rewritten: {0}', message(err)),
      );
    });
  }

  /** A refusal (its sentence) or a failure (logged too), as an error message. */
  private refused(err: unknown, fallback: string): void {
    if (err instanceof CaseTransitionError || err instanceof CaseNotFoundError || err instanceof CaseInputError) {
      void vscode.window.showErrorMessage(message(err));
      return;
    }
    this.host.log.error('cases: an action failed', err);
    void vscode.window.showErrorMessage(fallback);
  }
}

const SIMPLE_ACTIONS: Readonly<Record<Exclude<CaseCommand, 'edit' | 'delete'>, CaseAction>> = {
  promote: { kind: 'promote' },
  validate: { kind: 'validate' },
  outdated: { kind: 'outdated' },
  archive: { kind: 'archive' },
  resurrect: { kind: 'resurrect' },
};

function done(command: CaseCommand, id: string): string {
  switch (command) {
    case 'edit':
      return vscode.l10n.t('{0} edited', id);
    case 'delete':
      return vscode.l10n.t('{0} deleted', id);
    case 'promote':
      return vscode.l10n.t('{0} promoted to global', id);
    case 'validate':
      return vscode.l10n.t('{0} marked validated', id);
    case 'outdated':
      return vscode.l10n.t('{0} marked outdated', id);
    case 'archive':
      return vscode.l10n.t('{0} archived', id);
    case 'resurrect':
      return vscode.l10n.t('{0} resurrected', id);
  }
}

/** What is wrong with content as it is typed, in the person's language; undefined when it can be a case's. */
function contentMessage(content: string): string | undefined {
  if (contentProblem(content) === undefined) return undefined;
  const chars = countChars(content);
  return chars > CASE_CONTENT_MAX_CHARS
    ? vscode.l10n.t('{0} characters; the limit is {1}.', chars, CASE_CONTENT_MAX_CHARS)
    : vscode.l10n.t('Say what was learned.');
}

/** `groundwork.cases.archiveOutdatedAfterDays`, a whole number from 1. */
function archiveDays(): number {
  const days = vscode.workspace
    .getConfiguration('groundwork.cases')
    .get<number>('archiveOutdatedAfterDays', ARCHIVE_OUTDATED_AFTER_DAYS);
  return Number.isSafeInteger(days) && days >= 1 ? days : ARCHIVE_OUTDATED_AFTER_DAYS;
}

function message(err: unknown): string {
  return visibleText(err instanceof Error ? err.message : String(err));
}
