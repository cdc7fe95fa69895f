// When this window checks its discovery cases for staleness (docs/discovery-cases.md, "Outdated
// detection"): soon after a case is created here, after commits (the folder's `.git/HEAD` or
// `.git/logs/HEAD` changes; debounced), and every few minutes while the window has the focus (no
// timer while it has not) — only in a trusted workspace whose cases.jsonl exists. Never two checks
// at once: one asked for while another runs waits for it, and every ask meanwhile shares it. When
// the check cannot use git, the reason is said once per window. Made with the feature's bundle, on
// first use: activation starts nothing.
import * as vscode from 'vscode';
import type { StalenessReport } from '../../core/cases/caseService';
import { visibleText } from '../../core/visibleText';
import { Disposable, toDisposable } from '../base/lifecycle';

/** Commits and cases created in a burst cost one check. */
export const CHECK_DEBOUNCE_MS = 2000;
/** The periodic check while the window is focused. */
export const CHECK_EVERY_MS = 5 * 60 * 1000;

export interface ScheduleDeps {
  /** The check itself (CaseService.checkStaleness with the setting's days). */
  check(): Promise<StalenessReport>;
  /** Whether a check that nobody asked for may run now: a trusted folder with a cases.jsonl. */
  mayRun(): Promise<boolean>;
  /** The workspace folder, whose `.git/` is watched. */
  root: vscode.Uri | undefined;
  log: vscode.LogOutputChannel;
}

export class CasesScheduler extends Disposable {
  private chain: Promise<unknown> = Promise.resolve();
  /** The check asked for that has not begun: every caller meanwhile gets it. */
  private pending: Promise<StalenessReport> | undefined;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private interval: ReturnType<typeof setInterval> | undefined;
  private lastCheck = 0;
  private toldSkipped = false;

  constructor(private readonly deps: ScheduleDeps) {
    super();
    this._register(
      toDisposable(() => {
        clearTimeout(this.debounce);
        clearInterval(this.interval);
      }),
    );
    if (deps.root) {
      const watcher = this._register(
        vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(deps.root, '.git/{HEAD,logs/HEAD}')),
      );
      for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete])
        this._register(event(() => this.soon()));
    }
    this._register(vscode.window.onDidChangeWindowState((state) => this.focused(state.focused)));
    this.focused(vscode.window.state.focused);
  }

  /** A check in CHECK_DEBOUNCE_MS, unless another trigger comes first (then from that one). */
  soon(): void {
    if (this.isDisposed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.unasked();
    }, CHECK_DEBOUNCE_MS);
  }

  /** A check now, after the one under way if any: what `Check Discoveries for Staleness` waits for. */
  check(): Promise<StalenessReport> {
    if (this.pending) return this.pending;
    const next = this.chain.then(() => {
      this.pending = undefined;
      this.lastCheck = Date.now();
      return this.deps.check();
    });
    this.pending = next;
    this.chain = next.catch(() => undefined);
    return next;
  }

  private focused(focused: boolean): void {
    if (this.isDisposed) return;
    if (!focused) {
      clearInterval(this.interval);
      this.interval = undefined;
      return;
    }
    if (this.interval !== undefined) return;
    this.interval = setInterval(() => void this.unasked(), CHECK_EVERY_MS);
    // The first focus, or back after a while away: the check the timer would have made meanwhile.
    if (Date.now() - this.lastCheck >= CHECK_EVERY_MS) this.soon();
  }

  /** A scheduled check: only where it may run; its failure is logged, and a skipped git check said once. */
  private async unasked(): Promise<void> {
    try {
      if (this.isDisposed || !(await this.deps.mayRun())) return;
      const report = await this.check();
      if (report.skipped !== undefined && !this.toldSkipped) {
        this.toldSkipped = true;
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Discoveries are not checked against commits in this window: {0}', visibleText(report.skipped)),
        );
      }
    } catch (err) {
      this.deps.log.warn('cases: the scheduled staleness check failed', err);
    }
  }
}
