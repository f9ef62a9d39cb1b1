// Largest Contentful Paint and Total Blocking Time of the dashboard and the Creation Studio, each opened cold (no
// HTTP cache) by a signed-in creator in headless Chromium on a slow laptop and a slow network: CDP
// Network.emulateNetworkConditions (1.6 Mbps down, 750 kbps up, 150 ms RTT, as Lighthouse's "slow 4G") and
// Emulation.setCPUThrottlingRate 4. Each page is loaded RUNS times; the median is reported.
import type { BrowserContext } from 'playwright-core';
import { type Credentials, openBenchBrowser, signIn } from './browser.ts';
import { type BenchRow, type BenchSection, ms, percentile } from './report.ts';

const LCP_BUDGET_MS = 2_500;
const TBT_BUDGET_MS = 300;
const RUNS = 3;
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
/** After the network is idle, how long the page is left to finish its work before the figures are read. */
const SETTLE_MS = 3_000;

const PAGES = [
  { name: 'dashboard', path: '/dashboard', ready: 'view-description' },
  { name: 'Creation Studio', path: '/dashboard?view=genproStudio', ready: 'studio' },
] as const;

// A string, not a function: tsx (esbuild keepNames) would wrap named inner functions in __name().
const OBSERVER = `(() => {
  const vitals = { lcp: 0, lcpElement: '', fcp: 0, longTasks: [] };
  window.__vitals = vitals;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      vitals.lcp = entry.startTime;
      const el = entry.element;
      vitals.lcpElement = el ? el.tagName.toLowerCase() + (el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : '') : '';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') vitals.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) vitals.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
})()`;

interface Vitals {
  lcp: number;
  lcpElement: string;
  fcp: number;
  longTasks: [number, number][];
}

/** Total Blocking Time as Lighthouse counts it: the part over 50 ms of each long task after first contentful paint. */
function totalBlockingTime({ fcp, longTasks }: Vitals): number {
  return longTasks.filter(([start]) => start >= fcp).reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
}

interface Run {
  lcp: number;
  lcpElement: string;
  tbt: number;
}

async function loadOnce(context: BrowserContext, url: string, ready: string): Promise<Run> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(OBSERVER);
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.getByTestId(ready).waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle', { timeout: 120_000 });
    await page.waitForTimeout(SETTLE_MS);
    const vitals = (await page.evaluate('window.__vitals')) as Vitals;
    await cdp.detach();
    return { lcp: vitals.lcp, lcpElement: vitals.lcpElement, tbt: totalBlockingTime(vitals) };
  } finally {
    await page.close();
  }
}

export async function runWebVitalsBench(options: Credentials): Promise<BenchSection> {
  const { baseUrl } = options;
  const browser = await openBenchBrowser({ width: 1366, height: 768 });
  const { context, page } = browser;
  const rows: BenchRow[] = [];
  try {
    // Signed in once without throttling; the session outlives the pages opened below.
    await signIn(page, options);
    await page.getByTestId('view-description').waitFor();

    for (const target of PAGES) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await loadOnce(context, `${baseUrl}${target.path}`, target.ready));
      const lcp = percentile(
        runs.map((r) => r.lcp),
        50,
      );
      const tbt = percentile(
        runs.map((r) => r.tbt),
        50,
      );
      const elements = [...new Set(runs.map((r) => r.lcpElement || '?'))].join(', ');
      rows.push(
        {
          name: `${target.name} (${target.path}) Largest Contentful Paint, median of ${RUNS} (runs ${runs.map((r) => Math.round(r.lcp)).join(', ')} ms; ${elements})`,
          ours: ms(lcp),
          baseline: '',
          budget: `≤ ${LCP_BUDGET_MS} ms`,
          pass: lcp > 0 && lcp <= LCP_BUDGET_MS,
        },
        {
          name: `${target.name} (${target.path}) Total Blocking Time, median of ${RUNS} (runs ${runs.map((r) => Math.round(r.tbt)).join(', ')} ms)`,
          ours: ms(tbt),
          baseline: '',
          budget: `≤ ${TBT_BUDGET_MS} ms`,
          pass: tbt <= TBT_BUDGET_MS,
        },
      );
    }
  } finally {
    await browser.close();
  }
  return {
    title: 'Web: Largest Contentful Paint and Total Blocking Time, slow laptop on a slow network',
    method: [
      'npm start studio (production build), signed-in demo creator, headless Chromium, 1366×768, HTTP cache disabled.',
      'CDP Network.emulateNetworkConditions 1.6 Mbps down / 750 kbps up / 150 ms RTT; Emulation.setCPUThrottlingRate 4.',
      "LCP: the page's last largest-contentful-paint entry; TBT: sum over long tasks after first contentful paint of",
      `their time beyond 50 ms, read ${SETTLE_MS / 1000} s after the network went idle (Lighthouse stops at time to interactive).`,
    ],
    rows,
  };
}
