// Searches folders for a secret, for tests that prove a key never leaks into files.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (symlinks not followed) whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  const found: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && lstatSync(p).size < 64 * 1024 * 1024) {
        try {
          if (readFileSync(p).includes(bytes)) found.push(p);
        } catch {
          // a file that vanished or cannot be read cannot hold the secret for anyone else either
        }
      }
    }
  };
  walk(dir);
  return found;
}
