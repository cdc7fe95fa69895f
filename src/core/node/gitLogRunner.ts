// The GitLogPort of core/cases/staleness.ts on the local git: one `git log` per question, run with
// execFile (no shell: the paths come from untrusted case content and go to git as arguments after
// `--`, each as a literal pathspec), in the workspace folder, with a timeout. Git missing, a folder
// that is not a repository and a timeout are answers with a reason, not errors.
import { execFile, type ExecFileException } from 'node:child_process';
import type { GitCommit, GitLogPort, GitLogResult } from '../cases/staleness';

export interface GitLogRunnerOptions {
  /** The git program (default `git`, found on PATH). */
  git?: string;
  /** After this long git is stopped and the check skipped (default 15 s). */
  timeoutMs?: number;
  /** The most commits one question returns (default 200). */
  maxCommits?: number;
  /** The environment (default process.env), with prompts and optional locks turned off. */
  env?: NodeJS.ProcessEnv;
}

const RECORD = '\x1e';
const FIELD = '\x1f';
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** A path of the case as a pathspec taken literally; a bare file name in any folder (as a glob of that name only). */
export function pathspecOf(path: string): string {
  const plain = path.replace(/\/+$/, '');
  if (plain.includes('/') || path.endsWith('/')) return `:(literal)${plain}`;
  return `:(glob)**/${plain.replace(/[*?[\]\\]/g, '\\$&')}`;
}

export class GitLogRunner implements GitLogPort {
  private readonly git: string;
  private readonly timeoutMs: number;
  private readonly maxCommits: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    /** The workspace folder: paths are relative to it, and so are the files the commits list. */
    private readonly cwd: string,
    options: GitLogRunnerOptions = {},
  ) {
    this.git = options.git ?? 'git';
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxCommits = options.maxCommits ?? 200;
    this.env = { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  }

  commitsTouching(paths: readonly string[], since: string): Promise<GitLogResult> {
    if (paths.length === 0) return Promise.resolve({ ok: true, commits: [] });
    if (!Number.isFinite(Date.parse(since)))
      return Promise.resolve({ ok: false, reason: `${JSON.stringify(since)} is not a time git can search from.` });
    const args = [
      '--no-pager',
      '-c',
      'core.quotePath=false',
      '-c',
      'log.showSignature=false',
      'log',
      `--since=${since}`,
      `--max-count=${this.maxCommits}`,
      '--relative',
      '--no-renames',
      '--no-ext-diff',
      '--name-only',
      `--format=${RECORD}%H${FIELD}%cI${FIELD}%s`,
      '--',
      ...paths.map(pathspecOf),
    ];
    return new Promise((resolve) => {
      execFile(
        this.git,
        args,
        { cwd: this.cwd, env: this.env, timeout: this.timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true },
        (err, stdout, stderr) => {
          if (err === null) return resolve({ ok: true, commits: parseGitLog(stdout) });
          resolve(failure(err, String(stderr), this.timeoutMs));
        },
      );
    });
  }
}

function failure(err: ExecFileException, stderr: string, timeoutMs: number): GitLogResult {
  if (err.code === 'ENOENT')
    return {
      ok: false,
      reason: 'git is not installed (or not on the PATH), so cases are not checked against commits.',
    };
  if (err.killed === true || err.signal)
    return {
      ok: false,
      reason: `git log took longer than ${Math.round(timeoutMs / 1000)} s and was stopped; cases were not checked against commits.`,
    };
  if (/not a git repository/i.test(stderr))
    return {
      ok: false,
      reason: 'The workspace folder is not a git repository, so cases are not checked against commits.',
    };
  // A repository without a commit has nothing that changed a file.
  if (/does not have any commits yet|bad default revision/i.test(stderr)) return { ok: true, commits: [] };
  const detail = stderr.trim().split('\n')[0]?.slice(0, 200) ?? '';
  return {
    ok: false,
    reason: `git log failed (${detail === '' ? `exit code ${String(err.code)}` : detail}); cases were not checked against commits.`,
  };
}

/** The commits in `git log --name-only --format=<RS>%H<US>%cI<US>%s` output. */
export function parseGitLog(output: string): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const record of output.split(RECORD)) {
    if (record.trim() === '') continue;
    const [header = '', ...rest] = record.split('\n');
    const [hash = '', date = '', subject = ''] = header.split(FIELD);
    if (!/^[0-9a-f]{7,64}$/.test(hash)) continue;
    commits.push({ hash, date, subject, files: rest.map((l) => l.trimEnd()).filter((l) => l !== '') });
  }
  return commits;
}
