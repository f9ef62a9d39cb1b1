// First-load JavaScript per route, gzipped, from the Vite build manifest (web/dist/.vite/manifest.json).
// A route's first load is the app entry (index.html's chunk and everything it imports statically) plus,
// for a lazily loaded page, that page's chunk and its static imports; each file is counted once and
// gzipped at level 9. The routes and their page modules are read from the router (web/app/router.tsx).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ensureWebBuilt } from '../scripts/web-build.ts';
import type { BenchRow, BenchSection } from './report.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'web');
const distDir = path.join(webDir, 'dist');
const manifestFile = path.join(distDir, '.vite', 'manifest.json');
const routerFile = path.join(webDir, 'app', 'router.tsx');

const SHELL_BUDGET_KB = 250;
/** The Creation Studio view, the dashboard's heaviest lazily loaded view (reported beside the shell). */
const STUDIO_VIEW = 'features/studio/StudioView.tsx';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Route path → page module (relative to web/), from `const X = lazy(() => import('…'))` and `element: <X />`. */
async function routesOfRouter(): Promise<{ route: string; module: string | null }[]> {
  const source = await readFile(routerFile, 'utf8');
  const modules = new Map<string, string>();
  for (const m of source.matchAll(/const (\w+) = lazy\(\(\) => import\('([^']+)'\)\)/g)) {
    modules.set(m[1], path.posix.normalize(path.posix.join('app', m[2])));
  }
  const routes: { route: string; module: string | null }[] = [];
  let parent = '';
  for (const line of source.split('\n')) {
    const parentMatch = /path: '([^']+)',\s*$/.exec(line.trim());
    if (parentMatch && !line.includes('element')) parent = parentMatch[1];
    const index = /\{ index: true, element: <(\w+) \/> \}/.exec(line);
    const child = /\{ path: '([^']+)', element: <(\w+) \/> \}/.exec(line);
    const indent = line.length - line.trimStart().length;
    const nested = indent > 8 && parent !== '';
    if (index) routes.push({ route: `/${nested ? parent : ''}`, module: modules.get(index[1]) ?? null });
    else if (child && modules.has(child[2])) {
      routes.push({ route: `/${nested ? `${parent}/` : ''}${child[1]}`, module: modules.get(child[2]) ?? null });
    }
  }
  return routes;
}

/** The chunk files loaded for `keys` and their static imports (transitively). */
function staticClosure(manifest: Manifest, keys: readonly string[], into = new Set<string>()): Set<string> {
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return into;
}

async function gzippedBytes(files: Iterable<string>, cache: Map<string, number>): Promise<number> {
  let total = 0;
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    let size = cache.get(file);
    if (size === undefined) {
      size = gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
      cache.set(file, size);
    }
    total += size;
  }
  return total;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function runWebBench(): Promise<BenchSection> {
  await ensureWebBuilt();
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: vite.config.ts needs build.manifest`);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('the Vite manifest has no entry chunk');
  const cache = new Map<string, number>();
  const entryFiles = staticClosure(manifest, [entryKey]);
  const entryBytes = await gzippedBytes(entryFiles, cache);
  const rows: BenchRow[] = [{ name: 'app entry (every route)', ours: kb(entryBytes), baseline: '' }];

  for (const { route, module } of await routesOfRouter()) {
    const files = staticClosure(manifest, module ? [module] : [], new Set(entryFiles));
    const bytes = await gzippedBytes(files, cache);
    const shell = route === '/dashboard';
    rows.push({
      name: `${route}${shell ? ' (dashboard shell)' : ''} — ${files.size} files`,
      ours: kb(bytes),
      baseline: '',
      ...(shell ? { budget: `< ${SHELL_BUDGET_KB} KB`, pass: bytes < SHELL_BUDGET_KB * 1024 } : {}),
    });
    if (shell && manifest[STUDIO_VIEW]) {
      const withView = staticClosure(manifest, [STUDIO_VIEW], new Set(files));
      rows.push({
        name: `/dashboard?view=genproStudio (shell + Creation Studio view) — ${withView.size} files`,
        ours: kb(await gzippedBytes(withView, cache)),
        baseline: '',
      });
    }
  }
  return {
    title: 'Web: first-load JavaScript per route (gzipped)',
    method: [
      'Vite production build; web/dist/.vite/manifest.json read for each route of web/app/router.tsx.',
      "First load = the entry chunk and its static imports + the route's lazy page chunk and its static imports.",
      'Each .js file gzipped once at level 9 (zlib) and summed; CSS and lazily loaded views/dialogs not counted.',
    ],
    rows,
  };
}
