// The import rule of web/features (docs/platform.md, "Shared web parts"): no two feature folders import each
// other, and the shared folders (web/ui, web/i18n, web/api) import no feature. What two features both need
// moves to web/ui (components), web/i18n (text and number formats) or web/api (server data), or the host of
// both (a shell such as studio or canvas-editor) passes one into the other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const featuresDir = path.join(webDir, 'features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files a module imports (static, re-exported and lazy imports), as absolute paths. */
function importsOf(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier as string));
}

function featureOf(file: string): string | null {
  const relative = path.relative(featuresDir, file);
  if (relative.startsWith('..') || !relative.includes(path.sep)) return null;
  return relative.split(path.sep)[0] as string;
}

/** "from -> to" for every import of one feature folder from another, with the importing files. */
function featureEdges(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(featuresDir)) {
    const from = featureOf(file);
    for (const target of importsOf(file, readFileSync(file, 'utf8'))) {
      const to = featureOf(target);
      if (!from || !to || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), path.relative(webDir, file)]);
    }
  }
  return edges;
}

describe('web feature layering', () => {
  it('reads imports, re-exports and lazy imports', () => {
    const file = path.join(featuresDir, 'a', 'View.tsx');
    const source = [
      "import { x } from '../b/x.ts';",
      "export { y } from './y.ts';",
      "const Z = lazy(() => import('../c/Z.tsx'));",
      "import { useQuery } from '@tanstack/react-query';",
    ].join('\n');
    expect(importsOf(file, source).map((target) => featureOf(target))).toEqual(['b', 'a', 'c']);
  });

  it('has no two feature folders that import each other', () => {
    const edges = featureEdges();
    expect(edges.size).toBeGreaterThan(0);
    const mutual = [...edges.keys()]
      .filter((key) => {
        const [from, to] = key.split(' -> ');
        return edges.has(`${to} -> ${from}`);
      })
      .map((key) => `${key} (${edges.get(key)?.join(', ')})`);
    expect(mutual).toEqual([]);
  });

  it('keeps the shared folders free of feature imports', () => {
    const offending = ['ui', 'i18n', 'api'].flatMap((shared) =>
      sourceFiles(path.join(webDir, shared)).flatMap((file) =>
        importsOf(file, readFileSync(file, 'utf8'))
          .filter((target) => featureOf(target) !== null)
          .map((target) => `${path.relative(webDir, file)} -> ${path.relative(webDir, target)}`),
      ),
    );
    expect(offending).toEqual([]);
  });
});
