// Issue 29 (7): typed work is kept per user in the browser and comes back after a reload with a 'Draft restored'
// note; it goes once the work is sent, and another user signed in on the same browser never sees it.
// Issue 29 (14): the publishing sub-view in the URL, the phone tab bar's labels, where toasts appear.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, connectSandbox, expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const PASSWORD = 'quartz-lantern-ferry-6';
const SHOTS = path.resolve('test-results', 'screenshots');

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `drafts-${name}.png`) });
}

interface Account {
  id: string;
  email: string;
}

async function account(role: 'creator' | 'brand', firstName: string): Promise<Account> {
  const email = uniqueEmail(`draft-${role}`);
  const { user } = await signUpByApi({ first_name: firstName, last_name: 'Drafter', email, password: PASSWORD, role });
  return { id: user.id, email };
}

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

async function logOut(page: Page): Promise<void> {
  await page.getByTestId('logout-button').click();
  await page.waitForURL('**/auth/login');
}

async function openStudio(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
  await page.getByTestId('prompt-input').waitFor();
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element not shown');
  return found;
}

/** Where a toast comes to rest: Sonner slides it in, and a frame of the slide is not where the user reads it. */
async function restingBox(page: Page, toast: Locator) {
  let resting: Awaited<ReturnType<typeof box>> | undefined;
  await expect
    .poll(async () => {
      const before = await box(toast);
      await page.waitForTimeout(150);
      const after = await box(toast);
      resting = before.x === after.x && before.y === after.y ? after : undefined;
      return resting !== undefined;
    })
    .toBe(true);
  return resting as Awaited<ReturnType<typeof box>>;
}

describe('drafts', () => {
  it('keeps the studio prompt and a setting over a reload, per user, until Generate', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      const ana = await account('creator', 'Ana');
      const ben = await account('creator', 'Ben');
      const anaKey = `genpro.draft.studio.${ana.id}`;
      const prompt = 'a lighthouse keeper reading by lamplight, rain on the window';

      await logIn(page, ana.email, PASSWORD);
      await openStudio(page);
      expect(await page.getByTestId('studio-draft-restored').count()).toBe(0);
      await page.getByTestId('prompt-input').fill(prompt);
      await page.getByTestId('image-auto-upscale').click();
      await expect.poll(() => stored(page, anaKey)).toContain(prompt);

      await page.reload();
      const note = page.getByTestId('studio-draft-restored');
      await note.waitFor();
      expect(await note.getAttribute('role')).toBe('status');
      expect(await note.innerText()).toContain('Draft restored');
      expect(await page.getByTestId('prompt-input').inputValue()).toBe(prompt);
      expect(await page.getByTestId('image-auto-upscale').getAttribute('data-state')).toBe('checked');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'studio-restored-1440');

      // Another user on this browser starts from an empty form, and Ana's draft stays hers.
      await logOut(page);
      await logIn(page, ben.email, PASSWORD);
      await openStudio(page);
      expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
      expect(await page.getByTestId('image-auto-upscale').getAttribute('data-state')).toBe('unchecked');
      expect(await page.getByTestId('studio-draft-restored').count()).toBe(0);
      expect(await stored(page, `genpro.draft.studio.${ben.id}`)).toBeNull();
      expect(await stored(page, anaKey)).toContain(prompt);

      await logOut(page);
      await logIn(page, ana.email, PASSWORD);
      await openStudio(page);
      await page.getByTestId('studio-draft-restored').waitFor();
      expect(await page.getByTestId('prompt-input').inputValue()).toBe(prompt);

      // Generating sends the work: the draft goes, and a reload starts empty.
      await page.getByTestId('image-auto-upscale').click();
      await page.getByTestId('generate-button').click();
      await page.getByTestId('result-images').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('studio-draft-restored').count()).toBe(0);
      expect(await stored(page, anaKey)).toBeNull();
      await page.reload();
      await page.getByTestId('prompt-input').waitFor();
      expect(await page.getByTestId('prompt-input').inputValue()).toBe('');
      expect(await page.getByTestId('studio-draft-restored').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('keeps the persona builder over a reload; Discard empties it; creating the persona clears it', {
    timeout: 240_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const cleo = await account('creator', 'Cleo');
      const key = `genpro.draft.persona.${cleo.id}`;
      await logIn(page, cleo.email, PASSWORD);
      const openBuilder = async () => {
        await page.goto(`${baseUrl()}/dashboard?view=aiPersonas`);
        await page.getByTestId('persona-create').first().click();
        await page.getByTestId('build-persona-dialog').waitFor();
      };

      await openBuilder();
      await page.getByTestId('persona-name').fill('Maya Trail');
      await page.getByTestId('persona-description').fill('A mountain guide who films sunrise hikes.');
      await page.getByTestId('persona-personality').selectOption('Witty & Sarcastic');
      await expect.poll(() => stored(page, key)).toContain('Maya Trail');

      await page.reload();
      await openBuilder();
      await page.getByTestId('persona-draft-restored').waitFor();
      expect(await page.getByTestId('persona-name').inputValue()).toBe('Maya Trail');
      expect(await page.getByTestId('persona-description').inputValue()).toBe(
        'A mountain guide who films sunrise hikes.',
      );
      expect(await page.getByTestId('persona-personality').inputValue()).toBe('Witty & Sarcastic');

      // Discard: the form empties and nothing is kept.
      await page.getByTestId('persona-draft-restored-discard').click();
      expect(await page.getByTestId('persona-name').inputValue()).toBe('');
      expect(await page.getByTestId('persona-draft-restored').count()).toBe(0);
      await expect.poll(() => stored(page, key)).toBeNull();

      await page.getByTestId('persona-name').fill('Maya Trail');
      await page.getByTestId('persona-description').fill('A mountain guide who films sunrise hikes.');
      await expect.poll(() => stored(page, key)).toContain('Maya Trail');
      await page.getByTestId('persona-submit').click();
      await page.getByTestId('persona-creation').waitFor({ timeout: 30_000 });
      expect(await stored(page, key)).toBeNull();
      await page.reload();
      await openBuilder();
      expect(await page.getByTestId('persona-name').inputValue()).toBe('');
      expect(await page.getByTestId('persona-draft-restored').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('keeps the caption and networks over a reload, keeps Publish ▸ Scheduled in the URL, clears on publishing', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      const dana = await account('creator', 'Dana');
      const key = `genpro.draft.publish.${dana.id}`;
      await logIn(page, dana.email, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=publish`);
      await page.getByTestId('publish-tab').waitFor();
      await connectSandbox(page, 'linkedin');

      await page.getByTestId('publish-message').fill('Trail season opens this weekend');
      await page.getByTestId('publish-platform-linkedin').click();
      await expect.poll(() => stored(page, key)).toContain('linkedin');

      await page.reload();
      await page.getByTestId('publish-draft-restored').waitFor();
      expect(await page.getByTestId('publish-message').inputValue()).toBe('Trail season opens this weekend');
      await expect.poll(() => page.getByTestId('publish-platform-linkedin').locator('input').isChecked()).toBe(true);

      // The sub-view is in the URL: Scheduled is still open after a reload.
      await page.getByTestId('publish-subtab-scheduled').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('publish')).toBe('scheduled');
      await page.reload();
      await expect
        .poll(() => page.getByTestId('publish-subtab-scheduled').getAttribute('data-state'), { timeout: 15_000 })
        .toBe('active');
      await page.getByTestId('publish-subtab-now').click();
      expect(new URL(page.url()).searchParams.get('publish')).toBeNull();

      // Publishing sends the work: the draft goes. Its toast sits at the bottom's end, clear of the tabs.
      await page.getByTestId('publish-source-materials').click();
      await page.getByTestId('generate-button').click();
      await expect
        .poll(() => page.getByTestId('publish-result-linkedin').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('published');
      expect(await stored(page, key)).toBeNull();
      expect(await page.getByTestId('publish-draft-restored').count()).toBe(0);
      const toast = page.locator('[data-sonner-toast]').first();
      await toast.waitFor();
      const toastBox = await restingBox(page, toast);
      expect(overlaps(toastBox, await box(page.getByTestId('studio-tabs')))).toBe(false);
      expect(overlaps(toastBox, await box(page.locator('header').first()))).toBe(false);
      expect(toastBox.x).toBeGreaterThan(1440 / 2);
      await page.reload();
      await page.getByTestId('publish-message').waitFor();
      expect(await page.getByTestId('publish-message').inputValue()).toBe('');
      expect(await page.getByTestId('publish-draft-restored').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('keeps the campaign objective over a reload without waiting for the 30 s autosave, per user', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const eve = await account('brand', 'Eve');
      const finn = await account('brand', 'Finn');
      const objective = 'Introduce our refillable water bottle to university students';
      await logIn(page, eve.email, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=campaigns`);
      await page.getByTestId('plan-objective').fill(objective);
      await expect.poll(() => stored(page, `genpro.draft.campaign.${eve.id}`)).toContain(objective);
      await page.reload();
      await page.getByTestId('draft-restored').waitFor();
      expect(await page.getByTestId('plan-objective').inputValue()).toBe(objective);

      await logOut(page);
      await logIn(page, finn.email, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=campaigns`);
      await page.getByTestId('plan-form').waitFor();
      expect(await page.getByTestId('plan-objective').inputValue()).toBe('');
      expect(await page.getByTestId('draft-restored').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});

describe('small fixes', () => {
  for (const language of ['en', 'ar'] as const) {
    it(`fits the phone tab bar's labels at 375 px (${language}) and shows toasts clear of the editor`, {
      timeout: 120_000,
    }, async () => {
      const browser = await openBrowser({ width: 375, height: 812 });
      const { page } = browser;
      try {
        const gus = await account('creator', 'Gus');
        await page.goto(`${baseUrl()}/auth/login`);
        await page.evaluate((lang) => localStorage.setItem('language', lang), language);
        await logIn(page, gus.email, PASSWORD);
        const bar = page.getByTestId('mobile-tabbar');
        await bar.waitFor();
        await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
        const labels = await bar.locator('a span:last-child, button span:last-child').evaluateAll((spans) =>
          spans.map((span) => ({
            text: span.textContent,
            fits: span.scrollWidth <= span.clientWidth,
            size: Number.parseFloat(getComputedStyle(span).fontSize),
          })),
        );
        expect(labels.length).toBeGreaterThanOrEqual(5);
        for (const label of labels) expect(label, label.text ?? '').toMatchObject({ fits: true });
        for (const label of labels) expect(label.size).toBeGreaterThanOrEqual(12);
        await shot(page, `tabbar-375-${language}`);

        // A toast in the editor overlay: above the bottom bar's place, clear of the overlay's header and tabs.
        await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
        await page.getByTestId('canvas-overlay').waitFor();
        await page.getByTestId('canvas-prompt').press('Enter');
        const toast = page.locator('[data-sonner-toast]').first();
        await toast.waitFor();
        const toastBox = await restingBox(page, toast);
        expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(812 - 64);
        const header = page.getByTestId('canvas-overlay').locator('header').first();
        expect(overlaps(toastBox, await box(header))).toBe(false);
        expect(overlaps(toastBox, await box(page.getByTestId('editor-tabs')))).toBe(false);
        await shot(page, `toast-375-${language}`);
      } finally {
        await browser.close();
      }
    });
  }
});
