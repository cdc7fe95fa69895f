// A brainstorm whose session file cannot be read (garbage, cut short, `null`, a folder or a FIFO in
// its place) must still be listable, discardable and restartable, or the person is stuck with an
// error that says to discard it and a discard that refuses. Nothing of it is deleted, though: it
// may hold answers typed over several rounds. Its files are moved into `.damaged-<time>/` inside
// the plan folder, where the person can read them and delete the folder when done.
import { isPlainObject } from '../inputChecks';
import { utf8Length } from '../prompt/cap';
import { isBlankText } from '../prompt/untrustedText';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { DEFAULT_MAX_ROUNDS, DEFAULT_MIN_ROUNDS, ROUNDS_LIMIT, TOPIC_MAX_BYTES } from './brainstormTypes';
import { PLANS_DIR, PLAN_FILES, planDisplayPath, planFile } from '../plan/layout';

const DAMAGED_PREFIX = '.damaged-';

export function isSetAside(name: string): boolean {
  return name.startsWith(DAMAGED_PREFIX);
}

/**
 * Moves everything in the plan folder (but earlier `.damaged-*` folders) into a new
 * `.damaged-<time>/` folder of it; returns that folder as shown to people. The caller holds the
 * brainstorm's session lock.
 */
export async function setAside(store: WorkspaceStore, slug: string, now: number): Promise<string> {
  // ':' and '.' are not allowed in Windows file names.
  const folder = `${DAMAGED_PREFIX}${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  const names = (await store.list(`${PLANS_DIR}/${slug}`)).filter((n) => !isSetAside(n));
  // The session file goes last: should a move fail half-way, the brainstorm is still there, still
  // listed as damaged, and the next discard moves the rest.
  const ordered = [...names.filter((n) => n !== PLAN_FILES.state), ...names.filter((n) => n === PLAN_FILES.state)];
  for (const name of ordered) await store.move(planFile(slug, name), planFile(slug, `${folder}/${name}`));
  return planDisplayPath(slug, folder);
}

/** Whether the plan folder holds nothing but what earlier discards set aside. */
export async function onlySetAside(store: WorkspaceStore, slug: string): Promise<boolean> {
  return (await store.list(`${PLANS_DIR}/${slug}`)).every(isSetAside);
}

export interface Recovered {
  topic: string;
  minRounds: number;
  maxRounds: number;
}

/**
 * What a restart can take from a damaged session file: its topic and round limits, when the file
 * is JSON and those fields are still sound; undefined when the topic is lost.
 */
export function recoverSession(text: string | undefined): Recovered | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const topic = value['topic'];
  if (typeof topic !== 'string' || isBlankText(topic) || utf8Length(topic) > TOPIC_MAX_BYTES) return undefined;
  const rounds = (v: unknown) =>
    Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= ROUNDS_LIMIT ? (v as number) : undefined;
  const minRounds = rounds(value['minRounds']) ?? DEFAULT_MIN_ROUNDS;
  const maxRounds = Math.max(minRounds, rounds(value['maxRounds']) ?? DEFAULT_MAX_ROUNDS);
  return { topic, minRounds, maxRounds };
}
