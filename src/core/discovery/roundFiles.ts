// The round files of discovery sessions as the service reads and writes them: a session name
// checked and mapped to its file, a file read back with care (size, format, whose it is), and
// every change made under the workspace lock only when the file is still what this turn read.
import { StorageError } from '../storage/storageError';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { utf8Length } from '../prompt/cap';
import { visibleText } from '../visibleText';
import { DiscoveryError } from './discoveryTypes';
import {
  isPlainSessionName,
  parseRoundFile,
  ROUND_FILE_MAX_BYTES,
  roundFileRel,
  serializeRoundFile,
  sessionNameProblem,
} from './roundFile';
import type { RoundFileData } from './roundFile';
import { replaceIfUnchanged } from '../session/savedState';

export interface LoadedRoundFile {
  /** The file's text as read; undefined when there is none. */
  text?: string;
  data?: RoundFileData;
}

export class RoundFiles {
  constructor(private readonly store: WorkspaceStore) {}

  /** The round file of `session`, once the name is known to be one. */
  rel(session: string): string {
    const problem = sessionNameProblem(session);
    if (problem !== undefined)
      throw new DiscoveryError('invalid', `${problem}. Use a short name of visible characters, e.g. "bakery-crm".`);
    return roundFileRel(session);
  }

  /** The round file at `rel`, checked to belong to `session` (any owner when undefined). */
  async load(rel: string, session: string | undefined): Promise<LoadedRoundFile> {
    let text: string | undefined;
    try {
      text = await this.store.readText(rel, ROUND_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'too-large') {
        throw new DiscoveryError(
          'corrupt',
          `${displayPath(rel)} is larger than a discovery session can be. Delete it (or cancel the session) to start again.`,
        );
      }
      throw err;
    }
    if (text === undefined) return {};
    const parsed = parseRoundFile(text);
    if (!parsed.ok) {
      throw new DiscoveryError(
        'corrupt',
        `${displayPath(rel)} is not a discovery session: ${parsed.reason}. Fix it, or cancel the session to start again.`,
      );
    }
    const owner = parsed.data.session;
    if (session !== undefined && owner !== undefined && owner !== session) {
      // Two names on one file (a case-insensitive disk, or a crafted name): never one conversation.
      throw new DiscoveryError(
        'invalid',
        `${displayPath(rel)} holds the discovery session "${visibleText(owner)}", not "${visibleText(session)}". Choose another session name.`,
      );
    }
    return { text, data: parsed.data };
  }

  /**
   * Writes the round file of `session` under the lock, refusing when another window changed it
   * since `expected` was read; returns the text written.
   */
  async write(rel: string, session: string, data: RoundFileData, expected: string | undefined): Promise<string> {
    const text = serializeRoundFile(isPlainSessionName(session) ? data : { ...data, session });
    if (utf8Length(text) > ROUND_FILE_MAX_BYTES) {
      // Cannot happen within the per-text caps; refuse rather than write a file that cannot be read back.
      throw new DiscoveryError(
        'too-large',
        `The discovery session would grow over ${ROUND_FILE_MAX_BYTES / 1024 / 1024} MB. Cancel it and start again with a shorter request.`,
      );
    }
    await replaceIfUnchanged(this.store, rel, expected, text, ROUND_FILE_MAX_BYTES, () => changedElsewhere(rel));
    return text;
  }

  /** Removes the round file under the lock, if it is still what `expected` says. */
  async remove(rel: string, expected: string | undefined): Promise<void> {
    await replaceIfUnchanged(this.store, rel, expected, undefined, ROUND_FILE_MAX_BYTES, () => changedElsewhere(rel));
  }
}

function changedElsewhere(rel: string): DiscoveryError {
  return new DiscoveryError(
    'busy',
    `The discovery session ${displayPath(rel)} was changed elsewhere (another window or the CLI) during this turn. Reopen it to continue from there.`,
  );
}
