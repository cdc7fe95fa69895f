import { resolve } from 'node:path';
import { WorkspaceStore, type WorkspaceStoreOptions } from '../storage/workspaceStore';
import { NodeWorkspaceFs, type NodeWorkspaceFsOptions } from './nodeWorkspaceFs';

export interface OpenWorkspaceOptions extends WorkspaceStoreOptions, NodeWorkspaceFsOptions {}

/**
 * The store of `<workspaceRoot>/.groundwork` on the local disk. Opening touches nothing: the
 * folder is created by the first write. A relative root (the CLI's `--workspace DIR`) is taken
 * from the current folder.
 */
export function openWorkspaceStore(workspaceRoot: string, options: OpenWorkspaceOptions = {}): WorkspaceStore {
  const fs = new NodeWorkspaceFs({ fsyncAppends: options.fsyncAppends, lock: options.lock });
  return new WorkspaceStore(fs, resolve(workspaceRoot), options);
}
