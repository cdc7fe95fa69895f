// The panel's discovery conversation, read without touching anything: for Restricted Mode, where
// DiscoveryService.view() may not be called, because it removes (and audits) a round file it finds
// expired. Here an expired session is only reported as expired; the file stays until a trusted
// window sweeps it. No vscode import: unit-tested (test/unit/vscode/discovery/discoveryPeek.test.ts).
import { isExpired } from '../../core/discovery/discoveryMachine';
import { toView } from '../../core/discovery/discoveryOutcomes';
import type { DiscoveryView } from '../../core/discovery/discoveryTypes';
import { parseRoundFile, roundFileRel, ROUND_FILE_MAX_BYTES } from '../../core/discovery/roundFile';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';

export type DiscoveryPeek =
  | { kind: 'none' }
  | { kind: 'live'; view: DiscoveryView }
  | { kind: 'expired'; request: string }
  /** The round file is there but cannot be read as a session (or not at all): why. */
  | { kind: 'unreadable'; reason: string };

/** Reads `session`'s round file; never writes, removes or locks. */
export async function peekDiscovery(
  store: WorkspaceStore,
  session: string,
  now: number,
  ttlMs: number,
): Promise<DiscoveryPeek> {
  let text: string | undefined;
  try {
    text = await store.readText(roundFileRel(session), ROUND_FILE_MAX_BYTES);
  } catch (err) {
    return { kind: 'unreadable', reason: err instanceof Error ? err.message : String(err) };
  }
  if (text === undefined) return { kind: 'none' };
  const parsed = parseRoundFile(text);
  if (!parsed.ok) return { kind: 'unreadable', reason: parsed.reason };
  if (isExpired(parsed.data.createdSec, now, ttlMs)) return { kind: 'expired', request: parsed.data.originalRequest };
  return { kind: 'live', view: toView(session, parsed.data, ttlMs) };
}
