// VS Code's `files.exclude` as the globs the agents' read tools skip (besides .gitignore, .git and
// .groundwork): the patterns switched on with `true`. A pattern with a `when` clause depends on
// its siblings' names, which a glob cannot say, so it is left out (the file stays readable).
import * as vscode from 'vscode';

export function filesExclude(): readonly string[] {
  const setting = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
  return Object.entries(setting)
    .filter(([pattern, on]) => on === true && pattern.trim() !== '')
    .map(([pattern]) => pattern);
}
