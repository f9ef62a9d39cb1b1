// The import graph between the feature folders of one tree (server/features or web/features), for the layering
// tests: which folder imports which (static imports, re-exports and lazy imports, type-only ones too), and the
// rings in it (folders that reach themselves again through their imports).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files a module imports (static, re-exported and lazy imports), as absolute paths. */
export function importsOf(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier as string));
}

/** The feature folder a file belongs to, or null outside `featuresDir` (or directly in it). */
export function featureOf(featuresDir: string, file: string): string | null {
  const relative = path.relative(featuresDir, file);
  if (relative.startsWith('..') || !relative.includes(path.sep)) return null;
  return relative.split(path.sep)[0] as string;
}

/** For each "from -> to" import between two feature folders, the importing files (relative to `root`). */
export function featureEdges(
  featuresDir: string,
  root: string,
  skip: (file: string) => boolean = () => false,
): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(featuresDir)) {
    if (skip(file)) continue;
    const from = featureOf(featuresDir, file);
    for (const target of importsOf(file, readFileSync(file, 'utf8'))) {
      const to = featureOf(featuresDir, target);
      if (!from || !to || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), path.relative(root, file)]);
    }
  }
  return edges;
}

/** The rings of the graph: each strongly connected set of two or more folders, sorted (Tarjan's algorithm). */
export function rings(edges: Iterable<string>): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(' -> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) === index.get(node)) {
      const ring: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        ring.push(member);
      } while (member !== node);
      if (ring.length > 1) found.push(ring.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
