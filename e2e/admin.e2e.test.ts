import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const SHOTS = path.resolve('test-results', 'screenshots');
const HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

interface Account {
  id: string;
  email: string;
  token: string;
}

/** A fresh, verified account made through the API (a creator starts pending). */
async function registerVerified(role: 'creator' | 'brand', first: string, last: string): Promise<Account> {
  const email = uniqueEmail(role);
  const { token, user } = await signUpByApi({
    first_name: first,
    last_name: last,
    email,
    password: 'violet-harbor-lamp-7',
    role,
  });
  return { id: user.id, email, token };
}

async function api(pathname: string, token: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${baseUrl()}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** Signs the page in with a token, as the web app keeps it. */
async function signIn(page: Page, token: string) {
  await page.context().addCookies([{ name: 'genpro_session', value: token, url: baseUrl() }]);
  await page.goto(`${baseUrl()}/auth/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `admin-${name}.png`), fullPage: true });
}

describe('admin approval, directories and profiles', () => {
  it('an admin approves a pending creator with a type; the creator reaches the community; profiles show', {
    timeout: 180_000,
  }, async () => {
    const creator = await registerVerified('creator', 'Nora', 'Pending');
    await api('/api/creators/profile', creator.token, {
      method: 'PATCH',
      body: {
        bio: 'Street style and art films',
        location: 'Lisbon',
        niches: ['Fashion', 'Art', 'Film', 'Travel'],
        skills: ['Editing'],
      },
    });
    const brand = await registerVerified('brand', 'Bo', 'Brandt');
    const company = `Lumen Labs ${Date.now()}`;
    const saved = await api('/api/brands/profile', brand.token, {
      method: 'PATCH',
      body: {
        companyName: company,
        industry: 'Consumer electronics',
        budgetRange: '$1K - $5K',
        companyDescription: 'Lamps that follow the sun.',
        headquartersLocation: 'Berlin',
      },
    });
    expect(saved.status).toBe(200);

    // The admin finds the new creator by email; approving needs a creator type first.
    const admin = await openBrowser();
    try {
      const { page } = admin;
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      await page.goto(`${baseUrl()}/dashboard?view=adminCreators`);
      await page.getByTestId('admin-creators-view').waitFor();
      await page.getByTestId('admin-search').fill(creator.email);
      const card = page.locator(`[data-testid="admin-creator-card"][data-email="${creator.email}"]`);
      await card.waitFor();
      await expect.poll(() => page.getByTestId('admin-creator-card').count()).toBe(1);
      expect(await card.getAttribute('data-status')).toBe('pending');
      expect(await card.getByTestId('admin-niches').innerText()).toMatch(/Fashion\s*Art\s*\+2/);

      const approve = card.getByTestId('admin-approve');
      expect(await approve.isDisabled()).toBe(true);
      expect(await card.getByTestId('admin-type-hint').innerText()).toBe(
        'Please select a creator type before approving',
      );
      await shot(page, 'creators-1280');

      await card.getByTestId('admin-creator-type').selectOption('artist');
      expect(await approve.isEnabled()).toBe(true);
      expect(await card.getByTestId('admin-type-hint').count()).toBe(0);
      await approve.click();

      // The list reloads: the card now shows the creator approved, with its type, and the log records it.
      await page
        .locator(`[data-testid="admin-creator-card"][data-email="${creator.email}"][data-status="approved_creator"]`)
        .waitFor();
      expect(await card.getByTestId('admin-type').innerText()).toBe('Artist');
      expect(await card.getByTestId('admin-approve').count()).toBe(0);
      await page
        .locator('[data-testid="audit-entry"][data-action="creator.approve"]', { hasText: creator.email })
        .first()
        .waitFor();

      // Brands management: the new brand is pending and is verified from its card.
      await page.goto(`${baseUrl()}/dashboard?view=adminBrands`);
      await page.getByTestId('admin-search').fill(brand.email);
      const brandCard = page.locator(`[data-testid="admin-brand-card"][data-email="${brand.email}"]`);
      await brandCard.waitFor();
      // The search has settled when only the new brand is listed.
      await expect.poll(() => page.getByTestId('admin-brand-card').count()).toBe(1);
      expect(await brandCard.getAttribute('data-status')).toBe('pending');
      await brandCard.getByTestId('admin-approve').click();
      await page
        .locator(`[data-testid="admin-brand-card"][data-email="${brand.email}"][data-status="verified"]`)
        .waitFor();
      await shot(page, 'brands-1280');

      // The delete confirmation says the deletion is permanent and what it removes.
      await brandCard.getByTestId('admin-delete').click();
      const dialog = page.getByTestId('admin-delete-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(
        'This permanently deletes the user and removes their AI assets, campaigns and profiles.',
      );
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${baseUrl()}/dashboard?view=adminCreators`);
      await page.getByTestId('admin-creator-card').first().waitFor();
      await shot(page, 'creators-375');
      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      await page.reload();
      await page.getByTestId('admin-creator-card').first().waitFor();
      await shot(page, 'creators-375-ar');
    } finally {
      await admin.close();
    }

    // The approved creator now sees the community directory (no approval gate) and the brand's profile.
    const member = await openBrowser();
    try {
      const { page } = member;
      await signIn(page, creator.token);
      await page.goto(`${baseUrl()}/dashboard?view=community`);
      await page.getByTestId('community-view').waitFor();
      expect(await page.getByTestId('approval-gate').count()).toBe(0);
      await page.getByTestId('community-search').fill('Street style');
      const own = page.locator(`[data-testid="creator-card"][data-id="${creator.id}"]`);
      await own.waitFor();
      await page.getByTestId('community-category-fashion').click();
      await own.waitFor();
      await page.getByTestId('community-search').fill('no creator is called this');
      await page.getByTestId('community-empty').waitFor();
      expect(await page.getByTestId('community-empty').innerText()).toBe(
        'No verified creators found matching your search criteria',
      );
      await page.getByTestId('community-search').fill('');
      await page.getByTestId('community-category-all').click();
      await page.getByTestId('creator-card').first().waitFor();
      await shot(page, 'community-1280');

      await page.goto(`${baseUrl()}/dashboard?view=brands`);
      await page.getByTestId('brands-search').fill(company);
      const brandLink = page.locator(`[data-testid="brand-card"][data-id="${brand.id}"]`);
      await brandLink.waitFor();
      await shot(page, 'brand-directory-1280');
      expect(await brandLink.getByTestId('brand-budget').innerText()).toBe('$1K - $5K');
      await brandLink.locator('a').click();
      await page.waitForURL(`**/brands/${brand.id}`);
      await page.getByTestId('brand-profile').waitFor();
      expect(await page.getByTestId('profile-name').innerText()).toBe(company);
      expect(await page.getByTestId('profile-budget').innerText()).toBe('$1K - $5K');
      await shot(page, 'brand-profile-1280');

      // A creator who is not an admin is refused the admin views: the dashboard falls back, the API says 403.
      await page.goto(`${baseUrl()}/dashboard?view=adminCreators`);
      await page.getByTestId('dashboard-shell').waitFor();
      expect(await page.getByTestId('dashboard-shell').getAttribute('data-view')).toBe('creators');
      expect(await page.getByTestId('admin-creators-view').count()).toBe(0);
      expect(await page.getByTestId('nav-adminCreators').count()).toBe(0);
      expect((await api('/api/admin/creators', creator.token)).status).toBe(403);

      // Own public profile, in Arabic at phone width.
      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${baseUrl()}/creators/${creator.id}`);
      await page.getByTestId('creator-profile').waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await page.getByTestId('profile-type').innerText()).toBe('فنان');
      await page.getByTestId('profile-edit').waitFor();
      await shot(page, 'creator-profile-375-ar');
      await page.goto(`${baseUrl()}/dashboard?view=community`);
      await page.getByTestId('creator-card').first().waitFor();
      await shot(page, 'community-375-ar');
    } finally {
      await member.close();
    }
  });

  it('the Engines view lists every model, the engine serving it and its last call (issue 19)', {
    timeout: 90_000,
  }, async () => {
    const admin = await openBrowser();
    try {
      const { page } = admin;
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      const token = await page.evaluate(() => localStorage.getItem('auth_token'));
      // A call the Engines view then reports: the image agent on the local text writer (free).
      const agent = await api('/api/ai/image-agent', token ?? '', {
        method: 'POST',
        body: { prompt: 'a lighthouse at dusk' },
      });
      expect(agent.status).toBe(200);

      await page.goto(`${baseUrl()}/dashboard?view=creators`);
      await page.getByTestId('nav-adminEngines').first().click();
      await page.getByTestId('admin-engines-view').waitFor();
      expect(page.url()).toContain('view=adminEngines');
      const reply = (await (await api('/api/ai/engines', token ?? '')).json()) as {
        models: Array<{ kind: string; model: string }>;
      };
      await expect.poll(() => page.getByTestId('admin-engine-row').count()).toBe(reply.models.length);
      expect(await page.getByTestId('admin-engines-local').innerText()).toContain('LOCAL_ENGINES');

      const veo = page.locator('[data-testid="admin-engine-row"][data-model="veo-3.0-generate-001"]');
      expect(await veo.getAttribute('data-engine')).toBe('local');
      expect(await veo.getByTestId('admin-engine-engine').innerText()).toBe('Local preview');
      expect(await veo.getByTestId('admin-engine-status').innerText()).toContain('Enabled by GEMINI_API_KEY');
      const text = page.locator('[data-testid="admin-engine-row"][data-kind="text"][data-model="local"]');
      await expect
        .poll(() => text.getByTestId('admin-engine-last-call').getAttribute('data-outcome'), { timeout: 30_000 })
        .toBe('ok');
      expect(await text.getByTestId('admin-engine-last-call').innerText()).toMatch(/^Answered /);
      await shot(page, 'engines-1280');
    } finally {
      await admin.close();
    }
  });

  it('the Workers view shows the studio’s own process, live, at 375 px (issue 26)', {
    timeout: 90_000,
  }, async () => {
    const admin = await openBrowser({ width: 375, height: 800 });
    try {
      const { page } = admin;
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      await page.goto(`${baseUrl()}/dashboard?view=adminWorkers`);
      await page.getByTestId('admin-workers-view').waitFor();
      // The embedded studio runs its workers in the API process: one live row.
      const row = page.getByTestId('admin-worker-row');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getAttribute('data-state')).toBe('live');
      expect(await row.innerText()).toContain('API process with workers');
      expect(await page.getByTestId('admin-workers-summary').innerText()).toBe('1 live process runs the workers.');
      await shot(page, 'workers-375');
    } finally {
      await admin.close();
    }
  });

  it('the Workers view shows the studio’s storage and who stores the most, at 375 px, dark and in Arabic (issue 27)', {
    timeout: 120_000,
  }, async () => {
    // A verified creator stores a file; an admin then sees the studio's totals and that user's row.
    const creator = await registerVerified('creator', 'Sami', 'Storer');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a6ea5' } })
      .png()
      .toBuffer();
    const stored = await api('/api/upload/base64-to-url', creator.token, {
      method: 'POST',
      body: { base64Data: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(stored.status).toBe(200);
    expect((await api('/api/admin/storage', creator.token)).status).toBe(403);

    const admin = await openBrowser({ width: 375, height: 800 });
    try {
      const { page } = admin;
      await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      await page.goto(`${baseUrl()}/dashboard?view=adminWorkers`);
      const view = page.getByTestId('admin-storage-view');
      await view.getByTestId('admin-storage-totals').waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      expect(await view.getByRole('heading', { level: 2 }).innerText()).toBe('Storage');
      expect(await page.getByTestId('admin-storage-summary').innerText()).toBe(
        'There is room: uploads and generations are stored.',
      );
      expect(await page.getByTestId('admin-storage-budget').innerText()).toBe('No overall budget');
      expect(await page.getByTestId('admin-storage-used').innerText()).toMatch(/\d/);
      expect(await page.getByTestId('admin-storage-disk').innerText()).toMatch(/free of/);
      const row = page.locator(`[data-testid="admin-storage-user"][data-user="${creator.id}"]`);
      // The top ten by bytes: the creator's one small file may be outranked on a busy demo studio.
      if ((await page.getByTestId('admin-storage-user').count()) < 10) {
        await row.waitFor();
        expect(await row.innerText()).toContain(creator.email);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(page, 'storage-375-dark');

      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      await page.reload();
      await page.getByTestId('admin-storage-totals').waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await view.getByRole('heading', { level: 2 }).innerText()).toBe('التخزين');
      expect(await page.getByTestId('admin-storage-budget').innerText()).toBe('لا ميزانية إجمالية');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(page, 'storage-375-ar');
    } finally {
      await admin.close();
    }
  });

  it('a pending creator sees the approval gate instead of the community list; unknown profiles say so', {
    timeout: 60_000,
  }, async () => {
    const pending = await registerVerified('creator', 'Pia', 'Waiting');
    const browser = await openBrowser({ width: 375, height: 800 });
    try {
      const { page } = browser;
      await signIn(page, pending.token);
      await page.goto(`${baseUrl()}/dashboard?view=community`);
      await page.getByTestId('approval-gate').waitFor();
      expect(await page.getByTestId('creator-list').count()).toBe(0);
      // Public profiles need only a session; an unknown id says so.
      await page.goto(`${baseUrl()}/creators/${pending.id}`);
      await page.getByTestId('creator-profile').waitFor();
      await page.goto(`${baseUrl()}/brands/00000000-0000-4000-8000-000000000000`);
      await page.getByTestId('profile-problem').waitFor();
      expect(await page.getByTestId('profile-problem').innerText()).toContain('Profile not found');
      await shot(page, 'profile-not-found-375');
    } finally {
      await browser.close();
    }
  });
});
