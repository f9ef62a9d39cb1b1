// First-load JavaScript per route, gzipped, from the Vite build manifest (web/dist/.vite/manifest.json).
// A route's first load is the app entry (index.html's chunk and everything it imports statically) plus,
// for a lazily loaded page, that page's chunk and its static imports; each file is counted once and
// gzipped at level 9. The routes and their page modules are read from the router (web/app/router.tsx).
// Under each budget the heaviest contributors are listed, from web/dist/.vite/modules.json (vite.config.ts writes
// each chunk's source modules with their rendered bytes; a chunk's gzipped size is shared out in that proportion).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildWeb, ensureWebBuilt } from '../scripts/web-build.ts';
import type { BenchRow, BenchSection } from './report.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'web');
const distDir = path.join(webDir, 'dist');
const manifestFile = path.join(distDir, '.vite', 'manifest.json');
const routerFile = path.join(webDir, 'app', 'router.tsx');

const modulesFile = path.join(distDir, '.vite', 'modules.json');
const buildEnvFile = path.join(distDir, '.vite', 'build-env.json');

/** First-load budgets, gzipped KB (issue 31). */
const BUDGET_KB = { entry: 150, shell: 180, studio: 250, otherRoute: 220 } as const;
/** The Creation Studio view, the dashboard's heaviest lazily loaded view (reported beside the shell). */
const STUDIO_VIEW = 'features/studio/StudioView.tsx';
/** How many contributors are listed under each budget. */
const TOP = 6;

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

/** Chunk file → source module id → rendered bytes (written by vite.config.ts's moduleSizes plugin). */
type ModuleSizes = Record<string, Record<string, number>>;

/** What a module counts under: its npm package, or its folder in this repository (strings apart from code). */
function contributorOf(id: string): string {
  const normalised = id.replaceAll('\\', '/').replace(/^\0/, '');
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(normalised);
  if (inPackage) return inPackage[1];
  const relative = normalised.startsWith(root)
    ? path.posix.relative(root.replaceAll('\\', '/'), normalised)
    : normalised;
  const folder = path.posix.dirname(relative);
  if (relative.endsWith('.json') && folder.endsWith('/i18n')) return `${folder.replace(/\/i18n$/, '')} English strings`;
  return folder === '.' ? relative : folder;
}

/** The heaviest contributors to `files` (gzipped bytes, each chunk shared out by its modules' rendered bytes). */
function topContributors(
  files: Iterable<string>,
  sizes: ModuleSizes,
  gzipped: Map<string, number>,
): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const file of files) {
    const chunkBytes = gzipped.get(file);
    const modules = sizes[file];
    if (chunkBytes === undefined || !modules) continue;
    const rendered = Object.values(modules).reduce((sum, n) => sum + n, 0);
    if (rendered === 0) continue;
    for (const [id, length] of Object.entries(modules)) {
      const name = contributorOf(id);
      totals.set(name, (totals.get(name) ?? 0) + (chunkBytes * length) / rendered);
    }
  }
  return [...totals]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, TOP);
}

function contributorRows(
  files: Iterable<string>,
  sizes: ModuleSizes | null,
  gzipped: Map<string, number>,
  label: string,
): BenchRow[] {
  if (!sizes) return [];
  return topContributors(files, sizes, gzipped).map(({ name, bytes }, index) => ({
    name: `    ${index === 0 ? `${label}: ` : ' '.repeat(label.length + 2)}${name}`,
    ours: kb(bytes),
    baseline: '',
  }));
}

function budgeted(name: string, bytes: number, budgetKb: number): BenchRow {
  return { name, ours: kb(bytes), baseline: '', budget: `≤ ${budgetKb} KB`, pass: bytes <= budgetKb * 1024 };
}

export async function runWebBench(): Promise<BenchSection> {
  await ensureWebBuilt();
  const builtFor = existsSync(buildEnvFile)
    ? (JSON.parse(await readFile(buildEnvFile, 'utf8')) as { nodeEnv: string | null }).nodeEnv
    : null;
  if (builtFor !== 'production') {
    console.log(`Rebuilding the web app for production (the last build was made with NODE_ENV=${builtFor})…`);
    await buildWeb(path.join(root, 'vite.config.ts'));
  }
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: vite.config.ts needs build.manifest`);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('the Vite manifest has no entry chunk');
  const sizes = existsSync(modulesFile) ? (JSON.parse(await readFile(modulesFile, 'utf8')) as ModuleSizes) : null;
  const cache = new Map<string, number>();
  const entryFiles = staticClosure(manifest, [entryKey]);
  const entryBytes = await gzippedBytes(entryFiles, cache);
  const rows: BenchRow[] = [
    budgeted('app entry (every route)', entryBytes, BUDGET_KB.entry),
    ...contributorRows(entryFiles, sizes, cache, 'largest in it'),
  ];

  /** The heaviest route without a budget of its own, for its contributors beyond the entry. */
  let heaviestOther = null as { route: string; files: Set<string>; bytes: number } | null;
  for (const { route, module } of await routesOfRouter()) {
    const files = staticClosure(manifest, module ? [module] : [], new Set(entryFiles));
    const bytes = await gzippedBytes(files, cache);
    const shell = route === '/dashboard';
    if (!shell) {
      rows.push(budgeted(`${route} — ${files.size} files`, bytes, BUDGET_KB.otherRoute));
      if (!heaviestOther || bytes > heaviestOther.bytes) heaviestOther = { route, files, bytes };
      continue;
    }
    const beyondEntry = [...files].filter((file) => !entryFiles.has(file));
    rows.push(
      budgeted(`${route} (dashboard shell) — ${files.size} files`, bytes, BUDGET_KB.shell),
      ...contributorRows(beyondEntry, sizes, cache, 'largest beyond the entry'),
    );
    if (manifest[STUDIO_VIEW]) {
      const withView = staticClosure(manifest, [STUDIO_VIEW], new Set(files));
      const beyondShell = [...withView].filter((file) => !files.has(file));
      rows.push(
        budgeted(
          `/dashboard?view=genproStudio (shell + Creation Studio view) — ${withView.size} files`,
          await gzippedBytes(withView, cache),
          BUDGET_KB.studio,
        ),
        ...contributorRows(beyondShell, sizes, cache, 'largest beyond the shell'),
      );
    }
  }
  if (heaviestOther) {
    const { route, files } = heaviestOther;
    const beyondEntry = [...files].filter((file) => !entryFiles.has(file));
    const at = rows.findIndex((row) => row.name.startsWith(`${route} — `)) + 1;
    rows.splice(at, 0, ...contributorRows(beyondEntry, sizes, cache, 'heaviest other route, beyond the entry'));
  }
  return {
    title: 'Web: first-load JavaScript per route (gzipped)',
    method: [
      'Vite production build; web/dist/.vite/manifest.json read for each route of web/app/router.tsx.',
      "First load = the entry chunk and its static imports + the route's lazy page chunk and its static imports.",
      'Each .js file gzipped once at level 9 (zlib) and summed; CSS and lazily loaded views/dialogs not counted.',
      `Budgets: entry ≤ ${BUDGET_KB.entry} KB, dashboard shell ≤ ${BUDGET_KB.shell} KB, Creation Studio ≤ ${BUDGET_KB.studio} KB, every other route ≤ ${BUDGET_KB.otherRoute} KB.`,
      'Indented rows: the largest contributors (npm package or source folder) from web/dist/.vite/modules.json.',
    ],
    rows,
  };
}
