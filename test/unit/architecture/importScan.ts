// Finds the modules a source file imports, so the layer rule can be checked without lint.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[\w*\s{},$]+\s+from\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

export function importsOf(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const found: string[] = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const m of withoutComments.matchAll(pattern)) found.push(m[1]!);
  }
  return found;
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

/** A layer: which folder it is, and what its files may not import. */
export interface LayerRule {
  folder: string;
  except?: string[];
  /** Bare module names (or prefixes ending in ':') this layer must not import. */
  bannedModules: RegExp;
  /** Repo-relative folders this layer must not import from. */
  bannedFolders: string[];
  rule: string;
}

export function checkLayers(root: string, rules: LayerRule[], read = (f: string) => readFileSync(f, 'utf8')): Violation[] {
  const violations: Violation[] = [];
  for (const layer of rules) {
    const files = sourceFiles(join(root, layer.folder)).filter(
      (f) => !(layer.except ?? []).some((ex) => (relative(root, f) + sep).startsWith(join(ex) + sep)),
    );
    for (const file of files) {
      for (const specifier of importsOf(read(file))) {
        const rel = relative(root, file);
        if (!specifier.startsWith('.')) {
          if (layer.bannedModules.test(specifier)) violations.push({ file: rel, specifier, rule: layer.rule });
          continue;
        }
        const target = relative(root, resolve(dirname(file), specifier));
        if (layer.bannedFolders.some((f) => target === f || target.startsWith(f + sep))) {
          violations.push({ file: rel, specifier, rule: layer.rule });
        }
      }
    }
  }
  return violations;
}
