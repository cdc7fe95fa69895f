// The TypeScript sources under a folder. (The import rules themselves are lint rules now:
// eslint.config.mjs, checked by layers.test.ts.)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}
