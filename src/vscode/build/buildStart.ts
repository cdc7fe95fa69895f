// How a build starts in VS Code: what it is built from (a command's argument — the Idea Brief card,
// a finished brainstorm, a plan of the explorer — or a quick pick of the saved briefs and finished
// brainstorms), then the confirmation gate: a native modal with the brief's first lines, each phase
// with its role and concrete model, where the project goes and the estimate (buildGate.ts). Nothing
// is written before Start; a brief that cannot be built says why before the gate.
import * as vscode from 'vscode';
import { brainstormDigest, parseContextFile } from '../../core/brainstorm/contextFile';
import { ceilingProblem, estimateBuild } from '../../core/build/buildEstimate';
import { BuildInputError, loadWorkflow, readBuildInput, readSpecInput } from '../../core/build/buildInputs';
import type { Workflow } from '../../core/build/buildTypes';
import { weakerChecks } from '../../core/build/weakerChecks';
import { BUNDLED_WORKFLOW_FILE, parseWorkflow } from '../../core/build/workflow';
import { parseRoleFile } from '../../core/roles/roleFile';
import type { Role } from '../../core/roles/roleSchema';
import type { BuildRequest } from '../../core/build/buildRunner';
import { PLAN_FILES, PLANS_DIR, planDisplayPath, planFile } from '../../core/plan/layout';
import { isSlug } from '../../core/storage/safeNames';
import type { WorkspaceStore } from '../../core/storage/workspaceStore';
import { visibleText } from '../../core/visibleText';
import { briefLines, gateDetail, type GateWords } from './buildGate';
import type { BuildSource } from './buildRows';
import type { Host } from '../host';
import { prices } from '../llm/modelService';
import { requireTrust } from '../base/trust';

export const MAX_COST_SETTING = 'groundwork.build.maxCostUsd';
const PATH_MAX_CHARS = 1000;

/** `groundwork.build.maxCostUsd`: a positive number is the ceiling; 0, empty or anything else, none. */
export function maxCostSetting(): number | undefined {
  const value = vscode.workspace.getConfiguration().get<unknown>(MAX_COST_SETTING);
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * What a `groundwork.buildFromBrief` argument names: `{kind:'brief', path}`, `{kind:'brainstorm',
 * slug}`, or a plan node of the explorer (its finished brainstorm, else its Idea Brief). Undefined:
 * ask with the quick pick. A string: why the argument cannot be built from.
 */
export function sourceOf(arg: unknown): BuildSource | undefined | string {
  if (arg === undefined || arg === null) return undefined;
  if (typeof arg !== 'object') return vscode.l10n.t('Nothing to build from was given.');
  const a = arg as Record<string, unknown>;
  if (a['kind'] === 'brief' && typeof a['path'] === 'string' && a['path'] !== '' && a['path'].length <= PATH_MAX_CHARS)
    return { kind: 'brief', path: a['path'] };
  if (a['kind'] === 'brainstorm' && typeof a['slug'] === 'string' && isSlug(a['slug']))
    return { kind: 'brainstorm', slug: a['slug'] };
  const plan = a['kind'] === 'plan' ? (a['plan'] as { slug?: unknown; mainFile?: unknown } | undefined) : undefined;
  if (plan && typeof plan.slug === 'string' && isSlug(plan.slug)) {
    if (plan.mainFile === planFile(plan.slug, PLAN_FILES.document)) return { kind: 'brainstorm', slug: plan.slug };
    if (plan.mainFile === planFile(plan.slug, PLAN_FILES.ideaBrief))
      return { kind: 'brief', path: planDisplayPath(plan.slug, PLAN_FILES.ideaBrief) };
    return vscode.l10n.t('The plan {0} has no Idea Brief and no finished brainstorm to build from.', plan.slug);
  }
  return vscode.l10n.t('Nothing to build from was given.');
}

type SourceItem = vscode.QuickPickItem & { source?: BuildSource; other?: true };

/** The saved Idea Briefs and finished brainstorms, newest plans last as the explorer lists them; or another markdown file. */
export async function pickSource(store: WorkspaceStore): Promise<BuildSource | undefined> {
  const items: SourceItem[] = [];
  const slugs = (await store.list(PLANS_DIR).catch(() => [] as string[])).filter(isSlug).sort();
  for (const slug of slugs) {
    const files = await store.list(planFile(slug)).catch(() => [] as string[]);
    if (files.includes(PLAN_FILES.sentinel) && files.includes(PLAN_FILES.document)) {
      items.push({
        label: slug,
        description: vscode.l10n.t('finished brainstorm'),
        detail: await firstLine(store, planFile(slug, PLAN_FILES.document)),
        iconPath: new vscode.ThemeIcon('comment-discussion'),
        source: { kind: 'brainstorm', slug },
      });
    }
    if (files.includes(PLAN_FILES.ideaBrief)) {
      items.push({
        label: slug,
        description: vscode.l10n.t('Idea Brief'),
        detail: await firstLine(store, planFile(slug, PLAN_FILES.ideaBrief)),
        iconPath: new vscode.ThemeIcon('lightbulb'),
        source: { kind: 'brief', path: planDisplayPath(slug, PLAN_FILES.ideaBrief) },
      });
    }
  }
  items.push({
    label: vscode.l10n.t('Another Brief File…'),
    description: vscode.l10n.t('a markdown file in the workspace'),
    iconPath: new vscode.ThemeIcon('file'),
    other: true,
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Build from Brief'),
    placeHolder:
      items.length > 1
        ? vscode.l10n.t('Pick the Idea Brief or finished brainstorm to build')
        : vscode.l10n.t('No saved Idea Brief or finished brainstorm yet: pick a brief file'),
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.source) return picked.source;
  const [file] =
    (await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Build from Brief'),
      defaultUri: vscode.Uri.file(store.folder),
      canSelectMany: false,
      filters: { [vscode.l10n.t('Markdown')]: ['md', 'markdown', 'txt'] },
      openLabel: vscode.l10n.t('Build from This Brief'),
    })) ?? [];
  if (!file) return undefined;
  const rel = relativeTo(store.folder, file.fsPath);
  if (rel === undefined) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The brief must be a file inside the workspace folder.'));
    return undefined;
  }
  return { kind: 'brief', path: rel };
}

/** What a build is made from: a brief or a brainstorm, or a spec written with another tool (a Spec Kit or Kiro folder, workspace-relative). */
export type BuildChoice = BuildSource | { kind: 'spec'; path: string };

/** The build request for `source` once the person pressed Start in the gate; undefined when they did not, or it cannot start (said). */
export async function confirmBuild(host: Host, source: BuildChoice): Promise<BuildRequest | undefined> {
  const store = host.workspace.workspaceStore();
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(host, store, source);
  } catch (err) {
    const text = visibleText(err instanceof Error ? err.message : String(err));
    if (!(err instanceof BuildInputError)) host.log.error('build: could not prepare the build', err);
    void vscode.window.showErrorMessage(vscode.l10n.t('The build cannot start: {0}', text));
    return undefined;
  }
  const { request, detail, weaker } = prepared;
  const start: vscode.MessageItem = { title: vscode.l10n.t('Start Build') };
  const what =
    source.kind === 'brainstorm' ? planDisplayPath(source.slug, PLAN_FILES.document) : visibleText(source.path);
  // Weaker checks make it a warning: the modal's icon says so before its text does.
  const show = weaker.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const answer = await show(
    weaker.length > 0
      ? vscode.l10n.t("Build a project from {0} with checks weaker than Groundwork's own?", what)
      : vscode.l10n.t('Build a project from {0}?', what),
    { modal: true, detail },
    start,
  );
  // Trust may have been withdrawn while the gate was open.
  if (answer !== start || !requireTrust(vscode.l10n.t('start a build'))) return undefined;
  return request;
}

async function prepare(
  host: Host,
  store: WorkspaceStore,
  choice: BuildChoice,
): Promise<{ request: BuildRequest; detail: string; weaker: string[] }> {
  const read =
    choice.kind === 'spec'
      ? await readSpecInput(store, choice.path)
      : {
          source: choice,
          ...(await readBuildInput(store, choice, (text, where) => brainstormDigest(parseContextFile(text, where)))),
        };
  const { source, input, name } = read;
  const { workflow } = await loadWorkflow(store, () => bundledWorkflow(host));
  const phases = await Promise.all(
    workflow.phases.map(async (p) => {
      try {
        return { name: p.name, role: await host.roles(p.role) };
      } catch (err) {
        throw new BuildInputError(`phase ${p.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
  const status = await host.models.status().catch(() => undefined);
  const models = status?.kind === 'ready' ? status.models : {};
  const estimate = estimateBuild(phases, input.length, models, prices());
  const maxCostUsd = maxCostSetting();
  const unpriced = ceilingProblem(
    estimate,
    maxCostUsd,
    vscode.l10n.t(
      'Give its price in the groundwork.prices setting (USD per million tokens), or clear groundwork.build.maxCostUsd.',
    ),
  );
  if (unpriced !== undefined) throw new BuildInputError(unpriced);
  const weaker = await workspaceWeakerChecks(host, workflow, phases);
  const detail = gateDetail(
    {
      brief: input,
      estimate,
      where: vscode.l10n.t(
        "a new folder in the workspace, named by the analyst's PROJECT_NAME; you are asked if that folder already holds files, or if the analyst reads the brief as a feature on the workspace's code",
      ),
      ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
      weaker,
    },
    gateWords(),
  );
  const spec = 'spec' in read ? { spec: read.spec } : {};
  return {
    request: {
      source,
      ...spec,
      input,
      phases: workflow.phases,
      name,
      ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
      ...(weaker.length > 0 ? { weaker } : {}),
    },
    detail,
    weaker,
  };
}

/** What the workspace's workflow and role files weaken, against the extension's own workflow and roles. */
async function workspaceWeakerChecks(
  host: Host,
  workflow: Workflow,
  phases: readonly { name: string; role: Role }[],
): Promise<string[]> {
  const file = `roles/${BUNDLED_WORKFLOW_FILE}`;
  const parsed = parseWorkflow(await bundledWorkflow(host), file);
  const bundled: Workflow = parsed.ok ? parsed.workflow : { phases: [], file };
  const bundledRoles = new Map<string, Role>();
  for (const name of new Set(bundled.phases.map((p) => p.role))) {
    const role = await bundledRole(host, name);
    if (role !== undefined) bundledRoles.set(name, role);
  }
  const roles = new Map(phases.map((p) => [p.role.name, p.role]));
  return weakerChecks({ workflow, bundledWorkflow: bundled, roles, bundledRoles });
}

/** The extension's own `roles/<name>.md`, or undefined when it does not load (the role cache reports that). */
async function bundledRole(host: Host, name: string): Promise<Role | undefined> {
  const file = `roles/${name}.md`;
  const bytes = await vscode.workspace.fs
    .readFile(vscode.Uri.joinPath(host.context.extensionUri, 'roles', `${name}.md`))
    .then(undefined, () => undefined);
  return bytes === undefined ? undefined : parseRoleFile(file, new TextDecoder().decode(bytes)).role;
}

function gateWords(): GateWords {
  return {
    phases: vscode.l10n.t('Phases'),
    model: (model, turns) => vscode.l10n.t('{0}, up to {1} turns', model, turns),
    modelAndRole: (model, turns, role) => vscode.l10n.t('{0}, up to {1} turns, role {2}', model, turns, role),
    where: (where) => vscode.l10n.t('Project folder: {0}', where),
    estimate: (tokens, cost) =>
      vscode.l10n.t(
        "Estimate: {0} tokens, {1}. This is an estimate from the roles' turn limits and the brief's size; a build usually costs less.",
        tokens,
        cost,
      ),
    estimateUnpriced: (tokens) =>
      vscode.l10n.t(
        "Estimate: {0} tokens (a model without a known price: no cost estimate). This is an estimate from the roles' turn limits and the brief's size.",
        tokens,
      ),
    ceiling: (usd) =>
      vscode.l10n.t('Cost ceiling: {0} (the build stops before the next model call once it has cost that much)', usd),
    noCeiling: vscode.l10n.t('No cost ceiling (set groundwork.build.maxCostUsd to have one)'),
    weaker: vscode.l10n.t(
      "Warning: this workspace's workflow or role files make Groundwork's checks weaker (a cloned repository may hold them):",
    ),
  };
}

/** The extension's own `roles/build.workflow.yaml`. */
async function bundledWorkflow(host: Host): Promise<string> {
  const bytes = await vscode.workspace.fs.readFile(
    vscode.Uri.joinPath(host.context.extensionUri, 'roles', 'build.workflow.yaml'),
  );
  return new TextDecoder().decode(bytes);
}

async function firstLine(store: WorkspaceStore, rel: string): Promise<string | undefined> {
  const text = await store.readText(rel, 256 * 1024).catch(() => undefined);
  // `$(` in a quick pick draws an icon: a file's text must not.
  return text === undefined ? undefined : briefLines(text)[0]?.replace(/\$\(/g, '$\u200b(');
}

function relativeTo(folder: string, file: string): string | undefined {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const [base, path] = [norm(folder), norm(file)];
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : undefined;
}
