// What a workspace's workflow (`.groundwork/workflows/build.yaml`) and role files
// (`.groundwork/roles/*.md`) take away from Groundwork's own checks, compared with the bundled
// workflow and roles (docs/build-phases.md, "Weaker checks"): a phase removed, a phase's check
// changed, the phases reordered, a phase given write tools (or a wider write scope, or commands
// without asking) its bundled role does not have, or a phase that can write added after the
// verification. Both files may come from a cloned repository, so each weakening is said where the
// build starts (the VS Code gate, the CLI, which refuses it under --unattended without
// --allow-weaker-checks) and in the report. Pure: the front ends load the files, this compares.
import type { Role } from '../roles/roleSchema';
import { permissionWithin, WRITE_TOOLS } from '../roles/roleSchema';
import { scopeText, widerPatterns } from '../tools/writeScope';
import { visibleText } from '../visibleText';
import type { PhaseCheck, Workflow, WorkflowPhase } from './buildTypes';

export interface WeakerChecksInput {
  /** The workflow the build runs; its `file` is named in what is said of it. */
  workflow: Workflow;
  /** The bundled `roles/build.workflow.yaml`. */
  bundledWorkflow: Workflow;
  /** The role each phase of `workflow` runs, by name, as loaded (a workspace override where one is used). */
  roles: ReadonlyMap<string, Role>;
  /** The bundled role files, by name (at least those the bundled workflow names). */
  bundledRoles: ReadonlyMap<string, Role>;
  /** Where the workspace's role overrides are, as shown to people. */
  rolesFolder?: string;
}

/** The checks after which a phase that writes could change what was checked. */
const VERIFYING: readonly PhaseCheck[] = ['verification', 'review'];
const ROLES_FOLDER = '.groundwork/roles';

/**
 * Each way the build's workflow and roles are weaker than the bundled ones, one sentence each,
 * naming the file, the phase and what changed; [] when they are as strict. Roles the maps lack are
 * skipped (a missing role stops the build before this matters).
 */
export function weakerChecks(input: WeakerChecksInput): string[] {
  const { workflow, bundledWorkflow } = input;
  const wf = visibleText(workflow.file);
  const lines: string[] = [];
  const bundledNames = new Set(bundledWorkflow.phases.map((p) => p.name));
  const matched = new Map<WorkflowPhase, WorkflowPhase>();
  for (const bundled of bundledWorkflow.phases) {
    const own =
      workflow.phases.find((p) => p.name === bundled.name) ??
      workflow.phases.find((p) => p.check === bundled.check && !bundledNames.has(p.name) && !matched.has(p));
    if (own === undefined) {
      lines.push(`${wf}: phase ${bundled.name} removed; no phase makes its check ${bundled.check}`);
      continue;
    }
    matched.set(own, bundled);
    const name = own.name === bundled.name ? own.name : `${own.name} (in place of ${bundled.name})`;
    if (own.check !== bundled.check) lines.push(`${wf}: ${name}'s check is ${own.check} instead of ${bundled.check}`);
    lines.push(...roleWeakening(input, own, bundled, name));
  }

  const order = workflow.phases.filter((p) => matched.has(p));
  const positions = order.map((p) => bundledWorkflow.phases.indexOf(matched.get(p) as WorkflowPhase));
  if (positions.some((at, i) => i > 0 && at < (positions[i - 1] as number)))
    lines.push(
      `${wf}: the phases run in another order (${order.map((p) => p.name).join(', ')}; Groundwork's: ${bundledWorkflow.phases
        .filter((b) => [...matched.values()].includes(b))
        .map((b) => b.name)
        .join(', ')})`,
    );

  const firstCheck = workflow.phases.findIndex((p) => VERIFYING.includes(p.check));
  if (firstCheck >= 0) {
    const checker = workflow.phases[firstCheck] as WorkflowPhase;
    for (const added of workflow.phases.slice(firstCheck + 1)) {
      if (matched.has(added)) continue;
      const role = input.roles.get(added.role);
      const writes = role === undefined ? [] : role.tools.filter((t) => WRITE_TOOLS.includes(t));
      if (writes.length > 0)
        lines.push(
          `${wf}: phase ${added.name} (role ${added.role}), added after ${checker.name}, has ${writes.join(', ')}: it can change what ${checker.name} checked`,
        );
    }
  }
  return lines;
}

/** What the role `own` runs gives it beyond the bundled phase's role, said against the file that did it. */
function roleWeakening(input: WeakerChecksInput, own: WorkflowPhase, bundled: WorkflowPhase, name: string): string[] {
  const role = input.roles.get(own.role);
  const base = input.bundledRoles.get(bundled.role);
  if (role === undefined || base === undefined) return [];
  const gains: string[] = [];
  const tools = role.tools.filter((t) => WRITE_TOOLS.includes(t) && !base.tools.includes(t));
  if (tools.length > 0) gains.push(`gives ${name} ${tools.join(', ')}`);
  if (!permissionWithin(role.permissionMode, base.permissionMode))
    gains.push(`lets ${name} run as ${role.permissionMode} instead of ${base.permissionMode}`);
  const wider = widerPatterns(role.writes, base.writes);
  if (wider.length > 0 && base.writes !== undefined && role.tools.some((t) => t === 'write_file' || t === 'edit_file'))
    gains.push(
      role.writes === undefined
        ? `lets ${name} write anywhere instead of only ${scopeText(base.writes)}`
        : `lets ${name} also write ${scopeText(wider)} (Groundwork's: only ${scopeText(base.writes)})`,
    );
  if (gains.length === 0) return [];
  if (own.role !== bundled.role)
    return [
      `${visibleText(input.workflow.file)}: ${name} runs role ${own.role} instead of ${bundled.role}, which ${gains.join(', ')}`,
    ];
  const file = `${visibleText(input.rolesFolder ?? ROLES_FOLDER)}/${own.role}.md`;
  return gains.map((g) => `${file} ${g}`);
}

/** The report's section for `lines` (weakerChecks' sentences), each shown as plain text (every markdown character escaped); [] when there are none. */
export function weakerChecksReport(lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  return [
    '## Weaker checks',
    '',
    "This build ran with checks weaker than Groundwork's own (the workspace's workflow or role files):",
    '',
    ...lines.map((line) => `- ${visibleText(line).replace(/[\\`*_[\]<>!#|~&]/g, '\\$&')}`),
    '',
  ];
}
