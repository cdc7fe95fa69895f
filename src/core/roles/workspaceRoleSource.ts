// The workspace's role overrides, `.groundwork/roles/*.md`, read through the workspace store so
// that they get its protections: a symbolic link planted in a cloned repository cannot make a
// "role file" of a file outside the workspace (whose text would become a system prompt).
import type { WorkspaceStore } from '../storage/workspaceStore';
import { displayPath } from '../storage/workspaceStore';
import type { RoleSource } from './roleLoader';
import { WORKSPACE_ROLES_DIR } from '../plan/layout';

/** The folder of overrides inside `.groundwork/`. */

export function workspaceRoleSource(store: WorkspaceStore): RoleSource {
  return {
    label: displayPath(WORKSPACE_ROLES_DIR),
    list: () => store.list(WORKSPACE_ROLES_DIR),
    read: (fileName, maxBytes) => store.readText(`${WORKSPACE_ROLES_DIR}/${fileName}`, maxBytes),
  };
}
