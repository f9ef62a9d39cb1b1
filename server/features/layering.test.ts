// The import rule of server/features (docs/platform.md): no ring of feature folders (two or more folders that
// reach themselves again through their imports), and the platform imports no feature. What two features both
// need moves down to the platform (server/platform) or to a small folder of its own that imports no feature.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { featureEdges, importsOf, rings, sourceFiles } from '../../scripts/lint/feature-graph.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const featuresDir = path.join(serverDir, 'features');
/** Tests may reach across folders for their fixtures; the rule is about the product's code. */
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

describe('server feature layering', () => {
  it('finds a ring of any length', () => {
    expect(rings(['a -> b', 'b -> a'])).toEqual([['a', 'b']]);
    expect(rings(['a -> b', 'b -> c', 'c -> d', 'd -> e', 'e -> f', 'f -> a', 'x -> a'])).toEqual([
      ['a', 'b', 'c', 'd', 'e', 'f'],
    ]);
    expect(rings(['a -> b', 'b -> c', 'a -> c'])).toEqual([]);
  });

  it('has no ring of feature folders', () => {
    const edges = featureEdges(featuresDir, serverDir, isTest);
    expect(edges.size).toBeGreaterThan(0);
    const found = rings(edges.keys()).map((ring) => {
      const inRing = [...edges.entries()].filter(([key]) => {
        const [from, to] = key.split(' -> ');
        return ring.includes(from as string) && ring.includes(to as string);
      });
      return inRing.map(([key, files]) => `${key} (${[...new Set(files)].join(', ')})`).join('; ');
    });
    expect(found).toEqual([]);
  });

  it('keeps the platform free of feature imports', () => {
    const platformDir = path.join(serverDir, 'platform');
    const offending = sourceFiles(platformDir)
      .filter((file) => !isTest(file))
      .flatMap((file) =>
        importsOf(file, readFileSync(file, 'utf8'))
          .filter((target) => !path.relative(featuresDir, target).startsWith('..'))
          .map((target) => `${path.relative(serverDir, file)} -> ${path.relative(serverDir, target)}`),
      );
    expect(offending).toEqual([]);
  });
});
