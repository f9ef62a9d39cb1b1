// Issue 29 (12): scheduling as in Postiz. A week of hours and a month of days show each post in its slot with its
// preview (at its own aspect) and its network's mark (a named image, not a letter tile); dragging a post to another
// slot, with the pointer or the keyboard, reschedules it on the server; a refused move goes back with an error.
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';
import { connectSandboxByApi, uploadFile } from './marketplace.ts';

interface PostRow {
  id: string;
  scheduled_time: string;
  status: string;
}

async function call<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-requested-with': 'XMLHttpRequest',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${url}: ${text}`).toBe(200);
  return (JSON.parse(text) as { data: T }).data;
}

const timeOf = async (token: string, id: string) =>
  (await call<PostRow[]>(token, 'GET', '/api/social/scheduled-posts?filter=all', undefined)).find((p) => p.id === id)
    ?.scheduled_time;

/** Days 'YYYY-MM-DD' of the browser's zone: the Sunday starting this week moved by `offsets` days. */
function daysFromWeekStart(page: Page, offsets: number[]): Promise<string[]> {
  return page.evaluate(
    (list) =>
      list.map((n) => {
        const d = new Date();
        d.setHours(12, 0, 0, 0);
        d.setDate(d.getDate() - d.getDay() + n);
        const pad = (x: number) => String(x).padStart(2, '0');
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      }),
    offsets,
  );
}

/** The instant a wall time of the browser's zone names. */
const instant = (page: Page, wall: string) => page.evaluate((w) => new Date(w).toISOString(), wall);

async function png(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fff"/></svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();
}

/** Drags with the pointer in small steps (the calendar starts a drag after 6 px of movement). */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  // The target in the middle of the view, so the pointer over it is not at an edge the calendar scrolls from.
  await to.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  const a = await from.boundingBox();
  if (!a) throw new Error('nothing to drag');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 4, { steps: 4 });
  const b = await to.boundingBox();
  if (!b) throw new Error('nowhere to drop');
  await page.mouse.move(b.x + b.width / 2, b.y + Math.min(20, b.height / 2), { steps: 12 });
  await page.mouse.up();
}

async function openScheduled(page: Page, view?: 'week' | 'month'): Promise<void> {
  const query = view ? `&calendar=${view}` : '';
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=publish&publish=scheduled${query}`);
  await page.getByTestId('posts-calendar').waitFor();
}

async function showNextWeek(page: Page, monday: string): Promise<void> {
  await page.getByTestId('posts-calendar-next').click();
  await page.getByTestId(`week-slot-${monday}T10`).waitFor();
}

describe('scheduling calendar', () => {
  it('shows posts in week and month slots with previews and marks, and reschedules them by drag and keyboard', {
    timeout: 300_000,
  }, async () => {
    const { page, close } = await openBrowser({ width: 1440, height: 900 });
    try {
      const token = await freshCreator(page);
      await connectSandboxByApi(token, 'instagram');
      await connectSandboxByApi(token, 'facebook');
      const wide = await uploadFile(token, await png(640, 360, '#2f6fde'), 'wide.png', 'image/png');
      const tall = await uploadFile(token, await png(360, 640, '#d9480f'), 'tall.png', 'image/png');
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      // Next week: Monday, Tuesday, Wednesday, Thursday.
      const [mon, tue, wed, thu] = (await daysFromWeekStart(page, [8, 9, 10, 11])) as [string, string, string, string];
      const schedule = async (platform: string, message: string, media: string, wall: string) => {
        const [post] = await call<PostRow[]>(token, 'POST', '/api/social/scheduled-posts', {
          message,
          media_urls: [media],
          scheduled_time: wall,
          timezone: zone,
          platforms: [platform],
          mode: 'materials',
        });
        return post as PostRow;
      };
      const teaser = await schedule('instagram', 'Launch teaser: the new trainers drop Friday', wide, `${mon}T10:00`);
      const story = await schedule('facebook', 'Behind the scenes at the shoot', tall, `${wed}T14:30`);

      // The week view (the default, kept out of the URL): each post in its day column and hour row.
      await openScheduled(page);
      expect(await page.getByTestId('posts-calendar').getAttribute('data-view')).toBe('week');
      await showNextWeek(page, mon);
      const teaserCard = page.locator(`[data-testid="calendar-post"][data-id="${teaser.id}"]`);
      const storyCard = page.locator(`[data-testid="calendar-post"][data-id="${story.id}"]`);
      await page.getByTestId(`week-slot-${mon}T10`).locator(`[data-id="${teaser.id}"]`).waitFor();
      await page.getByTestId(`week-slot-${wed}T14`).locator(`[data-id="${story.id}"]`).waitFor();

      // Each card shows its image at the image's own aspect, and its network as a named mark, not 'IG'.
      for (const [card, ratio, network] of [
        [teaserCard, 16 / 9, 'Instagram'],
        [storyCard, 9 / 16, 'Facebook'],
      ] as const) {
        const preview = card.getByTestId('calendar-post-preview');
        await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        const shown = await preview.boundingBox();
        expect(Math.abs((shown?.width ?? 0) / (shown?.height ?? 1) - ratio), `${network} preview aspect`).toBeLessThan(
          0.06,
        );
        expect(await card.locator(`svg[role="img"][aria-label="${network}"]`).count()).toBe(1);
      }
      expect(await page.getByTestId('posts-calendar').getByText('IG', { exact: true }).count()).toBe(0);
      expect(await page.getByTestId('scheduled-posts').getByText('FB', { exact: true }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      // Dragged to Thursday at 10: the server has the new time, the card is there, and it stays after a reload.
      await drag(page, teaserCard, page.getByTestId(`week-slot-${thu}T10`));
      const thursday = await instant(page, `${thu}T10:00`);
      await expect.poll(() => timeOf(token, teaser.id), { timeout: 15_000 }).toBe(thursday);
      await page.getByTestId(`week-slot-${thu}T10`).locator(`[data-id="${teaser.id}"]`).waitFor();
      await page.reload();
      await showNextWeek(page, mon);
      await page.getByTestId(`week-slot-${thu}T10`).locator(`[data-id="${teaser.id}"]`).waitFor();
      expect(await page.getByTestId(`week-slot-${mon}T10`).getByTestId('calendar-post').count()).toBe(0);

      // The keyboard: Space picks the card up, the arrows move it a day and an hour, Space drops it.
      // Each step is announced (dnd-kit's live region); the next key waits for it, as a listener would.
      const heard = () => page.locator('[id^="DndLiveRegion"]').textContent();
      await storyCard.focus();
      await page.keyboard.press('Space');
      // Picked up (announced), then over its own slot.
      await expect.poll(heard).toMatch(/^Over Wednesday, .*2 PM\.$/);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(heard).toMatch(/^Over Tuesday, .*2 PM\.$/);
      await page.keyboard.press('ArrowDown');
      await expect.poll(heard).toMatch(/^Over Tuesday, .*3 PM\.$/);
      await page.keyboard.press('Space');
      const tuesday = await instant(page, `${tue}T15:30`);
      await expect.poll(() => timeOf(token, story.id), { timeout: 15_000 }).toBe(tuesday);
      await page.getByTestId(`week-slot-${tue}T15`).locator(`[data-id="${story.id}"]`).waitFor();

      // The month view, kept in the URL: the posts as chips on their days.
      await page.getByTestId('posts-view-month').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('calendar')).toBe('month');
      await page.getByTestId(`month-cell-${thu}`).locator(`[data-id="${teaser.id}"]`).waitFor();
      await page.getByTestId(`month-cell-${tue}`).locator(`[data-id="${story.id}"]`).waitFor();
      expect(
        await page.getByTestId(`month-cell-${tue}`).locator('svg[role="img"][aria-label="Facebook"]').count(),
      ).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      // Dropped on another day the post keeps its time of day; a day in the past is refused by the server and
      // the post goes back with an error.
      await drag(page, teaserCard, page.getByTestId(`month-cell-${wed}`));
      const wednesday = await instant(page, `${wed}T10:00`);
      await expect.poll(() => timeOf(token, teaser.id), { timeout: 15_000 }).toBe(wednesday);
      const [today, tomorrow] = (await page.evaluate(() =>
        [0, 1].map((n) => {
          const d = new Date();
          d.setDate(d.getDate() + n);
          const pad = (x: number) => String(x).padStart(2, '0');
          return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
        }),
      )) as [string, string];
      // A post due at midnight tomorrow, for a move into the past below.
      const early = await schedule('facebook', 'Early bird', wide, `${tomorrow}T00:00`);
      await page.reload();
      expect(new URL(page.url()).searchParams.get('calendar')).toBe('month');
      await page.getByTestId('posts-calendar-next').waitFor();
      const wedCell = page.getByTestId(`month-cell-${wed}`);
      if (!(await wedCell.count())) await page.getByTestId('posts-calendar-next').click();
      await wedCell.locator(`[data-id="${teaser.id}"]`).waitFor();

      await page.getByTestId('posts-calendar-today').click();
      const earlyCard = page.locator(`[data-testid="calendar-post"][data-id="${early.id}"]`);
      const tomorrowCell = page.getByTestId(`month-cell-${tomorrow}`);
      if (await tomorrowCell.count()) {
        await tomorrowCell.locator(`[data-id="${early.id}"]`).waitFor({ timeout: 15_000 });
        await drag(page, earlyCard, page.getByTestId(`month-cell-${today}`));
        await page.getByText('The post could not be moved').waitFor();
        await tomorrowCell.locator(`[data-id="${early.id}"]`).waitFor();
        expect(await timeOf(token, early.id)).toBe(early.scheduled_time);
      }
    } finally {
      await close();
    }
  });

  it('lays the week and the month out at 1440 and 375 px, dark and light, and in Arabic', {
    timeout: 300_000,
  }, async () => {
    const { page, close } = await openBrowser({ width: 1440, height: 900 });
    try {
      const token = await freshCreator(page);
      await connectSandboxByApi(token, 'instagram');
      await connectSandboxByApi(token, 'linkedin');
      const wide = await uploadFile(token, await png(640, 360, '#2f6fde'), 'wide.png', 'image/png');
      const tall = await uploadFile(token, await png(360, 640, '#d9480f'), 'tall.png', 'image/png');
      const portrait = await uploadFile(token, await png(400, 500, '#2b8a3e'), 'portrait.png', 'image/png');
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      const [mon, tue, thu] = (await daysFromWeekStart(page, [8, 9, 11])) as [string, string, string];
      for (const [platform, media, wall, message] of [
        ['instagram', wide, `${mon}T09:00`, 'Launch teaser: the new trainers drop Friday'],
        ['linkedin', tall, `${mon}T09:30`, 'We are hiring a motion designer'],
        ['instagram', portrait, `${tue}T11:15`, 'Behind the scenes at the shoot'],
        ['linkedin', wide, `${thu}T10:00`, 'Quarterly report in one picture'],
      ] as const) {
        await call(token, 'POST', '/api/social/scheduled-posts', {
          message,
          media_urls: [media],
          scheduled_time: wall,
          timezone: zone,
          platforms: [platform],
          mode: 'materials',
        });
      }
      const variants = [
        { theme: 'dark', language: 'en' },
        { theme: 'light', language: 'en' },
        { theme: 'dark', language: 'ar' },
      ] as const;
      for (const { theme, language } of variants) {
        await page.evaluate(
          ([th, lang]) => {
            localStorage.setItem('theme', th);
            localStorage.setItem('language', lang);
          },
          [theme, language],
        );
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
          for (const view of ['week', 'month'] as const) {
            await openScheduled(page, view);
            await page.getByTestId('posts-calendar-next').click();
            const card = page.getByTestId('posts-calendar').getByTestId('calendar-post');
            await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(4);
            await card.first().scrollIntoViewIfNeeded();
            await expect
              .poll(() =>
                card
                  .first()
                  .getByTestId('calendar-post-preview')
                  .evaluate((img) => (img as HTMLImageElement).naturalWidth),
              )
              .toBeGreaterThan(0);
            await page.getByTestId('posts-calendar').evaluate((el) => el.scrollIntoView({ block: 'start' }));
            await page.screenshot({ path: `/tmp/calendar-${view}-${width}-${theme}-${language}.png` });
            // The page never scrolls sideways; at 375 px the week scrolls inside itself with the hours in view.
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
            if (view === 'week' && width === 375) {
              const week = page.getByTestId('week-view');
              expect(await week.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
              const hour = page.locator('[data-hour="10"]');
              const before = await hour.boundingBox();
              await week.evaluate((el, rtl) => el.scrollBy({ left: rtl ? -200 : 200 }), language === 'ar');
              await expect.poll(async () => (await hour.boundingBox())?.x).toBe(before?.x);
            }
            expect(await seriousViolations(page), `${view} ${width} ${theme} ${language}`).toEqual([]);
          }
        }
      }
    } finally {
      await close();
    }
  });
});
