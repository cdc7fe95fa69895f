// Where a new build's project goes once the analyst has named it: `<workspace>/<name>/`, unless that
// folder exists and is not empty (never written into) or the analyst reads the brief as a feature on
// the workspace's existing code. Then the front end asks the person (BuildDeps.place): another
// folder name, the workspace itself, or stop. Without a front end that asks (the CLI with --yes),
// the first free name (`name-2`…) and a new folder: nothing is written into existing code unasked.
import { freeProjectDir, isProjectDirName, normalProjectName, PROJECT_NAME_MAX_CHARS } from './projectName';

/** What the person is asked when the analyst's folder is taken or the analyst sees a feature on existing code. */
export interface PlaceQuestion {
  /** The analyst's PROJECT_NAME. */
  projectName: string;
  /** The folder the name asks for, when it exists and is not empty (Groundwork never writes into it). */
  taken?: string;
  /** The first free folder: what Groundwork proposes. */
  free: string;
  /** The analyst's brief says TARGET: existing — a feature on the code already in the workspace. */
  existing: boolean;
  /** Why `name` cannot be the project's folder, or undefined when it can (for an input box's validation). */
  check(name: string): Promise<string | undefined>;
}

export type PlaceAnswer = { kind: 'folder'; name: string } | { kind: 'workspace' } | { kind: 'stop' };

/** Where the project goes: a folder relative to the workspace ('.' for the workspace itself), or stop. */
export type Placement =
  { kind: 'folder'; dir: string; note?: string } | { kind: 'workspace'; note: string } | { kind: 'stop'; note: string };

export interface PlaceDeps {
  taken: (dir: string) => Promise<boolean>;
  ask?: (question: PlaceQuestion) => Promise<PlaceAnswer>;
}

/** Why `name` cannot be a new project's folder, or undefined. */
export async function folderProblem(
  name: string,
  taken: (dir: string) => Promise<boolean>,
): Promise<string | undefined> {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the folder a name.';
  if (!isProjectDirName(trimmed))
    return `A project folder is named with 1 to 3 words of a-z and 0-9 joined by '-' (a number may follow, as in price-tracker-2), at most ${PROJECT_NAME_MAX_CHARS} characters.`;
  if (await taken(trimmed))
    return `${trimmed} already exists in the workspace and is not empty: Groundwork never writes into it.`;
  return undefined;
}

/** Decides where the project named `name` goes; `existing`: the analyst said TARGET: existing. */
export async function placeProject(name: string, existing: boolean, deps: PlaceDeps): Promise<Placement> {
  const free = await freeProjectDir(name, deps.taken);
  const taken = free !== name ? name : undefined;
  if (deps.ask === undefined || (taken === undefined && !existing)) {
    const note =
      taken === undefined ? undefined : `The folder ${taken} exists and is not empty, so the project is ${free}.`;
    return { kind: 'folder', dir: free, ...(note !== undefined ? { note } : {}) };
  }
  const answer = await deps.ask({
    projectName: name,
    ...(taken !== undefined ? { taken } : {}),
    free,
    existing,
    check: (n) => folderProblem(n, deps.taken),
  });
  if (answer.kind === 'stop')
    return { kind: 'stop', note: 'Asked where the project goes, the person stopped the build.' };
  if (answer.kind === 'workspace')
    return {
      kind: 'workspace',
      note: 'The person chose to build this as a feature on the existing code of the workspace.',
    };
  // The answer is checked again: the folder may have filled since, or the front end let a bad name through.
  const chosen = normalProjectName(answer.name.trim());
  if ((await folderProblem(chosen, deps.taken)) === undefined)
    return { kind: 'folder', dir: chosen, note: `The person named the project's folder ${chosen}.` };
  const fallback = isProjectDirName(chosen) ? await freeProjectDir(chosen, deps.taken) : free;
  return {
    kind: 'folder',
    dir: fallback,
    note: `The folder the person named cannot be used, so the project is ${fallback}.`,
  };
}
