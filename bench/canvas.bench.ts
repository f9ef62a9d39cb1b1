// Canvas pan/zoom benchmark: 1000 images on the multi-image canvas in headless Chromium, frame times
// measured with requestAnimationFrame while the mouse pans (Pan tool) and the wheel zooms. Not part of
// `npm test`; run with `npm run bench`. The page is opened with `?bench=1`, which exposes
// `window.__genproCanvas.seed(n)` (also always available in dev builds) to fill the store quickly.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scripts/chromium.ts';
import { type BenchRow, type BenchSection, ms, percentile } from './report.ts';

const BUDGET_MS = 16.7;
/** requestAnimationFrame deltas are vsync-quantised (60 Hz): a frame delivered on time reads 16.7 ms ± jitter. */
const VSYNC_JITTER_MS = 0.5;
const IMAGES = 1000;
const SECONDS = 3;

interface PhaseResult {
  phase: string;
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  visibleNodes: number;
}

// A string, not a function: tsx (esbuild keepNames) would wrap named inner functions in __name().
const FRAME_RECORDER = `(() => {
  window.__frames = [];
  window.__recording = true;
  let last = performance.now();
  const tick = (now) => {
    if (!window.__recording) return;
    window.__frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
})()`;

async function startFrameRecorder(page: Page) {
  await page.evaluate(FRAME_RECORDER);
}

async function stopFrameRecorder(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames;
  });
}

async function visibleNodes(page: Page): Promise<number> {
  return page.evaluate(() => {
    const konva = (window as unknown as { Konva?: { stages: { find: (s: string) => unknown[] }[] } }).Konva;
    return konva?.stages[0]?.find('Image').length ?? -1;
  });
}

async function measure(page: Page, phase: string, drive: () => Promise<void>): Promise<PhaseResult> {
  await startFrameRecorder(page);
  await drive();
  const nodes = await visibleNodes(page);
  const frames = (await stopFrameRecorder(page)).sort((a, b) => a - b);
  return {
    phase,
    frames: frames.length,
    p50: percentile(frames, 50),
    p95: percentile(frames, 95),
    p99: percentile(frames, 99),
    max: frames[frames.length - 1] ?? Number.NaN,
    visibleNodes: nodes,
  };
}

/** Runs the canvas benchmark against a running studio at `baseUrl` signed in as `email`. */
export async function runCanvasBench(options: {
  baseUrl: string;
  email: string;
  password: string;
}): Promise<BenchSection> {
  const { baseUrl, email, password } = options;
  const images = IMAGES;
  const seconds = SECONDS;
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1600, height: 1000 },
    args: CHROMIUM_ARGS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${baseUrl}/auth/login`);
    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/dashboard**');
    await page.goto(`${baseUrl}/dashboard?view=genproStudio&canvas=1&bench=1`);
    await page.getByTestId('canvas-stage').locator('canvas').first().waitFor();
    const seeded = await page.evaluate((n) => {
      const handle = (window as unknown as { __genproCanvas?: { seed?: (n: number) => number } }).__genproCanvas;
      if (!handle?.seed) throw new Error('window.__genproCanvas.seed is missing (open the page with ?bench=1)');
      return handle.seed(n);
    }, images);
    await page
      .getByTestId('canvas-count')
      .filter({ hasText: `${seeded} /` })
      .waitFor();
    await page.waitForTimeout(500);

    const box = await page.getByTestId('canvas-stage').boundingBox();
    if (!box) throw new Error('canvas-stage has no box');
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const until = (ms: number) => {
      const end = Date.now() + ms;
      return () => Date.now() < end;
    };

    await page.getByTestId('canvas-tool-pan').click();
    const results: PhaseResult[] = [];

    results.push(
      await measure(page, 'pan (zoom 1, drag 3 s)', async () => {
        const going = until(seconds * 1000);
        while (going()) {
          await page.mouse.move(cx, cy + 200);
          await page.mouse.down();
          for (let i = 1; i <= 20 && going(); i += 1) await page.mouse.move(cx - i * 5, cy + 200 - i * 20);
          await page.mouse.up();
        }
      }),
    );

    await page.evaluate(() => {
      const handle = (window as unknown as { __genproCanvas: { state: () => { setView: (v: object) => void } } })
        .__genproCanvas;
      handle.state().setView({ zoom: 0.1, panX: 550, panY: 360 });
    });
    await page.waitForTimeout(300);
    results.push(
      await measure(page, 'zoom (wheel in/out 0.1–5, 3 s)', async () => {
        const going = until(seconds * 1000);
        await page.mouse.move(cx, cy);
        // From the 0.1 floor, 42 notches of 1.1 reach the 5 ceiling (and 42 of 0.9 come back), so every
        // sweep crosses the thumbnail → full-resolution threshold both ways.
        let direction = -1;
        let steps = 0;
        while (going()) {
          await page.mouse.wheel(0, direction * 100);
          steps += 1;
          if (steps % 42 === 0) direction = -direction;
          await page.waitForTimeout(8);
        }
      }),
    );

    // Zoomed out: the most images on screen at once.
    await page.evaluate(() => {
      const handle = (window as unknown as { __genproCanvas: { state: () => { setView: (v: object) => void } } })
        .__genproCanvas;
      handle.state().setView({ zoom: 0.1, panX: 500, panY: 0 });
    });
    await page.waitForTimeout(300);
    results.push(
      await measure(page, 'pan zoomed out (zoom 0.1, 3 s)', async () => {
        const going = until(seconds * 1000);
        while (going()) {
          await page.mouse.move(cx, cy + 200);
          await page.mouse.down();
          for (let i = 1; i <= 20 && going(); i += 1) await page.mouse.move(cx, cy + 200 - i * 20);
          await page.mouse.up();
        }
      }),
    );
    const heap = await jsHeap(page);
    return section(results, heap);
  } finally {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

/** The page's used JS heap (CDP Performance.getMetrics), as left by the run and after a forced GC. */
async function jsHeap(page: Page): Promise<{ afterRun: number; afterGc: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const used = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
  };
  const afterRun = await used();
  await cdp.send('HeapProfiler.collectGarbage');
  const afterGc = await used();
  await cdp.detach();
  return { afterRun, afterGc };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function section(results: PhaseResult[], heap: { afterRun: number; afterGc: number }): BenchSection {
  const rows: BenchRow[] = results.flatMap((r) => [
    { name: `${r.phase}: p50 frame (${r.frames} frames)`, ours: ms(r.p50), baseline: '' },
    {
      name: `${r.phase}: p95 frame`,
      ours: ms(r.p95),
      baseline: '',
      budget: `< ${BUDGET_MS} ms`,
      pass: r.p95 < BUDGET_MS + VSYNC_JITTER_MS,
    },
    {
      name: `${r.phase}: p99 / max frame (image nodes mounted: ${r.visibleNodes})`,
      ours: `${ms(r.p99)} / ${ms(r.max)}`,
      baseline: '',
    },
  ]);
  rows.push({
    name: 'JS heap used after the run (after a forced GC)',
    ours: `${mb(heap.afterRun)} (${mb(heap.afterGc)})`,
    baseline: '',
  });
  return {
    title: `Canvas: ${IMAGES} images, pan and zoom in headless Chromium`,
    method: [
      `Studio started on a fresh data dir; ${IMAGES} images seeded through window.__genproCanvas.seed (?bench=1).`,
      `Frame time = requestAnimationFrame deltas while Playwright drags (Pan tool) and wheels, ${SECONDS} s per phase.`,
      `Headless Chromium, --disable-gpu (software raster); 60 Hz vsync, so p95 within ${BUDGET_MS} + ${VSYNC_JITTER_MS} ms jitter passes.`,
      'JS heap: CDP Performance.getMetrics JSHeapUsedSize at the end, and again after HeapProfiler.collectGarbage.',
    ],
    rows,
  };
}
