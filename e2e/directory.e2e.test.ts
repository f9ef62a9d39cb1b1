import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { baseUrl, expect, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const SHOTS = path.resolve('test-results', 'screenshots');
const HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

async function call(method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBe(200);
  return res.json();
}

/** A fresh, verified account made through the API (a creator starts pending). */
async function registerVerified(role: 'creator' | 'brand', first: string, last: string) {
  const email = uniqueEmail(role);
  const { token, user } = await signUpByApi({
    first_name: first,
    last_name: last,
    email,
    password: 'violet-harbor-lamp-7',
    role,
  });
  return { id: user.id, token };
}

async function signIn(page: Page, token: string) {
  await page.context().addCookies([{ name: 'genpro_session', value: token, url: baseUrl() }]);
  await page.goto(`${baseUrl()}/auth/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
}

describe('directories (issue 18)', () => {
  it('creator cards show what a brand weighs up, with empty values said so, at a sensible width from 375 to 1440 px', {
    timeout: 120_000,
  }, async () => {
    const tag = `Dir${Date.now() % 1_000_000}`;
    const adminLogin = await fetch(`${baseUrl()}/api/auth/login`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ email: 'admin@genpro.local', password: 'genpro-admin' }),
    });
    const admin = ((await adminLogin.json()) as { data: { token: string } }).data.token;
    const full = await registerVerified('creator', 'Nora', `Lens ${tag}`);
    const empty = await registerVerified('creator', 'Eli', `Blank ${tag}`);
    for (const [user, creatorType] of [
      [full, 'photographer'],
      [empty, 'influencer'],
    ] as const) {
      await call('POST', '/api/admin/users/approve', admin, { userId: user.id, action: 'approve', creatorType });
    }
    await call('PATCH', '/api/creators/profile', full.token, {
      displayName: `Nora Lens ${tag}`,
      bio: 'Street and travel photographer: city mornings, markets, people at work.',
      location: 'Lisbon',
      niches: ['Street style', 'Travel', 'Food'],
      primaryPlatform: 'instagram',
      socialLinks: { youtube: 'https://youtube.com/@nora' },
      startingRate: 250,
    });
    const brand = await registerVerified('brand', 'Bea', `Brand ${tag}`);

    const { page, close } = await openBrowser({ width: 1440, height: 900 });
    try {
      await signIn(page, brand.token);
      await page.goto(`${baseUrl()}/dashboard?view=community`);
      await page.getByTestId('community-view').waitFor();
      await page.getByTestId('community-search').fill(tag);
      const card = (id: string) => page.locator(`[data-testid="creator-card"][data-id="${id}"]`);
      await card(full.id).waitFor();
      await card(empty.id).waitFor();

      // The full profile: type, niches, platforms (primary first), rate; no connected account, so no followers.
      const nora = card(full.id);
      expect(await nora.getByTestId('creator-type').innerText()).toContain('Photographer');
      expect(await nora.getByTestId('creator-type').innerText()).toContain('Lisbon');
      expect(await nora.getByTestId('creator-niches').innerText()).toContain('Street style');
      // Polled: the card may first come from the unfiltered list and be drawn again by the search's answer.
      await expect
        .poll(() =>
          nora
            .getByTestId('creator-platforms')
            .locator('[data-platform]')
            .evaluateAll((marks) => marks.map((m) => m.getAttribute('data-platform'))),
        )
        .toEqual(['instagram', 'youtube']);
      expect(await nora.getByTestId('creator-rate').getAttribute('data-known')).toBe('true');
      expect(await nora.getByTestId('creator-rate').innerText()).toContain('€250.00');
      expect(await nora.getByTestId('creator-followers').getAttribute('data-known')).toBe('false');
      expect(await nora.getByTestId('creator-followers').innerText()).toContain('No accounts');

      // No profile at all: the card still says who it is and what is missing.
      const eli = card(empty.id);
      expect(await eli.getByTestId('creator-name').innerText()).toBe(`Eli Blank ${tag}`);
      expect(await eli.getByTestId('creator-type').innerText()).toContain('Influencer');
      expect(await eli.getByTestId('creator-niches-empty').innerText()).toBe('No niches listed yet');
      expect(await eli.getByTestId('creator-platforms').innerText()).toBe('No platforms listed yet');
      expect(await eli.getByTestId('creator-rate').innerText()).toContain('On request');

      mkdirSync(SHOTS, { recursive: true });
      for (const width of [1440, 1024, 768, 375]) {
        await page.setViewportSize({ width, height: 900 });
        // The grid re-renders as the width changes (and the searched list is fetched again): measure the card
        // and the list together once both are laid out.
        const measured = { card: 0, list: 0 };
        await expect
          .poll(async () => {
            measured.card = (await nora.boundingBox())?.width ?? 0;
            measured.list = (await page.getByTestId('creator-list').boundingBox())?.width ?? 0;
            return measured.card > 0 && measured.list > 0;
          })
          .toBe(true);
        // Never a sliver: at least 20rem (a missing figure stays on one line), or the whole row where it does not fit.
        if (measured.list >= 2 * 320 + 12) expect(measured.card, `card at ${width} px`).toBeGreaterThanOrEqual(320);
        else expect(measured.card, `card at ${width} px`).toBeCloseTo(measured.list, 0);
        await page.screenshot({ path: path.join(SHOTS, `directory-community-${width}.png`) });
      }

      // The brand directory uses the same grid; a brand without a profile says what is missing.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${baseUrl()}/dashboard?view=brands`);
      await page.getByTestId('brands-search').fill(tag);
      const brandCard = page.locator(`[data-testid="brand-card"][data-id="${brand.id}"]`);
      await brandCard.waitFor();
      expect((await brandCard.boundingBox())?.width).toBeGreaterThanOrEqual(320);
      expect(await brandCard.getByTestId('brand-budget-empty').innerText()).toBe('Budget not listed');
      await page.screenshot({ path: path.join(SHOTS, 'directory-brands-1440.png') });
    } finally {
      await close();
    }
  });
});
