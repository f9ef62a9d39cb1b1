// The import rule of web/features (docs/platform.md, "Shared web parts"): no ring of feature folders (two that
// import each other, or three and more that import each other round), the shared folders (web/ui, web/i18n,
// web/api, common) import no feature, and neither they nor the features import the shell (web/app). What two
// features both need moves to web/ui (components), web/i18n (text and number formats) or web/api (server data),
// or the host of both (a shell such as studio or canvas-editor) passes one into the other.
// And the timers rule: pages learn of task progress over the one progress channel (web/api/tasks.ts), so
// `refetchInterval`, `setInterval` and `new EventSource` appear only in the files of TIMER_FILES, each with why.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const featuresDir = path.join(webDir, 'features');
const appDir = path.join(webDir, 'app');
const commonDir = path.resolve(webDir, '..', 'common');

/** The files that may read on a timer, tick a clock or open an event stream, and why (paths from web/). */
const TIMER_FILES: Record<string, string> = {
  'api/tasks.ts': 'the one progress channel (its EventSource)',
  'features/workspace-home/api.ts': 'reads the running tasks on a timer only while the progress channel is down',
  'features/publishing/api.ts': 'an OAuth connection in the network tab is not a task: accounts are read meanwhile',
  'features/publishing/connect.ts': 'watches whether the OAuth tab was closed (a window sends no event for it)',
  'features/admin/api.ts': 'engine calls, worker heartbeats and storage use are no tasks and announce nothing',
  'features/campaigns/draft.ts': 'saves the draft to localStorage now and then (no request)',
  'features/campaigns/PlanResult.tsx': 'a clock for the waiting text (no request)',
  'features/film/parts.tsx': 'a clock for the elapsed time (no request)',
  'features/multi-composition/MultiCompositionTool.tsx': 'a clock for the elapsed time (no request)',
  'features/publishing/zone.ts': "a minute clock for the calendar's now (no request)",
  'ui/useEmailVerification.tsx': 'the resend countdown (no request)',
};
const TIMER_PRIMITIVES = /\brefetchInterval\b|\bsetInterval\s*\(|\bnew\s+EventSource\b/;

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

/** The strongly connected groups of two or more nodes (Tarjan): each a ring of imports, sorted. */
function ringsOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const rings: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) rings.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return rings;
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

  it('finds rings of any length, pairs included', () => {
    const graph = (edges: string[]) => {
      const map = new Map<string, Set<string>>();
      for (const edge of edges) {
        const [from, to] = edge.split('>') as [string, string];
        map.set(from, (map.get(from) ?? new Set()).add(to));
      }
      return map;
    };
    expect(ringsOf(graph(['a>b', 'b>c', 'c>d']))).toEqual([]);
    expect(ringsOf(graph(['a>b', 'b>a', 'c>a']))).toEqual([['a', 'b']]);
    expect(ringsOf(graph(['a>b', 'b>c', 'c>d', 'd>e', 'e>f', 'f>a', 'x>a']))).toEqual([['a', 'b', 'c', 'd', 'e', 'f']]);
  });

  it('has no ring of feature folders', () => {
    const edges = featureEdges();
    expect(edges.size).toBeGreaterThan(0);
    const graph = new Map<string, Set<string>>();
    for (const key of edges.keys()) {
      const [from, to] = key.split(' -> ') as [string, string];
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
    const rings = ringsOf(graph).map((ring) =>
      [...edges.keys()]
        .filter((key) => key.split(' -> ').every((end) => ring.includes(end)))
        .map((key) => `${key} (${edges.get(key)?.join(', ')})`),
    );
    expect(rings).toEqual([]);
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

  it('keeps the shell to itself: no shared folder and no feature imports web/app', () => {
    const importers = [...['ui', 'i18n', 'api', 'features'].map((dir) => path.join(webDir, dir)), commonDir];
    const offending = importers.flatMap((dir) =>
      sourceFiles(dir).flatMap((file) =>
        importsOf(file, readFileSync(file, 'utf8'))
          .filter((target) => !path.relative(appDir, target).startsWith('..'))
          .map((target) => `${path.relative(webDir, file)} -> ${path.relative(webDir, target)}`),
      ),
    );
    expect(offending).toEqual([]);
  });

  it('reads on a timer, ticks or opens an event stream only in the listed files', () => {
    const found = [webDir]
      .flatMap(sourceFiles)
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .filter((file) => TIMER_PRIMITIVES.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(webDir, file).split(path.sep).join('/'));
    expect(found.filter((file) => !(file in TIMER_FILES))).toEqual([]);
    // A listed file that no longer needs its timer leaves the list.
    expect(Object.keys(TIMER_FILES).filter((file) => !found.includes(file))).toEqual([]);
  });
});
