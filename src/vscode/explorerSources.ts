// What the plan explorer shows of the features of the folder Groundwork works in: the Discoveries,
// Builds and Runs groups from the sources the features set on Host.services (casesTree.ts,
// buildsTree.ts, runsTree.ts make the rows), and what a plan needs of them (its builds, the cases
// they reported). A source that fails to list is left out, never a broken tree.
import * as vscode from 'vscode';
import type { ExplorerTree } from '../core/explorer/explorerTree';
import { BUILD_FILES, buildFile } from '../core/plan/layout';
import { visibleText } from '../core/visibleText';
import type { BuildsListing, BuildsSource, PhaseRow } from './buildsTree';
import type { CasesRow, CasesSource } from './casesTree';
import type { ExplorerNode } from './explorerNodes';
import { Disposable, Emitter } from './lifecycle';
import type { RunRow, RunsSource } from './runsTree';

export type SourceGroup = 'discoveries' | 'builds' | 'runs';

export class ExplorerSources extends Disposable {
  private readonly changed = this._register(new Emitter<SourceGroup>());
  readonly onDidChange = this.changed.event;
  /** The groups shown the last time the groups were read: their coming or going redraws the root. */
  private readonly lastShown = new Set<SourceGroup>();

  constructor(
    private readonly runs?: RunsSource,
    private readonly buildsSource?: BuildsSource,
    private readonly cases?: CasesSource,
  ) {
    super();
    if (runs) this._register(runs.onDidChange(() => this.changed.fire('runs')));
    if (buildsSource) this._register(buildsSource.onDidChange(() => this.changed.fire('builds')));
    if (cases) this._register(cases.onDidChange(() => this.changed.fire('discoveries')));
  }

  shown(group: SourceGroup): boolean {
    return this.lastShown.has(group);
  }

  builds(): Promise<BuildsListing | undefined> {
    return this.buildsSource?.list().catch(() => undefined) ?? Promise.resolve(undefined);
  }

  /** The groups to show with their counts and tooltips; `record`: remember them as shown. */
  async groups(record = true): Promise<[SourceGroup, { count: number; tooltip?: readonly string[] }][]> {
    const [cases, builds, runs] = await Promise.all([this.cases?.list().catch(() => undefined), this.builds(), this.runs?.list().catch(() => undefined)]);
    const groups: [SourceGroup, { count: number; tooltip?: readonly string[] }][] = [];
    if (cases) groups.push(['discoveries', { count: cases.total, tooltip: cases.tooltip }]);
    if (builds) groups.push(['builds', { count: builds.rows.length + builds.more }]);
    if (runs) groups.push(['runs', { count: runs.rows.length + runs.more }]);
    if (record) {
      this.lastShown.clear();
      for (const [name] of groups) this.lastShown.add(name);
    }
    return groups;
  }

  /** A plan lists the builds made from it and the cases they reported. */
  async relate(tree: ExplorerTree): Promise<void> {
    const [builds, cases] = await Promise.all([this.builds(), this.cases?.list().catch(() => undefined)]);
    tree.setBuildsAndCases(builds?.rows.map((b) => ({ id: b.id, ...(b.plan !== undefined ? { plan: b.plan } : {}) })) ?? [], cases?.related ?? []);
  }

  async caseRows(ids: readonly string[]): Promise<CasesRow[]> {
    return (await this.cases?.list().catch(() => undefined))?.rowsOf(ids) ?? [];
  }

  /** The rows of a source's group; `fileUri` makes a `.groundwork`-relative path a URI (an unreadable build.yaml opens on a click). */
  async groupRows(group: string, fileUri: (rel: string) => vscode.Uri): Promise<ExplorerNode[]> {
    switch (group) {
      case 'discoveries':
        return ((await this.cases?.list().catch(() => undefined))?.rows ?? []).map((row): ExplorerNode => ({ kind: 'case', row }));
      case 'builds': {
        const listing = await this.builds();
        if (!listing) return [];
        return [
          ...listing.rows.map((row): ExplorerNode => ({ kind: 'build', row })),
          ...(listing.more > 0 ? [{ kind: 'note' as const, text: vscode.l10n.t('{0} more in .groundwork/builds/', listing.more) }] : []),
          ...listing.problems.map((p): ExplorerNode => ({
            kind: 'error',
            text: vscode.l10n.t('Build {0} cannot be read: {1}', p.id, p.problem),
            file: fileUri(buildFile(p.id, BUILD_FILES.record)),
          })),
        ];
      }
      case 'runs': {
        const listing = await this.runs?.list().catch(() => undefined);
        if (!listing) return [];
        return [
          ...listing.rows.map((row): ExplorerNode => ({ kind: 'run', row })),
          ...(listing.more > 0 ? [{ kind: 'note' as const, text: vscode.l10n.t('{0} more — use groundwork runs list', listing.more) }] : []),
          ...listing.problems.map((p): ExplorerNode => ({ kind: 'error', text: vscode.l10n.t('Run {0} cannot be read: {1}', p.id, p.problem) })),
        ];
      }
      default:
        return [];
    }
  }

  async phaseTries(row: PhaseRow, via: string | undefined): Promise<ExplorerNode[]> {
    try {
      const tries = (await this.buildsSource?.attempts(row.buildId, row.name)) ?? [];
      return tries.map((t): ExplorerNode => (t.kind === 'run' ? { kind: 'run', row: t.row, via } : { kind: 'note', text: t.text, ...(t.tooltip ? { tooltip: t.tooltip } : {}) }));
    } catch (err) {
      return [{ kind: 'error', text: oneSentence(err) }];
    }
  }

  async runFiles(row: RunRow, under: string): Promise<ExplorerNode[]> {
    try {
      const files = (await this.runs?.files(row.id)) ?? [];
      if (files.length === 0) return [{ kind: 'note', text: vscode.l10n.t('It changed no file.') }];
      return files.map((file) => ({ kind: 'runFile', file, under }));
    } catch (err) {
      // The sentence may name a file of a cloned run folder: one visible line.
      return [{ kind: 'error', text: oneSentence(err) }];
    }
  }
}

function oneSentence(err: unknown): string {
  return visibleText((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim());
}
