// The plan explorer's own actions on its nodes (package.json's view/item/context menus, hidden from
// the palette where they need a node): open a document (a regular file only: a cloned repository
// may plant a link), discard a plan to the trash after asking, copy a plan's slug, reveal a plan,
// document or spec in the Explorer, resume or cancel a session, and choose the folder Groundwork
// works in.
import * as vscode from 'vscode';
import { PLANS_DIR, GROUNDWORK_DIR } from '../../core/plan/layout';

/** Discarded plans, in a window without the system's trash: `.groundwork/.trash/<slug>-<time>/`. */
const TRASH_DIR = '.trash';
import { isSlug } from '../../core/storage/safeNames';
import type { Host } from '../host';
import type { ExplorerNode } from './explorerNodes';
import { chooseFolder } from '../base/folderChoice';
import type { ExplorerFolders } from './explorerFolders';
import { DisposableStore } from '../base/lifecycle';
import { requireTrust } from '../base/trust';

type Node = ExplorerNode | undefined;

export function registerExplorerCommands(host: Host, folders: ExplorerFolders): vscode.Disposable {
  const store = new DisposableStore();
  const refresh = () => folders.refresh();
  const choose = (node: Node) =>
    chooseFolder(
      host.context.workspaceState,
      host.workspace.folder,
      node?.kind === 'folder' ? node.root.folder : undefined,
    );
  store.add(
    vscode.commands.registerCommand('groundwork.explorer.open', (arg?: ExplorerNode | vscode.Uri) =>
      openFile(arg instanceof vscode.Uri ? arg : uriOf(arg)),
    ),
  );
  store.add(vscode.commands.registerCommand('groundwork.plan.discard', (node: Node) => discardPlan(node, refresh)));
  store.add(
    vscode.commands.registerCommand('groundwork.plan.copySlug', async (node: Node) => {
      const slug = slugOf(node);
      if (slug === undefined) return;
      await vscode.env.clipboard.writeText(slug);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', slug), 3000);
    }),
  );
  store.add(
    vscode.commands.registerCommand('groundwork.explorer.reveal', async (node: Node) => {
      const uri = uriOf(node);
      if (uri) await vscode.commands.executeCommand('revealInExplorer', uri);
    }),
  );
  store.add(
    vscode.commands.registerCommand('groundwork.session.resume', async (node: Node) => {
      if (node?.kind !== 'session' || !node.root.active) return;
      const facts = node.session.facts;
      if (facts.kind === 'brainstorm') await vscode.commands.executeCommand('groundwork.brainstorm.resume', facts.slug);
      else await vscode.commands.executeCommand('groundwork.openPanel');
    }),
  );
  store.add(
    vscode.commands.registerCommand('groundwork.session.cancel', async (node: Node) => {
      if (node?.kind !== 'session' || !node.root.active) return;
      if (node.session.facts.kind === 'discovery') await vscode.commands.executeCommand('groundwork.discovery.cancel');
      else await discardPlan(node, refresh);
    }),
  );
  store.add(vscode.commands.registerCommand('groundwork.chooseFolder', (node: Node) => choose(node)));
  store.add(vscode.commands.registerCommand('groundwork.explorer.useFolder', (node: Node) => choose(node)));
  return store;
}

function slugOf(node: Node): string | undefined {
  if (node?.kind === 'plan') return node.plan.slug;
  if (node?.kind === 'session' && node.session.facts.kind === 'brainstorm') return node.session.facts.slug;
  return undefined;
}

/** The file or folder a node stands for: a plan's folder, a document, a spec's folder, a session's file. */
function uriOf(node: Node): vscode.Uri | undefined {
  switch (node?.kind) {
    case 'plan':
      return node.root.fileUri(`${PLANS_DIR}/${node.plan.slug}`);
    case 'document':
      return node.root.fileUri(node.doc.file);
    case 'spec':
      return vscode.Uri.joinPath(node.root.folder.uri, ...node.spec.path.split('/'));
    case 'session':
      return node.root.fileUri(node.session.facts.file);
    case 'error':
      return node.file;
    default:
      return undefined;
  }
}

/** Opens a file of the workspace the explorer names, when it is a regular file (not a link, not a folder). */
async function openFile(uri: vscode.Uri | undefined): Promise<void> {
  if (!uri) return;
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat || stat.type !== vscode.FileType.File) {
    const why = !stat
      ? vscode.l10n.t('it is gone')
      : (stat.type & vscode.FileType.SymbolicLink) !== 0
        ? vscode.l10n.t('it is a link')
        : vscode.l10n.t('it is not a file');
    return void vscode.window.showWarningMessage(
      vscode.l10n.t(
        '{0} cannot be opened: {1}. Refresh the Plans view.',
        vscode.workspace.asRelativePath(uri, true),
        why,
      ),
    );
  }
  await vscode.commands.executeCommand('vscode.open', uri);
}

/** Moves a plan's folder to the trash after the person confirmed; its builds and cases stay. */
async function discardPlan(node: Node, refresh: () => void): Promise<void> {
  const slug = slugOf(node);
  if (slug === undefined || !isSlug(slug) || (node?.kind !== 'plan' && node?.kind !== 'session')) return;
  if (!requireTrust(vscode.l10n.t('discard a plan'))) return;
  const folder = vscode.Uri.joinPath(node.root.folder.uri, GROUNDWORK_DIR, PLANS_DIR, slug);
  const stat = await Promise.resolve(vscode.workspace.fs.stat(folder)).catch(() => undefined);
  if (!stat || stat.type !== vscode.FileType.Directory) {
    refresh();
    return void vscode.window.showWarningMessage(vscode.l10n.t('The plan {0} is no longer there.', slug));
  }
  const discard = vscode.l10n.t('Move to Trash');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Discard the plan "{0}"?', slug),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Its folder .groundwork/plans/{0}/ (the Idea Brief, the brainstorm and its rounds) moves to the trash, where it can be restored. Builds made from it and their discoveries stay.',
        slug,
      ),
    },
    discard,
  );
  if (answer !== discard) return;
  try {
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: true });
  } catch {
    // A window without the system's trash (a remote or web window): Groundwork's own, inside the workspace.
    const trash = vscode.Uri.joinPath(node.root.folder.uri, GROUNDWORK_DIR, TRASH_DIR);
    const kept = vscode.Uri.joinPath(trash, `${slug}-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`);
    try {
      // A planted .trash that is a link (or a file) must not take the plan out of the workspace.
      const there = await Promise.resolve(vscode.workspace.fs.stat(trash)).catch(() => undefined);
      if (there && there.type !== vscode.FileType.Directory)
        throw new Error(vscode.l10n.t('{0} is not a folder', vscode.workspace.asRelativePath(trash, true)));
      if (!there) await vscode.workspace.fs.createDirectory(trash);
      await vscode.workspace.fs.rename(folder, kept, { overwrite: false });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return void vscode.window.showErrorMessage(
        vscode.l10n.t('The plan {0} could not be moved to the trash, and nothing was deleted: {1}', slug, reason),
      );
    }
    refresh();
    return void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'This window has no system trash: the plan {0} was moved to {1}. Move it back to .groundwork/plans/ to restore it.',
        slug,
        vscode.workspace.asRelativePath(kept, true),
      ),
    );
  }
  refresh();
  vscode.window.setStatusBarMessage(vscode.l10n.t('Moved the plan {0} to the trash', slug), 5000);
}
