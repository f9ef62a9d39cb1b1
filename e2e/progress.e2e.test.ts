import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

// The progress channel (docs/progress.md): one event stream per page while something is watched, polling
// GET /api/tasks/{id} only while that stream is down, and nothing at all from an idle page.

/** The task calls the page makes from now on: the event stream, task reads and running-list reads. */
function recordTaskCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/tasks') || url.pathname.endsWith('/status'))
      calls.push(`${url.pathname}${url.search}`);
  });
  return calls;
}

describe('progress channel', () => {
  it('still finishes a video when the event stream cannot be opened (GET /api/tasks/{id} fallback)', {
    timeout: 240_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      // The stream fails as a proxy that drops it would: the page falls back to reading the task.
      await page.route('**/api/tasks/events*', (route) => route.abort('connectionfailed'));
      const calls = recordTaskCalls(page);
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=video`);
      await page.getByTestId('studio').waitFor();
      await page.getByTestId('studio-mode-video').click();
      await page.getByTestId('prompt-input').fill('a paper boat drifting down a rainy street');
      await page.getByTestId('generate-button').click();
      const bar = page.getByTestId('progress-bar');
      await bar.waitFor({ timeout: 15_000 });
      const video = page.getByTestId('result-video').locator('video');
      await video.waitFor({ timeout: 180_000 });
      expect(calls.some((call) => call.startsWith('/api/tasks/events'))).toBe(true);
      expect(calls.filter((call) => /^\/api\/tasks\/[0-9a-f-]{36}$/.test(call)).length).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });

  it('an idle workspace home sends no task requests once it has loaded (its running list follows the stream)', {
    timeout: 90_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      const streamOpened = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/tasks/events' && response.status() === 200,
      );
      await page.goto(`${baseUrl()}/dashboard?view=creators`);
      await page.getByTestId('home-tasks-empty').waitFor();
      // Once the stream is open the list is read once more (what changed before it opened); then nothing.
      await streamOpened;
      await page.waitForTimeout(2_000);
      const calls = recordTaskCalls(page);
      // Longer than the old idle poll (10 s) of the running list.
      await page.waitForTimeout(12_000);
      expect(calls).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
