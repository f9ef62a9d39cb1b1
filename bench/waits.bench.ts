// What a user waits for, measured in headless Chromium against the running studio: pressing Generate to the
// result shown in the Creation Studio (a local image; a local 8 s video), and pressing Load on a saved canvas
// session of 50 images to all of them drawn. The clock runs in the page: a capturing click listener notes the
// press, and a requestAnimationFrame check notes the first frame the result is there (the image decoded,
// the video's metadata and poster in, the canvas's 50 images in the store and list and every mounted one
// drawn from its picture, no placeholder left). Not part of `npm test`; run with `npm run bench -- waits`.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { type Credentials, openBenchBrowser, signIn } from './browser.ts';
import { type BenchRow, type BenchSection, percentile } from './report.ts';

const IMAGE_BUDGET_MS = 1500;
const VIDEO_BUDGET_MS = 5000;
const SESSION_BUDGET_MS = 2000;
const IMAGE_RUNS = 3;
/** Each local video costs the demo creator 41 credits (seedance) of its 200. */
const VIDEO_RUNS = 2;
const SESSION_RUNS = 3;
const SESSION_IMAGES = 50;
const VIDEO_SECONDS = 8;

/**
 * Installs the in-page clock: the next click inside `clickSelector` starts it, and the first animation frame
 * at which `ready` (a JS expression of a function, evaluated in the page) answers true stops it.
 * A string, not a function: tsx (esbuild keepNames) would wrap named inner functions in __name().
 */
function watcher(clickSelector: string, ready: string): string {
  return `(() => {
    window.__waited = undefined;
    let clickedAt = 0;
    const ready = ${ready};
    document.addEventListener('click', (event) => {
      if (!clickedAt && event.target instanceof Element && event.target.closest(${JSON.stringify(clickSelector)}))
        clickedAt = window.__clickedAt = performance.now();
    }, true);
    const check = () => {
      if (clickedAt && ready()) window.__waited = performance.now() - clickedAt;
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })()`;
}

/** Ready when a media element under `container` that was not there when the clock was installed is shown. */
function newMediaShown(selector: string, shown: string): string {
  return `(() => {
    const before = new Set([...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => el.getAttribute('src')));
    return () => [...document.querySelectorAll(${JSON.stringify(selector)})].some(
      (el) => !before.has(el.getAttribute('src')) && (${shown})(el),
    );
  })()`;
}

const SESSION_SHOWN = `() => {
  const state = window.__genproCanvas?.state();
  if (!state || state.images.length !== ${SESSION_IMAGES}) return false;
  if (window.__applied === undefined) window.__applied = performance.now() - window.__clickedAt;
  const items = document.querySelectorAll('[data-testid="canvas-image-item"]');
  if (items.length !== ${SESSION_IMAGES}) return false;
  if ([...document.querySelectorAll('[data-testid="canvas-image-item"] img')].some((img) => !img.complete)) return false;
  const stage = window.Konva?.stages?.[0];
  if (!stage) return false;
  return stage.find('Image').length > 0 && stage.find('Rect').length === 0;
}`;

async function waited(page: Page, timeout: number): Promise<number> {
  await page.waitForFunction(() => (window as unknown as { __waited?: number }).__waited !== undefined, null, {
    timeout,
    polling: 100,
  });
  return (await page.evaluate('window.__waited')) as number;
}

async function generateOnce(
  page: Page,
  baseUrl: string,
  kind: 'image' | 'video',
  run: number,
): Promise<{ page: number; server: number }> {
  await page.goto(`${baseUrl}/dashboard?view=genproStudio&tab=creator&mode=${kind}`);
  await page.getByTestId('studio').waitFor();
  if (kind === 'video') {
    await page.getByTestId('studio-mode-video').click();
    await page.getByTestId('video-model').selectOption('seedance');
    await page.getByTestId('video-duration').selectOption(String(VIDEO_SECONDS));
  }
  await page.getByTestId('prompt-input').fill(`a lighthouse at dusk over a calm harbour, take ${run}`);
  const ready =
    kind === 'image'
      ? newMediaShown('[data-testid="result-images"] img', '(img) => img.complete && img.naturalWidth > 0')
      : newMediaShown('[data-testid="result-video"] video', '(video) => video.readyState >= 1 && video.duration > 0');
  await page.evaluate(watcher('[data-testid="generate-button"]', ready));
  const accepted = page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith(`/api/ai/generate/${kind}`),
  );
  await page.getByTestId('generate-button').click();
  const time = await waited(page, 180_000);
  const response = await accepted;
  const task = await serverTime(page, baseUrl, (await response.json()) as { data: unknown });
  // An image is made inside the request (the reply carries it): the request's own time is the task's.
  const serverMs = Number.isNaN(task) ? response.request().timing().responseEnd : task;
  console.error(`  waits: ${kind} ${run}: ${Math.round(time)} ms (task on the server: ${Math.round(serverMs)} ms)`);
  return { page: time, server: serverMs };
}

/** The task's own time on the server (created → last update, i.e. completed), read back with the page's token. */
async function serverTime(page: Page, baseUrl: string, reply: { data: unknown }): Promise<number> {
  const data = reply.data as { taskId?: string };
  if (!data || Array.isArray(data) || !data.taskId) return Number.NaN;
  const token = (await page.evaluate("localStorage.getItem('auth_token')")) as string | null;
  const res = await fetch(`${baseUrl}/api/tasks/${data.taskId}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) return Number.NaN;
  const view = ((await res.json()) as { data: { createdAt: string; updatedAt: string } }).data;
  return Date.parse(view.updatedAt) - Date.parse(view.createdAt);
}

/** 50 uploaded images on the canvas, saved as a session; the canvas is then cleared (and so is its autosave). */
async function saveFiftyImageSession(page: Page, baseUrl: string, name: string): Promise<number> {
  await page.goto(`${baseUrl}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
  await page.getByTestId('canvas-overlay').waitFor();
  const files = await Promise.all(
    Array.from({ length: SESSION_IMAGES }, async (_, i) => ({
      name: `board-${String(i + 1).padStart(2, '0')}.png`,
      mimeType: 'image/png',
      buffer: await sharp({
        create: {
          width: 1280,
          height: 853,
          channels: 3,
          background: { r: (i * 47) % 256, g: (i * 91) % 256, b: (i * 13 + 80) % 256 },
        },
      })
        .png()
        .toBuffer(),
    })),
  );
  await page.getByTestId('canvas-upload-input').setInputFiles(files);
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="canvas-image-item"]').length === n,
    SESSION_IMAGES,
    { timeout: 120_000 },
  );
  // Zoomed out so the whole board is in view: every image is drawn when the session comes back.
  await page.evaluate('window.__genproCanvas.state().setView({ zoom: 0.2, panX: 40, panY: 40 })');
  const mounted = (await page.evaluate(
    `(window.Konva?.stages?.[0]?.find('Image').length ?? 0) + (window.Konva?.stages?.[0]?.find('Rect').length ?? 0)`,
  )) as number;
  await page.getByTestId('editor-session-save').click();
  await page.getByTestId('session-name').fill(name);
  await page.getByTestId('session-save-submit').click();
  await page.getByText(`Session "${name}" saved successfully!`).first().waitFor();
  await page.getByTestId('canvas-clear-all').click();
  await page.getByTestId('canvas-clear-confirm-ok').click();
  await page.getByTestId('canvas-welcome').waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="canvas-autosave"]')?.getAttribute('data-state') === 'saved',
    null,
    { timeout: 30_000 },
  );
  return mounted;
}

/** In a new browser (empty cache), opens the empty canvas and loads the saved session from the list. */
async function restoreOnce(
  credentials: Credentials,
  name: string,
): Promise<{ ms: number; applied: number; nodes: number }> {
  const browser = await openBenchBrowser();
  try {
    const { page } = browser;
    await signIn(page, credentials);
    await page.goto(`${credentials.baseUrl}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
    await page.getByTestId('canvas-overlay').waitFor();
    // The canvas's own autosave may bring a board back by itself; the session is loaded onto an empty canvas.
    await page.waitForTimeout(1000);
    if ((await page.evaluate('window.__genproCanvas?.state().images.length ?? 0')) !== 0) {
      await page.getByTestId('canvas-clear-all').click();
      await page.getByTestId('canvas-clear-confirm-ok').click();
    }
    await page.getByTestId('canvas-welcome').waitFor();
    await page.getByTestId('editor-sessions-open').click();
    await page.getByTestId('sessions-dialog').waitFor();
    const row = page.getByTestId('session-row').filter({ hasText: name });
    await row.waitFor();
    await page.evaluate(watcher('[data-testid="session-load"]', SESSION_SHOWN));
    await row.getByTestId('session-load').click();
    const time = await waited(page, 60_000);
    const nodes = (await page.evaluate(`window.Konva?.stages?.[0]?.find('Image').length ?? 0`)) as number;
    const applied = (await page.evaluate('window.__applied')) as number;
    console.error(
      `  waits: session restore: ${Math.round(time)} ms (in the store after ${Math.round(applied)} ms), ${nodes} image nodes`,
    );
    return { ms: time, applied, nodes };
  } finally {
    await browser.close();
  }
}

const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const summary = (values: number[]) =>
  `${seconds(percentile(values, 50))} median, ${seconds(Math.max(...values))} worst (${values.map((v) => Math.round(v)).join(', ')} ms)`;
const median = (runs: { page: number; server: number }[], key: 'page' | 'server') =>
  percentile(
    runs.map((r) => r[key]),
    50,
  );

/** Runs the section against a running studio at `baseUrl`, signed in as the demo creator. */
export async function runWaitsBench(credentials: Credentials): Promise<BenchSection> {
  const images: { page: number; server: number }[] = [];
  const videos: { page: number; server: number }[] = [];
  const sessions: number[] = [];
  const applied: number[] = [];
  let savedNodes = 0;
  let restoredNodes = 0;
  const browser = await openBenchBrowser();
  try {
    const { page } = browser;
    await signIn(page, credentials);
    for (let run = 1; run <= IMAGE_RUNS; run += 1)
      images.push(await generateOnce(page, credentials.baseUrl, 'image', run));
    for (let run = 1; run <= VIDEO_RUNS; run += 1)
      videos.push(await generateOnce(page, credentials.baseUrl, 'video', run));
    savedNodes = await saveFiftyImageSession(page, credentials.baseUrl, 'Bench board');
  } finally {
    await browser.close();
  }
  for (let run = 1; run <= SESSION_RUNS; run += 1) {
    const restored = await restoreOnce(credentials, 'Bench board');
    sessions.push(restored.ms);
    applied.push(restored.applied);
    restoredNodes = restored.nodes;
  }
  const rows: BenchRow[] = [
    {
      name: `Generate → image shown (local, ${IMAGE_RUNS} runs; the task itself: median ${seconds(median(images, 'server'))})`,
      ours: summary(images.map((r) => r.page)),
      baseline: '',
      budget: `median ≤ ${IMAGE_BUDGET_MS} ms`,
      pass: median(images, 'page') <= IMAGE_BUDGET_MS,
    },
    {
      name: `Generate → ${VIDEO_SECONDS} s video shown (local, seedance, ${VIDEO_RUNS} runs; the task itself: median ${seconds(median(videos, 'server'))})`,
      ours: summary(videos.map((r) => r.page)),
      baseline: '',
      budget: `median ≤ ${VIDEO_BUDGET_MS} ms`,
      pass: median(videos, 'page') <= VIDEO_BUDGET_MS,
    },
    {
      name: `Load a saved canvas session of ${SESSION_IMAGES} images → all drawn (new browser each, ${SESSION_RUNS} runs; ${restoredNodes} of ${savedNodes} nodes in view; in the store after a median ${seconds(percentile(applied, 50))})`,
      ours: summary(sessions),
      baseline: '',
      budget: `median ≤ ${SESSION_BUDGET_MS} ms`,
      pass: percentile(sessions, 50) <= SESSION_BUDGET_MS,
    },
  ];
  return {
    title: 'Waits in the browser: Generate to result, and a saved canvas session restored',
    method: [
      'Studio started on a fresh data dir (local engines); headless Chromium (--disable-gpu), 1600×1000, the demo creator.',
      'Clock in the page: a capturing click listener on the button, stopped by the first requestAnimationFrame at which the result is there.',
      'The task itself: GET /api/tasks/{id} afterwards, updatedAt − createdAt (queued + run on the server), or for an image made inside the request the request’s own time; the rest is the page, progress channel and the browser loading the media.',
      `Image: Creation Studio, image mode, default model; shown = a new result <img> decoded. Video: video mode, seedance, ${VIDEO_SECONDS} s; shown = a new result <video> with its metadata (duration, poster) loaded.`,
      `Session: ${SESSION_IMAGES} uploaded 1280×853 PNGs saved at zoom 0.2, canvas cleared; then in a new browser (empty cache) Load from the sessions list until all ${SESSION_IMAGES} are in the store and list and every mounted Konva node has its picture.`,
    ],
    rows,
  };
}
