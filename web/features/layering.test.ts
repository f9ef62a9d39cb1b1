// The import rule of web/features (docs/platform.md, "Shared web parts"): no ring of feature folders (two that
// import each other, or three and more that import each other round), the shared folders (web/ui, web/i18n,
// web/api, common) import no feature, and neither they nor the features import the shell (web/app). What two
// features both need moves to web/ui (components), web/i18n (text and number formats) or web/api (server data),
// or the host of both (a shell such as studio or canvas-editor) passes one into the other.
// And the timers rule: pages learn of task progress over the one progress channel (web/api/tasks.ts), so
// `refetchInterval`, `setInterval` and `new EventSource` appear only in the files of TIMER_FILES, each with why.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  featureEdges,
  featureOf as featureFolderOf,
  importsOf,
  rings,
  sourceFiles,
} from '../../scripts/lint/feature-graph.ts';

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

const featureOf = (file: string) => featureFolderOf(featuresDir, file);

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
    expect(rings(['a -> b', 'b -> c', 'c -> d'])).toEqual([]);
    expect(rings(['a -> b', 'b -> a', 'c -> a'])).toEqual([['a', 'b']]);
    expect(rings(['a -> b', 'b -> c', 'c -> d', 'd -> e', 'e -> f', 'f -> a', 'x -> a'])).toEqual([
      ['a', 'b', 'c', 'd', 'e', 'f'],
    ]);
  });

  it('has no ring of feature folders', () => {
    const edges = featureEdges(featuresDir, webDir);
    expect(edges.size).toBeGreaterThan(0);
    const found = rings(edges.keys()).map((ring) =>
      [...edges.keys()]
        .filter((key) => key.split(' -> ').every((end) => ring.includes(end)))
        .map((key) => `${key} (${edges.get(key)?.join(', ')})`),
    );
    expect(found).toEqual([]);
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
