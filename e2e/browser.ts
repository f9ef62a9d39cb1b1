import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, onTestFailed } from 'vitest';
import { CREATOR_TYPES } from '../common/rules/directory.ts';
import { CHROMIUM_ARGS } from '../scripts/chromium.ts';

export const baseUrl = () => inject('baseUrl');
const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

/** A screenshot of the page as it is now, kept for a person to look at: test-results/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
}

/** A fresh Chromium profile (Debian's chromium, headless) for one test; screenshots saved on failure. */
export async function openBrowser(
  options: { width?: number; height?: number; locale?: string; userAgent?: string } = {},
) {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en-US',
    // Headless Chromium names itself HeadlessChrome, which the share pages treat as a bot (not counted).
    userAgent: options.userAgent,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  onTestFailed(async ({ task }) => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
  });
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in through the form (of the journeys' studio, or the one at `base`) and waits for the dashboard shell. */
export async function logIn(page: Page, email: string, password: string, base = baseUrl()): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/dashboard**');
  await page.getByTestId('dashboard-shell').waitFor();
}

/** An address no other test uses. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The newest six-digit code mailed to an address, read from the embedded outbox. */
export async function latestCode(email: string, base = baseUrl()): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${base}/dev/mail.json?to=${encodeURIComponent(email)}`);
    if (res.ok) {
      const body = (await res.json()) as { data: Array<{ text: string }> };
      const match = body.data[0]?.text.match(/\b(\d{6})\b/);
      if (match) return match[1];
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No verification code mailed to ${email}`);
}

export interface SignUp {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  role: 'creator' | 'brand';
}

/**
 * A sign-up through the API as the pages do it: POST /api/auth/register (202, the same for every email), then
 * the mailed code with the email to POST /api/auth/verify-code, which creates the verified account and signs in.
 */
export async function signUpByApi(body: SignUp, base = baseUrl()): Promise<{ token: string; user: { id: string } }> {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const reg = await fetch(`${base}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (reg.status !== 202) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const verified = await fetch(`${base}/api/auth/verify-code`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: body.email, code: await latestCode(body.email, base) }),
  });
  if (verified.status !== 200) throw new Error(`verify-code: ${verified.status} ${await verified.text()}`);
  return (await verified.json()) as { token: string; user: { id: string } };
}

/** A fresh verified creator with the welcome credits, signed in on the page. */
export async function freshCreator(page: Page): Promise<string> {
  const email = uniqueEmail('studio');
  const { token } = await signUpByApi({
    first_name: 'Sam',
    last_name: 'Studio',
    email,
    password: 'copper-meadow-lamp-3',
    role: 'creator',
  });
  // Signed in as the web does it: the token in localStorage and the httpOnly session cookie media URLs use.
  await page.context().addCookies([{ name: 'genpro_session', value: token, url: baseUrl() }]);
  await page.goto(`${baseUrl()}/auth/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
  return token;
}

/** A fresh creator, approved by the demo admin (so every creator view is open), signed in on the page. */
export async function approvedCreator(page: Page): Promise<string> {
  const token = await freshCreator(page);
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const me = (await (
    await fetch(`${baseUrl()}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { data: { user: { id: string } } };
  const admin = (await (
    await fetch(`${baseUrl()}/api/auth/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'admin@genpro.local', password: 'genpro-admin' }),
    })
  ).json()) as { data: { token: string } };
  const approved = await fetch(`${baseUrl()}/api/admin/users/approve`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${admin.data.token}` },
    body: JSON.stringify({ userId: me.data.user.id, action: 'approve', creatorType: CREATOR_TYPES[0] }),
  });
  if (!approved.ok) throw new Error(`approving the creator: ${approved.status} ${await approved.text()}`);
  return token;
}

/** Connect a sandbox network: its consent page opens in a new tab, which we approve. */
export async function connectSandbox(page: Page, platform: string): Promise<void> {
  const row = page.getByTestId(`social-${platform}`);
  // With an account connected the accounts panel is folded: open it. Decided once the accounts are known (with
  // none connected the panel opens by itself, and a click then would only fold it after the connection).
  await page.locator('[data-testid="publish-accounts-toggle"][data-accounts="known"]').waitFor();
  if (!(await row.count())) await page.getByTestId('publish-accounts-toggle').click();
  await expect.poll(() => row.getAttribute('data-status')).toBe('disconnected');
  const [consent] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByTestId(`social-${platform}-connect`).click(),
  ]);
  await expect.poll(() => row.getAttribute('data-status')).toBe('connecting');
  // The flow is bound to this browser by an HttpOnly cookie only the callback receives (issue 17).
  const connectCookie = async () =>
    (await page.context().cookies()).find((c) => c.name === 'genpro_social_connect') ?? null;
  // The tab opens blank at the click (popup blockers); the cookie comes with the connect call's answer.
  await expect
    .poll(connectCookie, { timeout: 15_000 })
    .toMatchObject({ path: `/api/social/oauth/${platform}`, httpOnly: true, sameSite: 'Lax' });
  const closed = consent.waitForEvent('close', { timeout: 20_000 });
  await consent.getByTestId('sandbox-approve').click();
  await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
  // The callback page closes itself (its script is allowed by its policy) and the cookie is gone.
  await closed;
  expect(await connectCookie()).toBeNull();
}

export { afterAll, afterEach, beforeAll, expect };
