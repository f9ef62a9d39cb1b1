import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { approvedCreator, baseUrl, expect, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

// Issue 21 point 2: reach and engagement come from the networks. A creator connects a sandbox account and
// publishes; a visitor in another browser opens the share page twice (one view), likes it and follows; the
// creator's own headless browser (a bot by its user agent) is not counted; the directory card and the public
// profile show the followers and the engagement rate.

const SHOTS = path.resolve('test-results', 'screenshots');
const VISITOR_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

async function call<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${url}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

const figure = async (page: Page, testId: string) => Number(await page.getByTestId(testId).innerText());

/** Connects the sandbox Instagram from the Publish tab: its consent page opens in a new tab, approved there. */
async function connectInstagram(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=publish`);
  const row = page.getByTestId('social-instagram');
  await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('disconnected');
  const [consent] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByTestId('social-instagram-connect').click(),
  ]);
  await consent.getByTestId('sandbox-approve').click();
  await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
}

/** A fresh verified brand made through the API, signed in on the page. */
async function brandOn(page: Page): Promise<string> {
  const email = uniqueEmail('brand');
  const { token } = await signUpByApi({
    first_name: 'Bea',
    last_name: 'Brand',
    email,
    password: 'violet-harbor-lamp-7',
    role: 'brand',
  });
  await page.context().addCookies([{ name: 'genpro_session', value: token, url: baseUrl() }]);
  await page.goto(`${baseUrl()}/auth/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
  return token;
}

describe('reach and engagement (issue 21)', () => {
  it('a visitor views, likes and follows a published post; the directory card and the profile show it', {
    timeout: 180_000,
  }, async () => {
    const creator = await openBrowser({ width: 1280, height: 900 });
    const visitor = await openBrowser({ width: 375, height: 800, userAgent: VISITOR_AGENT });
    try {
      const { page } = creator;
      const token = await approvedCreator(page);
      const tag = `Reach${Date.now() % 1_000_000}`;
      await call('PATCH', '/api/creators/profile', token, { displayName: `Rana ${tag}` });
      const me = await call<{ data: { user: { id: string } } }>('GET', '/api/auth/me', token);
      const id = me.data.user.id;

      await connectInstagram(page);

      // Connected, nothing published: no post figures yet, and the card says so instead of 0.
      await page.goto(`${baseUrl()}/creators/${id}`);
      await expect.poll(() => page.getByTestId('profile-followers').innerText(), { timeout: 20_000 }).toBe('0');
      expect(await page.getByTestId('profile-engagement').innerText()).toBe('No post figures yet');

      const published = await call<{ data: { results: Array<{ status: string; share_url: string }> } }>(
        'POST',
        '/api/social/publish',
        token,
        {
          message: `Morning light ${tag}`,
          platforms: ['instagram'],
          // Instagram needs an image or a video in every post (common/rules/social-media.ts).
          media_urls: ['https://cdn.example.com/morning.jpg'],
          mode: 'materials',
        },
      );
      const share = published.data.results[0]?.share_url as string;
      expect(published.data.results[0]?.status).toBe('published');

      // The visitor opens the share page twice the same day: one view.
      const v = visitor.page;
      await v.goto(share);
      expect(await figure(v, 'post-views')).toBe(1);
      await v.reload();
      expect(await figure(v, 'post-views')).toBe(1);
      expect(await figure(v, 'post-likes')).toBe(0);
      await v.getByTestId('post-like').click();
      await expect.poll(() => figure(v, 'post-likes')).toBe(1);
      await v.getByTestId('post-follow').click();
      await expect.poll(() => figure(v, 'post-followers')).toBe(1);
      // The visitor sees what they pressed.
      expect(await v.getByTestId('post-like').getAttribute('aria-pressed')).toBe('true');
      expect(await v.getByTestId('post-follow').innerText()).toMatch(/^✓ Following @/);
      expect(await seriousViolations(v)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await v.screenshot({ path: path.join(SHOTS, 'reach-share-page-375.png'), fullPage: true });

      // The creator's headless browser is a bot by its user agent: the page shows, the view is not counted.
      const own = await page.context().newPage();
      await own.goto(share);
      expect(await figure(own, 'post-views')).toBe(1);
      await own.close();

      // The directory card: 1 follower, engagement 1 like / 1 view = 100 %.
      await page.goto(`${baseUrl()}/dashboard?view=community`);
      await page.getByTestId('community-view').waitFor();
      await page.getByTestId('community-search').fill(tag);
      const card = page.locator(`[data-testid="creator-card"][data-id="${id}"]`);
      await card.waitFor();
      await expect.poll(() => card.getByTestId('creator-followers').getAttribute('data-known')).toBe('true');
      expect(await card.getByTestId('creator-followers').innerText()).toContain('1');
      expect(await card.getByTestId('creator-engagement').innerText()).toContain('100');
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 375, height: 800 });
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: path.join(SHOTS, 'reach-creator-card-375.png') });

      // The public profile shows the same figures.
      await page.goto(`${baseUrl()}/creators/${id}`);
      await expect.poll(() => page.getByTestId('profile-followers').innerText()).toBe('1');
      expect(await page.getByTestId('profile-engagement').innerText()).toContain('100');
      await page.screenshot({ path: path.join(SHOTS, 'reach-profile-375.png'), fullPage: true });
    } finally {
      await visitor.close();
      await creator.close();
    }
  });

  it("a post carrying a persona's image counts for the persona: its card shows the reach and engagement", {
    timeout: 300_000,
  }, async () => {
    const creator = await openBrowser({ width: 1280, height: 900 });
    const visitor = await openBrowser({ width: 375, height: 800, userAgent: VISITOR_AGENT });
    try {
      const { page } = creator;
      const token = await approvedCreator(page);
      const name = `Nova ${Date.now() % 1_000_000}`;
      const created = await call<{ data: { id: string } }>('POST', '/api/personas', token, {
        name,
        description: 'A calm yoga coach who films at sunrise.',
      });
      const personaId = created.data.id;
      type PersonaView = { status: string; images: Array<{ type: string; asset_id: string | null }> };
      const readPersona = () => call<{ data: PersonaView }>('GET', `/api/personas/${personaId}`, token);
      await expect
        .poll(async () => (await readPersona()).data.status, { timeout: 200_000, interval: 1000 })
        .toBe('ready');
      const portrait = (await readPersona()).data.images.find((i) => i.type === 'portrait')?.asset_id;
      expect(portrait).toBeTruthy();

      // Before any post: the card says there is nothing published yet, not 0.
      const cardOf = async () => {
        await page.goto(`${baseUrl()}/dashboard?view=aiPersonas`);
        const card = page.locator(`[data-testid="persona-card"][data-name="${name}"]`);
        await card.waitFor({ timeout: 20_000 });
        return card;
      };
      expect(await (await cardOf()).getByTestId('persona-card-reach').innerText()).toBe('No published posts yet');

      // Publish Now with the persona's portrait, picked among the creator's materials.
      await connectInstagram(page);
      await page.getByTestId('publish-subtab-now').click();
      await page.getByTestId('publish-source-materials').click();
      await page.getByTestId('publish-message').fill(`${name} says good morning`);
      const material = page.locator(`[data-testid="publish-material"][data-id="${portrait}"]`);
      await material.click();
      expect(await material.getAttribute('aria-pressed')).toBe('true');
      const instagram = page.getByTestId('publish-platform-instagram').locator('input');
      if (!(await instagram.isChecked())) await page.getByTestId('publish-platform-instagram').click();
      expect(await instagram.isChecked()).toBe(true);
      await page.getByTestId('generate-button').click();
      const result = page.getByTestId('publish-result-instagram');
      await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('published');
      const share = await page.getByTestId('publish-share-instagram').getAttribute('href');
      expect(share).toBeTruthy();

      // Published, no visitor yet: 0 reach, and no engagement figure.
      await expect
        .poll(async () => (await cardOf()).getByTestId('persona-card-reach').innerText(), { timeout: 20_000 })
        .toBe('0 reach');

      // A visitor in another browser sees the persona's image on the post, and likes it.
      const v = visitor.page;
      await v.goto(new URL(share as string, baseUrl()).toString());
      expect(await figure(v, 'post-views')).toBe(1);
      const image = v.locator('img').first();
      await expect.poll(() => image.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await v.getByTestId('post-like').click();
      await expect.poll(() => figure(v, 'post-likes')).toBe(1);

      // The persona's card: the post's view and like.
      await expect
        .poll(async () => (await cardOf()).getByTestId('persona-card-reach').innerText(), { timeout: 20_000 })
        .toBe('1 reach · 1 engagement');
      expect(await seriousViolations(page)).toEqual([]);
      const card = await cardOf();
      mkdirSync(SHOTS, { recursive: true });
      await card.screenshot({ path: path.join(SHOTS, 'reach-persona-card-1280.png') });
    } finally {
      await visitor.close();
      await creator.close();
    }
  });

  it("the brand sees a collaboration's views and engagement on the manage page", { timeout: 240_000 }, async () => {
    const brand = await openBrowser({ width: 1280, height: 900 });
    const creator = await openBrowser({ width: 1280, height: 900 });
    const visitor = await openBrowser({ width: 375, height: 800, userAgent: VISITOR_AGENT });
    try {
      // The brand funds its wallet through the local checkout and opens a campaign for one Instagram post.
      const brandToken = await brandOn(brand.page);
      await brand.page.goto(`${baseUrl()}/dashboard?account=billing`);
      await brand.page.getByTestId('brand-wallet').waitFor();
      await brand.page.locator('#wallet-amount').fill('100');
      await brand.page.getByTestId('wallet-add-funds').click();
      await brand.page.waitForURL('**/checkout/local/**');
      await brand.page.getByTestId('checkout-pay').click();
      await brand.page.waitForURL((url) => url.pathname === '/dashboard');
      const created = await call<{ data: { id: string } }>('POST', '/api/campaigns', brandToken, {
        title: `Reach campaign ${Date.now() % 1_000_000}`,
        objective: 'Show our spring shoe to city runners',
        budget: 50,
        platforms: ['instagram'],
        contentTypes: ['image'],
        deliverables: [{ type: 'Instagram post', quantity: 1, platform: 'instagram' }],
        status: 'open',
      });
      const campaignId = created.data.id;

      // The creator connects Instagram, applies and is accepted, then publishes for the collaboration.
      const creatorToken = await approvedCreator(creator.page);
      await connectInstagram(creator.page);
      const applied = await call<{ data: { id: string } }>(
        'POST',
        `/api/campaigns/${campaignId}/applications`,
        creatorToken,
        { message: 'One post for you', rate: 20 },
      );
      const accepted = await call<{ data: { collaboration_id: string } }>(
        'POST',
        `/api/applications/${applied.data.id}/accept`,
        brandToken,
        {},
      );
      const published = await call<{ data: { results: Array<{ status: string; share_url: string }> } }>(
        'POST',
        '/api/social/publish',
        creatorToken,
        {
          message: 'New shoe day',
          platforms: ['instagram'],
          media_urls: ['https://cdn.example.com/shoe.jpg'],
          selected_collaborations: [accepted.data.collaboration_id],
        },
      );
      expect(published.data.results[0]?.status).toBe('published');

      // Before anyone looks: 0 views reported, no engagement figure yet (N/A on the client, as the spec says).
      const manage = `${baseUrl()}/dashboard/campaigns/${campaignId}/manage`;
      await brand.page.goto(manage);
      const collaboration = brand.page.getByTestId('manage-collaborations').getByTestId('collaboration');
      await collaboration.waitFor({ timeout: 20_000 });
      expect(await collaboration.getByTestId('metric-reach').textContent()).toBe('0');
      expect(await collaboration.getByTestId('metric-engagement').textContent()).toBe('N/A');

      // A visitor views it twice (one view) and likes it.
      await visitor.page.goto(published.data.results[0]?.share_url as string);
      await visitor.page.reload();
      await visitor.page.getByTestId('post-like').click();
      await expect.poll(() => figure(visitor.page, 'post-likes')).toBe(1);

      await brand.page.reload();
      await collaboration.waitFor({ timeout: 20_000 });
      await expect.poll(() => collaboration.getByTestId('metric-reach').textContent()).toBe('1');
      expect(await collaboration.getByTestId('metric-engagement').textContent()).toBe('1');
      expect(await collaboration.getByTestId('metric-rate').textContent()).toBe('100.0%');
      expect(await collaboration.getByTestId('metric-posts').textContent()).toBe('1');
      expect(await seriousViolations(brand.page)).toEqual([]);
      await brand.page.setViewportSize({ width: 375, height: 800 });
      await collaboration.scrollIntoViewIfNeeded();
      await collaboration.screenshot({ path: path.join(SHOTS, 'reach-collaboration-375.png') });
    } finally {
      await visitor.close();
      await creator.close();
      await brand.close();
    }
  });
});
