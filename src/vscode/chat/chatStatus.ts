// /status of the @groundwork chat participant: the sessions the panel shows (discovery, brainstorm),
// the builds and the agent runs, as rows for chatMarkdown's listing. Read only.
import type { BrainstormViewModel } from '../../core/brainstorm/brainstormView';
import type { DiscoveryViewModel } from '../../core/discovery/discoveryView';
import type { StatusRow } from './chatMarkdown';
import { chatText } from './chatWords';
import type { FeatureServices } from '../host';

export interface ChatStatus {
  sessions: StatusRow[];
  builds: StatusRow[];
  moreBuilds: number;
  runs: StatusRow[];
  moreRuns: number;
}

const SHOWN = 10;

export function discoveryRow(view: DiscoveryViewModel): StatusRow | undefined {
  const s = chatText.status;
  switch (view.status) {
    case 'idle':
      return undefined;
    case 'running':
      return { label: chatText.discoveryLabel(view.request), status: s.running() };
    case 'questions':
      return { label: chatText.discoveryLabel(view.request), status: s.questions(view.round, view.maxRounds) };
    case 'failed':
      return { label: chatText.discoveryLabel(view.request), status: s.failed() };
    case 'brief':
      return { label: chatText.discoveryLabel(view.request), status: s.brief() };
    case 'damaged':
      return { label: chatText.discoveryLabel(view.file), status: s.damaged() };
  }
}

export function brainstormRow(view: BrainstormViewModel): StatusRow | undefined {
  const s = chatText.status;
  switch (view.status) {
    case 'none':
      return undefined;
    case 'running':
      return { label: chatText.brainstormLabel(view.topic), status: s.running() };
    case 'questions':
      return { label: chatText.brainstormLabel(view.topic), status: s.questions(view.round, view.maxRounds) };
    case 'failed':
      return { label: chatText.brainstormLabel(view.topic), status: s.failed() };
    case 'complete':
      return { label: chatText.brainstormLabel(view.topic), status: s.complete() };
  }
}

export async function chatStatusRows(
  discovery: DiscoveryViewModel,
  brainstorm: BrainstormViewModel | undefined,
  services: FeatureServices,
): Promise<ChatStatus> {
  const sessions = [discoveryRow(discovery), brainstorm && brainstormRow(brainstorm)].filter(
    (r): r is StatusRow => r !== undefined,
  );
  const [builds, runs] = await Promise.all([
    services.buildList?.().catch(() => undefined),
    services.runList?.().catch(() => undefined),
  ]);
  const buildRows = (builds?.rows ?? []).map((r) => ({ label: r.label, status: r.status, detail: r.description }));
  const runRows = (runs?.rows ?? []).map((r) => ({ label: r.label, status: r.status, detail: r.description }));
  return {
    sessions,
    builds: buildRows.slice(0, SHOWN),
    moreBuilds: Math.max(0, buildRows.length - SHOWN) + (builds?.more ?? 0),
    runs: runRows.slice(0, SHOWN),
    moreRuns: Math.max(0, runRows.length - SHOWN) + (runs?.more ?? 0),
  };
}
