// The names agents never see, whatever any .gitignore says: Git's and Groundwork's internals and
// files that usually hold credentials. Names are compared as Windows and macOS file systems would.

/**
 * Secrets are kept from agents even when no .gitignore names them: environment files, private
 * keys and the credential folders of common tools.
 */
const SECRET_FILES =
  /^(\.env(\..*)?|.*\.(pem|key|p12|pfx)|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|\.npmrc|\.pypirc|\.netrc|\.git-credentials)$/;
const SECRET_FOLDERS = new Set(['.ssh', '.aws', '.gnupg', '.docker']);

/** Compared as Windows and macOS file systems would: case-insensitively, after NFC normalisation. */
export function folded(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Why the entry at `segments` (names relative to the workspace root) is hidden by name alone, or
 * undefined. `isDirectory` says what the last name is.
 */
export function hiddenNameReason(segments: readonly string[], isDirectory: boolean): string | undefined {
  for (const [i, name] of segments.entries()) {
    const f = folded(name);
    if (f === '.git') return "it is inside .git, Git's internal data";
    if (i === 0 && f === '.groundwork') return "it is inside .groundwork, Groundwork's own internal folder";
    const isFolder = i < segments.length - 1 || isDirectory;
    if (isFolder ? SECRET_FOLDERS.has(f) : SECRET_FILES.test(f)) {
      return 'files that usually hold credentials (private keys, tokens, .env files) are never read by agents';
    }
  }
  return undefined;
}
