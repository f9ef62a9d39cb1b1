import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('./web', import.meta.url));
// The API listens on 127.0.0.1 by default; `localhost` may resolve to ::1 first.
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';
const proxy = Object.fromEntries(
  ['/api', '/dev', '/healthz', '/readyz', '/livez'].map((path) => [path, { target: apiTarget }]),
);

export default defineConfig({
  root: webRoot,
  plugins: [react(), tailwindcss()],
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
