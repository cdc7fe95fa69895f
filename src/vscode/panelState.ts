// From what the workspace holds to what the panel shows. No vscode import: unit-tested.
import type { BrainstormPanelView, DiscoveryPanelView, DismissibleNotice, JournalEntryView, ModelView, Notice, PanelState, SleeperView } from '../shared/protocol';
import { sleeperStatus } from '../core/sleep/sleepLog';
import type { WorkspaceView } from './workspaceModel';

/** How many journal entries the panel lists; the rest are a click away in the file. */
export const JOURNAL_PAGE = 50;

export interface PanelContext {
  trusted: boolean;
  hasWorkspace: boolean;
  now: number;
  model: ModelView;
  discovery: DiscoveryPanelView;
  /** Defaults to none. */
  brainstorm?: BrainstormPanelView;
  notice?: Notice;
  /** Defaults to none. */
  notices?: DismissibleNotice[];
}

export function toPanelState(view: WorkspaceView, ctx: PanelContext): PanelState {
  let journal: PanelState['journal'];
  if ('error' in view.journal) {
    journal = { entries: [], total: 0, skipped: 0, error: view.journal.error };
  } else {
    const { records, problems } = view.journal;
    const entries: JournalEntryView[] = records
      .slice(-JOURNAL_PAGE)
      .reverse()
      .map((r) => ({
        timestamp: r.timestamp,
        title: r.title,
        description: r.description,
        ...(r.scope ? { scope: r.scope } : {}),
        ...(r.agent ? { agent: r.agent } : {}),
      }));
    const unread = problems.find((p) => p.unreadLines !== undefined);
    journal = {
      entries,
      total: records.length,
      skipped: problems.filter((p) => p !== unread).length,
      ...(unread ? { partial: `The journal is large: ${unread.reason}.` } : {}),
    };
  }
  const sleepers: SleeperView[] =
    'error' in view.sleepers
      ? []
      : view.sleepers.map((s) => {
          const { expired, status } = sleeperStatus(s.state, ctx.now);
          return { agent: s.agent, remaining: status, overdue: expired };
        });
  const notice =
    ctx.notice ?? ('error' in view.sleepers ? { kind: 'error' as const, text: view.sleepers.error } : undefined);
  return { trusted: ctx.trusted, hasWorkspace: ctx.hasWorkspace, journal, sleepers, model: ctx.model, discovery: ctx.discovery, brainstorm: ctx.brainstorm ?? { status: 'none' }, notices: ctx.notices ?? [], ...(notice ? { notice } : {}) };
}
