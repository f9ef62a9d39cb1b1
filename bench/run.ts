// `npm run bench`: builds the web app if stale, starts the studio on a fresh data dir (as e2e/global-setup.ts
// does), runs the canvas benchmark and prints p50/p95 frame times beside the 16.7 ms budget. Exits 0.
import { startStudio } from '../scripts/studio-process.ts';
import { formatResults, runCanvasBench } from './canvas.bench.ts';

const DEMO = { email: 'creator@genpro.local', password: 'genpro-creator' };

async function main() {
  const studio = await startStudio('bench');
  try {
    console.log(`Canvas benchmark: 1000 images, headless Chromium (--disable-gpu), studio at ${studio.baseUrl}`);
    const results = await runCanvasBench({ baseUrl: studio.baseUrl, ...DEMO });
    console.log(formatResults(results));
  } finally {
    await studio.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
