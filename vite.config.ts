import { fileURLToPath } from 'node:url';
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
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [react(), tailwindcss(), moduleSizes()],
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
