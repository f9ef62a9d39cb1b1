import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('./web', import.meta.url));
// The API listens on 127.0.0.1 by default; `localhost` may resolve to ::1 first.
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';
const proxy = Object.fromEntries(
  ['/api', '/dev', '/healthz', '/readyz', '/livez'].map((path) => [path, { target: apiTarget }]),
);

/**
 * Writes dist/.vite/modules.json: for each output chunk, its source modules and the bytes each contributes
 * to the rendered chunk (Rolldown's renderedLength). bench/web.bench.ts prints the top contributors per budget.
 */
function moduleSizes(): Plugin {
  return {
    name: 'genpro-module-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, Record<string, number>> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const modules: Record<string, number> = {};
        for (const [id, info] of Object.entries(output.modules)) {
          if (info.renderedLength > 0) modules[id] = info.renderedLength;
        }
        chunks[output.fileName] = modules;
      }
      this.emitFile({ type: 'asset', fileName: '.vite/modules.json', source: JSON.stringify(chunks) });
      // A build made under vitest (NODE_ENV=test, the browser journeys) carries React's development build: the
      // web bench rebuilds rather than measure it.
      this.emitFile({
        type: 'asset',
        fileName: '.vite/build-env.json',
        source: JSON.stringify({ nodeEnv: process.env.NODE_ENV ?? null }),
      });
    },
  };
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each built text file over 1 KB; the server sends the one the
 * browser accepts (@fastify/static preCompressed, server/app.ts), so nothing is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'genpro-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.join(webRoot, 'dist');
      const files = [...Object.keys(bundle), 'index.html'].filter(
        (file, index, all) =>
          /\.(js|css|html|svg|json)$/.test(file) && !file.startsWith('.vite/') && all.indexOf(file) === index,
      );
      for (const file of files) {
        const full = path.join(dir, file);
        const content = await readFile(full).catch(() => null);
        if (!content || content.length < 1024) continue;
        await writeFile(
          `${full}.br`,
          brotliCompressSync(content, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        await writeFile(`${full}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [react(), tailwindcss(), moduleSizes(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bench/web.bench.ts reads web/dist/.vite/manifest.json for first-load JS per route.
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
