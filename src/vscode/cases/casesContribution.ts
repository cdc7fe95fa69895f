// Discovery cases: the Discoveries group of the plan explorer (casesGroup.ts, registered with it),
// the review actions of its context menu, `Add Discovery…` and `Check Discoveries for Staleness`,
// and the window's CaseService for the features that run agents (Host.services.discoveries). The
// service, the rows and the staleness checks are a bundle of their own (casesFeature.ts →
// dist/cases.js), loaded when the explorer finds `.groundwork/cases.jsonl`, a command runs, or an
// agent run or a build needs the cases: activation registers, and reads nothing.
import * as vscode from 'vscode';
import { CASES_FILE } from '../../core/plan/layout';
import { visibleText } from '../../core/visibleText';
import type { CaseCommand, Cases } from './casesFeature';
import { errorRow } from './caseRows';
import type { CasesListing, CasesRow } from './caseRows';
import { casesGroup, type CasesGroupSource } from './casesGroup';
import { revealCase } from './caseReveal';
import type { Contribution } from '../host';
import { Disposable, DisposableStore, toDisposable } from '../base/lifecycle';
import { rowValue } from '../explorer/explorerGroups';
import { RUN_LOGS } from '../agentRuntime/runLogs';
import { requireTrust } from '../base/trust';
import { WatchedListing } from '../base/watchedListing';
import type { WorkspaceModel } from '../base/workspaceModel';

/** The feature's code, on first use: a bundle of its own (esbuild.mjs makes this require load dist/cases.js). */
const load = (): typeof import('./casesFeature') => require('./casesFeature');

export const casesContribution: Contribution = {
  id: 'cases',
  register(host) {
    const store = new DisposableStore();
    let feature: Cases | undefined;
    const cases = () => (feature ??= store.add(load().createCases(host, () => source.changed(), RUN_LOGS)));
    const source = store.add(new LazyCasesSource(host.workspace, cases));
    store.add(host.explorer.register(casesGroup(source)));
    host.services.casesChanged = source.onDidChange;
    host.services.discoveries = () => cases().service;
    host.services.addDiscovery = async () => {
      let id: string | undefined;
      await writing(vscode.l10n.t('add a discovery'), async (c) => void (id = await c.add()))();
      return id;
    };
    store.add(
      toDisposable(() => {
        delete host.services.casesChanged;
        delete host.services.discoveries;
        delete host.services.addDiscovery;
      }),
    );
    /** A command that changes the cases: a folder, trust, then the feature, with what went wrong said. */
    const writing = (what: string, fn: (cases: Cases) => Promise<void>) => async () => {
      if (!host.workspace.hasWorkspace)
        return void vscode.window.showWarningMessage(
          vscode.l10n.t('Open a folder first: discoveries are kept in its .groundwork/cases.jsonl.'),
        );
      if (!requireTrust(what)) return;
      try {
        await fn(cases());
      } catch (err) {
        host.log.error('cases: a command failed', err);
        void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
      }
    };
    /** A review action of a case row's context menu, on the row it was opened on; or of a hover's link, on the case it names. */
    const caseId = (node: unknown) => {
      const row = rowValue<CasesRow>(node, 'case');
      return row?.kind === 'case' ? row.id : undefined;
    };
    const onCase = (action: CaseCommand) => (node?: unknown) => {
      const id = typeof node === 'string' ? (/^disc-\d{3,9}$/.test(node) ? node : undefined) : caseId(node);
      if (id === undefined) return;
      return writing(vscode.l10n.t('change a discovery'), (c) => c.act(action, id))();
    };
    const registered = [
      vscode.commands.registerCommand(
        'groundwork.cases.add',
        writing(vscode.l10n.t('add a discovery'), async (c) => void (await c.add())),
      ),
      vscode.commands.registerCommand(
        'groundwork.cases.checkStaleness',
        writing(vscode.l10n.t('check discoveries for staleness'), (c) => c.checkNow()),
      ),
      vscode.commands.registerCommand('groundwork.cases.edit', onCase('edit')),
      vscode.commands.registerCommand('groundwork.cases.validate', onCase('validate')),
      vscode.commands.registerCommand('groundwork.cases.markOutdated', onCase('outdated')),
      vscode.commands.registerCommand('groundwork.cases.promote', onCase('promote')),
      vscode.commands.registerCommand('groundwork.cases.archive', onCase('archive')),
      vscode.commands.registerCommand('groundwork.cases.resurrect', onCase('resurrect')),
      vscode.commands.registerCommand('groundwork.cases.delete', onCase('delete')),
      vscode.commands.registerCommand('groundwork.cases.copyId', async (node?: unknown) => {
        const id = caseId(node);
        if (id === undefined) return;
        await vscode.env.clipboard.writeText(id);
        vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', id), 3000);
      }),
      vscode.commands.registerCommand('groundwork.cases.reveal', (id: unknown) => revealCase(host.explorer, id)),
      vscode.commands.registerCommand('groundwork.cases.openFile', async (arg?: unknown) => {
        const uri = host.workspace.fileUri(CASES_FILE);
        if (!uri) return;
        const row = rowValue<CasesRow>(arg, 'case');
        const line = typeof arg === 'number' ? arg : row?.kind === 'problem' ? row.line : undefined;
        const at =
          line !== undefined && Number.isSafeInteger(line) && line >= 1
            ? new vscode.Range(line - 1, 0, line - 1, 0)
            : undefined;
        await vscode.window.showTextDocument(uri, at ? { selection: at } : {});
      }),
    ];
    for (const disposable of registered) store.add(disposable);
    return store;
  },
};

/**
 * The cases for the explorer, without loading the feature while `.groundwork/cases.jsonl` does not
 * exist. Read again when the file changes on disk (this window, another, the CLI) or the feature
 * says so (watchedListing.ts).
 */
class LazyCasesSource extends Disposable implements CasesGroupSource {
  private readonly listing: WatchedListing<CasesListing>;
  readonly onDidChange: vscode.Event<void>;

  constructor(
    private readonly workspace: WorkspaceModel,
    private readonly feature: () => Cases,
  ) {
    super();
    this.listing = this._register(new WatchedListing(workspace, CASES_FILE, () => this.read(), unreadable));
    this.onDidChange = this.listing.onDidChange;
  }

  list(): Promise<CasesListing | undefined> {
    return this.listing.list();
  }

  refresh(): void {
    this.listing.changed();
  }

  changed(): void {
    this.listing.changed();
  }

  private async read(): Promise<CasesListing | undefined> {
    const info = await this.workspace.workspaceStore().info(CASES_FILE);
    return info === undefined ? undefined : this.feature().listing();
  }
}

/** The group when the file itself cannot be read (too large, a folder, no permission): one error row. */
function unreadable(err: unknown): CasesListing {
  const label = vscode.l10n.t(
    '.groundwork/cases.jsonl cannot be read: {0}',
    visibleText((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 300)),
  );
  return {
    rows: [errorRow(label, [label])],
    total: 0,
    tooltip: [],
    related: [],
    rowsOf: () => [],
  };
}
