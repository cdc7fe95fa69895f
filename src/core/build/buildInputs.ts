// What a build starts from, read and checked before the gate: the workflow (the workspace's
// `.groundwork/workflows/build.yaml`, else the bundled one) and the brief's text (a saved Idea
// Brief or any markdown file in the workspace, or a finished brainstorm's result with its digest).
// Every file may come from a cloned repository: sizes are capped, paths must stay inside the
// workspace (links resolved), and each problem is a sentence that says what to do.
import { PLAN_FILES, WORKSPACE_WORKFLOW_FILE, planDisplayPath, planFile } from '../plan/layout';
import { StorageError } from '../storage/storageError';
import { displayPath } from '../storage/workspaceStore';
import type { WorkspaceStore } from '../storage/workspaceStore';
import { isSlug, slugify } from '../storage/safeNames';
import { isWindowsRoot, relativeInside } from '../tools/projectPaths';
import { visibleText } from '../visibleText';
import type { BuildRecord, SpecPointer, Workflow } from './buildTypes';
import { ExternalSpecError, readExternalSpec, specInput } from './externalSpec';
import { BUNDLED_WORKFLOW_FILE, parseWorkflow, WORKFLOW_FILE_MAX_BYTES, workflowProblemText } from './workflow';

/** The most a brief file may be, in bytes. */
export const BRIEF_FILE_MAX_BYTES = 200_000;

export class BuildInputError extends Error {
  override readonly name = 'BuildInputError';
}

/** The workspace's workflow when it has one, else the bundled text; BuildInputError listing every problem (file, line, field). */
export async function loadWorkflow(
  store: WorkspaceStore,
  bundled: () => Promise<string>,
): Promise<{ workflow: Workflow; file: string }> {
  const own = await store.readText(WORKSPACE_WORKFLOW_FILE, WORKFLOW_FILE_MAX_BYTES + 1).catch((err: unknown) => {
    throw new BuildInputError(err instanceof Error ? err.message : String(err));
  });
  const file = own === undefined ? `roles/${BUNDLED_WORKFLOW_FILE}` : displayPath(WORKSPACE_WORKFLOW_FILE);
  const parsed = parseWorkflow(own ?? (await bundled()), file);
  if (!parsed.ok)
    throw new BuildInputError(
      `The build workflow cannot be used:\n${parsed.problems.map((p) => `  ${workflowProblemText(p)}`).join('\n')}`,
    );
  return { workflow: parsed.workflow, file };
}

/** A brainstorm's digest (RES-6) from its context file's text; throws a sentence when the file cannot be read. */
export type DigestOf = (contextText: string, where: string) => string;

/** The analyst's input for `source`, and a slug that names the build. `digestOf` is the brainstorm feature's brainstormDigest over parseContextFile. */
export async function readBuildInput(
  store: WorkspaceStore,
  source: BuildRecord['source'],
  digestOf: DigestOf,
): Promise<{ input: string; name: string }> {
  if (source.kind === 'brainstorm') return readBrainstorm(store, source.slug, digestOf);
  const text = await readWorkspaceFile(store, source.path, BRIEF_FILE_MAX_BYTES);
  if (text.trim() === '') throw new BuildInputError(`${visibleText(source.path)} is empty: there is nothing to build.`);
  return { input: text, name: nameOf(source.path) };
}

/** What a build from a spec starts with: the source (a brief naming the spec's first file), the pointer, the analyst's input, the build's name. */
export interface SpecInput {
  source: BuildRecord['source'];
  spec: SpecPointer;
  input: string;
  name: string;
}

/**
 * A Spec Kit feature folder or a Kiro spec at `path` (workspace-relative, '/'-separated; the folder
 * or one of its files) as a build's input: its files in one text (externalSpec.ts's specInput),
 * named after the feature. BuildInputError saying what to do when it cannot be used.
 */
export async function readSpecInput(store: WorkspaceStore, path: string): Promise<SpecInput> {
  try {
    const spec = await readExternalSpec(store.files, store.folder, path);
    const input = specInput(spec);
    if (input.length > BRIEF_FILE_MAX_BYTES)
      throw new BuildInputError(
        `The files of '${visibleText(spec.path)}' hold ${input.length} characters together; a build takes at most ${BRIEF_FILE_MAX_BYTES}: shorten them.`,
      );
    const first = spec.files[0]?.name ?? '';
    return {
      source: { kind: 'brief', path: spec.path === '.' ? first : `${spec.path}/${first}` },
      spec: { kind: 'spec', format: spec.kind, path: spec.path },
      input,
      name: slugify(spec.feature),
    };
  } catch (err) {
    if (err instanceof ExternalSpecError) throw new BuildInputError(err.message);
    throw err;
  }
}

async function readBrainstorm(
  store: WorkspaceStore,
  slug: string,
  digestOf: DigestOf,
): Promise<{ input: string; name: string }> {
  if (!isSlug(slug)) throw new BuildInputError(`'${visibleText(slug.slice(0, 80))}' is not a plan's name.`);
  const done = await store.info(planFile(slug, PLAN_FILES.sentinel));
  if (done === undefined)
    throw new BuildInputError(
      `The brainstorm ${slug} has not finished (${planDisplayPath(slug, PLAN_FILES.sentinel)} is missing): finish it first.`,
    );
  const [document, context] = await Promise.all([
    store.readText(planFile(slug, PLAN_FILES.document), BRIEF_FILE_MAX_BYTES),
    store.readText(planFile(slug, PLAN_FILES.context)),
  ]);
  if (document === undefined || context === undefined)
    throw new BuildInputError(
      `The brainstorm ${slug} is missing its result or its context file: brainstorm the topic again.`,
    );
  let digest: string;
  try {
    digest = digestOf(context, planDisplayPath(slug, PLAN_FILES.context));
  } catch (err) {
    throw new BuildInputError(err instanceof Error ? err.message : String(err));
  }
  return { input: `${document.trim()}\n\n${digest.trim()}\n`.slice(0, BRIEF_FILE_MAX_BYTES), name: slug };
}

/** `rel` (workspace-relative, '/'-separated), read only when its real path is inside the workspace. */
async function readWorkspaceFile(store: WorkspaceStore, rel: string, maxBytes: number): Promise<string> {
  const fs = store.files;
  const shown = visibleText(rel);
  if (rel === '' || rel.startsWith('/') || /^[A-Za-z]:/.test(rel) || rel.split(/[\\/]/).includes('..'))
    throw new BuildInputError(`The brief '${shown}' is not a path inside the workspace.`);
  const abs = `${store.folder}/${rel}`;
  const [real, folder] = await Promise.all([fs.realpath(abs), fs.realpath(store.folder)]).catch(() => [
    undefined,
    undefined,
  ]);
  if (real === undefined) throw new BuildInputError(`The brief '${shown}' does not exist.`);
  if (folder === undefined || relativeInside(real, folder, isWindowsRoot(store.folder)) === undefined)
    throw new BuildInputError(`The brief '${shown}' leads outside the workspace.`);
  const info = await fs.info(real);
  if (info?.kind !== 'file') throw new BuildInputError(`The brief '${shown}' is not a file.`);
  const bytes = await fs.read(real, maxBytes).catch((err: unknown) => {
    // Only a file over the cap is 'too-large'; anything else (no permission, an I/O error) says what it was.
    if (err instanceof StorageError && err.code === 'too-large')
      throw new BuildInputError(`The brief '${shown}' is larger than ${maxBytes} bytes; shorten it.`);
    throw new BuildInputError(
      `The brief '${shown}' cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  if (bytes === undefined) throw new BuildInputError(`The brief '${shown}' does not exist.`);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\ufeff/, '');
}

/** The plan's slug for a file in `.groundwork/plans/<slug>/`, else a slug of the file's name. */
function nameOf(rel: string): string {
  const plan = /^\.groundwork\/plans\/([a-z0-9-]+)\//.exec(rel)?.[1];
  if (plan !== undefined && isSlug(plan)) return plan;
  const stem =
    rel
      .split('/')
      .pop()
      ?.replace(/\.[^.]*$/, '') ?? 'brief';
  return slugify(stem);
}
