// The roles shipped with Groundwork: the `roles/` folder beside `dist/` in the extension (and in
// the npm package the CLI runs from). Read through NodeWorkspaceFs for its size cap and its
// refusal of anything but regular files.
import { join } from 'node:path';
import type { RoleSource } from '../roles/roleLoader';
import { NodeWorkspaceFs } from './nodeWorkspaceFs';

/** A folder of role files on disk; `label` is how its files are named in messages. */
export function roleFolderSource(dir: string, label: string): RoleSource {
  const fs = new NodeWorkspaceFs();
  const decoder = new TextDecoder('utf-8');
  return {
    label,
    list: () => fs.list(dir),
    read: async (fileName, maxBytes) => {
      const bytes = await fs.read(join(dir, fileName), maxBytes);
      return bytes === undefined ? undefined : decoder.decode(bytes);
    },
  };
}

/** The bundled roles of the install rooted at `extensionRoot` (the folder holding package.json). */
export function bundledRoleSource(extensionRoot: string): RoleSource {
  return roleFolderSource(join(extensionRoot, 'roles'), 'roles');
}
