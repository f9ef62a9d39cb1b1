// WCAG 2.2 A/AA with axe-core over the studio's main views, in the dark and the light theme: no critical or
// serious violation may appear (contrast, names, landmarks, labels, nested controls).
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { type AxeFinding, seriousViolations } from './axe.ts';
import { baseUrl, expect, logIn, openBrowser } from './browser.ts';

interface View {
  name: string;
  /** Opens the view on a signed-in (or public) page and waits for its content. */
  open(page: Page): Promise<void>;
}

const settle = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  // Let entrance transitions finish: axe reads computed colours.
  await page.waitForTimeout(400);
};

const at =
  (path: string, ready: string): View['open'] =>
  async (page) => {
    await page.goto(`${baseUrl()}${path}`);
    await page.getByTestId(ready).first().waitFor();
    await settle(page);
  };

const PUBLIC_VIEWS: View[] = [
  { name: 'home', open: at('/', 'home-cta-login') },
  { name: 'log-in', open: at('/auth/login', 'login-submit') },
  { name: 'register', open: at('/auth/register', 'register-submit') },
  { name: 'forgot password', open: at('/auth/forgot-password', 'forgot-request-submit') },
];

const dashboard = (view: string, extra = '') => at(`/dashboard?view=${view}${extra}`, 'dashboard-shell');

const CREATOR_VIEWS: View[] = [
  { name: 'workspace', open: dashboard('creators') },
  { name: 'personas', open: dashboard('aiPersonas') },
  { name: 'studio: creator', open: dashboard('genproStudio', '&tab=creator&mode=image') },
  { name: 'studio: video', open: dashboard('genproStudio', '&tab=creator&mode=video') },
  { name: 'studio: personas', open: dashboard('genproStudio', '&tab=personas') },
  { name: 'studio: campaigns', open: dashboard('genproStudio', '&tab=campaigns') },
  { name: 'studio: publish', open: dashboard('genproStudio', '&tab=publish') },
  { name: 'library', open: dashboard('library') },
  { name: 'chat', open: dashboard('chatWithGenPro') },
  { name: 'campaigns pool', open: dashboard('campaignsPool') },
  { name: 'community', open: dashboard('community') },
  { name: 'brands', open: dashboard('brands') },
  { name: 'my campaigns', open: dashboard('myCampaigns') },
  ...['profile', 'billing', 'transactions', 'social', 'security', 'settings'].map((tab) => ({
    name: `account: ${tab}`,
    open: at(`/dashboard?view=creators&account=${tab}`, `account-${tab}`),
  })),
  {
    name: 'canvas',
    open: async (page: Page) => {
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
      await page.getByTestId('open-canvas').click();
      await page.getByTestId('canvas-overlay').waitFor();
      await settle(page);
    },
  },
  {
    name: 'film studio',
    open: async (page: Page) => {
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
      await page.getByTestId('open-film-studio').click();
      await page.getByTestId('film-panel-concept').waitFor();
      await settle(page);
    },
  },
];

/** A call of the studio's API as the page's signed-in user. */
async function api(page: Page, method: string, path: string, body?: object): Promise<unknown> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The creator's views with something in them: a generated image in the library and on the workspace. */
async function withAnImage(page: Page): Promise<void> {
  await api(page, 'POST', '/api/ai/generate/image', { prompt: 'a red fox in fresh snow at dawn', numberOfImages: 1 });
  await expect
    .poll(async () => ((await api(page, 'GET', '/api/ai/assets?limit=1')) as { data: unknown[] }).data.length, {
      timeout: 45_000,
    })
    .toBeGreaterThan(0);
}

const TOPUP_DIALOG: View = {
  name: 'top-up dialog',
  open: async (page) => {
    await page.goto(`${baseUrl()}/dashboard?view=creators&account=billing`);
    await page.getByTestId('billing-topup').click();
    await page.getByRole('dialog').last().waitFor();
    await settle(page);
  },
};

let campaignId = '';
const BRAND_VIEWS: View[] = [
  { name: 'brand: workspace', open: dashboard('creators') },
  { name: 'brand: my campaigns', open: dashboard('myCampaigns') },
  {
    name: 'brand: campaign manage page',
    open: (page) => at(`/dashboard/campaigns/${campaignId}/manage`, 'manage-campaign')(page),
  },
  { name: 'brand: community', open: dashboard('community') },
  { name: 'brand: billing and wallet', open: at('/dashboard?view=creators&account=billing', 'account-billing') },
];

async function withACampaign(page: Page): Promise<void> {
  const reply = (await api(page, 'POST', '/api/campaigns', {
    title: 'Spring launch',
    description: 'Our new running shoe, on the move',
    objective: 'Awareness for the spring running shoe',
    budget: 30,
    platforms: ['instagram', 'tiktok'],
    contentTypes: ['video'],
    deliverables: [{ type: 'Instagram reels', quantity: 2, platform: 'instagram', contentType: 'video' }],
    // A draft holds no budget: the demo brand's wallet is empty.
    status: 'draft',
  })) as { data: { id: string } };
  campaignId = reply.data.id;
}

const ADMIN_VIEWS: View[] = [
  { name: 'admin: creators', open: dashboard('adminCreators') },
  { name: 'admin: brands', open: dashboard('adminBrands') },
  { name: 'admin: engines', open: at('/dashboard?view=adminEngines', 'admin-engines-table') },
  { name: 'admin: workers', open: at('/dashboard?view=adminWorkers', 'admin-workers-table') },
  { name: 'admin: storage', open: at('/dashboard?view=adminWorkers', 'admin-storage-totals') },
  { name: 'admin: payouts', open: at('/dashboard?view=adminPayouts', 'admin-payouts-view') },
];

function report(found: Array<{ view: string } & AxeFinding>): string[] {
  return found.map((f) => `${f.view}: ${f.rule} (${f.impact}) ${f.help} — ${f.nodes.join(' | ')} — ${f.summary}`);
}

async function sweep(
  theme: 'dark' | 'light',
  who: { email: string; password: string } | null,
  views: View[],
  prepare?: (page: Page) => Promise<void>,
) {
  const browser = await openBrowser({ width: 1440, height: 900 });
  const { page } = browser;
  try {
    await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    if (who) await logIn(page, who.email, who.password);
    await prepare?.(page);
    const found: Array<{ view: string } & AxeFinding> = [];
    for (const view of views) {
      await view.open(page);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      for (const finding of await seriousViolations(page)) found.push({ view: view.name, ...finding });
    }
    return report(found);
  } finally {
    await browser.close();
  }
}

const CREATOR = { email: 'creator@genpro.local', password: 'genpro-creator' };
const ADMIN = { email: 'admin@genpro.local', password: 'genpro-admin' };
const BRAND = { email: 'brand@genpro.local', password: 'genpro-brand' };

describe.each(['dark', 'light'] as const)('axe-core, WCAG 2.2 A/AA, %s theme', (theme) => {
  it('finds no critical or serious violation on the public pages', async () => {
    expect(await sweep(theme, null, PUBLIC_VIEWS)).toEqual([]);
  });

  it('finds none on the creator’s views, account tabs, top-up, canvas and film studio', {
    timeout: 300_000,
  }, async () => {
    expect(await sweep(theme, CREATOR, [...CREATOR_VIEWS, TOPUP_DIALOG], withAnImage)).toEqual([]);
  });

  it('finds none on the brand’s views with a campaign', { timeout: 120_000 }, async () => {
    expect(await sweep(theme, BRAND, BRAND_VIEWS, withACampaign)).toEqual([]);
  });

  it('finds none on the admin views', async () => {
    expect(await sweep(theme, ADMIN, ADMIN_VIEWS)).toEqual([]);
  });
});
