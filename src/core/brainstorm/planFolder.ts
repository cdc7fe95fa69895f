// The plan folder `.groundwork/plans/<slug>/` a brainstorm lives in. A slug from outside (the CLI's
// --resume, a pick in the panel, a seed) is checked twice before anything is read: by the
// pattern, which refuses '../x', absolute paths and look-alike names; and on disk, where the folder
// must be a real folder directly inside `plans/` — a symbolic link is refused even when it points
// inside `.groundwork` (the store itself already refuses links that lead out of it).
import { StorageError } from '../storage/storageError';
import { isSlug, slugify } from '../storage/safeNames';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { visibleText } from '../visibleText';
import { BrainstormError } from './brainstormTypes';
import { PLAN_FILES } from '../plan/layout';
import { PLANS_DIR, planDisplayPath, planFile } from '../plan/layout';

/** The slug if it is one; else BrainstormError 'invalid' saying what a slug is. */
export function checkSlug(slug: string): string {
  if (isSlug(slug)) return slug;
  const shown = visibleText(slug).slice(0, 80);
  throw new BrainstormError(
    'invalid',
    `"${shown}" is not a plan name: a plan name is 1 to 64 characters of a–z, 0–9 and '-', starting with a letter or digit ` +
      `(no '/', '..', spaces or capitals), e.g. "${slugify(slug)}".`,
  );
}

/**
 * Checks that `slug` names an existing plan folder that is a real folder inside `plans/`.
 * Returns false when there is no such folder; throws for anything unsafe.
 */
export async function planFolderExists(store: WorkspaceStore, slug: string): Promise<boolean> {
  checkSlug(slug);
  try {
    const plans = await store.info(PLANS_DIR);
    if (plans === undefined) return false;
    if (plans.kind !== 'directory') throw unsafe(displayPath(PLANS_DIR), plans.kind);
    const info = await store.info(`${PLANS_DIR}/${slug}`);
    if (info === undefined) return false;
    if (info.kind !== 'directory') throw unsafe(planDisplayPath(slug), info.kind);
    return true;
  } catch (err) {
    if (err instanceof StorageError && err.code === 'unsafe-path') throw new BrainstormError('invalid', err.message);
    throw err;
  }
}

function unsafe(shown: string, kind: string): BrainstormError {
  const what = kind === 'symlink' ? 'a symbolic link' : `a ${kind}`;
  return new BrainstormError(
    'invalid',
    `Refused to use ${shown}: it is ${what}, not a plan folder. Groundwork reads plans only from real folders under .groundwork/plans/.`,
  );
}

/** Whether the plan's brainstorm has its sentinel, i.e. both artifacts were written. */
export async function isComplete(store: WorkspaceStore, slug: string): Promise<boolean> {
  return (await store.info(planFile(slug, PLAN_FILES.sentinel))) !== undefined;
}

/** The plan folders' names that are slugs (anything else in `plans/` is not Groundwork's). */
export async function planSlugs(store: WorkspaceStore): Promise<string[]> {
  return (await store.list(PLANS_DIR)).filter(isSlug).sort();
}
