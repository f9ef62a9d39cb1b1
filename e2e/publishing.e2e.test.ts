import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

const SHOTS = path.resolve('test-results', 'screenshots');

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `publishing-${name}.png`), fullPage });
}

async function openPublishTab(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=publish`);
  await page.getByTestId('publish-tab').waitFor();
}

/** A day 'YYYY-MM-DD' counted from today in the browser's own zone (the zone the schedule form defaults to). */
function dayInBrowser(page: Page, offset: number): Promise<string> {
  return page.evaluate((n) => {
    const d = new Date();
    d.setDate(d.getDate() + n);
    const pad = (x: number) => String(x).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }, offset);
}

interface PostRow {
  id: string;
  message: string;
  scheduled_time: string;
  timezone: string;
  status: string;
}

async function posts(token: string): Promise<PostRow[]> {
  const res = await fetch(`${baseUrl()}/api/social/scheduled-posts?filter=all`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: PostRow[] }).data;
}

/** Connect the sandbox Instagram: its consent page opens in a new tab, which we approve. */
async function connectInstagram(page: Page): Promise<void> {
  const row = page.getByTestId('social-instagram');
  await expect.poll(() => row.getAttribute('data-status')).toBe('disconnected');
  const [consent] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByTestId('social-instagram-connect').click(),
  ]);
  await expect.poll(() => row.getAttribute('data-status')).toBe('connecting');
  // The flow is bound to this browser by an HttpOnly cookie only the callback receives (issue 17).
  const connectCookie = async () =>
    (await page.context().cookies()).find((c) => c.name === 'genpro_social_connect') ?? null;
  expect(await connectCookie()).toMatchObject({ path: '/api/social/oauth/instagram', httpOnly: true, sameSite: 'Lax' });
  const closed = consent.waitForEvent('close', { timeout: 20_000 });
  await consent.getByTestId('sandbox-approve').click();
  await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
  // The callback page closes itself (its script is allowed by its policy) and the cookie is gone.
  await closed;
  expect(await connectCookie()).toBeNull();
}

describe('publishing and scheduling', () => {
  it('connects Instagram, schedules a post for tomorrow, reschedules it, publishes another now and opens its share page', {
    timeout: 180_000,
  }, async () => {
    const { page, close } = await openBrowser();
    try {
      const token = await freshCreator(page);
      await openPublishTab(page);

      // Nothing connected yet: the accounts panel is open and every platform says so.
      await page.getByTestId('social-accounts').waitFor();
      await connectInstagram(page);
      await expect
        .poll(() => page.getByTestId('publish-platform-instagram').getAttribute('data-status'))
        .toBe('connected');

      // Schedule Post: the spec's validations first, then a post tomorrow at the default 09:00.
      await page.getByTestId('publish-subtab-schedule').click();
      const schedule = page.getByTestId('schedule-post');
      await schedule.waitFor();
      await expect.poll(() => page.getByTestId('schedule-time').inputValue()).toBe('09:00');
      const yesterday = await dayInBrowser(page, -1);
      const tomorrow = await dayInBrowser(page, 1);
      const inTwoDays = await dayInBrowser(page, 2);
      const yesterdayCell = page.getByTestId(`schedule-calendar-day-${yesterday}`);
      if (await yesterdayCell.count()) expect(await yesterdayCell.isDisabled()).toBe(true);

      await page.getByTestId('schedule-submit').click();
      await expect.poll(() => schedule.getByTestId('form-error').textContent()).toContain('Please pick a date');
      await page.getByTestId(`schedule-calendar-day-${tomorrow}`).click();
      await page.getByTestId('schedule-submit').click();
      await expect
        .poll(() => schedule.getByTestId('form-error').textContent())
        .toContain('Select at least one platform');
      await page.getByTestId('schedule-platform-instagram').click();
      await page.getByTestId('publish-source-materials').click();
      await page.getByTestId('schedule-message').fill('Tomorrow on the sandbox: the summer drop');
      await expect.poll(() => page.getByTestId('schedule-summary').textContent()).toContain('09:00');
      await shot(page, 'schedule-1280');
      await page.getByTestId('schedule-submit').click();

      // Scheduled: the post is on tomorrow's calendar cell and in the Upcoming list.
      await page.getByTestId('scheduled-posts').waitFor();
      const tomorrowCell = page.getByTestId(`posts-calendar-day-${tomorrow}`);
      await expect
        .poll(() => tomorrowCell.getByTestId('calendar-badge').getAttribute('data-primary'), { timeout: 15_000 })
        .toBe('scheduled');
      await expect.poll(() => page.getByTestId('scheduled-post').count()).toBe(1);
      const [created] = await posts(token);
      expect(created?.status).toBe('scheduled');
      await shot(page, 'scheduled-1280');

      // Reschedule from the day dialog: bad input and a past time are refused with the spec's alerts.
      await tomorrowCell.click();
      const day = page.getByTestId('day-dialog');
      await day.getByTestId('scheduled-post').waitFor();
      await day.getByTestId('post-reschedule').click();
      const prompt = page.getByTestId('post-reschedule-dialog');
      await expect.poll(() => prompt.getByTestId('post-reschedule-input').inputValue()).toBe(`${tomorrow} 09:00`);
      await prompt.getByTestId('post-reschedule-input').fill('next friday');
      await prompt.getByTestId('post-reschedule-dialog-save').click();
      await expect
        .poll(() => prompt.getByTestId('form-error').textContent())
        .toBe('Invalid date format. Please use YYYY-MM-DD HH:MM');
      await prompt.getByTestId('post-reschedule-input').fill(`${yesterday} 09:00`);
      await prompt.getByTestId('post-reschedule-dialog-save').click();
      await expect
        .poll(() => prompt.getByTestId('form-error').textContent())
        .toBe('Please enter a valid future date and time');
      await prompt.getByTestId('post-reschedule-input').fill(`${inTwoDays} 10:30`);
      await prompt.getByTestId('post-reschedule-dialog-save').click();
      await prompt.waitFor({ state: 'detached' });
      await expect.poll(async () => (await posts(token))[0]?.scheduled_time).not.toBe(created?.scheduled_time);
      const [moved] = await posts(token);
      const movedLocal = await page.evaluate((iso) => {
        const d = new Date(iso);
        const pad = (x: number) => String(x).padStart(2, '0');
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
      }, moved?.scheduled_time ?? '');
      expect(movedLocal).toBe(`${inTwoDays} 10:30`);
      await page.keyboard.press('Escape');
      await day.waitFor({ state: 'detached' });
      await expect
        .poll(() =>
          page
            .getByTestId(`posts-calendar-day-${inTwoDays}`)
            .getByTestId('calendar-badge')
            .getAttribute('data-primary'),
        )
        .toBe('scheduled');
      await expect.poll(() => tomorrowCell.getByTestId('calendar-badge').count()).toBe(0);

      // In the list: duplicate (+60 minutes), edit the copy's message (unchanged is ignored), cancel it.
      const list = page.getByTestId('posts-list');
      await list.getByTestId('post-duplicate').click();
      await expect.poll(() => list.getByTestId('scheduled-post').count()).toBe(2);
      const afterDuplicate = await posts(token);
      const copy = afterDuplicate.find((p) => p.id !== moved?.id);
      expect(new Date(copy?.scheduled_time ?? 0).getTime() - new Date(moved?.scheduled_time ?? 0).getTime()).toBe(
        60 * 60_000,
      );
      const copyCard = list.locator(`[data-id="${copy?.id}"]`);
      await copyCard.getByTestId('post-edit').click();
      const edit = page.getByTestId('post-edit-dialog');
      await edit.getByTestId('post-edit-input').fill('   ');
      await edit.getByTestId('post-edit-dialog-save').click();
      await edit.waitFor({ state: 'detached' });
      expect((await posts(token)).find((p) => p.id === copy?.id)?.message).toBe(copy?.message);
      await copyCard.getByTestId('post-edit').click();
      await edit.getByTestId('post-edit-input').fill('The encore, an hour later');
      await edit.getByTestId('post-edit-dialog-save').click();
      await expect
        .poll(() => copyCard.getByTestId('scheduled-post-message').textContent())
        .toBe('The encore, an hour later');
      await copyCard.getByTestId('post-cancel').click();
      await page.getByTestId('post-cancel-confirm-button').click();
      await expect.poll(async () => (await posts(token)).find((p) => p.id === copy?.id)?.status).toBe('cancelled');
      await expect.poll(() => list.getByTestId('scheduled-post').count()).toBe(1);

      // Publish Now with AI Materials: the result links to the post's share page, which shows the message.
      await page.getByTestId('publish-subtab-now').click();
      await page.getByTestId('publish-message').fill('Live now from GenPro Studio');
      // The draft is shared with Schedule Post: materials and Instagram are still chosen from there.
      expect(await page.getByTestId('publish-source-materials').getAttribute('data-state')).toBe('on');
      expect(await page.getByTestId('publish-platform-instagram').locator('input').isChecked()).toBe(true);
      await page.getByTestId('generate-button').click();
      const result = page.getByTestId('publish-result-instagram');
      await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('published');
      await shot(page, 'now-1280');
      const [share] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByTestId('publish-share-instagram').click(),
      ]);
      await share.getByTestId('post-message').waitFor();
      expect(await share.getByTestId('post-message').textContent()).toBe('Live now from GenPro Studio');
    } finally {
      await close();
    }
  });

  it('lays out at 375 px in Arabic and in the account dialog', { timeout: 120_000 }, async () => {
    const { page, close } = await openBrowser({ width: 375, height: 812 });
    try {
      await freshCreator(page);
      await openPublishTab(page);
      await page.getByTestId('social-accounts').waitFor();
      await shot(page, 'now-375');
      await page.getByTestId('publish-subtab-scheduled').click();
      await page.getByTestId('scheduled-posts').waitFor();
      await page.getByTestId('posts-empty').waitFor();
      await shot(page, 'scheduled-375');

      // A failed load shows 'Error Loading Posts' with Try Again, which loads them again.
      await page.route('**/api/social/scheduled-posts**', (route) =>
        route.fulfill({ status: 500, json: { success: false, error: 'Internal error' } }),
      );
      await page.getByTestId('posts-filter-all').click();
      await page.getByTestId('posts-error').waitFor();
      expect(await page.getByTestId('posts-error').textContent()).toContain('Error Loading Posts');
      await page.unroute('**/api/social/scheduled-posts**');
      await page.getByTestId('posts-try-again').click();
      await page.getByTestId('posts-empty').waitFor();

      // The account dialog's Social tab lists the same platforms with their state.
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=publish&account=social`);
      await page.getByTestId('account-social').getByTestId('social-accounts').waitFor();
      expect(await page.getByTestId('account-social').getByTestId('social-twitter').getAttribute('data-status')).toBe(
        'disconnected',
      );
      await shot(page, 'account-social-375', false);

      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      await openPublishTab(page);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.getByTestId('publish-subtab-schedule').click();
      await page.getByTestId('schedule-post').waitFor();
      await shot(page, 'schedule-375-ar');

      // Keyboard: in right-to-left the left arrow moves to the next day; Enter picks it.
      const tomorrow = await dayInBrowser(page, 1);
      const inTwoDays = await dayInBrowser(page, 2);
      await page.getByTestId(`schedule-calendar-day-${tomorrow}`).focus();
      await page.keyboard.press('ArrowLeft');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-date'))).toBe(inTwoDays);
      await page.keyboard.press('Enter');
      expect(await page.getByTestId(`schedule-calendar-day-${inTwoDays}`).getAttribute('aria-pressed')).toBe('true');
    } finally {
      await close();
    }
  });
});
