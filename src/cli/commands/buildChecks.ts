// `groundwork build`'s weaker checks (docs/build-phases.md, "Weaker checks"): what the workspace's
// workflow and role files take away from Groundwork's own, printed before the build starts, and
// the refusal under --unattended unless --allow-weaker-checks says the person accepts them.
import type { Workflow } from '../../core/build/buildTypes';
import { weakerChecks } from '../../core/build/weakerChecks';
import { BUNDLED_WORKFLOW_FILE, parseWorkflow } from '../../core/build/workflow';
import type { Role } from '../../core/roles/roleSchema';
import { visibleText } from '../../core/visibleText';
import type { CommandContext } from '../cliTypes';

export const ALLOW_WEAKER_FLAG = 'allow-weaker-checks';

/** The weaker checks of `workflow` with the roles as `loadRole` loads them, compared with the bundled workflow and roles. */
export async function cliWeakerChecks(
  ctx: CommandContext,
  workflow: Workflow,
  loadRole: (name: string) => Promise<Role>,
): Promise<string[]> {
  const file = `roles/${BUNDLED_WORKFLOW_FILE}`;
  const parsed = parseWorkflow(await ctx.deps.bundledWorkflow(), file);
  // The bundled workflow is Groundwork's own; should it not parse, the workspace's is compared with nothing.
  const bundledWorkflow: Workflow = parsed.ok ? parsed.workflow : { phases: [], file };
  const roles = new Map<string, Role>();
  for (const phase of workflow.phases) roles.set(phase.role, await loadRole(phase.role));
  return weakerChecks({ workflow, bundledWorkflow, roles, bundledRoles: await ctx.deps.bundledRoles() });
}

/** The lines the gate prints for `weaker`, after the phases and the estimate; [] when there is nothing weaker. */
export function weakerLines(weaker: readonly string[]): string[] {
  if (weaker.length === 0) return [];
  return [
    "  warning: this build's checks are weaker than Groundwork's own (the workspace's workflow or role files):",
    ...weaker.map((line) => `    - ${visibleText(line)}`),
  ];
}

/** Why an unattended build with weaker checks does not start, and what to pass; undefined when it may start. */
export function weakerRefusal(ctx: CommandContext, weaker: readonly string[]): string | undefined {
  if (weaker.length === 0 || ctx.values['unattended'] !== true || ctx.values[ALLOW_WEAKER_FLAG] === true)
    return undefined;
  return `not started: under --unattended a build whose checks are weaker than Groundwork's own does not start (${weaker.length === 1 ? 'the weakening' : `the ${weaker.length} weakenings`} above); pass --${ALLOW_WEAKER_FLAG} to build with them, or remove them from the workspace's .groundwork/workflows/build.yaml and .groundwork/roles/`;
}
